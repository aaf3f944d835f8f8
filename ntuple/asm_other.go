//go:build !amd64

package ntuple

// The assembly's stubs where there is none: the have* flags are false,
// so nothing calls the functions that panic.

import "unsafe"

const haveAVX = false

var avx4x6 *avxTables

func indexAVX(w *float32, b uint64, t *avxGroup, offs *uint32, npat int, dst *uint32) {
	panic("ntuple: no AVX-512")
}

func indexPrefetchAVX(w *float32, b uint64, t *avxGroup, offs *uint32, npat int, dst *uint32) {
	panic("ntuple: no AVX-512")
}

func indexPrefetch3AVX(w *float32, b uint64, t *avxGroup, offs *uint32, npat int, dst *uint32) {
	panic("ntuple: no AVX-512")
}

func indexN4x6(w *float32, bs *uint64, n int, dst *uint32)     { panic("ntuple: no 4x6 assembly") }
func estimateN4x6(w *float32, bs *uint64, n int, out *float32) { panic("ntuple: no 4x6 assembly") }

func indexPrefetchAVXh(w *int16, b uint64, t *avxGroup, offs *uint32, npat int, dst *uint32) {
	panic("ntuple: no AVX-512")
}

func index4x6avxh(w *int16, bs *uint64, n int, dst *uint32, t *avxTables) {
	panic("ntuple: no AVX-512")
}

func est4x6(w *float32, b uint64) float32            { panic("ntuple: no 4x6 assembly") }
func add4x6(w *float32, b uint64, d float32) float32 { panic("ntuple: no 4x6 assembly") }

func pf4x6(w *float32, b uint64) { panic("ntuple: no 4x6 assembly") }

const have4x6asm = false

func index4x6asm(w *float32, bs *uint64, n int, dst *uint32)    { panic("ntuple: no 4x6 assembly") }
func sumIndex4x6asm(w *float32, x *uint32, n int, out *float32) { panic("ntuple: no 4x6 assembly") }

func index4x6pm(b uint64, dst *uint32, base uint32) { panic("ntuple: no 4x6 assembly") }

func index4x6pm3(p *float32, b uint64, dst *uint32, base uint32) {
	panic("ntuple: no 4x6 assembly")
}

func sumIndex4x6h(w *int16, x *uint32, n int, out *float32, s *float32) {
	panic("ntuple: no 4x6 assembly")
}

const havePEXT = false

func indexPEXT(w *float32, b uint64, masks *uint64, offs *uint32, npat int, dst *uint32) {
	panic("ntuple: no PEXT assembly")
}

func indexPrefetchPEXT(w *float32, b uint64, masks *uint64, offs *uint32, npat int, dst *uint32) {
	panic("ntuple: no PEXT assembly")
}

func indexPrefetch3PEXT(p *float32, b uint64, masks *uint64, offs *uint32, npat int, dst *uint32) {
	panic("ntuple: no PEXT assembly")
}

const haveSum8 = false

func sum8(w *float32, x *uint32, npat int) float32 { panic("ntuple: no sum assembly") }

func sum8p(w *float32, x *uint32, npat int) float32 { panic("ntuple: no sum assembly") }

func indexPrefetchPEXTh(w *int16, b uint64, masks *uint64, offs *uint32, npat int, dst *uint32) {
	panic("ntuple: no PEXT assembly")
}

func sum8h(w *int16, x *uint32, npat int, s *float32) float32 { panic("ntuple: no sum assembly") }

// prefetch does nothing where td2048 has no prefetch instruction to use.
func prefetch(base unsafe.Pointer, idx []uint32) {}

func prefetch3(base unsafe.Pointer, idx []uint32) {}

func prefetch2(base unsafe.Pointer, idx []uint32) {}

func addRelaxed(w *float32, x []uint32, per int, d float32) float32 { panic("unreachable") }

const haveRelaxed = false

func addPackedRelaxed(p *float32, x []uint32, per int, d float32) float32 { panic("unreachable") }

// vendor is empty where td2048 does not ask the processor.
const vendor = ""
