package learn

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"td2048/board"
	"td2048/game"
	"td2048/search"
	"td2048/stats"
)

// A Policy chooses a move on a board. One policy serves one goroutine.
type Policy func(b board.Board) search.Choice

// PlayGame plays one game from a new start with policy and rng.
func PlayGame(policy Policy, rng game.Rand) Episode {
	b := game.Start(rng)
	var ep Episode
	for {
		c := policy(b)
		if !c.Legal() {
			break
		}
		ep.Moves++
		ep.Score += game.Reward(c.Reward)
		if game.Overflow(c.Reward) {
			ep.Overflow = true
			break
		}
		b = game.Spawn(c.After, rng)
	}
	ep.MaxTile = b.MaxTile()
	if ep.Overflow {
		ep.MaxTile = 16
	}
	return ep
}

// EvalConfig is an evaluation run.
type EvalConfig struct {
	Games   int
	Seed    uint64
	Threads int // 0 means all cores
	// NewPolicy makes the policy of one worker goroutine.
	NewPolicy func() Policy
	// Progress, when set, is called after each game with the games done,
	// from one goroutine at a time.
	Progress func(done int)
}

// Evaluate plays cfg.Games games without learning. Game i draws its
// randomness from NewRand(cfg.Seed, i) alone, so the statistics do not
// depend on the number of threads.
func Evaluate(ctx context.Context, cfg EvalConfig) (stats.Block, Result) {
	threads := cfg.Threads
	if threads <= 0 {
		threads = runtime.GOMAXPROCS(0)
	}
	start := time.Now()
	var (
		next  atomic.Int64
		mu    sync.Mutex
		total stats.Block
		wg    sync.WaitGroup
	)
	for range threads {
		wg.Add(1)
		go func() {
			defer wg.Done()
			policy := cfg.NewPolicy()
			for ctx.Err() == nil {
				i := int(next.Add(1) - 1)
				if i >= cfg.Games {
					return
				}
				ep := PlayGame(policy, NewRand(cfg.Seed, uint64(i)))
				mu.Lock()
				total.Add(ep.Score, ep.MaxTile, ep.Moves)
				if cfg.Progress != nil {
					cfg.Progress(total.Games)
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return total, Result{Episodes: total.Games, Moves: total.Moves, Elapsed: time.Since(start)}
}
