// Package ntuple is the n-tuple network: patterns read on the symmetric
// images of a board, float32 weight tables, and the value function
// V(b) = sum over patterns, over images, of the pattern's weight at the
// image's index.
//
// The index of a pattern on a board is sum(tile(cell_k) << 4k), the first
// listed cell the least significant nibble, exactly as in the course demo
// and the research framework, so weight tables move between them unchanged.
// That is a weight's canonical index, which files hold; in memory a
// network may keep a table in another order, so that the weights a game
// reads together share cache lines (layout.go).
//
// The hot path transforms the board, not the pattern: the eight images of a
// board take a few dozen bit operations, and on an image a pattern is read
// as runs of contiguous nibbles. Estimate and Update allocate nothing.
//
// Weights may be shared by several goroutines that update them at once
// (Hogwild, as the research framework does): call Share first. Reads then
// become atomic 32-bit loads and updates aligned 32-bit stores (plain moves
// on amd64, which are atomic there; sync/atomic stores elsewhere). A lost
// update now and then is the accepted cost; no weight is ever torn.
package ntuple

import (
	"fmt"
	"math"
	"slices"
	"sync/atomic"
	"unsafe"

	"github.com/td2048/td2048/board"
)

// run reads cells c..c+L-1 of a board into index nibbles j..j+L-1:
// (x >> rs << ls) & mask.
type run struct {
	rs, ls uint8
	mask   uint64
}

func (r *run) get(x uint64) uint64 { return x >> (r.rs & 63) << (r.ls & 63) & r.mask }

// compiled is one pattern ready to read: up to four runs without a branch
// (unused runs have mask 0), more in a loop.
type compiled struct {
	off  uint32
	r    [4]run
	more []run
}

func (c *compiled) index(x uint64) uint32 {
	i := c.r[0].get(x) | c.r[1].get(x) | c.r[2].get(x) | c.r[3].get(x)
	for k := range c.more {
		i |= c.more[k].get(x)
	}
	return c.off + uint32(i)
}

func compile(cells []int, off uint32) compiled {
	var runs []run
	for j := 0; j < len(cells); {
		k := j + 1
		for k < len(cells) && cells[k] == cells[k-1]+1 {
			k++
		}
		from, to, n := 4*cells[j], 4*j, 4*(k-j)
		r := run{mask: (1<<uint(n) - 1) << uint(to)}
		if from >= to {
			r.rs = uint8(from - to)
		} else {
			r.ls = uint8(to - from)
		}
		runs = append(runs, r)
		j = k
	}
	c := compiled{off: off}
	k := copy(c.r[:], runs)
	if k < len(runs) {
		c.more = runs[k:]
	}
	return c
}

const (
	kindGeneric = iota
	kind4x6
)

// Network is an n-tuple network with its weights.
type Network struct {
	spec   Spec
	w      []float32
	pats   []compiled
	kind   int
	stage  int     // weights per stage
	split  float32 // 1 / (patterns * images)
	shared bool
	free   func()
	// TC accumulators (coherence.go), nil without temporal coherence.
	ea     []float32
	freeEA func()
	// th are the stage thresholds of a multi-stage network (stage.go),
	// nil for one stage.
	th []uint32
	// A network of ascending patterns (each pattern's cells in increasing
	// order) with isomorphisms is read with PEXT where the processor has
	// it (pext_amd64.s): each pattern's two masks (imageMasks' h, then
	// l); nil otherwise.
	masks []uint64
	// avx is the tables of the same indices by AVX-512 (avx.go), a group
	// a pattern; nil where the processor lacks it, or a pattern has more
	// than 6 cells.
	avx []avxGroup
	// offs are the offsets of the tables of stage k's patterns, at
	// offs[k*len(pats):], for the assembly.
	offs []uint32
	// p is the packed weights and accumulators of a coherent network in
	// training (packed.go), nil otherwise.
	p     []float32
	freeP func()
	// lay is the storage order of the tables (layout.go), nil for
	// canonical.
	lay *layout
	// h are the weights of a compact network (compact.go), in w's
	// order, and hs the scales of its tables; w is then nil. left is how
	// many weights of each table SetCanonicalCompact has still to set.
	h     []int16
	hs    []float32
	freeH func()
	left  []atomic.Int64
}

// New makes a network of the given spec with all weights zero.
func New(spec Spec) (*Network, error) { return newNetwork(spec, true) }

