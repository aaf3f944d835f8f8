package learn

import (
	"context"
	"encoding/json"
	"math"
	"testing"

	"github.com/td2048/td2048/ntuple"
)

// TestCoherenceFrom: a run that switches to TC at episode 100 is the run
// of 100 plain episodes followed by TC from the same weights (what
// TDL2048+'s README does in two runs), and stopping it before or after the
// switch and resuming changes nothing, bit for bit.
func TestCoherenceFrom(t *testing.T) {
	sched := func() *Schedule { s, _ := ParseSchedule("100:1.0", 0.1); return s }
	cfg := func() Config {
		return Config{Episodes: 200, Seed: 5, Threads: 1, Every: 50, CoherenceFrom: 100, Schedule: sched()}
	}
	whole := ntuple.MustNew("0123,4567")
	whole.Optimistic(20000)
	if _, _, err := Train(context.Background(), whole, cfg()); err != nil {
		t.Fatal(err)
	}
	if !whole.Coherent() {
		t.Fatal("no coherence after episode 100")
	}
	// By hand: 100 episodes, then accumulators, then 100 more.
	two := ntuple.MustNew("0123,4567")
	two.Optimistic(20000)
	c := cfg()
	c.CoherenceFrom, c.Episodes = 0, 100
	st, _, _ := Train(context.Background(), two, c)
	if two.Coherent() {
		t.Fatal("coherent before its episode")
	}
	two.EnableCoherence()
	c.Episodes, c.Resume, c.Schedule = 200, &st, st.Schedule
	Train(context.Background(), two, c)
	same(t, "two runs", whole, two)

	for _, stop := range []int{73, 100, 137} {
		part := ntuple.MustNew("0123,4567")
		part.Optimistic(20000)
		ctx, cancel := context.WithCancel(context.Background())
		c := cfg()
		c.CheckpointEvery, c.Checkpoint = stop, func(RunState) error { cancel(); return nil }
		st, _, err := Train(ctx, part, c)
		if err != nil || st.Done != stop || part.Coherent() != (stop >= 100) {
			t.Fatalf("stop at %d: done %d, coherent %v, %v", stop, st.Done, part.Coherent(), err)
		}
		js, _ := json.Marshal(st)
		var back RunState
		json.Unmarshal(js, &back)
		c = cfg()
		c.Resume, c.Schedule = &back, back.Schedule
		if _, _, err := Train(context.Background(), part, c); err != nil {
			t.Fatal(err)
		}
		same(t, "resumed", whole, part)
	}
}

func same(t *testing.T, what string, a, b *ntuple.Network) {
	t.Helper()
	for _, p := range [][2][]float32{{a.Weights(), b.Weights()}, {a.Accumulators(), b.Accumulators()}} {
		if len(p[0]) != len(p[1]) {
			t.Fatalf("%s: %d against %d values", what, len(p[0]), len(p[1]))
		}
		for i := range p[0] {
			if math.Float32bits(p[0][i]) != math.Float32bits(p[1][i]) {
				t.Fatalf("%s: value %d: %v against %v", what, i, p[0][i], p[1][i])
			}
		}
	}
}
