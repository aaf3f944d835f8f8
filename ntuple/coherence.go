package ntuple

import (
	"math"

	"github.com/td2048/td2048/board"
	"sync/atomic"
	"unsafe"
)

// Temporal coherence (TC, Beal and Smith; the form of the research
// framework TDL2048+, docs/methods.md section 3): every weight has two
// accumulators, E the sum of its signed updates and A the sum of their
// sizes, both starting at the smallest normal float32. A step u of a
// weight moves it by u*|E|/A (E and A from before the step), then E += u
// and A += |u|: a weight whose updates keep agreeing keeps its rate, one
// whose updates cancel out slows down.

// tcStart is where E and A start: |E|/A is 1 before any update.
const tcStart = math.SmallestNonzeroFloat32 * (1 << 23) // FLT_MIN, 2^-126

// EnableCoherence gives every weight TC accumulators (two float32s more per
// weight); from then on Add and Update step weights by the TC rule. It is
// a no-op on a network that has them.
func (n *Network) EnableCoherence() {
	n.mustLearn()
	if n.ea != nil {
		return
	}
	n.ea, n.freeEA = allocWeights(2 * len(n.w))
	prefault(n.ea) // every CPU a share, faster than the loop's faults one by one
	for i := range n.ea {
		n.ea[i] = tcStart
	}
}

// Coherent reports whether the network learns by temporal coherence.
func (n *Network) Coherent() bool { return n.ea != nil }

// Accumulators returns the TC accumulators, E and A of weight i at 2i and
// 2i+1 (nil without TC), for files.
func (n *Network) Accumulators() []float32 {
	n.refreshEA()
	return n.ea
}

// PrefetchAccumulators starts fetching the TC accumulators that an update
// of board b in stage k will touch (nothing without TC), so that their
// cache misses overlap other work: the learners call it a step before the
// update, as they prefetch the weights.
func (n *Network) PrefetchAccumulators(k int, b board.Board) {
	if n.ea == nil || n.p != nil { // packed: in the weight's line
		return
	}
	var x [MaxPatterns * 8]uint32
	idx := n.IndexStage(k, b, x[:])
	for j := range idx {
		idx[j] *= 2 // E of weight i is at 2i, A beside it
	}
	prefetch(unsafe.Pointer(&n.ea[0]), idx)
}

// addTC is Add by the TC rule: d is the plain step of each weight.
func (n *Network) addTC(x []uint32, d float32) float32 {
	w, ea, per := n.w, n.ea, n.spec.images()
	ld := func(p *float32) float32 {
		if n.shared {
			return math.Float32frombits(atomic.LoadUint32((*uint32)(unsafe.Pointer(p))))
		}
		return *p
	}
	st := func(p *float32, v float32) {
		if n.shared {
			atomic.StoreUint32((*uint32)(unsafe.Pointer(p)), math.Float32bits(v))
			return
		}
		*p = v
	}
	var v float32
	for k := 0; k+per <= len(x); k += per {
		var s float32
		for _, i := range x[k : k+per] {
			e, a := &ea[2*i], &ea[2*i+1]
			ev, av := ld(e), ld(a)
			nw := ld(&w[i]) + d*tcRate(ev, av)
			st(&w[i], nw)
			st(e, ev+d)
			st(a, av+abs32(d))
			s += nw
		}
		v += s
	}
	return v
}

func abs32(x float32) float32 { return math.Float32frombits(math.Float32bits(x) &^ (1 << 31)) }

// tcRate is a weight's TC rate |E|/A, at most 1. One trainer always has
// |E| <= A (each step adds |u| to A and u to E), so the bound changes
// nothing, bit for bit. Trainers sharing the network without locks can
// lose one of two updates that race, E's and A's separately: E from one
// and A from the other can make |E| exceed A many times over while A is
// still near its start (2^-126), and a step that many times the error
// wrecks the weight. TDL2048+ has no bound. Without it, two-thread TC runs
// of td2048 with E and A apart from the weights (Config.Unpacked) ended
// 2 in 3 near 1,500 points, where one thread reaches 20,000.
func tcRate(e, a float32) float32 { return min(abs32(e)/a, 1) }