// newNetwork makes a network of spec, with its float32 weights when
// alloc is set.
func newNetwork(spec Spec, alloc bool) (*Network, error) {
	if len(spec.Patterns) == 0 {
		return nil, fmt.Errorf("network has no patterns")
	}
	if uint64(spec.Weights()) > 1<<31 {
		return nil, fmt.Errorf("network %s has %d weights, more than 2^31", spec, spec.Weights())
	}
	if th := spec.StageThresholds(); th != nil && len(th) != spec.StageCount() {
		return nil, fmt.Errorf("network %s: %d stages but %d thresholds", spec, spec.StageCount(), len(th))
	}
	n := &Network{spec: spec}
	off := uint32(0)
	for _, p := range spec.Patterns {
		n.pats = append(n.pats, compile(p, off))
		off += 1 << (4 * uint(len(p)))
	}
	n.stage = int(off)
	for k := range spec.StageCount() {
		for p := range n.pats {
			n.offs = append(n.offs, uint32(k*n.stage)+n.pats[p].off)
		}
	}
	for _, t := range spec.StageThresholds() {
		n.th = append(n.th, uint32(t))
	}
	if alloc {
		n.w, n.free = allocWeights(spec.Weights())
	}
	n.split = 1 / float32(len(spec.Patterns)*spec.images())
	if isFourX6(spec) {
		n.kind = kind4x6
	}
	n.masks = pextMasks(spec)
	// The assembly (4x6's, or the PEXT reader's) reads the tables in
	// cache-line order (layout.go); the Go readers in canonical order.
	if n.masks != nil || n.kind == kind4x6 && have4x6asm {
		var low []uint32
		for _, cells := range spec.Patterns {
			low = append(low, lowOf(cells))
		}
		if slices.ContainsFunc(low, func(m uint32) bool { return m != 0xf }) {
			n.lay = newLayout(low)
		}
		// The same indices by AVX-512 where it runs (avx.go).
		if haveAVX {
			n.avx = buildPatternAVX(spec.Patterns)
		}
	}
	return n, nil
}

// isFourX6 reports whether spec is the 4x6 network with isomorphisms,
// which has its own code (fast.go, fourx6_amd64.s).
func isFourX6(spec Spec) bool {
	return spec.Iso && slices.EqualFunc(spec.Patterns, cells4x6[:], slices.Equal)
}

// pextMasks returns the masks of PEXT reading (Network.masks) for spec,
// nil when it cannot be read so: no PEXT, no isomorphisms, or a pattern
// whose cells are not ascending. The 4x6 network has its own assembly,
// packed (packed.go) or not.
func pextMasks(spec Spec) []uint64 {
	if !havePEXT || !spec.Iso || len(spec.Patterns) == 0 || isFourX6(spec) {
		return nil
	}
	masks := make([]uint64, 2*len(spec.Patterns))
	for p, cells := range spec.Patterns {
		for i := 1; i < len(cells); i++ {
			if cells[i] <= cells[i-1] {
				return nil
			}
		}
		masks[2*p+1], masks[2*p] = imageMasks(cells, lowOf(cells))
	}
	return masks
}

// MustNew is New for specs known to be good; it panics on error.
func MustNew(spec string) *Network {
	s, err := ParseSpec(spec)
	if err != nil {
		panic(err)
	}
	n, err := New(s)
	if err != nil {
		panic(err)
	}
	return n
}

// Spec returns the network's description.
func (n *Network) Spec() Spec { return n.spec }

// Weights returns all weight tables as one slice: stage after stage, in
// each the patterns in spec order, each 16^len(pattern) long. Writing to it
// while the network is in use by other goroutines is a data race. A packed
// network (Pack, while a coherent network trains) copies its packed
// weights into it first, and reads and learns from the packed array, not
// from this slice: write to it only unpacked.
//
// A compact network gives a copy of its weights as it reads them (q x s).
func (n *Network) Weights() []float32 {
	if n.hs != nil {
		w := make([]float32, len(n.h))
		n.dequantize(0, w)
		return w
	}
	n.refresh()
	return n.w
}

// StageTable returns pattern p's weight table of stage k (a copy for a
// compact network).
func (n *Network) StageTable(k, p int) []float32 {
	off, size := n.span(k, p)
	if n.hs != nil {
		t := make([]float32, size)
		n.dequantize(off, t)
		return t
	}
	return n.Weights()[off : off+size]
}

// Lookups is the number of weights one evaluation reads:
// patterns x images.
func (n *Network) Lookups() int { return len(n.pats) * n.spec.images() }

// Share makes every later weight access atomic, so that several goroutines
// may update the network at once (see the package comment). Call it before
// they start.
func (n *Network) Share() { n.shared = true }

// Shared reports whether Share was called.
func (n *Network) Shared() bool { return n.shared }

// Prefault brings all of the weight memory in now, every CPU a share, as
// training otherwise does page by page as it first writes each one:
// zeroing huge pages fault by fault costs more than one pass up front on
// all CPUs. Loading a file calls it before the
// reads, which would otherwise fault the pages in one by one.
func (n *Network) Prefault() {
	if n.hs != nil { // compact: its fills fault it in a table at a time, then trim it
		return
	}
	if n.p != nil { // packed: p is all it reads and writes
		if n.freeP != nil {
			prefault(n.p)
		}
		return
	}
	if n.free != nil {
		prefault(n.w)
	}
}

