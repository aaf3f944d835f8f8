package learn

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/td2048/td2048/board"
	"github.com/td2048/td2048/ntuple"
	"github.com/td2048/td2048/search"
	"github.com/td2048/td2048/session"
	"github.com/td2048/td2048/stats"
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
			Episodes: episodes, Kind: kind, Seed: 1, Threads: 1, Every: 500,
			Block: func(done int, b *stats.Block, _ time.Duration, _ float32) { avgs = append(avgs, b.Avg()) },
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
		Train(context.Background(), net, Config{Episodes: 200, Seed: 7, Threads: 1, Every: 100})
		return net.Weights()
	}
	a, b := run(), run()
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("weight %d differs: %v vs %v", i, a[i], b[i])
		}
	}
}

func BenchmarkTrain4x6(b *testing.B) {
	net := ntuple.MustNew("4x6")
	defer net.Free()
	b.ResetTimer()
	_, r, _ := Train(context.Background(), net, Config{Episodes: b.N, Seed: 1, Threads: 1, Every: 1000})
	b.ReportMetric(float64(r.Moves)/r.Elapsed.Seconds(), "moves/s")
}

// BenchmarkTrainCPU4x6 reports moves per CPU second as well, which other
// work on a shared machine disturbs less than wall time.
func BenchmarkTrainCPU4x6(b *testing.B) {
	net := ntuple.MustNew("4x6")
	defer net.Free()
	b.ResetTimer()
	c0 := cpuTime()
	_, r, _ := Train(context.Background(), net, Config{Episodes: b.N, Seed: 1, Threads: 1, Every: 1000})
	b.ReportMetric(float64(r.Moves)/(cpuTime()-c0).Seconds(), "moves/cpu-s")
}

// TestResumeIsExact: N episodes, a stop, and a resume to 2N give the same
// weights, bit for bit, as an unbroken 2N run, with a step schedule and a
// plateau cut in play, and the resumed state passed through JSON.
func TestResumeIsExact(t *testing.T) {
	mk := func() *Schedule {
		s, _ := ParseSchedule("0:0.1,150:0.05", 0.1)
		s.SetPlateau("0.5:2")
		return s
	}
	var whole []float64
	full := ntuple.MustNew("0123,4567")
	Train(context.Background(), full, Config{Episodes: 300, Seed: 11, Threads: 1, Every: 25, Schedule: mk(),
		Block: func(_ int, b *stats.Block, _ time.Duration, _ float32) { whole = append(whole, b.Avg()) }})

	part := ntuple.MustNew("0123,4567")
	// Stop in the middle of a block: 137 is not a multiple of 25.
	ctx, cancel := context.WithCancel(context.Background())
	var halves []float64
	st, res, err := Train(ctx, part, Config{Episodes: 300, Seed: 11, Threads: 1, Every: 25, Schedule: mk(),
		CheckpointEvery: 137, Checkpoint: func(RunState) error { cancel(); return nil },
		Block: func(_ int, b *stats.Block, _ time.Duration, _ float32) { halves = append(halves, b.Avg()) }})
	if err != nil || st.Done != 137 || res.Episodes != 137 {
		t.Fatalf("stopped at %d (%d played): %v", st.Done, res.Episodes, err)
	}
	js, _ := json.Marshal(st)
	var back RunState
	if err := json.Unmarshal(js, &back); err != nil {
		t.Fatal(err)
	}
	st, _, err = Train(context.Background(), part, Config{Episodes: 300, Seed: 11, Threads: 1, Every: 25,
		Schedule: back.Schedule, Resume: &back,
		Block: func(_ int, b *stats.Block, _ time.Duration, _ float32) { halves = append(halves, b.Avg()) }})
	if err != nil || st.Done != 300 {
		t.Fatalf("resumed run ended at %d: %v", st.Done, err)
	}
	if !slices.Equal(whole, halves) {
		t.Fatalf("block averages differ:\n%v\n%v", whole, halves)
	}
	a, b := full.Weights(), part.Weights()
	for i := range a {
		if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
			t.Fatalf("weight %d: %v unbroken, %v resumed", i, a[i], b[i])
		}
	}
}

