package ntuple

import "math/bits"

// Storage order. A weight's canonical index is the package comment's,
// sum(tile(cell_k) << 4k): the one weight files, the course demo and
// TDL2048+ use. Under it, the 16 weights of a 64-byte cache line are the 16
// tiles of a pattern's first cell with the other five cells fixed, and the
// games a network plays read only a few of them (the first cell holds few
// of its 16 tiles beside a given five others): a move's hundred lookups
// touch a hundred lines spread over 256 MB, and their misses are what
// training and play wait for.
//
// So where the assembly runs (BMI2), the 4x6 network and those read with
// PEXT store the tables of their 6-cell patterns in another order: a
// weight's storage index is its canonical index with four chosen bits
// moved to the bottom, PEXT(i, low) | PEXT(i, ^low) << 4, the other twenty
// keeping their order. The four bits pick a weight within its
// line, so a line holds the weights that differ only there. The bits
// (lowBits) are ones that, among all 10,626 choices of four, make the
// fewest distinct lines on the lookups of greedy games: on 100 games of a
// 4x6 network trained for 100k episodes (TDL2048+'s), 66,717 lines
// against 107,037 canonically for pattern 012345, and about a third fewer
// for each pattern. A 16-way 32 MB cache, simulated on those lookups,
// misses on 4.8 in 100 instead of 9.2, and a 1 MB one on 27 instead of
// 38. The cost is two PEXTs a lookup instead of one or none. Bit for bit,
// a network learns and plays the same in either order: only which
// weights share a line changes.
//
// Weights, StageTable and Accumulators give the storage order;
// StorageIndex maps a canonical index to it, and EachCanonical,
// FillCanonical and CanonicalTable read and write in canonical order, as
// files want it.

// lowBits are the four canonical index bits that pick a weight within its
// cache line for each pattern of td2048's named networks (see above), by
// the pattern's cells: 0x311000 is cell 3's bit 0, cell 4's bit 0 and
// cell 5's bits 0-1. Each is the best choice on the games of an 8x6
// network trained for 20k episodes (300 greedy games; 89abcd on 200 games
// of a 5x6 network trained as long), and for the 4x6 patterns within 1.5%
// of the best on those of 4x6 networks trained for 10k and 100k episodes
// and of the 5x6 network. A pattern not listed keeps canonical order.
var lowBits = map[string]uint32{
	"012345": 0x311000, "456789": 0x003300, "012456": 0x311000, "45689a": 0x110110, // 4x6
	"234569": 0x111100, "01259a": 0x311000, "345678": 0x101110, "134567": 0x111100, "01489a": 0x310010, // 6x6, 7x6, 8x6
	"89abcd": 0x001310, // 5x6
}

// lay4x6 are lowBits of the 4x6 network's patterns.
var lay4x6 = [4]uint32{lowBits["012345"], lowBits["456789"], lowBits["012456"], lowBits["45689a"]}

// lowOf is the chosen bits of the pattern of the given cells (ascending),
// 0xf (canonical order) for a pattern without any.
func lowOf(cells []int) uint32 {
	if m, ok := lowBits[PatternString(cells)]; ok {
		return m
	}
	return 0xf
}

// imageMasks are the PEXT masks on an image (cell c at bits 4c..4c+3) of
// the pattern of the given ascending cells whose canonical bits low pick a
// weight within its line: low's bits, and the pattern's others, so that
// PEXT(y, l) | PEXT(y, h) << 4 is the storage index of the pattern on
// image y.
func imageMasks(cells []int, low uint32) (l, h uint64) {
	for k, c := range cells {
		for b := range 4 {
			bit := uint64(1) << (4*c + b)
			if low>>(4*k+b)&1 != 0 {
				l |= bit
			} else {
				h |= bit
			}
		}
	}
	return l, h
}

// A perm24 maps 24-bit indices by a bit permutation, as two half tables:
// m(i) = lo[i&0xfff] | hi[i>>12].
type perm24 struct{ lo, hi [4096]uint32 }

func (t *perm24) at(i uint32) uint32 { return t.lo[i&0xfff] | t.hi[i>>12] }

// newPerm24 is the map that sends bit b of an index to bit to[b].
func newPerm24(to *[24]int) *perm24 {
	t := new(perm24)
	for v := range uint32(4096) {
		for b := range 12 {
			if v>>b&1 != 0 {
				t.lo[v] |= 1 << to[b]
				t.hi[v] |= 1 << to[b+12]
			}
		}
	}
	return t
}

