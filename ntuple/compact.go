package ntuple

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"sync/atomic"
	"unsafe"

	"github.com/td2048/td2048/board"
)

// Compact weights for play. Playing reads weights and never writes them,
// and a lookup that misses the cache waits for its line whatever it holds:
// a move's speed is set by the lines it reads. A compact network holds its
// weights in 16 bits, fixed point with one scale a table (a pattern's
// table in one stage): weight w is kept as q = round(w / s), s the
// table's largest |w| divided by 32767, so no weight is clipped, and read
// as q x s. A line then holds 32 weights instead of 16, the network takes
// half the memory (128 MiB for 4x6), and more of it stays in the caches.
//
// A compact network's value of a board is, exactly,
//
//	V = sum over patterns p, in order, of float32(float32(Q_p) x s_p)
//
// Q_p the integer sum of the pattern's weights q over the board's images,
// added in float32 from 0: the integer sums are exact in any order, and
// every path (assembly or Go) computes the same float32. It differs from
// the float32 network's value by at most ValueBound (half a step of every
// weight read), plus float32 rounding.
//
// Fixed point was chosen over IEEE half precision (F16C): half keeps 11
// significant bits, so a weight near a table's largest is off by up to
// 1/4096 of it where fixed point is off by 1/65534, half cannot hold
// weights past 65504 (optimistic and late-stage tables go there) without
// a scale of its own, and its conversion costs an instruction a weight
// where fixed point sums integers and multiplies once a pattern.
//
// A compact network plays (Estimate, EstimateMany, Fetch and SumFetched,
// Index, Sum, StageOf) but does not learn: Add, Update and the methods of
// temporal coherence and packing panic. Weights, StageTable and EachCanonical
// give its weights as float32 (q x s, exactly as it reads them).

// CompactPays reports whether a network of spec is large enough for
// compact weights to make play faster: more weights than stay in the
// caches unprefetched (4 MiB of float32). Smaller ones lose their
// precision for nothing.
func CompactPays(spec Spec) bool { return spec.Weights() > cachedWeights }

// maxQ is the largest |q|: the table's largest |w| is kept as +-maxQ.
const maxQ = 32767

// quantize is w in steps of 1/inv: w x inv rounded to the nearest
// integer (ties to even), within +-maxQ; inv is stepInverse of a table's
// scale.
func quantize(w float32, inv float64) int16 {
	q := math.RoundToEven(float64(w) * inv)
	return int16(max(-maxQ, min(maxQ, q)))
}

// stepInverse is 1/s for quantize, 0 for a table of zeros (s = 0).
func stepInverse(s float32) float64 {
	if s == 0 {
		return 0
	}
	return 1 / float64(s)
}

// NewCompact makes a compact network of the given spec with all weights
// zero and the given scales, one a table: stage after stage, in each the
// patterns in spec order (CompactScales of the TableStats of the weights
// it will hold). Fill it with SetCanonicalCompact or FillCanonicalQ: its
// memory comes in as they write it, and each table's pages of zeros go
// back to the system once the table is filled (trim).
func NewCompact(spec Spec, scales []float32) (*Network, error) {
	n, err := newNetwork(spec, false)
	if err != nil {
		return nil, err
	}
	if want := spec.StageCount() * len(spec.Patterns); len(scales) != want {
		return nil, fmt.Errorf("network %s: %d scales for %d tables", spec, len(scales), want)
	}
	for i, s := range scales {
		if !(s >= 0) || math.IsInf(float64(s), 0) {
			return nil, fmt.Errorf("network %s: table %d has scale %v, want a finite number >= 0", spec, i, s)
		}
	}
	n.hs = append([]float32(nil), scales...)
	n.h, n.freeH = allocInt16(spec.Weights())
	n.left = make([]atomic.Int64, len(scales))
	n.eachTable(func(t, _, _, size int) error {
		n.left[t].Store(int64(size))
		return nil
	})
	return n, nil
}

// trimTable hands back the memory of table t's pages of zeros (trim) once
// the table is filled: a third of a 4x6 network's 16-bit tables are such
// pages, weights of boards no game reached.
func (n *Network) trimTable(t int) {
	if n.freeH != nil {
		off, size := n.span(t/len(n.pats), t%len(n.pats))
		trim(n.h[off : off+size])
	}
}

// Compact reports whether the network holds compact (16-bit) weights.
func (n *Network) Compact() bool { return n.hs != nil }

// Scales returns a compact network's scales, one a table (stage after
// stage, patterns in spec order); nil for a float32 network.
func (n *Network) Scales() []float32 { return n.hs }

