package threeslearn

import (
	"context"
	"io"
	"time"

	"github.com/td2048/td2048/game/threes"
	"github.com/td2048/td2048/learn"
	"github.com/td2048/td2048/ntuple"
	"github.com/td2048/td2048/stats"
)

// A Policy chooses a slide in a game (a slide being due). One policy
// serves one goroutine.
type Policy func(g *threes.Game) Choice

// GreedyPolicy plays greedily with net.
func GreedyPolicy(net *ntuple.Network) Policy {
	return func(g *threes.Game) Choice { return Greedy(net, g.Board, g.Hint) }
}

// Names of the two sides in records.
const (
	SliderName = "td2048"
	PlacerName = "random"
)

// clock returns the wall time in Unix milliseconds; a variable so that
// tests can stop it.
var clock = func() int64 { return time.Now().UnixMilli() }

// PlayGame plays one game from the empty board: the random placer's
// opening and placements, drawn from rng, and policy's slides. Each
// action's time is the milliseconds the wall clock advanced during it, as
// the course framework measures. With rec not nil, the game is recorded
// there (its Steps reused).
func PlayGame(policy Policy, rng threes.Rand, rec *threes.Record) threes.GameStats {
	var gs threes.GameStats
	g := threes.New()
	if rec != nil {
		*rec = threes.Record{Slider: SliderName, Placer: PlacerName, Winner: PlacerName, Steps: rec.Steps[:0]}
	}
	open := clock()
	now := open
	place := func() {
		pos, tile, hint := g.PlaceRandom(rng)
		t := clock()
		gs.Placements++
		gs.PlaceTime += t - now
		if rec != nil {
			rec.Steps = append(rec.Steps, threes.Step{Action: threes.PlaceAction(pos, tile, hint), Reward: threes.Score(tile), Time: t - now})
		}
		now = t
	}
	for range threes.OpeningTiles {
		place()
	}
	for {
		c := policy(&g)
		if !c.Legal() {
			break
		}
		g.SlideTo(c.After, c.Dir)
		t := clock()
		gs.Slides++
		gs.SlideTime += t - now
		if rec != nil {
			rec.Steps = append(rec.Steps, threes.Step{Action: threes.SlideAction(c.Dir), Reward: c.Reward, Time: t - now})
		}
		now = t
		place()
	}
	gs.Score, gs.MaxTile = threes.BoardScore(g.Board), g.Board.MaxTile()
	gs.Time = clock() - open
	if rec != nil {
		rec.Open, rec.Close = open, open+gs.Time
	}
	return gs
}

// EvalConfig is an evaluation run.
type EvalConfig struct {
	Games   int
	Seed    uint64
	Threads int // 0 means all cores
	// NewPolicy makes the policy of one worker goroutine.
	NewPolicy func() Policy
	// Stats, when set, receives one line per game in the course's
	// statistics-file format, in game order.
	Stats io.Writer
	// Progress, when set, is called after each game with the games done,
	// from one goroutine at a time.
	Progress func(done int)
}

// An Evaluation is what Evaluate found.
type Evaluation struct {
	Block   stats.Block    // score, largest tile (Threes! index), slides
	Summary threes.Summary // the course's summary
	Elapsed time.Duration
}

// Evaluate plays cfg.Games games without learning. Game i draws its
// randomness from learn.NewRand(cfg.Seed, i) alone, so the games do not
// depend on the number of threads. It stops at the first error writing
// the statistics file.
func Evaluate(ctx context.Context, cfg EvalConfig) (Evaluation, error) {
	start := time.Now()
	var ev Evaluation
	type game struct {
		gs   threes.GameStats
		line []byte
	}
	err := learn.PlayGames(ctx, cfg.Games, cfg.Threads, func() func(i int) game {
		policy := cfg.NewPolicy()
		var rec threes.Record
		return func(i int) game {
			if cfg.Stats == nil {
				return game{gs: PlayGame(policy, learn.NewRand(cfg.Seed, uint64(i)), nil)}
			}
			gs := PlayGame(policy, learn.NewRand(cfg.Seed, uint64(i)), &rec)
			return game{gs, append(rec.AppendText(make([]byte, 0, 8*len(rec.Steps))), '\n')}
		}
	}, func(_ int, g game) error {
		ev.Block.Add(g.gs.Score, g.gs.MaxTile, g.gs.Slides)
		ev.Summary.Add(g.gs)
		if cfg.Progress != nil {
			cfg.Progress(ev.Block.Games)
		}
		if cfg.Stats != nil {
			_, err := cfg.Stats.Write(g.line)
			return err
		}
		return nil
	})
	ev.Elapsed = time.Since(start)
	return ev, err
}
