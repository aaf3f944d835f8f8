package learn

import (
	"bytes"
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/td2048/td2048/game/threes"
	"github.com/td2048/td2048/ntuple"
	"github.com/td2048/td2048/search"
)

// Cancelling a Threes! evaluation keeps the games finished before the
// first abandoned one, in the statistics and the course's file alike.
func TestThreesEvaluateInterruptedIsAPrefix(t *testing.T) {
	saved := threesClock
	defer func() { threesClock = saved }()
	threesClock = func() int64 { return 1000 } // records without times compare equal
	net := ntuple.MustNew("0123,4567+hint")
	for _, threads := range []int{1, 2} {
		ctx, cancel := context.WithCancel(context.Background())
		var slides atomic.Int64
		var file bytes.Buffer
		ev, err := EvaluateThrees(ctx, ThreesEvalConfig{Games: 500, Seed: 9, Threads: threads, Stats: &file, NewPolicy: func() ThreesPolicy {
			return func(g *threes.Game) search.Choice {
				if slides.Add(1) == 2000 {
					cancel()
				}
				return search.GreedyThrees(net, g.Board, g.Next)
			}
		}})
		cancel()
		n := ev.Block.Games
		// One thread has finished some games at the cancel; with two, the
		// first game may be the one abandoned.
		if err != nil || n == 0 && threads == 1 || n >= 500 || ev.Summary.Games != n || strings.Count(file.String(), "\n") != n {
			t.Fatalf("%d threads: %v, %d games, summary %d, file %d lines", threads, err, n, ev.Summary.Games, strings.Count(file.String(), "\n"))
		}
		if ev.Slides < ev.Block.Moves || ev.Slides > slides.Load() {
			t.Fatalf("%d threads: %d slides counted, %d in finished games, %d played", threads, ev.Slides, ev.Block.Moves, slides.Load())
		}
		var whole bytes.Buffer
		first, err := EvaluateThrees(context.Background(), ThreesEvalConfig{Games: n, Seed: 9, Threads: 1, Stats: &whole,
			NewPolicy: func() ThreesPolicy { return GreedyThreesPolicy(net) }})
		if err != nil || first.Block != ev.Block || whole.String() != file.String() {
			t.Fatalf("%d threads: interrupted %+v\nfirst %d games %+v", threads, ev.Block, n, first.Block)
		}
	}
}

// Searches stopped through Options.Stop end the evaluation promptly, and
// Tick reports slides of the games under way. The evaluation asks for far
// more games than can finish before the first ticks: a game counts its
// slides in batches and the last at its end, so a tick can see the slides
// of a game that has just finished but is not yet counted done, and with
// two games both could then finish before the cancel reached them (seen
// once under the load of the whole test suite).
func TestThreesEvaluateStopsSearchesAndTicks(t *testing.T) {
	const games = 100
	net := ntuple.MustNew("01,45+hint")
	ctx, cancel := context.WithCancel(context.Background())
	// Cancel once a tick has shown slides of games under way (at most
	// after 20 s): how soon that comes depends on the machine's speed.
	time.AfterFunc(20*time.Second, cancel)
	var ticks atomic.Int64
	var moved atomic.Bool
	done := make(chan ThreesEvaluation, 1)
	go func() {
		ev, _ := EvaluateThrees(ctx, ThreesEvalConfig{Games: games, Threads: 2, TickEvery: 10 * time.Millisecond,
			Tick: func(s Snapshot) {
				ticks.Add(1)
				if s.Moves > 0 && s.Done == 0 {
					moved.Store(true)
					cancel()
				}
			},
			NewPolicy: func() ThreesPolicy {
				return search.NewThrees(net, search.Options{Depth: 4, Stop: ctx.Done()}, nil).Best
			}})
		done <- ev
	}()
	select {
	case ev := <-done:
		if ev.Block.Games >= games || ticks.Load() == 0 || !moved.Load() {
			t.Fatalf("%d of %d games, %d ticks, slides seen in games under way: %v", ev.Block.Games, games, ticks.Load(), moved.Load())
		}
	case <-time.After(50 * time.Second):
		t.Fatal("the evaluation went on 30 s after its context was cancelled")
	}
}
