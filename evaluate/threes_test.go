package evaluate

import (
	"bufio"
	"bytes"
	"context"
	"math/rand/v2"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/td2048/td2048/episode"
	"github.com/td2048/td2048/learn"
	"github.com/td2048/td2048/ntuple"
	"github.com/td2048/td2048/rules/threes"
	"github.com/td2048/td2048/search"
	"github.com/td2048/td2048/stats"
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
		ev, err := Run(ctx, Config{Games: 500, Seed: 9, Threads: threads, Stats: &file, NewThreesPolicy: func() ThreesPolicy {
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
		if err != nil || n == 0 && threads == 1 || n >= 500 || ev.Speed.Slides != ev.Block.Moves || strings.Count(file.String(), "\n") != n {
			t.Fatalf("%d threads: %v, %d games, %d slides, file %d lines", threads, err, n, ev.Speed.Slides, strings.Count(file.String(), "\n"))
		}
		if ev.Moves < ev.Block.Moves || ev.Moves > slides.Load() {
			t.Fatalf("%d threads: %d slides counted, %d in finished games, %d played", threads, ev.Moves, ev.Block.Moves, slides.Load())
		}
		var whole bytes.Buffer
		first, err := Run(context.Background(), Config{Games: n, Seed: 9, Threads: 1, Stats: &whole,
			NewThreesPolicy: func() ThreesPolicy { return GreedyThreesPolicy(net) }})
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
	done := make(chan Result, 1)
	go func() {
		ev, _ := Run(ctx, Config{Games: games, Threads: 2, TickEvery: 10 * time.Millisecond,
			Tick: func(s episode.Snapshot) {
				ticks.Add(1)
				if s.Moves > 0 && s.Done == 0 {
					moved.Store(true)
					cancel()
				}
			},
			NewThreesPolicy: func() ThreesPolicy {
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

func TestThreesGreedyMatchesWorker(t *testing.T) {
	net := ntuple.MustNew("0123,4567+hint")
	rng := rand.New(rand.NewPCG(1, 1))
	for i := range net.Weights() {
		net.Weights()[i] = float32(rng.IntN(100)) / 10
	}
	// Play one game with the worker (no learning) and one with Greedy
	// from the same stream: same scores and lengths.
	w := learn.NewThreesWorker(net, episode.NewRand(5, 5))
	ep := w.Play(0)
	gs := playThreesGame(GreedyThreesPolicy(net), episode.NewRand(5, 5), nil, new(atomic.Bool), new(atomic.Int64))
	if ep.Score != gs.ep.Score || ep.Moves != gs.ep.Moves || ep.MaxTile != gs.ep.MaxTile {
		t.Fatalf("worker %+v, greedy %+v", ep, gs)
	}
}

func TestThreesEvaluateSameForAnyThreadsAndRecords(t *testing.T) {
	net := ntuple.MustNew("0123,4567+hint")
	if _, _, err := learn.TrainThrees(context.Background(), net, learn.Config{Episodes: 300, Seed: 3, Threads: 1, Every: 300}); err != nil {
		t.Fatal(err)
	}
	eval := func(threads int) (Result, string) {
		var buf bytes.Buffer
		ev, err := Run(context.Background(), Config{Games: 100, Seed: 9, Threads: threads,
			NewThreesPolicy: func() ThreesPolicy { return GreedyThreesPolicy(net) }, Stats: &buf})
		if err != nil {
			t.Fatal(err)
		}
		return ev, buf.String()
	}
	one, f1 := eval(1)
	two, f2 := eval(2)
	if one.Block != two.Block {
		t.Fatalf("1 thread %+v\n2 threads %+v", one.Block, two.Block)
	}
	if one.Block.Games != 100 {
		t.Fatalf("%d games", one.Block.Games)
	}
	// The files hold the same games (times aside) and replay legally to
	// the same statistics.
	strip := func(s string) []string {
		var out []string
		sc := bufio.NewScanner(strings.NewReader(s))
		sc.Buffer(nil, 1<<24)
		for sc.Scan() {
			r, err := threes.ParseRecord(sc.Text())
			if err != nil {
				t.Fatal(err)
			}
			rp, err := r.Replay()
			if err != nil {
				t.Fatalf("%v\n%s", err, sc.Text())
			}
			for i := range r.Steps {
				r.Steps[i].Time = 0
			}
			r.Open, r.Close = 0, 0
			out = append(out, r.String())
			_ = rp
		}
		return out
	}
	a, b := strip(f1), strip(f2)
	if len(a) != 100 || strings.Join(a, "\n") != strings.Join(b, "\n") {
		t.Fatalf("files differ: %d and %d lines", len(a), len(b))
	}
	var sum stats.Block
	var sp stats.Speed
	sc := bufio.NewScanner(strings.NewReader(f1))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		r, _ := threes.ParseRecord(sc.Text())
		rp, _ := r.Replay()
		sum.Add(rp.Score, rp.MaxTile, rp.Slides)
		sp.Add(&stats.Speed{Slides: int64(rp.Slides), Placements: int64(rp.Placements), SlideTime: rp.SlideTime})
	}
	if sum.Sum != one.Block.Sum || sum.End != one.Block.End || sp.Slides != one.Speed.Slides ||
		sp.Placements != one.Speed.Placements || sp.SlideTime != one.Speed.SlideTime {
		t.Fatalf("replayed %+v %+v\nplayed %+v %+v", sum, sp, one.Block, one.Speed)
	}
}

func TestThreesPlayGameRecordsTimes(t *testing.T) {
	saved := threesClock
	defer func() { threesClock = saved }()
	var now int64 = 1000
	threesClock = func() int64 { now++; return now }
	net := ntuple.MustNew("0123")
	var rec threes.Record
	g := playThreesGame(GreedyThreesPolicy(net), episode.NewRand(1, 1), &rec, new(atomic.Bool), new(atomic.Int64))
	gs := threes.GameStats{Score: g.ep.Score, MaxTile: g.ep.MaxTile, Slides: g.ep.Moves, Placements: int(g.speed.Placements),
		Time: g.speed.Time, SlideTime: g.speed.SlideTime, PlaceTime: g.speed.PlaceTime}
	rp, err := rec.Replay()
	if err != nil {
		t.Fatal(err)
	}
	if rp.GameStats != gs {
		t.Fatalf("replay %+v, played %+v", rp.GameStats, gs)
	}
	if gs.SlideTime != int64(gs.Slides) || gs.PlaceTime != int64(gs.Placements) || gs.Time != int64(gs.Slides+gs.Placements+1) {
		t.Fatalf("times %+v", gs)
	}
}
