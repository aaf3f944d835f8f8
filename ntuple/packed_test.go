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
