package learn

import (
	"context"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"td2048/ntuple"
	"td2048/stats"
)

// Mix derives a well-spread 64-bit seed from a seed and a stream number
// (splitmix64 of both), so that nearby seeds and streams give unrelated
// generators.
func Mix(seed, stream uint64) uint64 {
	z := seed + 0x9e3779b97f4a7c15*(stream+1)
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// NewRand returns the generator of stream number stream under seed.
func NewRand(seed, stream uint64) *rand.PCG {
	return rand.NewPCG(Mix(seed, stream), Mix(^seed, stream))
}

// Config is a training run.
type Config struct {
	Episodes int     // episodes to play (and learn from)
	Alpha    float32 // learning rate for the whole value
	Kind     Kind
	Seed     uint64
	Threads  int // worker goroutines sharing the network; 0 means all cores
	Every    int // games per statistics block
	// Block is called with each finished block, in order, from one
	// goroutine at a time: done is the number of episodes finished.
	Block func(done int, b *stats.Block, elapsed time.Duration)
}

// Result sums up a run.
type Result struct {
	Episodes int
	Moves    int64
	Elapsed  time.Duration
}

// Train plays and learns cfg.Episodes episodes on net. Worker k draws its
// randomness from NewRand(cfg.Seed, k); with one thread a run is exactly
// repeatable. Cancelling ctx stops it after the episodes under way; the
// result counts the episodes learned from.
func Train(ctx context.Context, net *ntuple.Network, cfg Config) Result {
	threads := cfg.Threads
	if threads <= 0 {
		threads = runtime.GOMAXPROCS(0)
	}
	if threads > 1 {
		net.Share()
	}
	every := max(cfg.Every, 1)
	start := time.Now()

	var (
		next   atomic.Int64 // next episode number to hand out
		moves  atomic.Int64
		mu     sync.Mutex
		blocks = map[int]*stats.Block{}
		shown  int // blocks reported
		done   int // episodes finished
	)
	finish := func(i int, ep Episode) {
		mu.Lock()
		defer mu.Unlock()
		k := i / every
		b := blocks[k]
		if b == nil {
			b = &stats.Block{}
			blocks[k] = b
		}
		b.Add(ep.Score, ep.MaxTile, ep.Moves)
		done++
		// Report every block that is complete and whose predecessors are.
		for {
			b := blocks[shown]
			size := min(every, cfg.Episodes-shown*every)
			if b == nil || b.Games < size {
				return
			}
			delete(blocks, shown)
			shown++
			if cfg.Block != nil {
				cfg.Block(min(shown*every, cfg.Episodes), b, time.Since(start))
			}
		}
	}

	var wg sync.WaitGroup
	for k := range threads {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := NewWorker(net, cfg.Kind, NewRand(cfg.Seed, uint64(k)))
			for ctx.Err() == nil {
				i := int(next.Add(1) - 1)
				if i >= cfg.Episodes {
					return
				}
				ep := w.Play(cfg.Alpha)
				moves.Add(int64(ep.Moves))
				finish(i, ep)
			}
		}()
	}
	wg.Wait()
	return Result{Episodes: done, Moves: moves.Load(), Elapsed: time.Since(start)}
}
