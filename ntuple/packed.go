package ntuple

import (
	"math"
	"sync/atomic"
	"unsafe"
)

// Packed temporal coherence. A TC update of a weight reads and writes the
// weight and its two accumulators E and A. Kept apart (w, then ea), they
// are two cache lines per weight, and an update that finds the weight in
// the cache (it was read to choose the move) still misses on E and A. A
// network in training may pack them together instead (Pack): weight i,
// E and A at p[3i], p[3i+1], p[3i+2], so one line holds all three, as the
// research framework TDL2048+ keeps them. While packed, p is the truth:
// every read and update goes to it, and the dense slices (Weights,
// Accumulators, StageTable) are refreshed from it when asked for.
//
// A packed network is not Direct: it is read through indices (PEXT where
// the processor has it), each index scaled by 3.

// Pack moves a coherent network's weights and accumulators into one array
// (see above); it does nothing without TC or when packed already. Call it
// before the goroutines that use the network start. The dense slices'
// memory is handed back to the system as it is copied, so that a packed
// network holds three floats a weight, as TDL2048+'s, not six; Weights,
// Accumulators and Unpack fill them again.
func (n *Network) Pack() {
	n.mustLearn()
	if n.ea == nil || n.p != nil {
		return
	}
	n.p, n.freeP = allocWeights(3 * len(n.w))
	for a := 0; a < len(n.w); a += packChunk {
		b := min(a+packChunk, len(n.w))
		if n.freeP != nil {
			prefault(n.p[3*a : 3*b])
		}
		for i, w := range n.w[a:b] {
			i += a
			n.p[3*i], n.p[3*i+1], n.p[3*i+2] = w, n.ea[2*i], n.ea[2*i+1]
		}
		if n.free != nil {
			release(n.w[a:b])
		}
		if n.freeEA != nil {
			release(n.ea[2*a : 2*b])
		}
	}
}

// packChunk is how many weights Pack and Unpack copy at a time: they
// fault in the memory they copy to (on every CPU, prefault) and release
// the memory they copied from, so that the two copies are never both
// whole. 16 MiB of weights.
const packChunk = 1 << 22

// Packed reports whether the network is packed.
func (n *Network) Packed() bool { return n.p != nil }

// Unpack ends packing: the dense slices get the packed values, and the
// packed array is released, a part at a time as it is copied.
func (n *Network) Unpack() {
	if n.p == nil {
		return
	}
	for a := 0; a < len(n.w); a += packChunk {
		b := min(a+packChunk, len(n.w))
		if n.free != nil {
			prefault(n.w[a:b])
		}
		if n.freeEA != nil {
			prefault(n.ea[2*a : 2*b])
		}
		n.refreshRange(a, b)
		if n.freeP != nil {
			release(n.p[3*a : 3*b])
		}
	}
	if n.freeP != nil {
		n.freeP()
	}
	n.p, n.freeP = nil, nil
}

// refresh copies the packed weights into w, refreshEA the packed
// accumulators into ea; neither does anything unpacked.
func (n *Network) refresh() {
	if p := n.p; p != nil {
		for i := range n.w {
			n.w[i] = p[3*i]
		}
	}
}

func (n *Network) refreshEA() {
	if p := n.p; p != nil {
		for i := range n.w {
			n.ea[2*i], n.ea[2*i+1] = p[3*i+1], p[3*i+2]
		}
	}
}

// refreshRange copies weights a to b and their accumulators from the
// packed array.
func (n *Network) refreshRange(a, b int) {
	p := n.p
	for i := a; i < b; i++ {
		n.w[i], n.ea[2*i], n.ea[2*i+1] = p[3*i], p[3*i+1], p[3*i+2]
	}
}

// sumPacked is sum on the packed array.
func (n *Network) sumPacked(x []uint32) float32 {
	p, per := n.p, n.spec.images()
	if haveSum8 && per == 8 && len(x) == 8*len(n.pats) {
		return sum8p(&p[0], &x[0], len(n.pats))
	}
	var v float32
	for k := 0; k+per <= len(x); k += per {
		var s float32
		for _, i := range x[k : k+per] {
			s += math.Float32frombits(atomic.LoadUint32((*uint32)(unsafe.Pointer(&p[3*i]))))
		}
		v += s
	}
	return v
}

// addPacked is addTC on the packed array, bit for bit: in assembly where
// there is one (its plain aligned stores serve one thread and several
// alike), else with atomic loads and stores.
func (n *Network) addPacked(x []uint32, d float32) float32 {
	p, per := n.p, n.spec.images()
	if haveRelaxed {
		return addPackedRelaxed(&p[0], x[:len(x)/per*per], per, d)
	}
	ld := func(q *float32) float32 { return math.Float32frombits(atomic.LoadUint32((*uint32)(unsafe.Pointer(q)))) }
	st := func(q *float32, v float32) { atomic.StoreUint32((*uint32)(unsafe.Pointer(q)), math.Float32bits(v)) }
	var v float32
	for k := 0; k+per <= len(x); k += per {
		var s float32
		for _, i := range x[k : k+per] {
			q := p[3*i : 3*i+3 : 3*i+3]
			ev, av := ld(&q[1]), ld(&q[2])
			nw := ld(&q[0]) + d*tcRate(ev, av)
			st(&q[0], nw)
			st(&q[1], ev+d)
			st(&q[2], av+abs32(d))
			s += nw
		}
		v += s
	}
	return v
}

// MaxValue bounds the magnitude of any board's value: the largest
// |weight| (for compact weights, the largest step times 32768) times the
// weights one value sums, a weight of each pattern on each image of the
// board. It reads a packed network's array, not its dense slices.
func (n *Network) MaxValue() float64 {
	var top uint32 // the largest |w|'s bits: ordered as the values are
	switch {
	case n.hs != nil:
		for _, x := range n.hs {
			top = max(top, math.Float32bits(x)&^(1<<31))
		}
	case n.p != nil:
		for i := 0; i < len(n.p); i += 3 {
			top = max(top, math.Float32bits(n.p[i])&^(1<<31))
		}
	default:
		for _, x := range n.w {
			top = max(top, math.Float32bits(x)&^(1<<31))
		}
	}
	m := float64(math.Float32frombits(top))
	if n.hs != nil {
		m *= maxQ + 1
	}
	return m * float64(len(n.spec.Patterns)*n.spec.images())
}

// FirstNonFinite returns the first weight that is NaN or infinite, else
// the first whose TC accumulators are, and -1 when all are finite. It
// reads a packed network's array, not its dense slices.
func (n *Network) FirstNonFinite() int {
	if n.hs != nil { // q x s is finite: NewCompact takes finite scales only
		return -1
	}
	if p := n.p; p != nil {
		for k := range 3 {
			for i := k; i < len(p); i += 3 {
				if x := p[i]; x-x != 0 { // 0 for finite x, NaN for NaN and the infinities
					return i / 3
				}
			}
		}
		return -1
	}
	for i, x := range n.w {
		if x-x != 0 {
			return i
		}
	}
	for i, x := range n.ea {
		if x-x != 0 {
			return i / 2
		}
	}
	return -1
}
