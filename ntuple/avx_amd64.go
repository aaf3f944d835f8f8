package ntuple

import "golang.org/x/sys/cpu"

// index4x6avx is index4x6asm by AVX-512, with the tables t.
//
//go:noescape
func index4x6avx(w *float32, bs *uint64, n int, dst *uint32, t *avxTables)

// indexAVX is indexPEXT by AVX-512 with the tables t of npat patterns
// (buildPatternAVX), bit for bit; indexPrefetchAVX also prefetches each
// index's weight at w.
//
//go:noescape
func indexAVX(w *float32, b uint64, t *avxGroup, offs *uint32, npat int, dst *uint32)

//go:noescape
func indexPrefetchAVX(w *float32, b uint64, t *avxGroup, offs *uint32, npat int, dst *uint32)

// indexPrefetch3AVX is indexPrefetchAVX for a packed array w (packed.go):
// weight i's line at w[3i].
//
//go:noescape
func indexPrefetch3AVX(w *float32, b uint64, t *avxGroup, offs *uint32, npat int, dst *uint32)

// haveAVX reports whether the processor runs the AVX-512 index code.
var haveAVX = cpu.X86.HasAVX512F && cpu.X86.HasAVX512BW && cpu.X86.HasAVX512VBMI

// avx4x6 are the tables of the 4x6 network's layout; nil where the
// processor lacks AVX-512 F, BW or VBMI.
var avx4x6 = func() *avxTables {
	if !have4x6asm || !haveAVX {
		return nil
	}
	return buildAVX(lay4x6)
}()

// indexN4x6 is index4x6asm, by AVX-512 where it runs.
func indexN4x6(w *float32, bs *uint64, n int, dst *uint32) {
	if avx4x6 != nil {
		index4x6avx(w, bs, n, dst, avx4x6)
		return
	}
	index4x6asm(w, bs, n, dst)
}

// estimateN4x6 is estimateN4x6asm (up to 4 boards), its indices by
// AVX-512 where it runs.
func estimateN4x6(w *float32, bs *uint64, n int, out *float32) {
	if avx4x6 != nil {
		var x [4 * 32]uint32
		index4x6avx(w, bs, n, &x[0], avx4x6)
		sumIndex4x6asm(w, &x[0], n, out)
		return
	}
	estimateN4x6asm(w, bs, n, out)
}

// indexPrefetchAVXh is indexPrefetchAVX for compact weights at w (weight
// i at w[i], 2 bytes).
//
//go:noescape
func indexPrefetchAVXh(w *int16, b uint64, t *avxGroup, offs *uint32, npat int, dst *uint32)

// index4x6avxh is index4x6avx for a compact network: each weight
// prefetched at w, 2 bytes a weight.
//
//go:noescape
func index4x6avxh(w *int16, bs *uint64, n int, dst *uint32, t *avxTables)