// Optimistic fills every weight so that the network values every board at
// v (optimistic initialisation): each of a board's Lookups() reads one
// weight, of its stage, so each weight is v/Lookups(). TDL2048+'s
// NET=V/norm divides by the lookups of all stages instead, so there a
// K-stage network values boards at v/K.
func (n *Network) Optimistic(v float64) {
	n.mustLearn()
	w := float32(v / float64(n.Lookups()))
	for i := range n.w {
		n.w[i] = w
	}
	for i := range n.ea {
		n.ea[i] = tcStart
	}
	for i := 0; i+2 < len(n.p); i += 3 {
		n.p[i], n.p[i+1], n.p[i+2] = w, tcStart, tcStart
	}
}

// Free releases the weight memory now instead of when the network is
// garbage. The network must not be used afterwards.
func (n *Network) Free() {
	for _, free := range []*func(){&n.free, &n.freeEA, &n.freeP, &n.freeH} {
		if *free != nil {
			(*free)()
			*free = nil
		}
	}
	n.w, n.ea, n.p, n.h = nil, nil, nil, nil
}

// mustLearn panics on a compact network, which plays but does not learn.
func (n *Network) mustLearn() {
	if n.hs != nil {
		panic(errCompact)
	}
}

func load(w []float32, i uint32) float32 {
	return math.Float32frombits(atomic.LoadUint32((*uint32)(unsafe.Pointer(&w[i]))))
}

// images returns the boards each pattern is read on.
func (n *Network) images(b board.Board, buf *[8]board.Board) []board.Board {
	if n.spec.Iso {
		*buf = b.Images()
		return buf[:]
	}
	buf[0] = b
	return buf[:1]
}

// Direct reports whether Estimate and Update on a board are as fast as Sum
// and Add on its stored indices (the 4x6 network in assembly): a learner
// then need not keep the indices of the boards it will update.
func (n *Network) Direct() bool {
	return n.kind == kind4x6 && have4x6asm && n.p == nil && n.hs == nil
}

// PrefetchBoardStage starts loading the weights of b in the tables of
// stage k into the cache, as Prefetch does for indices, when the network
// is Direct; it does nothing otherwise.
func (n *Network) PrefetchBoardStage(k int, b board.Board) {
	if n.hs != nil {
		var x [MaxPatterns * 8]uint32
		n.fetchQ(k, []board.Board{b}, x[:])
		return
	}
	if n.Direct() {
		pf4x6(&n.w[k*n.stage], uint64(b))
	}
	if n.p != nil {
		var x [MaxPatterns * 8]uint32
		n.Prefetch(n.IndexStage(k, b, x[:]))
	}
	n.PrefetchAccumulators(k, b)
}

// Estimate returns V(b) by stage 0: the sum over patterns (in spec order)
// of the sum over images of the pattern's weight, each pattern summed on
// its own first.
func (n *Network) Estimate(b board.Board) float32 { return n.EstimateStage(0, b) }

// EstimateStage returns V(b) by the tables of stage k.
func (n *Network) EstimateStage(k int, b board.Board) float32 {
	if n.hs != nil {
		var out [1]float32
		n.EstimateManyStage(k, []board.Board{b}, out[:])
		return out[0]
	}
	if n.Direct() {
		return est4x6(&n.w[k*n.stage], uint64(b))
	}
	if n.kind == kind4x6 && !n.shared && n.p == nil {
		return estimate4x6((*tab4x6)(n.w[k*n.stage:]), b)
	}
	// All indices first, then all loads: the loads miss the cache, and a
	// tight loop of them keeps many misses in flight at once.
	var x [MaxPatterns * 8]uint32
	return n.sumOwn(n.IndexStage(k, b, x[:]))
}

// Index computes the weight indices of b (in stage 0) into dst, which must
// hold Lookups() of them, and returns them: for each pattern in spec order,
// one index per image.
func (n *Network) Index(b board.Board, dst []uint32) []uint32 { return n.IndexStage(0, b, dst) }