// ToCompact returns a compact copy of the network (its float32 weights,
// quantized), which plays as NewCompact's does.
func (n *Network) ToCompact() (*Network, error) {
	if n.hs != nil {
		return nil, errors.New("ntuple: the network is compact already")
	}
	w := n.Weights()
	st := make([]TableStats, n.spec.StageCount()*len(n.pats))
	n.eachTable(func(t, _, off, size int) error {
		st[t].Add(w[off : off+size])
		return nil
	})
	c, err := NewCompact(n.spec, CompactScales(st))
	if err != nil {
		return nil, err
	}
	// The two store the same spec in the same order.
	c.eachTable(func(t, _, off, size int) error {
		inv := stepInverse(c.hs[t])
		for j, x := range w[off : off+size] {
			c.h[off+j] = quantize(x, inv)
		}
		c.trimTable(t)
		return nil
	})
	return c, nil
}

// EachCanonicalQ calls f with a compact network's 16-bit weights in
// canonical order, table after table (stage after stage, patterns in spec
// order), a chunk at a time from a buffer f must not keep, with the
// table's number (its index in Scales). It stops at f's first error.
func (n *Network) EachCanonicalQ(f func(table int, q []int16) error) error {
	if n.hs == nil {
		return errors.New("ntuple: EachCanonicalQ on a float32 network")
	}
	return walk(n, n.h, 1, 1, 0, false, f)
}

// FillCanonicalQ is EachCanonicalQ's reverse: f fills each chunk with the
// next 16-bit weights in canonical order.
func (n *Network) FillCanonicalQ(f func(table int, q []int16) error) error {
	if n.hs == nil {
		return errors.New("ntuple: FillCanonicalQ on a float32 network")
	}
	last := -1 // the table being filled; walk fills one after the other
	err := walk(n, n.h, 1, 1, 0, true, func(t int, q []int16) error {
		if t != last && last >= 0 {
			n.trimTable(last)
		}
		last = t
		return f(t, q)
	})
	if err == nil && last >= 0 {
		n.trimTable(last)
	}
	return err
}

// ValueBound is how far a compact network's value of a board in stage k
// may be from the value of the float32 weights it was made from, the
// float32 sums' own rounding aside: half a step of every weight a board
// reads. 0 for a float32 network.
func (n *Network) ValueBound(k int) float64 {
	if n.hs == nil {
		return 0
	}
	np := len(n.pats)
	var b float64
	for p := range np {
		b += float64(n.spec.images()) * float64(n.hs[k*np+p]) / 2
	}
	return b
}

// dequantize gives the weights of the storage range [off, off+len(dst))
// of a compact network as float32, q x s.
func (n *Network) dequantize(off int, dst []float32) {
	n.eachTable(func(t, _, o, size int) error {
		lo, hi := max(o, off), min(o+size, off+len(dst))
		for i := lo; i < hi; i++ {
			dst[i-off] = float32(n.h[i]) * n.hs[t]
		}
		return nil
	})
}

// sumQ is Sum for a compact network: the pattern-major indices x of one
// board, in stage k (every index in range).
func (n *Network) sumQ(k int, x []uint32) float32 {
	np := len(n.pats)
	s := n.hs[k*np : (k+1)*np]
	if haveSum8 && n.spec.Iso && len(x) == 8*np {
		return sum8h(&n.h[0], &x[0], np, &s[0])
	}
	per := n.spec.images()
	var v float32
	for p := range np {
		var q int32
		for _, i := range x[p*per : (p+1)*per] {
			q += int32(n.h[i])
		}
		v += float32(float32(q) * s[p])
	}
	return v
}

// stageOfIndex is the stage whose tables hold weight i.
func (n *Network) stageOfIndex(i uint32) int { return int(i) / n.stage }

// compact4x6 reports whether a compact network is the 4x6 one, read
// through its AVX-512 assembly: indices image-major, as index4x6avx
// writes them, summed by sumIndex4x6h.
func (n *Network) compact4x6() bool { return n.kind == kind4x6 && have4x6asm && avx4x6 != nil }

// fetchQ is Fetch for a compact network: each board's indices to dst,
// Lookups() a board (pattern-major, or for compact4x6 image-major), and
// its weights asked for.
func (n *Network) fetchQ(k int, bs []board.Board, dst []uint32) {
	if len(bs) == 0 {
		return
	}
	if n.compact4x6() {
		index4x6avxh(&n.h[k*n.stage], (*uint64)(unsafe.Pointer(&bs[0])), len(bs), &dst[0], avx4x6)
		return
	}
	per, np := n.Lookups(), len(n.pats)
	big := len(n.h) > cachedWeights
	for i, b := range bs {
		d := dst[i*per:]
		switch {
		case big && n.avx != nil:
			indexPrefetchAVXh(&n.h[0], uint64(b), &n.avx[0], &n.offs[k*np], np, &d[0])
		case big && len(n.masks) > 0:
			indexPrefetchPEXTh(&n.h[0], uint64(b), &n.masks[0], &n.offs[k*np], np, &d[0])
		default:
			n.IndexStage(k, b, d)
			if big {
				prefetch2(unsafe.Pointer(&n.h[0]), d[:per])
			}
		}
	}
}