func TestCheckpointsPauseAllThreads(t *testing.T) {
	net := ntuple.MustNew("0123,4567")
	var at []int
	st, _, err := Train(context.Background(), net, Config{Episodes: 500, Seed: 1, Threads: 2, Every: 50,
		CheckpointEvery: 200, Checkpoint: func(s RunState) error {
			at = append(at, s.Done)
			if len(s.Rands) != 2 || s.Partial.Games != 0 {
				t.Errorf("checkpoint state %+v", s)
			}
			return nil
		}})
	if err != nil || st.Done != 500 || !slices.Equal(at, []int{200, 400}) {
		t.Fatalf("checkpoints at %v, done %d, %v", at, st.Done, err)
	}
	_, _, err = Train(context.Background(), net, Config{Episodes: 500, Seed: 1, Threads: 2, Every: 50,
		CheckpointEvery: 100, Checkpoint: func(RunState) error { return errors.New("disk full") }})
	if err == nil || err.Error() != "disk full" {
		t.Fatalf("checkpoint error lost: %v", err)
	}
}

// A checkpoint gap skips the writes, not the pauses: a run whose gap lets
// no checkpoint through learns what the run that saves at every boundary
// learns (interleaved lanes drain at boundaries, so this would tell), and
// a gap shorter than the time between boundaries skips none.
func TestCheckpointGap(t *testing.T) {
	run := func(gap time.Duration, slow bool) (*ntuple.Network, int) {
		net := ntuple.MustNew("0123,4567")
		saved := 0
		cfg := Config{Episodes: 300, Seed: 3, Threads: 1, Interleave: 3, Every: 25, CheckpointEvery: 70, CheckpointGap: gap,
			Checkpoint: func(RunState) error { saved++; return nil }}
		if slow {
			cfg.Block = func(int, *stats.Block, time.Duration, float32) { time.Sleep(2 * time.Millisecond) }
		}
		if _, _, err := Train(context.Background(), net, cfg); err != nil {
			t.Fatal(err)
		}
		return net, saved
	}
	every, n := run(0, false)
	gapped, m := run(time.Hour, false)
	_, k := run(time.Millisecond, true)
	if n != 4 || m != 0 || k != 4 {
		t.Fatalf("checkpoints: %d with no gap, %d with an hour's, %d with 1ms between 2ms blocks; want 4, 0, 4", n, m, k)
	}
	a, b := every.Weights(), gapped.Weights()
	for i := range a {
		if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
			t.Fatalf("weight %d: %v saving at every boundary, %v with the gap", i, a[i], b[i])
		}
	}
}

func TestSchedule(t *testing.T) {
	s, err := ParseSchedule("0:0.1,200000:0.05,400000:0.025", 0.3)
	if err != nil {
		t.Fatal(err)
	}
	for ep, want := range map[int]float32{0: 0.1, 199999: 0.1, 200000: 0.05, 500000: 0.025} {
		t.Run(fmt.Sprint("episode ", ep), func(t *testing.T) {
			if got := s.Alpha(ep); got != want {
				t.Errorf("Alpha(%d) = %v, want %v", ep, got, want)
			}
		})
	}
	late, _ := ParseSchedule("1000:0.01", 0.2)
	if late.Alpha(999) != 0.2 || late.Alpha(1000) != 0.01 {
		t.Errorf("late schedule: %v %v", late.Alpha(999), late.Alpha(1000))
	}
	for _, bad := range []string{"x", "0:", ":1", "-5:0.1", "0:-1", "0:0.1,,", "0:0.1,0:0.05", "100:0.1,5:0.2,100:0.05"} {
		t.Run(bad, func(t *testing.T) {
			if _, err := ParseSchedule(bad, 0.1); err == nil {
				t.Errorf("schedule %q accepted", bad)
			}
		})
	}
	p := Constant(0.1)
	if err := p.SetPlateau("0.5:3"); err != nil {
		t.Fatal(err)
	}
	cuts := 0
	for _, avg := range []float64{10, 20, 30, 40, 40, 40, 40, 40, 40, 40} {
		if p.Observe(avg) {
			cuts++
		}
	}
	if cuts != 1 || p.Alpha(0) != 0.05 {
		t.Errorf("plateau: %d cuts, alpha %v", cuts, p.Alpha(0))
	}
	for _, bad := range []string{"1:3", "0.5", "0.5:0", "x:2"} {
		t.Run(bad, func(t *testing.T) {
			if err := Constant(0.1).SetPlateau(bad); err == nil {
				t.Errorf("plateau %q accepted", bad)
			}
		})
	}
}

