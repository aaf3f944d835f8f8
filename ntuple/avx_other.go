//go:build !amd64

package ntuple

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
