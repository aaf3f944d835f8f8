package main

import (
	"testing"

	"github.com/td2048/td2048/ntuple"
)

// TestRecordReplay: the recording holds every legal candidate of every
// move of the games, the chosen among them, and a replay writes each
// chosen weight (with TC its two accumulators) once per move.
func TestRecordReplay(t *testing.T) {
	net := ntuple.MustNew("0123,4567")
	defer net.Free()
	r := record(net, 3, 1)
	if len(r.moves) < 3*50 {
		t.Fatalf("%d moves in 3 games", len(r.moves))
	}
	n := 0
	for i, m := range r.moves {
		if m.off != n*r.lookups || m.n < 1 || m.n > 4 || m.chosen < 0 || m.chosen >= m.n {
			t.Fatalf("move %d: %+v after %d candidates", i, m, n)
		}
		n += m.n
	}
	if len(r.idx) != n*r.lookups {
		t.Fatalf("%d indices for %d candidates of %d lookups", len(r.idx), n, r.lookups)
	}
	for _, stride := range []uint32{1, 3} {
		a := table(len(net.Weights()) * int(stride))
		before := uint64(0)
		for _, v := range a {
			before += uint64(v)
		}
		r.replay(a, stride, r.moves)
		after := uint64(0)
		for _, v := range a {
			after += uint64(v)
		}
		if want := uint64(len(r.moves)*r.lookups) * uint64(stride); after-before != want {
			t.Errorf("stride %d: the replay added %d, want %d (a write per chosen weight and accumulator)", stride, after-before, want)
		}
		if v := r.rate(a, stride, 2); v <= 0 {
			t.Errorf("stride %d: rate %v", stride, v)
		}
	}
}