// layout is a network's storage order: per pattern, the map from canonical
// to storage index and back (nil: canonical order). A pattern with a map
// has 6 cells (lowBits), so its tables are 1<<24 long: whole chunks of
// canonChunk.
type layout struct {
	store, canon []*perm24
}

// storeBits is where each bit of a canonical index goes in the storage
// index when the bits of low move to the bottom.
func storeBits(low uint32) (to [24]int) {
	l, h := 0, bits.OnesCount32(low)
	for b := range 24 {
		if low>>b&1 != 0 {
			to[b] = l
			l++
		} else {
			to[b] = h
			h++
		}
	}
	return to
}

// newLayout is the layout of patterns whose chosen bits are low; a
// pattern with 0xf keeps canonical order (nil maps).
func newLayout(low []uint32) *layout {
	l := &layout{store: make([]*perm24, len(low)), canon: make([]*perm24, len(low))}
	for p, m := range low {
		if m != 0xf {
			to := storeBits(m)
			var from [24]int
			for b, t := range to {
				from[t] = b
			}
			l.store[p], l.canon[p] = newPerm24(&to), newPerm24(&from)
		}
	}
	return l
}

// cells4x6 are the 4x6 network's patterns, for its assembly's masks and
// tables (pm4x6, avx.go).
var cells4x6 = [4][]int{{0, 1, 2, 3, 4, 5}, {4, 5, 6, 7, 8, 9}, {0, 1, 2, 4, 5, 6}, {4, 5, 6, 8, 9, 10}}

// pm4x6 are the 4x6 assembly's PEXT masks (fourx6_amd64.s), imageMasks
// of each pattern in order: l, then h.
var pm4x6 = func() (m [8]uint64) {
	for p, cs := range cells4x6 {
		m[2*p], m[2*p+1] = imageMasks(cs, lay4x6[p])
	}
	return m
}()

// StorageIndex returns where in pattern p's table (of any stage) the
// weight of canonical index i is kept: i itself unless the network keeps
// its tables in another order (see Storage order above).
func (n *Network) StorageIndex(p int, i uint32) uint32 {
	if n.lay == nil || n.lay.store[p] == nil {
		return i
	}
	return n.lay.store[p].at(i)
}

// CanonicalIndex is StorageIndex's inverse.
func (n *Network) CanonicalIndex(p int, s uint32) uint32 {
	if n.lay == nil || n.lay.canon[p] == nil {
		return s
	}
	return n.lay.canon[p].at(s)
}

// Canonical reports whether the network keeps its weights in canonical
// order, so that Weights and the tables can be read and written as files
// hold them.
func (n *Network) Canonical() bool { return n.lay == nil }

// canonChunk is how many weights EachCanonical and FillCanonical pass at
// a time when they reorder: a whole number of perm24 half tables.
const canonChunk = 1 << 14

// EachCanonical calls f with all of the network's weights (acc false) or
// TC accumulators (acc true, two a weight), stage after stage, pattern
// after pattern, in canonical order: the storage itself when that is
// canonical, else a chunk at a time from a buffer f must not keep. It
// stops at f's first error and returns it.
func (n *Network) EachCanonical(acc bool, f func([]float32) error) error {
	return n.walkCanonical(acc, false, f)
}

// FillCanonical is EachCanonical's reverse: f fills each chunk it is given
// with the next weights (or accumulators) in canonical order, and they go
// to their storage places. It stops at f's first error and returns it,
// the weights then partly filled.
func (n *Network) FillCanonical(acc bool, f func([]float32) error) error {
	n.mustLearn()
	return n.walkCanonical(acc, true, f)
}

// walkCanonical is EachCanonical (fill false: each chunk gathered from
// storage, then given to f) and FillCanonical (fill true: f fills the
// chunk, which is then scattered to storage), through walk: the dense
// slices, or a packed network's array (packed.go), read and written in
// place, so that saving a checkpoint does not bring the dense slices
// back.
func (n *Network) walkCanonical(acc, fill bool, f func([]float32) error) error {
	if n.hs != nil { // compact: the weights as it reads them, no accumulators
		if acc {
			return nil
		}
		var buf []float32
		return walk(n, n.h, 1, 1, 0, false, func(t int, q []int16) error {
			if len(buf) < len(q) {
				buf = make([]float32, len(q))
			}
			b := buf[:len(q)]
			for j, x := range q {
				b[j] = float32(x) * n.hs[t]
			}
			return f(b)
		})
	}
	var data []float32
	per, stride, from := 1, 1, 0
	switch {
	case n.p != nil:
		data, stride = n.p, 3
		if acc {
			per, from = 2, 1
		}
	case acc:
		data, per, stride = n.Accumulators(), 2, 2
	default:
		data = n.Weights()
	}
	if len(data) == 0 || n.lay == nil && stride == per {
		return f(data)
	}
	return walk(n, data, per, stride, from, fill, func(_ int, c []float32) error { return f(c) })
}