// sumFetchedQ is SumFetched for a compact network.
func (n *Network) sumFetchedQ(k int, x []uint32, out []float32) {
	if len(out) == 0 {
		return
	}
	if n.compact4x6() {
		sumIndex4x6h(&n.h[k*n.stage], &x[0], len(out), &out[0], &n.hs[k*len(n.pats)])
		return
	}
	per := n.Lookups()
	for i := range out {
		out[i] = n.sumQ(k, x[i*per:(i+1)*per])
	}
}

// errCompact is the panic of the learning methods of a compact network.
const errCompact = "ntuple: a compact (16-bit) network plays but does not learn"

// TableStats summarise a table's weights for its compact form: the
// largest |weight|, and how many weights that are not 0 lie in each
// binade (binade[e]: float32 exponent e, |w| in [2^(e-127), 2^(e-126))).
type TableStats struct {
	maxAbs  float32
	nonZero int64
	binade  [256]int64
}

// Add counts the weights w.
func (s *TableStats) Add(w []float32) {
	var top uint32 // the largest |w|'s bits: ordered as the values are
	for _, x := range w {
		a := math.Float32bits(x) &^ (1 << 31)
		if a == 0 {
			continue
		}
		top = max(top, a)
		s.binade[a>>23]++
		s.nonZero++
	}
	s.maxAbs = max(s.maxAbs, math.Float32frombits(top))
}

// large is a table's large weights: the lower end of the binade of its
// 99th percentile of |weight| among the weights that are not 0 (a lower
// bound within a factor of 2), 0 for a table of zeros.
func (s *TableStats) large() float64 {
	if s.nonZero == 0 {
		return 0
	}
	var above int64
	for e := 255; e >= 0; e-- {
		if above += s.binade[e]; above*100 >= s.nonZero {
			return float64(math.Float32frombits(uint32(e) << 23))
		}
	}
	return 0
}

// maxSpread is the most a table's largest |weight| may exceed its large
// weights (TableStats.large) for CompactFits: at that spread a weight at
// the table's 99th percentile is held in at least 128 steps. The tables
// of 4x6 and 8x6 networks trained for 100k episodes spread 7 to 43 times.
const maxSpread = 256

// CompactFits reports why a network whose tables (stage after stage,
// patterns in spec order) have these statistics should not play compact,
// or nil: a table whose largest |weight| is more than 256 times its
// large weights (its 99th percentile of |weight|, within a factor of 2), as a few stray weights make it, would hold the weights
// that matter in too few steps.
func CompactFits(st []TableStats) error {
	for t, s := range st {
		if l := s.large(); l > 0 && float64(s.maxAbs) > maxSpread*l {
			// A damaged weight far out makes a step larger than the
			// weights that matter: they would all be held as 0.
			held := fmt.Sprintf("in fewer than %.0f steps", math.Ceil(maxQ*l/float64(s.maxAbs)))
			if maxQ*l < float64(s.maxAbs) {
				held = "as 0: one step of 16 bits is larger than they are"
			}
			spread := strconv.FormatFloat(float64(s.maxAbs)/l, 'f', 0, 64)
			if float64(s.maxAbs) > 1e6*l {
				spread = strconv.FormatFloat(float64(s.maxAbs)/l, 'g', 3, 64)
			}
			return fmt.Errorf("table %d: its largest weight, %g, is %s times its 99th percentile (%.3g or more), so 16 bits would hold most of its weights %s",
				t, s.maxAbs, spread, l, held)
		}
	}
	return nil
}

// CompactScales are the scales of tables with these statistics, their
// fixed-point steps: each largest |weight| over 32767 (0 for a table of
// zeros).
func CompactScales(st []TableStats) []float32 {
	sc := make([]float32, len(st))
	for t, s := range st {
		sc[t] = s.maxAbs / maxQ
	}
	return sc
}

// Merge adds the weights counted in o.
func (s *TableStats) Merge(o *TableStats) {
	s.maxAbs = max(s.maxAbs, o.maxAbs)
	s.nonZero += o.nonZero
	for e, c := range &o.binade {
		s.binade[e] += c
	}
}

// SetCanonicalCompact quantizes w, the weights of table t (stage after
// stage, patterns in spec order) from canonical index at on, into their
// places in a compact network. Goroutines may call it at once for
// different weights. Once every weight of a table is set, each once, its
// pages of zeros go back to the system (trim).
func (n *Network) SetCanonicalCompact(t, at int, w []float32) {
	p := t % len(n.pats)
	off, size := n.span(t/len(n.pats), p)
	if at < 0 || at+len(w) > size {
		panic(fmt.Sprintf("ntuple: weights %d..%d of a table of %d", at, at+len(w), size))
	}
	inv := stepInverse(n.hs[t])
	var st *perm24
	if n.lay != nil {
		st = n.lay.store[p]
	}
	dst := n.h[off : off+size]
	if st == nil {
		for i, x := range w {
			dst[at+i] = quantize(x, inv)
		}
	} else {
		for i, x := range w {
			dst[st.at(uint32(at+i))] = quantize(x, inv)
		}
	}
	if n.left[t].Add(-int64(len(w))) == 0 {
		n.trimTable(t)
	}
}