func FuzzParseSchedule(f *testing.F) {
	for _, s := range []string{"0:0.1,200000:0.05", "1000:0.01", "", "x:y", "5:1e308,3:0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sc, err := ParseSchedule(s, 0.1)
		if err != nil {
			return
		}
		for i := 1; i < len(sc.Steps); i++ {
			if sc.Steps[i].Episode <= sc.Steps[i-1].Episode {
				t.Fatalf("%q: steps out of order or repeated %v", s, sc.Steps)
			}
		}
		for _, ep := range []int{0, 1, 1 << 20, 1 << 40} {
			if a := sc.Alpha(ep); !(a >= 0) {
				t.Fatalf("%q: Alpha(%d) = %v", s, ep, a)
			}
		}
		var parts []string
		for _, st := range sc.Steps {
			parts = append(parts, strconv.Itoa(st.Episode)+":"+strconv.FormatFloat(st.Alpha, 'g', -1, 64))
		}
		back, err := ParseSchedule(strings.Join(parts, ","), 0.1)
		if err != nil || back.Alpha(1<<20) != sc.Alpha(1<<20) || back.Alpha(0) != sc.Alpha(0) {
			t.Fatalf("%q -> %v does not read back: %v", s, parts, err)
		}
	})
}

// TestHotPathsAllocateNothing: choosing a move, valuing boards and a whole
// learned episode allocate nothing, on the 4x6 network (the assembly path
// where there is one) and on a generic one.
func TestHotPathsAllocateNothing(t *testing.T) {
	for _, spec := range []string{"4x6", "8x4"} {
		net := ntuple.MustNew(spec)
		b := board.Board(0x0000_0010_0120_1232)
		bs := []board.Board{b, b.Mirror(), b.Flip(), b.Transpose(), b, b.Mirror()}
		out := make([]float32, len(bs))
		for name, f := range map[string]func(){
			"Estimate":     func() { sink += net.Estimate(b) },
			"Update":       func() { sink += net.Update(b, 0) },
			"EstimateMany": func() { net.EstimateMany(bs, out) },
			"Greedy":       func() { sink += search.Greedy(net, b).Value },
		} {
			t.Run(name, func(t *testing.T) {
				if n := testing.AllocsPerRun(100, f); n != 0 {
					t.Errorf("%s %s: %v allocations", spec, name, n)
				}
			})
		}
		w := NewWorker(net, AfterState, NewRand(1, 1))
		w.Play(0.1)
		if n := testing.AllocsPerRun(20, func() { w.Play(0.1) }); n != 0 {
			t.Errorf("%s Play: %v allocations per episode", spec, n)
		}
		net.Free()
	}
}

var sink float32

// TestDirectLearnsAsIndexed: on the 4x6 network, learning from boards (the
// assembly path: each step's weights read again from its board) plays the
// same episodes and leaves the same weights, bit for bit, as learning from
// stored indices, in every update mode, staged, and with restart shaping
// (whose sub-episodes start from an after-state the trace values itself).
func TestDirectLearnsAsIndexed(t *testing.T) {
	for _, c := range []struct {
		spec  string
		mode  Mode
		shape Shaping
	}{
		{"4x6", Mode{}, Shaping{}},
		{"4x6", Mode{online: true}, Shaping{}},
		{"4x6", Mode{online: true, steps: 3}, Shaping{}},
		{"4x6", Mode{online: true, lambda: 0.5, steps: 3}, Shaping{}},
		{"4x6", Mode{online: true, lambda: 0.5, steps: 3, delay: true}, Shaping{}},
		{"4x6@0,256", Mode{online: true}, Shaping{}},
		{"4x6", Mode{online: true}, Shaping{restart: true, l: 30, at: 0.5}},
	} {
		t.Run(c.spec+" "+c.mode.String()+" "+c.shape.String(), func(t *testing.T) {
			a, b := ntuple.MustNew(c.spec), ntuple.MustNew(c.spec)
			if !a.Direct() {
				a.Free()
				b.Free()
				t.Skip("no direct 4x6 path on this processor")
			}
			wa, wb := NewWorker(a, AfterState, NewRand(7, 1)), NewWorker(b, AfterState, NewRand(7, 1))
			wb.trace.useIndices()
			for _, w := range []*Worker{wa, wb} {
				w.trace.Mode, w.Shaping = c.mode, c.shape
			}
			for i := range 300 {
				if ea, eb := wa.Play(0.1), wb.Play(0.1); ea != eb {
					t.Fatalf("%s %+v %+v, episode %d: direct %+v, indexed %+v", c.spec, c.mode, c.shape, i, ea, eb)
				}
			}
			if !slices.Equal(a.Weights(), b.Weights()) {
				t.Fatalf("%s %+v %+v: weights differ", c.spec, c.mode, c.shape)
			}
			a.Free()
			b.Free()
		})
	}
}

