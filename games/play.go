package games

// Playing a game with a network, for every face: the values of the moves
// of a position (hint, the agent of tui and web) and whole evaluations.

import (
	"math/bits"

	"github.com/td2048/td2048/board"
	"github.com/td2048/td2048/evaluate"
	"github.com/td2048/td2048/ntuple"
	"github.com/td2048/td2048/search"
	"github.com/td2048/td2048/session"
)

// An Advisor values the four moves of a game's positions with a network:
// to the depth of its search options, or deepening from depth 1 within
// their MoveTime (a hard deadline; depth 1 always finishes); or, under
// search.MethodMCTS, by Monte Carlo tree search (MoveValue's Visits, and
// for the depth the deepest layer of moves its trees reached). It is not
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

// Estimate sets out[i] to net's value of board bs[i], by the stage the
// game's searches value it with: in 2048 the board's (by its scale), in
// Threes! that of the next tile next (0 in a game without one). out
// holds at least len(bs) values.
func (g *Game) Estimate(net *ntuple.Network, bs []board.Board, next int, out []float32) {
	if net.StageCount() == 1 {
		net.EstimateMany(bs, out)
		return
	}
	for i := 0; i < len(bs); {
		k, j := g.stageOf(net, bs[i], next), i+1
		for j < len(bs) && g.stageOf(net, bs[j], next) == k {
			j++
		}
		net.EstimateManyStage(k, bs[i:j], out[i:j])
		i = j
	}
}

// Cells lists the cells where the new tile may go after the slide d that
// made after.
func (g *Game) Cells(after board.Board, d int) []int {
	var c []int
	for m := g.spawns(after, d); m != 0; m &= m - 1 {
		c = append(c, bits.TrailingZeros64(m)/4)
	}
	return c
}

// EvalConfig is an evaluation: games played with a network and no
// learning. Its Config is evaluate.Run's but for the policies, which the
// game makes of Net and Search (Config's NewPolicy, NewThreesPolicy and
// Greedy are not read); its Downgrade applies in a game whose descriptor
// says Downgrades, its Interleave in one that Interleaves, its Stats in
// one with a course statistics file (StatsFile).
type EvalConfig struct {
	Net *ntuple.Network
	// Search is how moves are chosen: depth 1 without MoveTime is greedy
	// play; Stop should close when ctx is cancelled, or an interrupted
	// evaluation waits for the searches under way. Table is the
	// transposition table the searches share (nil: none).
	Search search.Options
	Table  *search.Table
	evaluate.Config
}

// An Evaluation is what an evaluation found: the finished games, a
// prefix 0..k-1 of all when it was interrupted (evaluate.Result: its
// Speed is the Threes! course summary's, nil in 2048).
type Evaluation = evaluate.Result

// Greedy reports whether opt asks for greedy play: search.Greedy on an
// after-state network, whose evaluations play several games in turn on
// each thread (EvalConfig.Interleave) in a game that Interleaves.
func Greedy(opt search.Options) bool {
	return opt.Depth == 1 && opt.MoveTime <= 0 && opt.Kind == search.AfterState && opt.Method != search.MethodMCTS
}
