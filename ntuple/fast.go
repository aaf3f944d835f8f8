package ntuple

import (
	"unsafe"

	"github.com/td2048/td2048/board"
)

// The 4x6 network (012345 456789 012456 45689a) read with fixed masks: on
// an image x the patterns' canonical indices are x&0xffffff,
// x>>16&0xffffff, x&0xfff|x>>4&0xfff000 and x>>16&0xfff|x>>20&0xfff000,
// each below 1<<24, so no lookup in a stage's tables needs a bounds check;
// the assembly reads the storage indices (layout.go) with PEXT, each also
// below 1<<24. The Go code here runs where there is no assembly, and with
// it the tables are in canonical order.

type tab4x6 = [4 << 24]float32

func idx4x6(x uint64) (a, b, c, d uint32) {
	return uint32(x) & 0xffffff,
		1<<24 | uint32(x>>16)&0xffffff,
		2<<24 | uint32(x)&0xfff | uint32(x>>4)&0xfff000,
		3<<24 | uint32(x>>16)&0xfff | uint32(x>>20)&0xfff000
}

// estimate4x6 is Estimate for networks not shared by training goroutines
// (reading while nobody writes is no race; shared networks read through
// Sum): each pattern's table is a base pointer, and a load is one
// instruction that also adds.
func estimate4x6(t *tab4x6, b board.Board) float32 {
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

// index4x6 writes the 32 indices pattern-major, images in Images order:
// storage indices (layout.go) in assembly where it runs, else canonical.
func index4x6(b board.Board, dst []uint32, base uint32) []uint32 {
	if have4x6asm {
		x := (*[32]uint32)(dst)
		index4x6pm(uint64(b), &x[0], base)
		return x[:]
	}
	return index4x6go(b, dst, base)
}

// index4x6go is index4x6 in Go, canonical, computing the images in
// registers.
func index4x6go(b board.Board, dst []uint32, base uint32) []uint32 {
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

// Prefetch starts loading the weights at the indices x into the cache,
// without waiting for them: call it on indices well before Sum or Add reads
// them, so that their cache misses overlap other work.
// Any index is safe: a prefetch is a hint that never faults.
func (n *Network) Prefetch(x []uint32) {
	if n.hs != nil {
		if len(x) > 0 && len(n.h) > 0 {
			prefetch2(unsafe.Pointer(&n.h[0]), x)
		}
		return
	}
	if n.p != nil {
		if len(x) > 0 {
			prefetch3(unsafe.Pointer(&n.p[0]), x)
		}
		return
	}
	if len(x) > 0 && len(n.w) > 0 {
		prefetch(unsafe.Pointer(&n.w[0]), x)
	}
}

// EstimateMany sets out[k] to Estimate(bs[k]) for every k, bit for bit,
// but faster than one call each: it computes and prefetches the indices of
// a few boards (all of a batch of up to 4) before it sums any, so that the
// cache misses of the batch overlap.
func (n *Network) EstimateMany(bs []board.Board, out []float32) { n.EstimateManyStage(0, bs, out) }

// EstimateManyStage is EstimateMany by the tables of stage k.
func (n *Network) EstimateManyStage(k int, bs []board.Board, out []float32) {
	if n.Direct() {
		if len(bs) == 0 {
			return
		}
		_ = out[len(bs)-1]
		w := &n.w[k*n.stage]
		bp := func(i int) *uint64 { return (*uint64)(unsafe.Pointer(&bs[i])) }
		const chunk = 4
		if len(bs) <= chunk { // a move's after-states: one call
			estimateN4x6(w, bp(0), len(bs), &out[0])
			return
		}
		// Indices of the next chunk computed and prefetched while the
		// current one is summed.
		var idx [2][chunk * 32]uint32
		indexN4x6(w, bp(0), min(chunk, len(bs)), &idx[0][0])
		for from, c := 0, 0; from < len(bs); from, c = from+chunk, c^1 {
			to := min(from+chunk, len(bs))
			if to < len(bs) {
				indexN4x6(w, bp(to), min(chunk, len(bs)-to), &idx[c^1][0])
			}
			sumIndex4x6asm(w, &idx[c][0], to-from, &out[from])
		}
		return
	}
	if n.hs == nil && len(n.w) <= cachedWeights {
		for i, b := range bs {
			out[i] = n.EstimateStage(k, b)
		}
		return
	}
	// Everywhere else, compact networks always: four boards at a time
	// fetched (their indices computed and every weight prefetched, in
	// assembly where there is some), each four's fetch before the last
	// four's sum.
	const chunk = 4
	if len(bs) <= chunk { // a move's after-states: one buffer to clear, not two
		var idx [chunk * MaxPatterns * 8]uint32
		n.Fetch(k, bs, idx[:])
		n.SumFetched(k, idx[:], out[:len(bs)])
		return
	}
	var idx [2][chunk * MaxPatterns * 8]uint32
	n.Fetch(k, bs[:chunk], idx[0][:])
	for from, c := 0, 0; from < len(bs); from, c = from+chunk, c^1 {
		to := min(from+chunk, len(bs))
		if to < len(bs) {
			n.Fetch(k, bs[to:min(to+chunk, len(bs))], idx[c^1][:])
		}
		n.SumFetched(k, idx[c][:], out[from:to])
	}
}

// cachedWeights is the most weights a network may hold for its lookups
// not to be prefetched (4 MB): small tables stay in the cache, where
// computing and prefetching the indices ahead costs more than it saves,
// while larger ones miss the cache and gain from the prefetches
// (docs/speed.md, "Thresholds and what they rest on").
const cachedWeights = 1 << 20

// sum4x6 is Sum for the 32 indices of a 4x6 network nobody shares: the
// four patterns summed side by side, each over its 8 images in order, so
// the value is the same, bit for bit, with four additions in flight.
func sum4x6(w []float32, x *[32]uint32) float32 {
	var s0, s1, s2, s3 float32
	for j := range 8 {
		s0 += w[x[j]]
		s1 += w[x[8+j]]
		s2 += w[x[16+j]]
		s3 += w[x[24+j]]
	}
	return s0 + s1 + s2 + s3
}

// Fetch writes the indices of each board of bs in stage k to dst,
// Lookups() per board, and starts loading their weights without waiting
// for them: the first half of EstimateManyStage. SumFetched is the second;
// in between, a caller does other work (another game's move) while the
// weights arrive. dst must hold len(bs)*Lookups() indices, in an order of
// the network's choosing: only SumFetched reads them, except that a
// network that is neither Direct nor compact writes Index's indices,
// board after board.
func (n *Network) Fetch(k int, bs []board.Board, dst []uint32) {
	if len(bs) == 0 {
		return
	}
	per := n.Lookups()
	_ = dst[len(bs)*per-1]
	if n.hs != nil {
		n.fetchQ(k, bs, dst)
		return
	}
	if n.Direct() {
		indexN4x6(&n.w[k*n.stage], (*uint64)(unsafe.Pointer(&bs[0])), len(bs), &dst[0])
		return
	}
	big := len(n.w) > cachedWeights
	if np := len(n.masks) / 2; np > 0 && big && n.p == nil {
		for i, b := range bs {
			if n.avx != nil {
				indexPrefetchAVX(&n.w[0], uint64(b), &n.avx[0], &n.offs[k*np], np, &dst[i*per])
				continue
			}
			indexPrefetchPEXT(&n.w[0], uint64(b), &n.masks[0], &n.offs[k*np], np, &dst[i*per])
		}
		return
	}
	if n.p != nil && big { // packed (TC): each board's weights asked for at once
		np := len(n.pats)
		switch {
		case n.avx != nil:
			for i, b := range bs {
				indexPrefetch3AVX(&n.p[0], uint64(b), &n.avx[0], &n.offs[k*np], np, &dst[i*per])
			}
			return
		case len(n.masks) > 0:
			for i, b := range bs {
				indexPrefetch3PEXT(&n.p[0], uint64(b), &n.masks[0], &n.offs[k*np], np, &dst[i*per])
			}
			return
		case n.kind == kind4x6 && have4x6asm:
			for i, b := range bs {
				index4x6pm3(&n.p[0], uint64(b), &dst[i*per], uint32(k*n.stage))
			}
			return
		}
	}
	for i, b := range bs {
		n.IndexStage(k, b, dst[i*per:])
	}
	if big {
		n.Prefetch(dst[:len(bs)*per])
	}
}

// SumFetched sets out[i], for i < len(out), to the value in stage k of the
// i-th board whose indices Fetch wrote to x: EstimateManyStage's values,
// bit for bit.
func (n *Network) SumFetched(k int, x []uint32, out []float32) {
	if len(out) == 0 {
		return
	}
	per := n.Lookups()
	_ = x[len(out)*per-1]
	if n.hs != nil {
		n.sumFetchedQ(k, x, out)
		return
	}
	if n.Direct() {
		sumIndex4x6asm(&n.w[k*n.stage], &x[0], len(out), &out[0])
		return
	}
	for i := range out {
		out[i] = n.sumOwn(x[i*per : (i+1)*per])
	}
}
