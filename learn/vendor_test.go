package learn

import (
	"context"
	"math"
	"testing"

	"github.com/td2048/td2048/ntuple"
)

// TestDefaultInterleaveIgnoresVendor: the default episodes in turn
// (FastestInterleave, the train command's) do not follow the processor's
// vendor, so that a seeded run of one thread trains the same weights on
// every processor: with each vendor's answer forced, the default and the
// weights it trains are the same.
func TestDefaultInterleaveIgnoresVendor(t *testing.T) {
	defer func(v func() string) { cpuVendor = v }(cpuVendor)
	var first []float32
	for _, v := range []string{"GenuineIntel", "AuthenticAMD", "", "HygonGenuine"} {
		cpuVendor = func() string { return v }
		net := ntuple.MustNew("0123,4567")
		k := FastestInterleave(net, AfterState, Shaping{})
		if k != DefaultInterleave {
			t.Errorf("%q: %d episodes in turn by default, want %d", v, k, DefaultInterleave)
		}
		if _, _, err := Train(context.Background(), net, Config{Episodes: 300, Seed: 5, Threads: 1, Interleave: k, StopEvery: ExactStops, Every: 100}); err != nil {
			t.Fatal(err)
		}
		w := net.Weights()
		if first == nil {
			first = append([]float32(nil), w...)
			continue
		}
		for i := range w {
			if math.Float32bits(w[i]) != math.Float32bits(first[i]) {
				t.Fatalf("%q: weight %d is %v, %v with the first vendor", v, i, w[i], first[i])
			}
		}
	}
}
