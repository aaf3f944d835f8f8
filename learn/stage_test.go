package learn

import (
	"context"
	"encoding/json"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/td2048/td2048/ntuple"
	"github.com/td2048/td2048/stats"
)

// stagedSpec is a small two-stage network whose stage 1 starts at the
// first 256: a short run reaches it in most games.
const stagedSpec = "0123,4567@0,256"

// TestStagedTraining: a small real multi-stage run learns (loose bounds),
// trains both stages' tables, and its games rise by TDL2048+'s rule: each
// step's stage is the rise of the stage before it by that step's move.
func TestStagedTraining(t *testing.T) {
	net := ntuple.MustNew(stagedSpec)
	var avgs []float64
	_, _, err := Train(context.Background(), net, Config{Episodes: 3000, Seed: 3, Threads: 1, Every: 500,
		Block: func(_ int, b *stats.Block, _ time.Duration, _ float32) { avgs = append(avgs, b.Avg()) }})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("block averages %.0f", avgs)
	if first, last := avgs[0], avgs[len(avgs)-1]; last < 1.5*first || last < 2000 {
		t.Errorf("first block avg %.0f, last %.0f: not learning", first, last)
	}
	for k := range 2 {
		touched := 0
		for p := range 2 {
			for _, x := range net.StageTable(k, p) {
				if x != 0 {
					touched++
				}
			}
		}
		if touched < 100 {
			t.Errorf("stage %d: %d weights learnt", k, touched)
		}
	}
	w := NewWorker(net, AfterState, NewRand(9, 0))
	rose := 0
	for range 20 {
		w.Play(0)
		k := 0
		for i, s := range w.trace.steps {
			want := net.Rise(k, s.after, uint32(s.reward))
			if int(s.stage) != want {
				t.Fatalf("step %d (after %x, reward %v): stage %d, want %d", i, uint64(s.after), s.reward, s.stage, want)
			}
			if want > k {
				rose++
				if s.after.MaxTile() != 8 {
					t.Errorf("step %d rose to stage %d with largest tile %d", i, want, s.after.MaxTile())
				}
				if v := net.EstimateStage(want, s.after); v != s.value {
					t.Errorf("step %d: value %v, its stage values it %v", i, s.value, v)
				}
			}
			k = want
		}
	}
	if rose < 5 {
		t.Errorf("only %d of 20 games reached stage 1", rose)
	}
}

// TestStagedIndexedLearnsAsDirect: a staged 4x6 network learns the same
// from boards (assembly) as from stored indices, bit for bit.
func TestStagedIndexedLearnsAsDirect(t *testing.T) {
	a, b := ntuple.MustNew("4x6@0,64"), ntuple.MustNew("4x6@0,64")
	defer a.Free()
	defer b.Free()
	if !a.Direct() {
		t.Skip("no direct 4x6 path on this processor")
	}
	for _, mode := range []Mode{{}, {online: true}} {
		wa, wb := NewWorker(a, AfterState, NewRand(7, 1)), NewWorker(b, AfterState, NewRand(7, 1))
		wa.trace.Mode, wb.trace.Mode = mode, mode
		wb.trace.useIndices()
		for i := range 60 {
			if ea, eb := wa.Play(0.1), wb.Play(0.1); ea != eb {
				t.Fatalf("%v episode %d: direct %+v, indexed %+v", mode, i, ea, eb)
			}
		}
	}
	if !slices.Equal(a.Weights(), b.Weights()) {
		t.Fatal("weights differ")
	}
	if slices.Equal(a.Weights()[:a.Spec().StageWeights()], a.Weights()[a.Spec().StageWeights():]) {
		t.Fatal("stage 1 learnt nothing of its own")
	}
}

