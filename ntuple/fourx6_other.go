//go:build !amd64

package ntuple

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
