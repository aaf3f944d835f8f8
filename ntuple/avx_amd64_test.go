package ntuple

import (
	"math/rand/v2"
	"os"
	"strings"
	"testing"
)

// TestIndex4x6AVX: the assembly writes index4x6asm's indices, bit for bit.
func TestIndex4x6AVX(t *testing.T) {
	if avx4x6 == nil {
		t.Skip("no AVX-512 VBMI")
	}
	r := rand.New(rand.NewPCG(1, 2))
	var bs [4]uint64
	for i := range 50000 {
		for j := range bs {
			bs[j] = r.Uint64()
		}
		k := 1 + i%4
		var want, got [128]uint32
		index4x6asm(nil, &bs[0], k, &want[0])
		index4x6avx(nil, &bs[0], k, &got[0], avx4x6)
		if want != got {
			for j := range want {
				if want[j] != got[j] {
					t.Fatalf("board %#x: index %d is %#x, want %#x", bs[j/32], j%32, got[j], want[j])
				}
			}
		}
	}
}

// TestEstimateN4x6: the AVX-512 indices sum to estimateN4x6asm's values.
func TestEstimateN4x6(t *testing.T) {
	if avx4x6 == nil {
		t.Skip("no AVX-512 VBMI")
	}
	n := MustNew("4x6")
	r := rand.New(rand.NewPCG(3, 4))
	for i := range n.w {
		if i%97 == 0 {
			n.w[i] = r.Float32()
		}
	}
	var bs [4]uint64
	for i := range 20000 {
		for j := range bs {
			bs[j] = r.Uint64() & 0x3333333333333333
		}
		k := 1 + i%4
		var want, got [4]float32
		estimateN4x6asm(&n.w[0], &bs[0], k, &want[0])
		estimateN4x6(&n.w[0], &bs[0], k, &got[0])
		if want != got {
			t.Fatalf("boards %x: %v, want %v", bs[:k], got, want)
		}
	}
}

// BenchmarkIndex4x6: three after-states' indices, their weights in the
// cache (tiles 0 and 1 only), by the scalar assembly and by AVX-512.
func BenchmarkIndex4x6(b *testing.B) {
	n := MustNew("4x6")
	r := rand.New(rand.NewPCG(5, 6))
	bs := make([]uint64, 1024)
	for i := range bs {
		bs[i] = r.Uint64() & 0x1111111111111111
	}
	var dst [128]uint32
	b.Run("asm", func(b *testing.B) {
		for i := range b.N {
			index4x6asm(&n.w[0], &bs[i&1020], 3, &dst[0])
		}
	})
	if avx4x6 == nil {
		return
	}
	b.Run("avx512", func(b *testing.B) {
		for i := range b.N {
			index4x6avx(&n.w[0], &bs[i&1020], 3, &dst[0], avx4x6)
		}
	})
}

// TestIndexAVX: indexAVX, indexPrefetchAVX and indexPrefetch3AVX write IndexStage's PEXT
// indices, bit for bit, for each stage of networks of every size, and
// the 4x6 network's the PEXT assembly's.
func TestIndexAVX(t *testing.T) {
	if !haveAVX || !havePEXT {
		t.Skip("no AVX-512 VBMI")
	}
	for _, name := range []string{"8x6@0,16384", "5x6", "4x6@0,2048", "8x4", "2x4"} {
		n := MustNew(name)
		if n.masks == nil && n.kind != kind4x6 { // read in Go (not ascending)
			if n.avx != nil {
				t.Errorf("%s: AVX-512 tables for a network read in Go", name)
			}
			continue
		}
		if n.avx == nil {
			t.Fatalf("%s: no AVX-512 tables", name)
		}
		np := len(n.pats)
		r := rand.New(rand.NewPCG(9, 10))
		for range 3000 {
			b := r.Uint64()
			for k := range n.spec.StageCount() {
				var want, got, pf [MaxPatterns * 8]uint32
				if n.masks != nil {
					indexPEXT(nil, b, &n.masks[0], &n.offs[k*np], np, &want[0])
				} else {
					index4x6pm(b, &want[0], uint32(k*n.stage))
				}
				indexAVX(nil, b, &n.avx[0], &n.offs[k*np], np, &got[0])
				indexPrefetchAVX(&n.w[0], b, &n.avx[0], &n.offs[k*np], np, &pf[0])
				var pf3 [MaxPatterns * 8]uint32
				indexPrefetch3AVX(&n.w[0], b, &n.avx[0], &n.offs[k*np], np, &pf3[0])
				if got != want || pf != want || pf3 != want {
					t.Fatalf("%s stage %d board %#x: %x / %x / %x, want %x", name, k, b, got[:np*8], pf[:np*8], pf3[:np*8], want[:np*8])
				}
			}
		}
	}
}

// TestIndexCodeGODEBUG: GODEBUG=cpu.avx512f=off, which CI sets for a
// second pass, does turn the AVX-512 indices off.
func TestIndexCodeGODEBUG(t *testing.T) {
	off := strings.Contains(os.Getenv("GODEBUG"), "cpu.avx512f=off")
	if off && (IndexCode() == "AVX-512" || avx4x6 != nil) {
		t.Fatal("GODEBUG=cpu.avx512f=off left the AVX-512 indices on")
	}
	if !off && haveAVX && havePEXT && MustNew("8x6").avx == nil {
		t.Fatal("an 8x6 network without AVX-512 tables on a processor with AVX-512")
	}
}
