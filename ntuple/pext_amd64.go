package ntuple

import "golang.org/x/sys/cpu"

// indexPEXT writes the indices of b's eight images (board.Images order)
// in each of npat patterns to dst, pattern-major as IndexStage writes
// them: pattern p's index of an image is PEXT(image, masks[2p]) << 4 |
// PEXT(image, masks[2p+1]), plus offs[p], which is the pattern's storage
// index (layout.go) for imageMasks of its ascending cells (cell c is bits
// 4c..4c+3). npat must be at least 1.
//
//go:noescape
func indexPEXT(w *float32, b uint64, masks *uint64, offs *uint32, npat int, dst *uint32)

// indexPrefetchPEXT is indexPEXT that also prefetches each index's weight
// at w.
//
//go:noescape
func indexPrefetchPEXT(w *float32, b uint64, masks *uint64, offs *uint32, npat int, dst *uint32)

// indexPrefetch3PEXT is indexPEXT that also prefetches each index's
// weight in the packed array p (weight i at p[3i], packed.go).
//
//go:noescape
func indexPrefetch3PEXT(p *float32, b uint64, masks *uint64, offs *uint32, npat int, dst *uint32)

var havePEXT = cpu.X86.HasBMI2

// sum8 is Network.Sum, bit for bit, for npat patterns of 8 images whose
// indices x holds, every one in range of w (not checked).
//
//go:noescape
func sum8(w *float32, x *uint32, npat int) float32

const haveSum8 = true

// sum8p is sum8 on a packed array (weight i at p[3i]).
//
//go:noescape
func sum8p(w *float32, x *uint32, npat int) float32

// indexPrefetchPEXTh is indexPrefetchPEXT for compact weights at w.
//
//go:noescape
func indexPrefetchPEXTh(w *int16, b uint64, masks *uint64, offs *uint32, npat int, dst *uint32)

// sum8h is the value of a compact network (compact.go) at the npat x 8
// indices x (pattern-major, every one in range of w), pattern p's integer
// sum scaled by s[p].
//
//go:noescape
func sum8h(w *int16, x *uint32, npat int, s *float32) float32
