package learn

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/td2048/td2048/board"
	"github.com/td2048/td2048/game"
	"github.com/td2048/td2048/search"
	"github.com/td2048/td2048/stats"
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
	ep.end(b)
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
	start := time.Now()
	var total stats.Block
	PlayGames(ctx, cfg.Games, cfg.Threads, func() func(i int) Episode {
		policy := cfg.NewPolicy()
		return func(i int) Episode { return PlayGame(policy, NewRand(cfg.Seed, uint64(i))) }
	}, func(_ int, ep Episode) error {
		total.Add(ep.Score, ep.MaxTile, ep.Moves)
		if cfg.Progress != nil {
			cfg.Progress(total.Games)
		}
		return nil
	})
	return total, Result{Episodes: total.Games, Moves: total.Moves, Elapsed: time.Since(start)}
}

// PlayGames plays games 0..games-1 on threads goroutines (0: all cores),
// each with a player newPlayer makes for it, and hands each result to done
// in game order, one call at a time. It stops early when ctx is cancelled
// or done returns an error, which it returns; done has then seen a prefix
// of the games.
func PlayGames[R any](ctx context.Context, games, threads int, newPlayer func() func(i int) R, done func(i int, r R) error) error {
	if threads <= 0 {
		threads = runtime.GOMAXPROCS(0)
	}
	var (
		next    atomic.Int64
		mu      sync.Mutex
		pending = map[int]R{} // results waiting for their predecessors
		handed  int           // results handed to done
		failed  error
		wg      sync.WaitGroup
	)
	for range threads {
		wg.Add(1)
		go func() {
			defer wg.Done()
			play := newPlayer()
			for ctx.Err() == nil {
				i := int(next.Add(1) - 1)
				if i >= games {
					return
				}
				r := play(i)
				mu.Lock()
				if failed != nil {
					mu.Unlock()
					return
				}
				pending[i] = r
				for r, ok := pending[handed]; ok && failed == nil; r, ok = pending[handed] {
					delete(pending, handed)
					failed = done(handed, r)
					handed++
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return failed
}
