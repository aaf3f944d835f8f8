//go:build !amd64

package ntuple

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
