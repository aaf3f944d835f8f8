package threeslearn

import (
	"context"
	"io"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"td2048/game/threes"
	"td2048/learn"
	"td2048/ntuple"
	"td2048/stats"
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
	threads := cfg.Threads
	if threads <= 0 {
		threads = runtime.GOMAXPROCS(0)
	}
	start := time.Now()
	var (
		next    atomic.Int64
		mu      sync.Mutex
		ev      Evaluation
		pending = map[int][]byte{} // lines waiting for their predecessors
		written int
		werr    error
		wg      sync.WaitGroup
	)
	for range threads {
		wg.Add(1)
		go func() {
			defer wg.Done()
			policy := cfg.NewPolicy()
			var rec threes.Record
			var recp *threes.Record
			if cfg.Stats != nil {
				recp = &rec
			}
			for ctx.Err() == nil {
				i := int(next.Add(1) - 1)
				if i >= cfg.Games {
					return
				}
				gs := PlayGame(policy, learn.NewRand(cfg.Seed, uint64(i)), recp)
				var line []byte
				if recp != nil {
					line = append(rec.AppendText(make([]byte, 0, 8*len(rec.Steps))), '\n')
				}
				mu.Lock()
				if werr != nil {
					mu.Unlock()
					return
				}
				ev.Block.Add(gs.Score, gs.MaxTile, gs.Slides)
				ev.Summary.Add(gs)
				if recp != nil {
					pending[i] = line
					for l, ok := pending[written]; ok; l, ok = pending[written] {
						delete(pending, written)
						written++
						if _, err := cfg.Stats.Write(l); err != nil {
							werr = err
							break
						}
					}
				}
				if cfg.Progress != nil {
					cfg.Progress(ev.Block.Games)
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	ev.Elapsed = time.Since(start)
	return ev, werr
}