// walk walks data, which holds per values of weight i (storage order) at
// data[stride*i+from:], table by table in canonical order, a chunk of at
// most canonChunk weights (per values each) at a time, with the table's
// number (stage after stage, patterns in spec order): fill false gathers
// each chunk from storage and hands it to f, fill true has f fill it and
// scatters it. A dense table (stride per) kept in canonical order is
// handed out as it lies.
func walk[T float32 | int16](n *Network, data []T, per, stride, from int, fill bool, f func(t int, chunk []T) error) error {
	buf := make([]T, canonChunk*per)
	return n.eachTable(func(t, p, off, size int) error {
		var st *perm24
		if n.lay != nil {
			st = n.lay.store[p]
		}
		for c := 0; c < size; c += canonChunk {
			m := min(canonChunk, size-c)
			if st == nil && stride == per { // canonical order: the storage itself
				if err := f(t, data[(off+c)*per:(off+c+m)*per]); err != nil {
					return err
				}
				continue
			}
			chunk := buf[:m*per]
			if fill {
				if err := f(t, chunk); err != nil {
					return err
				}
			}
			if st == nil { // packed, canonical order
				for j := range m {
					move(data, stride*(off+c+j)+from, chunk, j*per, per, fill)
				}
			}
			// Canonical c+j is at storage st.hi[h] | st.lo[j&0xfff] (a
			// table with a map has 1<<24 weights: whole chunks).
			for h := c >> 12; st != nil && h < (c+m)>>12; h++ {
				at := off + int(st.hi[h])
				b := chunk[(h<<12-c)*per:][:4096*per]
				switch tab, b4 := data[at:], (*[4096]T)(b); {
				case stride == 1 && fill:
					for j, l := range &st.lo {
						tab[l] = b4[j]
					}
				case stride == 1:
					for j, l := range &st.lo {
						b4[j] = tab[l]
					}
				default:
					for j, l := range &st.lo {
						move(data, stride*(at+int(l))+from, b, j*per, per, fill)
					}
				}
			}
			if !fill {
				if err := f(t, chunk); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

// move copies the per (1 or 2) values at chunk[c:] to data[d:] (fill) or
// back.
func move[T float32 | int16](data []T, d int, chunk []T, c, per int, fill bool) {
	switch {
	case per == 1 && fill:
		data[d] = chunk[c]
	case per == 1:
		chunk[c] = data[d]
	case fill:
		data[d], data[d+1] = chunk[c], chunk[c+1]
	default:
		chunk[c], chunk[c+1] = data[d], data[d+1]
	}
}

// eachTable calls f with each table's number (stage after stage,
// patterns in spec order), pattern, first weight and size, in storage
// order.
func (n *Network) eachTable(f func(t, p, off, size int) error) error {
	for k := range n.spec.StageCount() {
		for p := range n.pats {
			off, size := n.span(k, p)
			if err := f(k*len(n.pats)+p, p, off, size); err != nil {
				return err
			}
		}
	}
	return nil
}

// span is where pattern p's table of stage k lies in storage: the index
// of its first weight, and its size.
func (n *Network) span(k, p int) (off, size int) {
	return int(n.offs[k*len(n.pats)+p]), 1 << (4 * uint(len(n.spec.Patterns[p])))
}

// CanonicalTable returns pattern p's table of stage k in canonical order:
// StageTable itself when the network is Canonical, else a copy.
func (n *Network) CanonicalTable(k, p int) []float32 {
	t := n.StageTable(k, p)
	if n.lay == nil || n.lay.store[p] == nil {
		return t
	}
	c := make([]float32, len(t))
	st := n.lay.store[p]
	for i := range c {
		c[i] = t[st.at(uint32(i))]
	}
	return c
}
