package ntuple

import (
	"math"
	"sync/atomic"
	"unsafe"

	"td2048/board"
)

// The 4x6 network (012345 456789 012456 45689a) read with fixed masks: on
// an image x the patterns are x&0xffffff, x>>16&0xffffff,
// x&0xfff|x>>4&0xfff000 and x>>16&0xfff|x>>20&0xfff000. The table pointer
// has the network's exact size, so no index needs a bounds check.

type tab4x6 = [4 << 24]float32

func idx4x6(x uint64) (a, b, c, d uint32) {
	return uint32(x) & 0xffffff,
		1<<24 | uint32(x>>16)&0xffffff,
		2<<24 | uint32(x)&0xfff | uint32(x>>4)&0xfff000,
		3<<24 | uint32(x>>16)&0xfff | uint32(x>>20)&0xfff000
}

func load4x6(t *tab4x6, i uint32) float32 {
	return math.Float32frombits(atomic.LoadUint32((*uint32)(unsafe.Pointer(&t[i&(4<<24-1)]))))
}

func estimate4x6(t *tab4x6, b board.Board) float32 {
	im := b.Images()
	var s0, s1, s2, s3 float32
	for _, x := range im {
		a, b, c, d := idx4x6(uint64(x))
		s0 += load4x6(t, a)
		s1 += load4x6(t, b)
		s2 += load4x6(t, c)
		s3 += load4x6(t, d)
	}
	return s0 + s1 + s2 + s3
}

func index4x6(b board.Board, dst []uint32, base uint32) []uint32 {
	im := b.Images()
	x := (*[32]uint32)(dst)
	for k, y := range im {
		p, q, r, s := idx4x6(uint64(y))
		x[k], x[8+k], x[16+k], x[24+k] = base+p, base+q, base+r, base+s
	}
	return x[:]
}