// TestPromotion: with promotion, the first game to enter stage 1 copies
// stage 0's weights there; stage 1 then learns on its own.
func TestPromotion(t *testing.T) {
	net := ntuple.MustNew("01,23@2")
	for i := range net.StageTable(0, 0) {
		net.StageTable(0, 0)[i] = float32(i)
	}
	p := newPromotion(net, true, nil)
	p.enter(net, 1)
	if !slices.Equal(net.StageTable(1, 0), net.StageTable(0, 0)) {
		t.Fatal("stage 1 not promoted")
	}
	net.StageTable(0, 0)[5] = -1
	p.enter(net, 1)
	if net.StageTable(1, 0)[5] != 5 {
		t.Fatal("stage 1 promoted twice")
	}
	if got := p.state(); !slices.Equal(got, []bool{true, true}) {
		t.Fatalf("state %v", got)
	}
	if newPromotion(ntuple.MustNew("01,23"), true, nil) != nil || newPromotion(net, false, nil) != nil {
		t.Fatal("promotion without stages or unasked")
	}
	// In a run: promotion makes stage 1 start where stage 0 is, so its
	// first games in stage 1 score better than without.
	var promoted RunState
	for _, on := range []bool{false, true} {
		n := ntuple.MustNew(stagedSpec)
		st, _, err := Train(context.Background(), n, Config{Episodes: 600, Seed: 5, Threads: 1, Every: 100, Promote: on})
		if err != nil {
			t.Fatal(err)
		}
		if on {
			promoted = st
		} else if st.Promoted != nil {
			t.Fatalf("promotion state %v without promotion", st.Promoted)
		}
	}
	if !slices.Equal(promoted.Promoted, []bool{true, true}) {
		t.Fatalf("promoted run state %v", promoted.Promoted)
	}
	if _, _, err := Train(context.Background(), ntuple.MustNew("0123"), Config{Episodes: 1, Promote: true}); err == nil {
		t.Fatal("promotion of a single-stage network accepted")
	}
	if _, _, err := Train(context.Background(), ntuple.MustNew(stagedSpec), Config{Episodes: 1, Kind: State}); err == nil {
		t.Fatal("a staged state network accepted")
	}
}

// TestStagedResumeIsExact: a multi-stage run with promotion, stopped in
// the middle and resumed (its state through JSON), ends with the weights
// of the unbroken run, bit for bit, in both update modes.
func TestStagedResumeIsExact(t *testing.T) {
	for _, mode := range []Mode{{}, {online: true}} {
		cfg := Config{Episodes: 400, Seed: 21, Threads: 1, Every: 50, Promote: true, Mode: mode}
		full := ntuple.MustNew(stagedSpec)
		if _, _, err := Train(context.Background(), full, cfg); err != nil {
			t.Fatal(err)
		}
		part := ntuple.MustNew(stagedSpec)
		ctx, cancel := context.WithCancel(context.Background())
		c := cfg
		c.CheckpointEvery, c.Checkpoint = 173, func(RunState) error { cancel(); return nil }
		st, _, err := Train(ctx, part, c)
		if err != nil || st.Done != 173 {
			t.Fatalf("stopped at %d: %v", st.Done, err)
		}
		js, _ := json.Marshal(st)
		var back RunState
		if err := json.Unmarshal(js, &back); err != nil {
			t.Fatal(err)
		}
		c = cfg
		c.Resume, c.Schedule = &back, back.Schedule
		if _, _, err := Train(context.Background(), part, c); err != nil {
			t.Fatal(err)
		}
		a, b := full.Weights(), part.Weights()
		for i := range a {
			if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
				t.Fatalf("%v: weight %d: %v unbroken, %v resumed", mode, i, a[i], b[i])
			}
		}
	}
}

// BenchmarkTrainCPUStaged4x6 is BenchmarkTrainCPU4x6 on two-stage 4x6
// networks: 0,16384, which short runs never leave (the cost of the stage
// rule alone), and 0,256, which most games cross (both table sets live).
func BenchmarkTrainCPUStaged4x6(b *testing.B) {
	for _, spec := range []string{"4x6@0,16384", "4x6@0,256"} {
		b.Run(spec, func(b *testing.B) {
			net := ntuple.MustNew(spec)
			defer net.Free()
			b.ResetTimer()
			c0 := cpuTime()
			_, r, _ := Train(context.Background(), net, Config{Episodes: b.N, Seed: 1, Threads: 1, Every: 1000})
			b.ReportMetric(float64(r.Moves)/(cpuTime()-c0).Seconds(), "moves/cpu-s")
		})
	}
}
