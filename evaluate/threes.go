package evaluate

import (
	"context"
	"io"
	"sync/atomic"
	"time"

	"github.com/td2048/td2048/game/threes"
	"github.com/td2048/td2048/learn"
	"github.com/td2048/td2048/ntuple"
	"github.com/td2048/td2048/search"
	"github.com/td2048/td2048/stats"
)

// A ThreesPolicy chooses a slide in a game (a slide being due). One policy
// serves one goroutine.
type ThreesPolicy func(g *threes.Game) search.Choice

// GreedyThreesPolicy plays greedily with net.
func GreedyThreesPolicy(net *ntuple.Network) ThreesPolicy {
	return func(g *threes.Game) search.Choice { return search.GreedyThrees(net, g.Board, g.Next) }
}

// Names of the two sides in records.
const (
	sliderName = "td2048"
	placerName = "random"
)

// threesClock returns the wall time in Unix milliseconds; a variable so that
// tests can stop it.
var threesClock = func() int64 { return time.Now().UnixMilli() }

// PlayThreesGame plays one game from the empty board: the random placer's
// opening and placements, drawn from rng, and policy's slides. Each
// action's time is the milliseconds the wall threesClock advanced during it, as
// the course framework measures. With rec not nil, the game is recorded
// there (its Steps reused).
func PlayThreesGame(policy ThreesPolicy, rng threes.Rand, rec *threes.Record) threes.GameStats {
	gs, _ := playThreesGame(policy, rng, rec, nil, nil)
	return gs
}

// playThreesGame is PlayThreesGame that gives up when stop is set (checked before
// each slide; false then) and adds the slides it plays to slides, a few
// at a time, when slides is not nil.
func playThreesGame(policy ThreesPolicy, rng threes.Rand, rec *threes.Record, stop *atomic.Bool, slides *atomic.Int64) (threes.GameStats, bool) {
	var gs threes.GameStats
	n := int64(0) // slides not yet added to slides
	defer func() {
		if slides != nil {
			slides.Add(n)
		}
	}()
	g := threes.New()
	if rec != nil {
		*rec = threes.Record{Slider: sliderName, Placer: placerName, Winner: placerName, Steps: rec.Steps[:0]}
	}
	open := threesClock()
	now := open
	place := func() {
		pos, tile, hint := g.PlaceRandom(rng)
		t := threesClock()
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
		t := threesClock()
		gs.Slides++
		gs.SlideTime += t - now
		if rec != nil {
			rec.Steps = append(rec.Steps, threes.Step{Action: threes.SlideAction(c.Dir), Reward: c.Points(), Time: t - now})
		}
		now = t
		place()
	}
	gs.Score, gs.MaxTile = threes.BoardScore(g.Board), g.Board.MaxTile()
	gs.Time = threesClock() - open
	if rec != nil {
		rec.Open, rec.Close = open, open+gs.Time
	}
	return gs, true
}

// ThreesConfig is an evaluation run.
type ThreesConfig struct {
	Games int
	// First is the index of the first game: the games are First ..
	// First+Games-1 (a shard of a larger evaluation; see evalresult).
	First   int
	Seed    uint64
	Threads int // 0 means all cores
	// NewPolicy makes the policy of one worker goroutine; its searches
	// should stop when the evaluation's context is cancelled (Options.Stop).
	NewPolicy func() ThreesPolicy
	// Stats, when set, receives one line per game in the course's
	// statistics-file format, in game order.
	Stats io.Writer
	// Tick, when set, is called about every TickEvery (250ms when 0) from
	// a goroutine of its own, as ThreesConfig's: Moves counts slides.
	Tick      func(learn.Snapshot)
	TickEvery time.Duration
	// Done, when set, is called after each finished game, in game order,
	// once its line went to Stats, with the evaluation of the games
	// finished so far, 0..k (its Block and Summary; not Slides or
	// Elapsed): a shard's record of its progress. It runs while the
	// workers wait to hand on their games, so it should be quick or rare;
	// it must not keep ev.
	Done func(ev *ThreesResult)
}

// An ThreesResult is what RunThrees found.
type ThreesResult struct {
	Block   stats.Block    // score, largest tile (Threes! index), slides
	Summary threes.Summary // the course's summary
	Slides  int64          // every slide played, abandoned games' included
	Elapsed time.Duration
}

// Speed is the speed part of the course summary of the games.
func (ev *ThreesResult) Speed() stats.Speed {
	s := &ev.Summary
	return stats.Speed{Slides: s.Slides, Placements: s.Placements, Time: s.Time, SlideTime: s.SlideTime, PlaceTime: s.PlaceTime}
}

// RunThrees plays cfg.Games games without learning. Game i draws its
// randomness from learn.NewRand(cfg.Seed, i) alone, so the games do not
// depend on the number of threads. It stops at the first error writing
// the statistics file.
//
// Cancelling ctx abandons the games under way at their next slide, as
// RunThrees does: the evaluation (and the statistics file) holds the
// games 0..k-1 finished before the first abandoned one.
func RunThrees(ctx context.Context, cfg ThreesConfig) (ThreesResult, error) {
	type game struct {
		gs   threes.GameStats
		line []byte // the game's record, when cfg.Stats is set
	}
	var ev, sofar ThreesResult // sofar: what Done sees
	var err error
	ev.Block, ev.Slides, ev.Elapsed, err = evaluate(ctx, cfg.Games, cfg.Threads, cfg.Tick, cfg.TickEvery,
		func(stop *atomic.Bool, slides *atomic.Int64) worker[played[game]] {
			policy := cfg.NewPolicy()
			var rec threes.Record
			return oneAtATime(asPlayed(func(i int) (game, bool) {
				if cfg.Stats == nil {
					gs, ok := playThreesGame(policy, learn.NewRand(cfg.Seed, uint64(cfg.First+i)), nil, stop, slides)
					return game{gs: gs}, ok
				}
				gs, ok := playThreesGame(policy, learn.NewRand(cfg.Seed, uint64(cfg.First+i)), &rec, stop, slides)
				if !ok {
					return game{}, false
				}
				return game{gs, append(rec.AppendText(make([]byte, 0, 8*len(rec.Steps))), '\n')}, true
			}))
		},
		func(g game, b *stats.Block) error {
			b.Add(g.gs.Score, g.gs.MaxTile, g.gs.Slides)
			ev.Summary.Add(g.gs)
			if cfg.Stats != nil {
				if _, err := cfg.Stats.Write(g.line); err != nil {
					return err
				}
			}
			if cfg.Done != nil {
				sofar = ThreesResult{Block: *b, Summary: ev.Summary}
				cfg.Done(&sofar)
			}
			return nil
		})
	return ev, err
}