// TestDivergenceStopsTheRun: a learning rate far too large drives values
// to infinity; the episode that does it stops the run with a
// DivergedError, and no checkpoint is taken after it. Both games, both
// learners.
func TestDivergenceStopsTheRun(t *testing.T) {
	for _, kind := range []Kind{AfterState, State} {
		net := ntuple.MustNew("0123,4567")
		checkpoints := 0
		_, _, err := Train(context.Background(), net, Config{
			Episodes: 100000, Kind: kind, Seed: 1, Threads: 1, Every: 10,
			Schedule: Constant(1e30), CheckpointEvery: 10,
			Checkpoint: func(RunState) error { checkpoints++; return nil },
		})
		var div *DivergedError
		if !errors.As(err, &div) {
			t.Fatalf("%v: err %v", kind, err)
		}
		if div.Episode >= 1000 || checkpoints > div.Episode/10 {
			t.Fatalf("%v: diverged at episode %d, %d checkpoints", kind, div.Episode, checkpoints)
		}
		net.Free()
	}
	// A sane rate never trips it.
	net := ntuple.MustNew("0123,4567")
	defer net.Free()
	if _, _, err := Train(context.Background(), net, Config{Episodes: 300, Seed: 1, Threads: 1, Every: 100}); err != nil {
		t.Fatal(err)
	}
	if err := CheckAlpha(1.5); err == nil {
		t.Error("alpha 1.5 accepted")
	}
	if _, err := ParseSchedule("0:0.1,10:2", 0.1); err == nil {
		t.Error("schedule with alpha 2 accepted")
	}
}

// BenchmarkTrainInterleave trains from zero on one thread, online (TDL2048+'s
// default) and backward (the course's), at each interleave.
func BenchmarkTrainInterleave(b *testing.B) {
	for _, spec := range []string{"4x6", "8x6"} {
		for _, mode := range []Mode{{online: true}, {}} {
			for _, k := range []int{1, 2, 4} {
				b.Run(fmt.Sprintf("%s/%v/interleave=%d", spec, mode, k), func(b *testing.B) {
					net := ntuple.MustNew(spec)
					defer net.Free()
					b.ResetTimer()
					_, r, _ := Train(context.Background(), net, Config{Episodes: b.N, Seed: 1, Threads: 1, Interleave: k, Every: 1000, Mode: mode})
					b.ReportMetric(float64(r.Moves)/r.Elapsed.Seconds(), "moves/s")
				})
			}
		}
	}
}

// BenchmarkTrainNetworks trains each network from zero, online TD(0), one
// thread, and reports moves/s and board-lookups/s (moves/s times the
// weights one board reads): how far each network is from 4x6 per lookup.
func BenchmarkTrainNetworks(b *testing.B) {
	for _, spec := range []string{"4x6", "4x6@0,16384", "5x6", "6x6", "7x6", "8x6", "8x6@0,16384", "4x5"} {
		b.Run(spec, func(b *testing.B) {
			net := ntuple.MustNew(spec)
			defer net.Free()
			b.ResetTimer()
			_, r, _ := Train(context.Background(), net, Config{Episodes: b.N, Seed: 1, Threads: 1, Every: 1000, Mode: Mode{online: true}})
			mps := float64(r.Moves) / r.Elapsed.Seconds()
			b.ReportMetric(mps, "moves/s")
			b.ReportMetric(mps*float64(net.Lookups())/1e6, "Mlookups/s")
		})
	}
}

// TestNewRandIsTheReplayRule: training's generators are the replay
// rule's (session.Stream), copied onto their own cache lines.
func TestNewRandIsTheReplayRule(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 2000 {
		seed, k := rng.Uint64(), rng.IntN(1<<24)
		if i < 100 {
			seed, k = uint64(i), i
		}
		a, b := session.Stream(seed, k), NewRand(seed, uint64(k))
		for range 4 {
			if x, y := a.Uint64(), b.Uint64(); x != y {
				t.Fatalf("seed %d stream %d: %#x, NewRand %#x", seed, k, x, y)
			}
		}
	}
}