// IndexStage computes the weight indices of b in stage k into dst.
func (n *Network) IndexStage(k int, b board.Board, dst []uint32) []uint32 {
	base := uint32(k * n.stage)
	if n.avx != nil {
		np := len(n.pats)
		dst = dst[:np*8]
		indexAVX(nil, uint64(b), &n.avx[0], &n.offs[k*np], np, &dst[0])
		return dst
	}
	if n.kind == kind4x6 {
		return index4x6(b, dst, base)
	}
	if np := len(n.masks) / 2; np > 0 {
		dst = dst[:np*8]
		indexPEXT(nil, uint64(b), &n.masks[0], &n.offs[k*np], np, &dst[0])
		return dst
	}
	var buf [8]board.Board
	im := n.images(b, &buf)
	dst = dst[:len(n.pats)*len(im)]
	j := 0
	for p := range n.pats {
		c := &n.pats[p]
		for _, y := range im {
			dst[j] = base + c.index(uint64(y))
			j++
		}
	}
	return dst
}

// Sum returns the value at the indices x (as Index gives them); it equals
// Estimate of the board they were computed from, bit for bit.
func (n *Network) Sum(x []uint32) float32 {
	n.mustHold(x)
	return n.sumOwn(x)
}

// mustHold panics unless every index of x is a weight's: the paths in
// assembly, which Sum and Add take on indices from outside, check nothing.
func (n *Network) mustHold(x []uint32) {
	size := len(n.w)
	if n.hs != nil {
		size = len(n.h)
	}
	for _, i := range x {
		if int(i) >= size {
			panic(fmt.Sprintf("ntuple: index %d out of range [0:%d]", i, size))
		}
	}
	if n.hs != nil && len(x) > 0 {
		// A compact sum scales each pattern by its stage's table: the
		// indices must be one board's, of one stage.
		k := n.stageOfIndex(x[0])
		for _, i := range x {
			if n.stageOfIndex(i) != k {
				panic(fmt.Sprintf("ntuple: indices %d and %d are of different stages", x[0], i))
			}
		}
	}
}

// sumOwn is Sum on indices the network computed itself (so in range).
func (n *Network) sumOwn(x []uint32) float32 {
	if n.hs != nil {
		if len(x) == 0 {
			return 0
		}
		return n.sumQ(n.stageOfIndex(x[0]), x)
	}
	if n.p != nil {
		return n.sumPacked(x)
	}
	if haveSum8 && n.spec.Iso && len(x) == 8*len(n.pats) {
		return sum8(&n.w[0], &x[0], len(n.pats))
	}
	return n.sum(x)
}

// sum is Sum in Go.
func (n *Network) sum(x []uint32) float32 {
	w, per := n.w, n.spec.images()
	var v float32
	if n.shared {
		for k := 0; k+per <= len(x); k += per {
			var s float32
			for _, i := range x[k : k+per] {
				s += load(w, i)
			}
			v += s
		}
		return v
	}
	if n.kind == kind4x6 && len(x) == 32 {
		return sum4x6(w, (*[32]uint32)(x))
	}
	for k := 0; k+per <= len(x); k += per {
		var s float32
		for _, i := range x[k : k+per] {
			s += w[i]
		}
		v += s
	}
	return v
}

// Add moves the value at x by u: each of the weights at x moves by
// u / (patterns * images), a weight read twice moving twice. It returns the
// value after the update as the course demo and TDL2048+ compute it, in the
// same pass: the sum of each weight read right after its own step (a weight
// read twice counts once with one step and once with two).
func (n *Network) Add(x []uint32, u float32) float32 {
	n.mustLearn()
	d := u * n.split
	if n.p != nil {
		n.mustHold(x)
		return n.addPacked(x, d)
	}
	if n.ea != nil {
		return n.addTC(x, d)
	}
	w, per := n.w, n.spec.images()
	var v float32
	if haveRelaxed && len(w) > 0 { // plain aligned stores: one thread or several alike
		n.mustHold(x)
		return addRelaxed(&w[0], x[:len(x)/per*per], per, d)
	}
	if n.shared {
		for k := 0; k+per <= len(x); k += per {
			var s float32
			for _, i := range x[k : k+per] {
				p := (*uint32)(unsafe.Pointer(&w[i]))
				nw := math.Float32frombits(atomic.LoadUint32(p)) + d
				atomic.StoreUint32(p, math.Float32bits(nw))
				s += nw
			}
			v += s
		}
		return v
	}
	for k := 0; k+per <= len(x); k += per {
		var s float32
		for _, i := range x[k : k+per] {
			w[i] += d
			s += w[i]
		}
		v += s
	}
	return v
}

// Update moves V(b) by u as Add does and returns the new value.
func (n *Network) Update(b board.Board, u float32) float32 { return n.UpdateStage(0, b, u) }

// UpdateStage is Update on the tables of stage k.
func (n *Network) UpdateStage(k int, b board.Board, u float32) float32 {
	n.mustLearn()
	if n.Direct() && n.ea == nil {
		return add4x6(&n.w[k*n.stage], uint64(b), u*n.split)
	}
	var x [MaxPatterns * 8]uint32
	return n.Add(n.IndexStage(k, b, x[:]), u)
}
