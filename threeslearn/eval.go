package threeslearn

import (
	"context"
	"errors"
	"io"
	"sync"
	"sync/atomic"
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
	return func(g *threes.Game) Choice { return Greedy(net, g.Board, g.Next) }
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
	gs, _ := playGame(policy, rng, rec, nil, nil)
	return gs
}

// playGame is PlayGame that gives up when stop is set (checked before
// each slide; false then) and adds the slides it plays to slides, a few
// at a time, when slides is not nil.
func playGame(policy Policy, rng threes.Rand, rec *threes.Record, stop *atomic.Bool, slides *atomic.Int64) (threes.GameStats, bool) {
	var gs threes.GameStats
	n := int64(0) // slides not yet added to slides
	defer func() {
		if slides != nil {
			slides.Add(n)
		}
	}()
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
		if stop != nil && stop.Load() {
			return gs, false
		}
		c := policy(&g)
		if !c.Legal() {
			if stop != nil && stop.Load() {
				return gs, false // the policy may have been cut short
			}
			break
		}
		if n++; n == 64 && slides != nil {
			slides.Add(n)
			n = 0
		}
		g.SlideTo(c.After, c.Dir)
		t := clock()
		gs.Slides++
		gs.SlideTime += t - now
		if rec != nil {
			rec.Steps = append(rec.Steps, threes.Step{Action: threes.SlideAction(c.Dir), Reward: c.Points(), Time: t - now})
		}
		now = t
		place()
	}
	gs.Score, gs.MaxTile = threes.BoardScore(g.Board), g.Board.MaxTile()
	gs.Time = clock() - open
	if rec != nil {
		rec.Open, rec.Close = open, open+gs.Time
	}
	return gs, true
}

// EvalConfig is an evaluation run.
type EvalConfig struct {
	Games int
	// First is the index of the first game: the games are First ..
	// First+Games-1 (a shard of a larger evaluation; see evalresult).
	First   int
	Seed    uint64
	Threads int // 0 means all cores
	// NewPolicy makes the policy of one worker goroutine; its searches
	// should stop when the evaluation's context is cancelled (Options.Stop).
	NewPolicy func() Policy
	// Stats, when set, receives one line per game in the course's
	// statistics-file format, in game order.
	Stats io.Writer
	// Tick, when set, is called about every TickEvery (250ms when 0) from
	// a goroutine of its own, as learn.EvalConfig's: Moves counts slides.
	Tick      func(learn.Snapshot)
	TickEvery time.Duration
}

// An Evaluation is what Evaluate found.
type Evaluation struct {
	Block   stats.Block    // score, largest tile (Threes! index), slides
	Summary threes.Summary // the course's summary
	Slides  int64          // every slide played, abandoned games' included
	Elapsed time.Duration
}

// Speed is the speed part of the course summary of the games.
func (ev *Evaluation) Speed() stats.Speed {
	s := &ev.Summary
	return stats.Speed{Slides: s.Slides, Placements: s.Placements, Time: s.Time, SlideTime: s.SlideTime, PlaceTime: s.PlaceTime}
}

// Evaluate plays cfg.Games games without learning. Game i (counted from
// cfg.First) draws its
// randomness from learn.NewRand(cfg.Seed, i) alone, so the games do not
// depend on the number of threads. It stops at the first error writing
// the statistics file.
//
// Cancelling ctx abandons the games under way at their next slide, as
// learn.Evaluate does: the evaluation (and the statistics file) holds the
// games 0..k-1 finished before the first abandoned one.
func Evaluate(ctx context.Context, cfg EvalConfig) (Evaluation, error) {
	start := time.Now()
	var (
		ev     Evaluation
		mu     sync.Mutex // guards ev.Block for Tick
		slides atomic.Int64
		stop   atomic.Bool
	)
	defer context.AfterFunc(ctx, func() { stop.Store(true) })()
	if ctx.Err() != nil {
		stop.Store(true)
	}
	defer learn.StartTicks(cfg.Tick, cfg.TickEvery, func() learn.Snapshot {
		mu.Lock()
		defer mu.Unlock()
		d := time.Since(start)
		return learn.Snapshot{Done: ev.Block.Games, Total: cfg.Games, Played: ev.Block.Games, Moves: slides.Load(),
			Elapsed: d, Session: d, Block: ev.Block}
	})()
	type game struct {
		gs       threes.GameStats
		line     []byte
		finished bool
	}
	err := learn.PlayGames(ctx, cfg.Games, cfg.Threads, func() func(i int) game {
		policy := cfg.NewPolicy()
		var rec threes.Record
		return func(i int) game {
			if cfg.Stats == nil {
				gs, ok := playGame(policy, learn.NewRand(cfg.Seed, uint64(cfg.First+i)), nil, &stop, &slides)
				return game{gs: gs, finished: ok}
			}
			gs, ok := playGame(policy, learn.NewRand(cfg.Seed, uint64(cfg.First+i)), &rec, &stop, &slides)
			if !ok {
				return game{}
			}
			return game{gs, append(rec.AppendText(make([]byte, 0, 8*len(rec.Steps))), '\n'), true}
		}
	}, func(_ int, g game) error {
		if !g.finished {
			return errAbandoned
		}
		mu.Lock()
		ev.Block.Add(g.gs.Score, g.gs.MaxTile, g.gs.Slides)
		mu.Unlock()
		ev.Summary.Add(g.gs)
		if cfg.Stats != nil {
			_, err := cfg.Stats.Write(g.line)
			return err
		}
		return nil
	})
	if err == errAbandoned {
		err = nil
	}
	ev.Slides = slides.Load()
	ev.Elapsed = time.Since(start)
	return ev, err
}

// errAbandoned stops PlayGames at the first game given up.
var errAbandoned = errors.New("game abandoned")
