package ntuple

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/td2048/td2048/board"
)

// TestPackedMatchesApart: the same updates on a coherent network kept
// apart, packed, and packed and shared (relaxed assembly) return the same
// values and leave the same weights and accumulators, bit for bit; so do
// Sum, Estimate and a stage copy.
func TestPackedMatchesApart(t *testing.T) {
	for _, spec := range []string{"0123,4567,0145,1256@0,64", "0123,4567,0145/noiso"} {
		mk := func() *Network {
			n := MustNew(spec)
			n.Optimistic(500)
			n.EnableCoherence()
			return n
		}
		apart, packed, shared := mk(), mk(), mk()
		packed.Pack()
		shared.Share()
		shared.Pack()
		if apart.Packed() || !packed.Packed() || !shared.Packed() {
			t.Fatal("packing")
		}
		rng := rand.New(rand.NewPCG(4, 4))
		for step := range 3000 {
			b := board.Board(rng.Uint64())
			k := rng.IntN(apart.StageCount())
			u := float32(rng.NormFloat64() * 100)
			var x [MaxPatterns * 8]uint32
			idx := apart.IndexStage(k, b, x[:])
			v := [3]float32{apart.Add(idx, u), packed.Add(idx, u), shared.Add(idx, u)}
			e := [3]float32{apart.EstimateStage(k, b), packed.EstimateStage(k, b), shared.EstimateStage(k, b)}
			if v[0] != v[1] || v[0] != v[2] || e[0] != e[1] || e[0] != e[2] || apart.Sum(idx) != packed.Sum(idx) {
				t.Fatalf("%s step %d: updates %v, estimates %v", spec, step, v, e)
			}
			if step == 1500 && apart.StageCount() > 1 {
				apart.CopyStage(1, 0)
				packed.CopyStage(1, 0)
				shared.CopyStage(1, 0)
			}
		}
		for _, n := range []*Network{packed, shared} {
			if !slices.EqualFunc(apart.Weights(), n.Weights(), same32) || !slices.EqualFunc(apart.Accumulators(), n.Accumulators(), same32) {
				t.Fatalf("%s: weights or accumulators differ", spec)
			}
			n.Unpack()
			if n.Packed() || !slices.EqualFunc(apart.Weights(), n.Weights(), same32) {
				t.Fatalf("%s: unpacked weights differ", spec)
			}
		}
	}
}

func same32(a, b float32) bool { return math.Float32bits(a) == math.Float32bits(b) }

// canonical returns n's weights (acc false) or accumulators in canonical
// order, through EachCanonical.
func canonical(t *testing.T, n *Network, acc bool) []float32 {
	out := make([]float32, 0, 2*n.Spec().Weights())
	if err := n.EachCanonical(acc, func(c []float32) error { out = append(out, c...); return nil }); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestPackedCanonical: a packed network (one pattern in cache-line order,
// one canonical, two stages) gives the same weights and accumulators to
// EachCanonical as unpacked, takes FillCanonical's into its packed array,
// and finds non-finite weights and accumulators there.
func TestPackedCanonical(t *testing.T) {
	n := MustNew("012456,0123@0,64")
	defer n.Free()
	if n.lay == nil || n.lay.store[0] == nil || n.lay.store[1] != nil {
		t.Fatal("want a network with one pattern in cache-line order and one canonical")
	}
	rng := rand.New(rand.NewPCG(7, 7))
	for i := range n.w {
		n.w[i] = float32(rng.IntN(1000))
	}
	n.EnableCoherence()
	for range 2000 {
		n.UpdateStage(rng.IntN(2), board.Board(rng.Uint64()), float32(rng.NormFloat64()*50))
	}
	wantW, wantA := canonical(t, n, false), canonical(t, n, true)
	n.Pack()
	if gotW, gotA := canonical(t, n, false), canonical(t, n, true); !slices.EqualFunc(gotW, wantW, same32) || !slices.EqualFunc(gotA, wantA, same32) {
		t.Fatal("packed EachCanonical differs from unpacked")
	}
	if n.FirstNonFinite() != -1 {
		t.Fatal("FirstNonFinite on finite weights")
	}
	// Fill with new values while packed; they must be what Unpack leaves.
	for i := range wantW {
		wantW[i] = -wantW[i] - 1
	}
	for i := range wantA {
		wantA[i] += 3
	}
	fill := func(src []float32) func([]float32) error {
		return func(c []float32) error { src = src[copy(c, src):]; return nil }
	}
	if err := n.FillCanonical(false, fill(wantW)); err != nil {
		t.Fatal(err)
	}
	if err := n.FillCanonical(true, fill(wantA)); err != nil {
		t.Fatal(err)
	}
	s := n.StorageIndex(0, 0x123456) // canonical 0x123456 of pattern 0, stage 0
	n.p[3*s+2] = float32(math.Inf(1))
	if got := n.FirstNonFinite(); got != int(s) {
		t.Fatalf("infinite A of weight %d: FirstNonFinite %d", s, got)
	}
	n.p[3*(s+1)] = float32(math.NaN())
	if got := n.FirstNonFinite(); got != int(s+1) {
		t.Fatalf("NaN weight %d before an infinite A: FirstNonFinite %d", s+1, got)
	}
	n.p[3*s+2], n.p[3*(s+1)] = wantA[2*0x123456+1], wantW[n.CanonicalIndex(0, s+1)]
	n.Unpack()
	if gotW, gotA := canonical(t, n, false), canonical(t, n, true); !slices.EqualFunc(gotW, wantW, same32) || !slices.EqualFunc(gotA, wantA, same32) {
		t.Fatal("weights filled while packed are not what Unpack leaves")
	}
}
