package main

import (
	"fmt"
	"testing"
	"unsafe"

	"github.com/td2048/td2048/board"
	"github.com/td2048/td2048/netfile"
	"github.com/td2048/td2048/ntuple"
	"github.com/td2048/td2048/rules/game2048"
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
		if !r.check(len(a), stride) || r.check(0, stride) {
			t.Fatalf("stride %d: check", stride)
		}
		before := uint64(0)
		for _, v := range a {
			before += uint64(v)
		}
		r.replay(a, stride, r.moves, false)
		same := uint64(0)
		for _, v := range a {
			same += uint64(v)
		}
		if same != before {
			t.Errorf("stride %d: a replay as play wrote", stride)
		}
		r.replay(a, stride, r.moves, true)
		after := uint64(0)
		for _, v := range a {
			after += uint64(v)
		}
		if want := uint64(len(r.moves)*r.lookups) * uint64(stride); after-before != want {
			t.Errorf("stride %d: the replay added %d, want %d (a write per chosen weight and accumulator)", stride, after-before, want)
		}
		if v := r.rate(a, stride, 2, true); v <= 0 {
			t.Errorf("stride %d: rate %v", stride, v)
		}
	}
}

// TestReplayCompact: a replay of 16-bit weights reads the two bytes of
// each weight at its index, the words of 32-bit weights whole.
func TestReplayCompact(t *testing.T) {
	net := ntuple.MustNew("0123,4567")
	defer net.Free()
	r := record(net, 2, 1)
	a := table(len(net.Weights()))
	h := unsafe.Slice((*uint16)(unsafe.Pointer(&a[0])), 2*len(a))
	var want16, want32 uint32
	for _, i := range r.idx {
		want16 += uint32(h[i])
		want32 += a[i]
	}
	if got := r.replay(a, 1, r.moves, false); got != want32 {
		t.Errorf("32-bit replay read %d, want %d", got, want32)
	}
	r.compact = true
	if got := r.replay(a, 1, r.moves, false); got != want16 {
		t.Errorf("16-bit replay read %d, want %d", got, want16)
	}
}

// TestCanonical: a recording made on a network in cache-line order,
// turned canonical, holds the indices of a network in canonical order.
func TestCanonical(t *testing.T) {
	net := ntuple.MustNew("4x6")
	defer net.Free()
	if net.Canonical() {
		t.Skip("this network keeps canonical order here")
	}
	r := record(net, 1, 1)
	got := append([]uint32(nil), r.idx...)
	r.canonical(net)
	changed := 0
	for j := range got {
		if got[j] != r.idx[j] {
			changed++
		}
	}
	if changed == 0 {
		t.Fatal("no index moved")
	}
	w := net.Weights()
	for p := range net.Spec().Patterns {
		t0 := net.StageTable(0, p)
		off := uint32((uintptr(unsafe.Pointer(&t0[0])) - uintptr(unsafe.Pointer(&w[0]))) / 4)
		for j, s := range got {
			if s >= off && s < off+uint32(len(t0)) && net.StorageIndex(p, r.idx[j]-off) != s-off {
				t.Fatalf("lookup %d: storage %d, canonical %d does not map back", j, s, r.idx[j])
			}
		}
	}
}

// TestLeaves: a 2-ply move records each distinct leaf below each chance
// node once (written out plainly here), with its indices.
func TestLeaves(t *testing.T) {
	net := ntuple.MustNew("0123,4567")
	defer net.Free()
	b, err := board.Parse("2,2,0,4,0,8,0,0,0,0,0,0,0,0,0,2")
	if err != nil {
		t.Fatal(err)
	}
	var r recording
	r.lookups = net.Lookups()
	buf := make([]uint32, r.lookups)
	r.leaves(net, b, buf, map[board.Board]bool{})
	want := map[string]int{}
	n := 0
	for d := range 4 {
		a, _, ok := game2048.Move(b, d)
		if !ok {
			continue
		}
		a = a.Canonical()
		node := map[board.Board]bool{}
		for i := range 16 {
			if a.At(i) != 0 {
				continue
			}
			for _, tile := range []int{1, 2} {
				c := a.Set(i, tile)
				for d2 := range 4 {
					if l, _, ok := game2048.Move(c, d2); ok && !node[l] {
						node[l] = true
						want[fmt.Sprint(net.Index(l, make([]uint32, r.lookups)))]++
						n++
					}
				}
			}
		}
	}
	if len(r.moves) != 1 || r.moves[0].n != n || len(r.idx) != n*r.lookups {
		t.Fatalf("moves %+v, %d indices; want one move of %d leaves", r.moves, len(r.idx), n)
	}
	for j := 0; j < len(r.idx); j += r.lookups {
		k := fmt.Sprint(r.idx[j : j+r.lookups])
		if want[k] == 0 {
			t.Fatalf("leaf %d: indices %s not among the leaves", j/r.lookups, k)
		}
		want[k]--
	}
}

// TestRecord2: 2-ply games record every move, each with leaves.
func TestRecord2(t *testing.T) {
	net := ntuple.MustNew("0123,4567")
	defer net.Free()
	r := record2(net, 1, 1)
	if len(r.moves) < 20 {
		t.Fatalf("%d moves in a game", len(r.moves))
	}
	n := 0
	for i, m := range r.moves {
		if m.off != n*r.lookups || m.n < 1 || m.chosen != 0 {
			t.Fatalf("move %d: %+v after %d leaves", i, m, n)
		}
		n += m.n
	}
	if len(r.idx) != n*r.lookups || !r.check(len(net.Weights()), 1) {
		t.Fatalf("%d indices for %d leaves", len(r.idx), n)
	}
}

// TestFits: Threes! and V(state) weights are refused, 2048 after-state
// weights (and headerless reference files) taken.
func TestFits(t *testing.T) {
	for _, c := range []struct {
		h  netfile.Header
		ok bool
	}{
		{netfile.Header{Game: "2048", Learner: "after"}, true},
		{netfile.Header{}, true},
		{netfile.Header{Game: "threes", Learner: "after"}, false},
		{netfile.Header{Game: "2048", Learner: "state"}, false},
	} {
		t.Run(c.h.Game+" "+c.h.Learner, func(t *testing.T) {
			if err := fits("w", c.h); (err == nil) != c.ok {
				t.Errorf("%+v: %v", c.h, err)
			}
		})
	}
}
