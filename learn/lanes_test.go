package learn

import (
	"context"
	"encoding/json"
	"math"
	"testing"

	"github.com/td2048/td2048/ntuple"
	"github.com/td2048/td2048/stats"
	"time"
)

// TestInterleavedResumeIsExact: an interleaved run stopped at a checkpoint
// and resumed ends with the weights of the same run unbroken (which also
// pauses its lanes at that checkpoint), bit for bit.
func TestInterleavedResumeIsExact(t *testing.T) {
	for _, mode := range []Mode{{}, {Online: true}} {
		cfg := func() Config {
			return Config{Episodes: 300, Seed: 5, Threads: 1, Interleave: 3, Every: 25, Mode: mode, CheckpointEvery: 137,
				Checkpoint: func(RunState) error { return nil }}
		}
		full := ntuple.MustNew("0123,4567")
		if _, _, err := Train(context.Background(), full, cfg()); err != nil {
			t.Fatal(err)
		}
		part := ntuple.MustNew("0123,4567")
		ctx, cancel := context.WithCancel(context.Background())
		c := cfg()
		c.Checkpoint = func(RunState) error { cancel(); return nil }
		st, _, err := Train(ctx, part, c)
		if err != nil || st.Done != 137 || st.Interleave != 3 || len(st.Rands) != 3 {
			t.Fatalf("stopped at %d, interleave %d, %d generators: %v", st.Done, st.Interleave, len(st.Rands), err)
		}
		js, _ := json.Marshal(st)
		var back RunState
		json.Unmarshal(js, &back)
		c = cfg()
		c.Resume = &back
		if st, _, err = Train(context.Background(), part, c); err != nil || st.Done != 300 {
			t.Fatalf("resumed run ended at %d: %v", st.Done, err)
		}
		a, b := full.Weights(), part.Weights()
		for i := range a {
			if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
				t.Fatalf("%v: weight %d: %v unbroken, %v resumed", mode, i, a[i], b[i])
			}
		}
		c.Interleave = 2
		if _, _, err := Train(context.Background(), part, c); err == nil {
			t.Error("a run of 3 lanes resumed with 2")
		}
	}
}

// TestInterleavedLearnsTheSame: episodes played 4 at a time learn as well
// as one at a time, within loose bounds: the interleaved games share the
// network as threads do, and each learns from its own trace.
func TestInterleavedLearnsTheSame(t *testing.T) {
	avg := func(k int) (last float64, games int) {
		net := ntuple.MustNew("0123,4567,0145,1256")
		_, _, err := Train(context.Background(), net, Config{Episodes: 3000, Seed: 2, Threads: 1, Interleave: k, Every: 1000,
			Mode:  Mode{Online: true},
			Block: func(_ int, b *stats.Block, _ time.Duration, _ float32) { last, games = b.Avg(), games+b.Games }})
		if err != nil {
			t.Fatal(err)
		}
		return last, games
	}
	one, n1 := avg(1)
	four, n4 := avg(4)
	if n1 != 3000 || n4 != 3000 {
		t.Fatalf("games %d and %d, want 3000", n1, n4)
	}
	if one < 1500 || four < 0.8*one || four > 1.25*one {
		t.Fatalf("last block average: %.0f interleaved, %.0f one at a time", four, one)
	}
	t.Logf("last block average: %.0f interleaved by 4, %.0f one at a time", four, one)
}

// TestThreesRefusesInterleave: Threes! plays one episode at a time, and
// says so rather than ignoring the setting.
func TestThreesRefusesInterleave(t *testing.T) {
	net := ntuple.MustNew("0123,4567+hint")
	if _, _, err := TrainThrees(context.Background(), net, Config{Episodes: 10, Threads: 1, Interleave: 2}); err == nil {
		t.Fatal("Threes! training took --interleave 2")
	}
	if _, _, err := TrainThrees(context.Background(), net, Config{Episodes: 10, Threads: 1, Interleave: 1}); err != nil {
		t.Fatal(err)
	}
}
