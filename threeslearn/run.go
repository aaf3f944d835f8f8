package threeslearn

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"td2048/learn"
	"td2048/ntuple"
	"td2048/stats"
)

// Config is a training run.
type Config struct {
	Episodes int     // episodes to play (and learn from)
	Alpha    float32 // learning rate for the whole value
	// AlphaAt, when set, gives the rate of episode i (from 0) instead of
	// Alpha: a schedule such as learn.Schedule.Alpha.
	AlphaAt func(i int) float32
	Seed    uint64
	Threads int // worker goroutines sharing the network; 0 means all cores
	Every   int // games per statistics block
	// Block is called with each finished block, in order, from one
	// goroutine at a time: done is the number of episodes finished. Tile
	// indices in the block are Threes! indices (threes.TileValue).
	Block func(done int, b *stats.Block, elapsed time.Duration)
}

// Result sums up a run.
type Result struct {
	Episodes int
	Slides   int64
	Elapsed  time.Duration
}

// Train plays and learns cfg.Episodes episodes on net. Worker k draws its
// randomness from learn.NewRand(cfg.Seed, k); with one thread a run is
// exactly repeatable. Cancelling ctx stops it after the episodes under
// way; the result counts the episodes learned from.
func Train(ctx context.Context, net *ntuple.Network, cfg Config) (Result, error) {
	if err := CheckSpec(net.Spec()); err != nil {
		return Result{}, err
	}
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
		slides atomic.Int64
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
		b.Add(ep.Score, ep.MaxTile, ep.Slides)
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
			w := NewWorker(net, learn.NewRand(cfg.Seed, uint64(k)))
			for ctx.Err() == nil {
				i := int(next.Add(1) - 1)
				if i >= cfg.Episodes {
					return
				}
				alpha := cfg.Alpha
				if cfg.AlphaAt != nil {
					alpha = cfg.AlphaAt(i)
				}
				ep := w.Play(alpha)
				slides.Add(int64(ep.Slides))
				finish(i, ep)
			}
		}()
	}
	wg.Wait()
	return Result{Episodes: done, Slides: slides.Load(), Elapsed: time.Since(start)}, nil
}
