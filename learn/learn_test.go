package learn

import (
	"context"
	"syscall"
	"testing"
	"time"

	"td2048/board"
	"td2048/ntuple"
	"td2048/search"
	"td2048/stats"
)

// A short real run: a small network must clearly learn. The first block of
// 500 episodes of a random-ish zero network scores about 1,000-2,000; after
// 4,000 episodes the 8x4 line network is well above that.
func TestTrainingImproves(t *testing.T) {
	for _, kind := range []Kind{AfterState, State} {
		net := ntuple.MustNew("8x4")
		var avgs []float64
		episodes := 4000
		if kind == State {
			episodes = 1500
		}
		Train(context.Background(), net, Config{
			Episodes: episodes, Alpha: 0.1, Kind: kind, Seed: 1, Threads: 1, Every: 500,
			Block: func(done int, b *stats.Block, _ time.Duration) { avgs = append(avgs, b.Avg()) },
		})
		if len(avgs) != episodes/500 {
			t.Fatalf("%v: %d blocks", kind, len(avgs))
		}
		first, last := avgs[0], avgs[len(avgs)-1]
		t.Logf("%v: block averages %.0f", kind, avgs)
		if last < 1.5*first || last < 2500 {
			t.Errorf("%v: first block avg %.0f, last %.0f: not learning", kind, first, last)
		}
	}
}

func TestTrainRepeatable(t *testing.T) {
	run := func() []float32 {
		net := ntuple.MustNew("0123,4567")
		Train(context.Background(), net, Config{Episodes: 200, Alpha: 0.1, Seed: 7, Threads: 1, Every: 100})
		return net.Weights()
	}
	a, b := run(), run()
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("weight %d differs: %v vs %v", i, a[i], b[i])
		}
	}
}

func TestEvaluateSameForAnyThreads(t *testing.T) {
	net := ntuple.MustNew("0123,4567")
	Train(context.Background(), net, Config{Episodes: 300, Alpha: 0.1, Seed: 3, Threads: 1, Every: 300})
	eval := func(threads int) stats.Block {
		b, _ := Evaluate(context.Background(), EvalConfig{Games: 200, Seed: 9, Threads: threads,
			NewPolicy: func() Policy {
				return func(x board.Board) search.Choice { return search.Greedy(net, x) }
			}})
		return b
	}
	one, two := eval(1), eval(2)
	if one != two {
		t.Fatalf("1 thread %+v\n2 threads %+v", one, two)
	}
	if one.Games != 200 {
		t.Fatalf("%d games", one.Games)
	}
}

func BenchmarkTrain4x6(b *testing.B) {
	net := ntuple.MustNew("4x6")
	defer net.Free()
	b.ResetTimer()
	r := Train(context.Background(), net, Config{Episodes: b.N, Alpha: 0.1, Seed: 1, Threads: 1, Every: 1000})
	b.ReportMetric(float64(r.Moves)/r.Elapsed.Seconds(), "moves/s")
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkTrainCPU4x6 reports moves per CPU second as well, which other
// work on a shared machine disturbs less than wall time.
func BenchmarkTrainCPU4x6(b *testing.B) {
	net := ntuple.MustNew("4x6")
	defer net.Free()
	b.ResetTimer()
	c0 := cpuTime()
	r := Train(context.Background(), net, Config{Episodes: b.N, Alpha: 0.1, Seed: 1, Threads: 1, Every: 1000})
	b.ReportMetric(float64(r.Moves)/(cpuTime()-c0).Seconds(), "moves/cpu-s")
}
