package bench

import (
	"context"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/td2048/td2048/learn"
)

// shortSignature is the signature of the Short workload. It changes
// exactly when the rules, the network, learning or search change; when a
// change is meant to change behaviour, put the new value here and say so
// in the commit.
const shortSignature = 0x580dee41

// shortCompactSignature is the signature of the Short workload's play
// with 16-bit weights: it changes as well when compact weights change.
const shortCompactSignature = 0x0045944b

// shortMCTSSignature is the signature of the Short workload's MCTS game:
// it changes when MCTS, or anything it rests on, changes.
const shortMCTSSignature = 0x840f6d88

func TestShortSignature(t *testing.T) {
	if testing.Short() {
		t.Skip("trains a 4x6 network")
	}
	a, err := Run(context.Background(), Short)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Phases) != 6 || !a.Repeatable {
		t.Fatalf("result %+v", a)
	}
	for _, p := range a.Phases {
		if p.Moves <= 0 || p.Elapsed <= 0 {
			t.Fatalf("phase %+v", p)
		}
	}
	if runtime.GOARCH == "amd64" && a.Signature != shortSignature {
		t.Errorf("signature %08x, want %08x: behaviour changed (if on purpose, update shortSignature)", a.Signature, uint32(shortSignature))
	}
	if runtime.GOARCH == "amd64" && a.CompactSignature != shortCompactSignature {
		t.Errorf("16-bit signature %08x, want %08x: behaviour changed (if on purpose, update shortCompactSignature)", a.CompactSignature, uint32(shortCompactSignature))
	}
	if runtime.GOARCH == "amd64" && a.MCTSSignature != shortMCTSSignature {
		t.Errorf("MCTS signature %08x, want %08x: behaviour changed (if on purpose, update shortMCTSSignature)", a.MCTSSignature, uint32(shortMCTSSignature))
	}
	// One episode fewer is another workload with another signature.
	c := Short
	c.Episodes--
	b, _ := Run(context.Background(), c)
	if b.Signature == a.Signature {
		t.Error("signature did not change with the workload")
	}
}

// Tick names each phase as it goes; a cancelled run stops within its
// phase and reports no speed for it.
func TestTickAndCancel(t *testing.T) {
	var phases []string
	c := Config{Episodes: 300, Games: 300, DeepGames: 3, Threads: 1, TableBytes: 1 << 20, TickEvery: time.Nanosecond,
		Tick: func(phase string, s learn.Snapshot) {
			if len(phases) == 0 || phases[len(phases)-1] != phase {
				phases = append(phases, phase)
			}
			if s.Total == 0 || s.Done > s.Total {
				t.Errorf("%s: %+v", phase, s)
			}
		}}
	if _, err := Run(context.Background(), c); err != nil {
		t.Fatal(err)
	}
	if want := []string{TrainPhase, GreedyPhase, DeepPhase, GreedyCompactPhase, DeepCompactPhase}; !slices.Equal(phases, want) {
		t.Fatalf("phases ticked %q, want %q", phases, want)
	}
	ctx, cancel := context.WithCancel(context.Background())
	c.Tick = func(phase string, s learn.Snapshot) {
		if phase == GreedyPhase {
			cancel()
		}
	}
	res, err := Run(ctx, c)
	if err == nil || len(res.Phases) != 1 || res.Phases[0].Name != TrainPhase {
		t.Fatalf("cancelled in play: %v, phases %+v", err, res.Phases)
	}
}
