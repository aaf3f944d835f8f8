package learn

import (
	"math/rand/v2"
	"testing"
	"unsafe"
)

// TestNewRandIsAlone: NewRand's generators are rand.NewPCG's, each on cache
// lines of its own: two allocated one after the other (as Train allocates
// its threads') are at least two lines apart.
func TestNewRandIsAlone(t *testing.T) {
	var prev uintptr
	for k := range 16 {
		r := NewRand(9, uint64(k))
		want := rand.NewPCG(Mix(9, uint64(k)), Mix(^uint64(9), uint64(k)))
		for range 3 {
			if a, b := r.Uint64(), want.Uint64(); a != b {
				t.Fatalf("stream %d: %x, want %x", k, a, b)
			}
		}
		p := uintptr(unsafe.Pointer(r))
		if p%cacheLinePad != 0 {
			t.Errorf("stream %d: generator at %#x, not on a %d-byte boundary", k, p, cacheLinePad)
		}
		if k > 0 && (p > prev && p-prev < cacheLinePad || prev > p && prev-p < cacheLinePad) {
			t.Errorf("streams %d and %d: generators %d bytes apart", k-1, k, int64(p)-int64(prev))
		}
		prev = p
	}
}
