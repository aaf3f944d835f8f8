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

// estimate4x6Plain is estimate4x6 with plain loads, for networks not
// shared by training goroutines (reading while nobody writes is no race):
// each pattern's table is a base pointer and a load is one instruction
// that also adds, about half the instructions of an atomic load.
func estimate4x6Plain(t *tab4x6, b board.Board) float32 {
	p0 := unsafe.Pointer(&t[0])
	p1 := unsafe.Pointer(&t[1<<24])
	p2 := unsafe.Pointer(&t[2<<24])
	p3 := unsafe.Pointer(&t[3<<24])
	im := b.Images()
	var s0, s1, s2, s3 float32
	for _, y := range im {
		x := uint64(y)
		s0 += *(*float32)(unsafe.Add(p0, uintptr(x&0xffffff)*4))
		s1 += *(*float32)(unsafe.Add(p1, uintptr(x>>16&0xffffff)*4))
		s2 += *(*float32)(unsafe.Add(p2, uintptr(x&0xfff|x>>4&0xfff000)*4))
		s3 += *(*float32)(unsafe.Add(p3, uintptr(x>>16&0xfff|x>>20&0xfff000)*4))
	}
	return s0 + s1 + s2 + s3
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

// index4x6 writes the 32 indices pattern-major, images in Images order,
// computing the images in registers.
func index4x6(b board.Board, dst []uint32, base uint32) []uint32 {
	x := (*[32]uint32)(dst)
	m, f, t := b.Mirror(), b.Flip(), b.Transpose()
	tf := t.Flip()
	im := [8]board.Board{b, m, f, f.Mirror(), t, t.Mirror(), tf, tf.Mirror()}
	for k, y := range &im {
		p, q, r, s := idx4x6(uint64(y))
		x[k], x[8+k], x[16+k], x[24+k] = base+p, base+q, base+r, base+s
	}
	return x[:]
}

// sum4x6 is Sum for the 32 indices of a 4x6 network nobody shares.
func sum4x6(t *tab4x6, x *[32]uint32) float32 {
	var s0, s1, s2, s3 float32
	for j := range 8 {
		s0 += t[x[j]&(4<<24-1)]
		s1 += t[x[8+j]&(4<<24-1)]
		s2 += t[x[16+j]&(4<<24-1)]
		s3 += t[x[24+j]&(4<<24-1)]
	}
	return s0 + s1 + s2 + s3
}

// add4x6 is Add for the 32 indices of a 4x6 network nobody shares.
func add4x6(t *tab4x6, x *[32]uint32, d float32) float32 {
	var v float32
	for p := 0; p < 32; p += 8 {
		var s float32
		for _, i := range x[p : p+8] {
			w := &t[i&(4<<24-1)]
			*w += d
			s += *w
		}
		v += s
	}
	return v
}

// EstimateBatch sets out[k] to Estimate(bs[k]) for every k, bit for bit,
// but faster than one call each: it computes all the indices before it
// loads any weight, so that the cache misses of all boards overlap.
func (n *Network) EstimateBatch(bs []board.Board, out []float32) {
	if n.kind != kind4x6 || len(bs) > 4 {
		for k, b := range bs {
			out[k] = n.Estimate(b)
		}
		return
	}
	var idx [4 * 32]uint32
	for k, b := range bs {
		index4x6(b, idx[32*k:], 0)
	}
	prefetch(unsafe.Pointer(&n.w[0]), idx[:32*len(bs)])
	for k := range bs {
		out[k] = n.Sum(idx[32*k : 32*k+32])
	}
}

// Prefetch starts loading the weights at the indices x into the cache,
// without waiting for them: call it on indices well before Sum or Add reads
// them, so that their cache misses overlap other work.
// Any index is safe: a prefetch is a hint that never faults.
func (n *Network) Prefetch(x []uint32) {
	if len(x) > 0 && len(n.w) > 0 {
		prefetch(unsafe.Pointer(&n.w[0]), x)
	}
}

// EstimateMany sets out[k] to Estimate(bs[k]) for every k, bit for bit,
// for batches of any size: it computes and prefetches the indices of the
// next few boards while it sums the current ones, so that the cache misses
// of the whole batch overlap.
func (n *Network) EstimateMany(bs []board.Board, out []float32) {
	if n.kind != kind4x6 {
		for k, b := range bs {
			out[k] = n.Estimate(b)
		}
		return
	}
	const chunk = 8
	var idx [2][chunk * 32]uint32
	p := unsafe.Pointer(&n.w[0])
	fill := func(buf *[chunk * 32]uint32, from int) {
		to := min(from+chunk, len(bs))
		for k := from; k < to; k++ {
			index4x6(bs[k], buf[32*(k-from):], 0)
		}
		prefetch(p, buf[:32*(to-from)])
	}
	fill(&idx[0], 0)
	for from, c := 0, 0; from < len(bs); from, c = from+chunk, c^1 {
		if from+chunk < len(bs) {
			fill(&idx[c^1], from+chunk)
		}
		to := min(from+chunk, len(bs))
		for k := from; k < to; k++ {
			out[k] = n.Sum(idx[c][32*(k-from) : 32*(k-from)+32])
		}
	}
}
