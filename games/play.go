package games

// Playing a game with a network, for every face: the values of the moves
// of a position (hint, the agent of tui and web) and whole evaluations.

import (
	"context"
	"io"

	"github.com/td2048/td2048/board"
	"github.com/td2048/td2048/evaluate"
	"github.com/td2048/td2048/learn"
	"github.com/td2048/td2048/ntuple"
	"github.com/td2048/td2048/search"
	"github.com/td2048/td2048/session"
)

// An Advisor values the four moves of a game's positions with a network:
// to the depth of its search options, or deepening from depth 1 within
// their MoveTime (a hard deadline; depth 1 always finishes). It is not
// safe for concurrent use.
type Advisor interface {
	// Values returns the moves' values and the depth finished.
	Values(p session.Position) ([4]search.MoveValue, int)
	// Stopped reports whether the last search was cut short by the
	// options' Stop.
	Stopped() bool
}

// RuleValues are the moves of b valued by the rules alone: each legal
// move's reward, no network.
func (g *Game) RuleValues(b board.Board) [4]search.MoveValue {
	var mv [4]search.MoveValue
	after, reward := g.moves(b)
	for d := range 4 {
		if after[d] != b {
			r := uint32(reward[d])
			mv[d] = search.MoveValue{Legal: true, After: after[d], Reward: r, Total: float32(r)}
		}
	}
	return mv
}

// Cells lists the cells where the new tile may go after the slide d that
// made after.
func (g *Game) Cells(after board.Board, d int) []int {
	var c []int
	for i := range 16 {
		if g.spawns(after, d)>>(4*i)&1 != 0 {
			c = append(c, i)
		}
	}
	return c
}

// EvalConfig is an evaluation: games played with a network and no
// learning.
type EvalConfig struct {
	Net *ntuple.Network
	// Search is how moves are chosen: depth 1 without MoveTime is greedy
	// play; Stop should close when ctx is cancelled, or an interrupted
	// evaluation waits for the searches under way. Table is the
	// transposition table the searches share (nil: none).
	Search search.Options
	Table  *search.Table
	// Downgrade, when on, plays with tile-downgrading (search.Downgrade,
	// TDL2048+'s -h), in a game whose descriptor says Downgrades.
	Downgrade search.Downgrade
	Games     int
	// First is the index of the first game: the games are First ..
	// First+Games-1 (a shard of a larger evaluation; package evalresult).
	First int
	Seed  uint64 // game i draws its tiles from (Seed, i) alone
	// Threads are the worker goroutines (0: all cores); the statistics do
	// not depend on them.
	Threads int
	// Interleave is the number of greedy games each thread plays in turn
	// (evaluate.Config.Interleave; 0: the fastest on this processor), in a
	// game whose descriptor says Interleaves; the statistics do not
	// depend on it.
	Interleave int
	// Stats, for a game with a course statistics file (StatsFile), takes
	// one line per game in game order.
	Stats io.Writer
	// Tick, when set, sees the progress about every 250ms (learn.Snapshot:
	// Moves counts every move played).
	Tick func(learn.Snapshot)
	// Done, when set, is called after each finished game, in game order
	// (after its line went to Stats), with the evaluation of the games
	// finished so far (evaluate.Config.Done).
	Done func(ev *Evaluation)
}

// An Evaluation is what an evaluation found: the finished games, a
// prefix 0..k-1 of all when it was interrupted (evaluate.Result: its
// Speed is the Threes! course summary's, nil in 2048).
type Evaluation = evaluate.Result

// Greedy reports whether opt asks for greedy play: search.Greedy on an
// after-state network, whose evaluations play several games in turn on
// each thread (EvalConfig.Interleave) in a game that Interleaves.
func Greedy(opt search.Options) bool {
	return opt.Depth == 1 && opt.MoveTime <= 0 && opt.Kind == search.AfterState
}

// evaluateWith plays the evaluation cfg with ec's policies (evaluate.Run).
func evaluateWith(ctx context.Context, cfg EvalConfig, ec evaluate.Config) (Evaluation, error) {
	ec.Games, ec.First, ec.Seed, ec.Threads, ec.Tick, ec.Done = cfg.Games, cfg.First, cfg.Seed, cfg.Threads, cfg.Tick, cfg.Done
	return evaluate.Run(ctx, ec)
}
