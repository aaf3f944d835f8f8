package ntuple

import "testing"

// BenchmarkWalkTC: EachCanonical of a 4x6 TC network's weights and
// accumulators (what a save reads), dense and packed.
func BenchmarkWalkTC(b *testing.B) {
	n := MustNew("4x6")
	defer n.Free()
	n.EnableCoherence()
	sink := float32(0)
	f := func(c []float32) error { sink += c[0]; return nil }
	for _, packed := range []bool{false, true} {
		if packed {
			n.Pack()
		}
		name := map[bool]string{false: "dense", true: "packed"}[packed]
		b.Run(name, func(b *testing.B) {
			for range b.N {
				n.EachCanonical(false, f)
				n.EachCanonical(true, f)
			}
		})
	}
}
