package ntuple

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/td2048/td2048/board"
)

// storageOf is where weight i of n in canonical order (stage, pattern and
// canonical index, as files hold them) is kept.
func storageOf(n *Network, i int) int { return remap(n, i, n.StorageIndex) }

// canonicalOf is storageOf's inverse.
func canonicalOf(n *Network, s int) int { return remap(n, s, n.CanonicalIndex) }

// remap applies m to the index of weight i within its table.
func remap(n *Network, i int, m func(p int, i uint32) uint32) int {
	k, r := i/n.stage, i%n.stage
	p := len(n.pats) - 1
	for p > 0 && int(n.pats[p].off) > r {
		p--
	}
	off := int(n.pats[p].off)
	return k*n.stage + off + int(m(p, uint32(r-off)))
}

// TestLayoutBijection: each 4x6 table's storage order is a permutation of
// its canonical indices, CanonicalIndex undoes StorageIndex, and the chosen
// bits land at the bottom, the others in order above them.
func TestLayoutBijection(t *testing.T) {
	four := newLayout(lay4x6[:])
	for p, low := range lay4x6 {
		seen := make([]bool, 1<<24)
		st, cn := four.store[p], four.canon[p]
		for i := range uint32(1 << 24) {
			s := st.at(i)
			if s >= 1<<24 || seen[s] {
				t.Fatalf("pattern %d: index %x goes to %x twice or out of range", p, i, s)
			}
			seen[s] = true
			if c := cn.at(s); c != i {
				t.Fatalf("pattern %d: %x to %x and back to %x", p, i, s, c)
			}
		}
		// A hand check: the lowest chosen bit alone is storage bit 0, and
		// the lowest bit not chosen is storage bit 4.
		lowest := low & -low
		if s := st.at(lowest); s != 1 {
			t.Errorf("pattern %d: chosen bit %x stored at %x, want 1", p, lowest, s)
		}
		free := ^low & 0xffffff // the lowest bit not in low
		free &= -free
		if s := st.at(free); s != 0x10 {
			t.Errorf("pattern %d: free bit %x stored at %x, want 0x10", p, free, s)
		}
	}
}

// TestLayoutAssembly: the assembly's indices of every image are the
// storage indices of the canonical ones the Go reader computes, with each
// pattern's table offset and the base.
func TestLayoutAssembly(t *testing.T) {
	if !have4x6asm {
		t.Skip("no 4x6 assembly on this processor")
	}
	rng := rand.New(rand.NewPCG(7, 7))
	n := &Network{lay: newLayout(lay4x6[:])}
	for range 20000 {
		b := board.Board(rng.Uint64())
		base := uint32(rng.IntN(4)) << 26
		var got, canon [32]uint32
		index4x6(b, got[:], base)
		index4x6go(b, canon[:], base)
		for j, c := range canon {
			p := j / 8
			want := base + uint32(p)<<24 + n.StorageIndex(p, c-base-uint32(p)<<24)
			if got[j] != want {
				t.Fatalf("%s: index %d is %x, want %x (canonical %x)", b.Hex(), j, got[j], want, c)
			}
		}
	}
}

// TestCanonicalRoundTrip: weights written canonically by FillCanonical
// read back by EachCanonical and CanonicalTable in the
// same order, and value boards as a canonical network does.
func TestCanonicalRoundTrip(t *testing.T) {
	n := MustNew("4x6")
	defer n.Free()
	g := MustNew("012345,456789,012456,45689a/iso") // canonical, generic reader
	g.kind, g.avx = kindGeneric, nil
	defer g.Free()
	rng := rand.New(rand.NewPCG(8, 8))
	for i := range g.w {
		if rng.IntN(50) == 0 {
			g.w[i] = float32(rng.NormFloat64())
		}
	}
	at := 0
	if err := n.FillCanonical(false, func(f []float32) error {
		at += copy(f, g.w[at:])
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	for range 3000 {
		b := board.Board(rng.Uint64())
		if n.Estimate(b) != g.Estimate(b) {
			t.Fatalf("%s: %v, canonical %v", b.Hex(), n.Estimate(b), g.Estimate(b))
		}
	}
	var back []float32
	n.EachCanonical(false, func(f []float32) error {
		back = append(back, f...)
		return nil
	})
	if !slices.Equal(back, g.w) {
		t.Fatal("EachCanonical does not give back what FillCanonical took")
	}
	if !slices.Equal(n.CanonicalTable(0, 2), g.StageTable(0, 2)) {
		t.Fatal("CanonicalTable differs")
	}
}
