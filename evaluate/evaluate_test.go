package evaluate

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/td2048/td2048/board"
	"github.com/td2048/td2048/episode"
	"github.com/td2048/td2048/learn"
	"github.com/td2048/td2048/ntuple"
	"github.com/td2048/td2048/search"
	"github.com/td2048/td2048/stats"
)

func greedyPolicies(net *ntuple.Network) func() Policy {
	return func() Policy { return greedy(net) }
}

// runBlock is Run's block and result.
func runBlock(ctx context.Context, cfg Config) (stats.Block, Result) {
	r, err := Run(ctx, cfg)
	if err != nil {
		panic(err)
	}
	return r.Block, r
}

// Cancelling an evaluation abandons the games under way: what remains is
// the first games of the whole evaluation, exactly, on any thread count.
func TestEvaluateInterruptedIsAPrefix(t *testing.T) {
	net := ntuple.MustNew("0123,4567")
	learn.Train(context.Background(), net, learn.Config{Episodes: 200, Seed: 3, Threads: 1, Every: 200})
	for _, threads := range []int{1, 2} {
		ctx, cancel := context.WithCancel(context.Background())
		var moves atomic.Int64
		block, res := runBlock(ctx, Config{Games: 1000, Seed: 9, Threads: threads, NewPolicy: func() Policy {
			return func(b board.Board) search.Choice {
				if moves.Add(1) == 3000 {
					cancel()
				}
				return search.Greedy(net, b)
			}
		}})
		cancel()
		// One thread has finished some games at the cancel; with two, the
		// first game may be the one abandoned.
		if block.Games == 0 && threads == 1 || block.Games >= 1000 {
			t.Fatalf("%d threads: %d games finished, result %+v", threads, block.Games, res)
		}
		if res.Moves < block.Moves || res.Moves > moves.Load() {
			t.Fatalf("%d threads: %d moves counted, %d in finished games, %d played", threads, res.Moves, block.Moves, moves.Load())
		}
		whole, _ := runBlock(context.Background(), Config{Games: block.Games, Seed: 9, Threads: 1, NewPolicy: greedyPolicies(net)})
		if whole != block {
			t.Fatalf("%d threads: interrupted %+v\nfirst %d games %+v", threads, block, block.Games, whole)
		}
	}
	// Cancelled before it starts: nothing is played.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if b, r := runBlock(ctx, Config{Games: 10, NewPolicy: greedyPolicies(net)}); b.Games != 0 || r.Moves != 0 {
		t.Fatalf("cancelled evaluation played %+v %+v", b, r)
	}
}

// A deep search stopped by the evaluation's context ends the evaluation
// soon after the cancel, however long its games would take.
func TestEvaluateStopsDeepSearches(t *testing.T) {
	net := ntuple.MustNew("0123,4567")
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	done := make(chan stats.Block, 1)
	go func() {
		b, _ := runBlock(ctx, Config{Games: 4, Threads: 2, NewPolicy: func() Policy {
			return search.NewSearcher(net, search.Options{Depth: 9, Stop: ctx.Done()}, nil).Best
		}})
		done <- b
	}()
	select {
	case b := <-done:
		if b.Games != 0 {
			t.Fatalf("%d depth-9 games finished in 50ms", b.Games)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the evaluation went on 30 s after its context was cancelled")
	}
}

// Tick reports the games finished and every move played, never after
// Evaluate returns.
func TestEvaluateTicks(t *testing.T) {
	net := ntuple.MustNew("0123")
	var (
		mu       sync.Mutex
		snaps    []episode.Snapshot
		returned atomic.Bool
		late     atomic.Bool
	)
	slow := func() Policy {
		return func(b board.Board) search.Choice {
			for start := time.Now(); time.Since(start) < 20*time.Microsecond; {
			}
			return search.Greedy(net, b)
		}
	}
	block, res := runBlock(context.Background(), Config{Games: 40, Seed: 1, Threads: 2, NewPolicy: slow,
		TickEvery: time.Millisecond, Tick: func(s episode.Snapshot) {
			if returned.Load() {
				late.Store(true)
			}
			mu.Lock()
			snaps = append(snaps, s)
			mu.Unlock()
		}})
	returned.Store(true)
	time.Sleep(5 * time.Millisecond)
	if late.Load() {
		t.Fatal("a tick after Evaluate returned")
	}
	if len(snaps) < 2 {
		t.Fatalf("%d ticks", len(snaps))
	}
	for i, s := range snaps {
		if s.Total != 40 || s.Done != s.Block.Games || s.Moves < s.Block.Moves || s.Moves > res.Moves ||
			i > 0 && (s.Done < snaps[i-1].Done || s.Moves < snaps[i-1].Moves || s.Elapsed < snaps[i-1].Elapsed) {
			t.Fatalf("tick %d: %+v after %+v", i, s, snaps[max(i-1, 0)])
		}
	}
	if last := snaps[len(snaps)-1]; last.Done > block.Games {
		t.Fatalf("last tick %+v, %d games", last, block.Games)
	}
}

// A game that ends after the evaluation is cancelled is not counted,
// even when its worker has not yet seen the cancellation: its last moves
// may come from searches cut short (here the policy cancels in the middle
// of game 3 and plays on, and with one processor the worker finishes the
// game before anything else runs).
func TestGameEndingAfterCancelAbandoned(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	net := ntuple.MustNew("0123,4567")
	learn.Train(context.Background(), net, learn.Config{Episodes: 100, Seed: 3, Threads: 1, Every: 100})
	first3, _ := runBlock(context.Background(), Config{Games: 3, Seed: 3, Threads: 1, NewPolicy: greedyPolicies(net)})
	cancelAt := first3.Moves + 3 + 5 // a policy call a game more than its moves: the fifth of game 3
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var calls int64
	block, _ := runBlock(ctx, Config{Games: 10, Seed: 3, Threads: 1, NewPolicy: func() Policy {
		g := greedy(net)
		return func(b board.Board) search.Choice {
			if calls++; calls == cancelAt {
				cancel()
			}
			return g(b)
		}
	}})
	if block != first3 {
		t.Errorf("cancelled during game 3: %d games counted (%+v); want the first 3 (%+v)", block.Games, block, first3)
	}
}

func TestEvaluateSameForAnyThreads(t *testing.T) {
	net := ntuple.MustNew("0123,4567")
	learn.Train(context.Background(), net, learn.Config{Episodes: 300, Seed: 3, Threads: 1, Every: 300})
	eval := func(threads int) stats.Block {
		b, _ := runBlock(context.Background(), Config{Games: 200, Seed: 9, Threads: threads,
			NewPolicy: func() Policy {
				return func(x board.Board) search.Choice { return search.Greedy(net, x) }
			}})
		return b
	}
	one, two := eval(1), eval(2)
	if one != two {
		t.Fatalf("1 thread %+v\n2 threads %+v", one, two)
	}
	// The same at 2-ply with a transposition table the threads share.
	deep := func(threads int) stats.Block {
		tt := search.NewTable(1 << 20)
		b, _ := runBlock(context.Background(), Config{Games: 20, Seed: 4, Threads: threads,
			NewPolicy: func() Policy { return search.NewSearcher(net, search.Options{Depth: 2}, tt).Best }})
		return b
	}
	if d1, d2 := deep(1), deep(2); d1 != d2 || d1.Games != 20 {
		t.Fatalf("2-ply: 1 thread %+v\n2 threads %+v", d1, d2)
	}
	if one.Games != 200 {
		t.Fatalf("%d games", one.Games)
	}
}
