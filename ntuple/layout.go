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
// So where its assembly runs, the 4x6 network stores each table in
// another order: a weight's storage index is its canonical index with four
// chosen bits moved to the bottom, PEXT(i, low) | PEXT(i, ^low) << 4, the
// other twenty keeping their order. The four bits pick a weight within its
// line, so a line holds the weights that differ only there. The bits
// (lay4x6) are the ones that, among all 10,626 choices of four, made the
// fewest distinct lines on the lookups of 100 greedy games of a network
// trained for 100k episodes (TDL2048+'s): 66,303 lines against 107,037
// canonically for pattern 0, and a third fewer for each pattern (the same
// on the games of a network trained for 10k). A 16-way 32 MB cache,
// simulated on those lookups, then misses on 4.8 in 100 instead of 9.2,
// and a 1 MB one on 27 instead of 38. The cost is two PEXTs a lookup
// instead of one or none. Bit for bit, a network learns and plays the
// same in either order: only which weights share a line changes.
//
// Weights, Table, StageTable and Accumulators give the storage order;
// StorageIndex maps a canonical index to it, and EachCanonical,
// FillCanonical, CanonicalTable and SetCanonicalTable read and write in
// canonical order, as files want it.

// lay4x6 are, for each 4x6 pattern, the four canonical index bits that
// pick a weight within its cache line (see above); 0x710000 is pattern 0's
// cell 4 bit 0 and cell 5 bits 0-2.
var lay4x6 = [4]uint32{0x710000, 0x103100, 0x311000, 0x110110}

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
// to storage index and back.
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

func newLayout(low []uint32) *layout {
	l := &layout{}
	for _, m := range low {
		to := storeBits(m)
		var from [24]int
		for b, t := range to {
			from[t] = b
		}
		l.store = append(l.store, newPerm24(&to))
		l.canon = append(l.canon, newPerm24(&from))
	}
	return l
}

var layout4x6 = newLayout(lay4x6[:])

// pm4x6 are the assembly's PEXT masks on an image (fourx6_amd64.s): for
// each pattern, the image bits of lay4x6, then the pattern's other bits,
// so that PEXT(y, pm4x6[2p]) | PEXT(y, pm4x6[2p+1]) << 4 is the storage
// index of pattern p on image y.
var pm4x6 = func() (m [8]uint64) {
	cells := [4][6]int{{0, 1, 2, 3, 4, 5}, {4, 5, 6, 7, 8, 9}, {0, 1, 2, 4, 5, 6}, {4, 5, 6, 8, 9, 10}}
	for p, cs := range cells {
		for k, c := range cs {
			for b := range 4 {
				bit := uint64(1) << (4*c + b)
				if lay4x6[p]>>(4*k+b)&1 != 0 {
					m[2*p] |= bit
				} else {
					m[2*p+1] |= bit
				}
			}
		}
	}
	return m
}()

// StorageIndex returns where in pattern p's table (of any stage) the
// weight of canonical index i is kept: i itself unless the network keeps
// its tables in another order (see Storage order above).
func (n *Network) StorageIndex(p int, i uint32) uint32 {
	if n.lay == nil {
		return i
	}
	return n.lay.store[p].at(i)
}

// CanonicalIndex is StorageIndex's inverse.
func (n *Network) CanonicalIndex(p int, s uint32) uint32 {
	if n.lay == nil {
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
	src, per := n.Weights(), 1
	if acc {
		src, per = n.Accumulators(), 2
	}
	if n.lay == nil || len(src) == 0 {
		return f(src)
	}
	buf := make([]float32, canonChunk*per)
	return n.eachTable(func(p, off, size int) error {
		st := n.lay.store[p]
		for c := 0; c < size; c += canonChunk {
			for h := c >> 12; h < (c+canonChunk)>>12; h++ {
				at := off + int(st.hi[h])
				out := buf[(h<<12-c)*per:][:4096*per]
				if per == 1 {
					for j, l := range &st.lo {
						out[j] = src[at+int(l)]
					}
					continue
				}
				for j, l := range &st.lo {
					s := 2 * (at + int(l))
					out[2*j], out[2*j+1] = src[s], src[s+1]
				}
			}
			if err := f(buf); err != nil {
				return err
			}
		}
		return nil
	})
}

// FillCanonical is EachCanonical's reverse: f fills each chunk it is given
// with the next weights (or accumulators) in canonical order, and they go
// to their storage places. It stops at f's first error and returns it,
// the weights then partly filled.
func (n *Network) FillCanonical(acc bool, f func([]float32) error) error {
	dst, per := n.Weights(), 1
	if acc {
		dst, per = n.Accumulators(), 2
	}
	if n.lay == nil || len(dst) == 0 {
		return f(dst)
	}
	buf := make([]float32, canonChunk*per)
	return n.eachTable(func(p, off, size int) error {
		st := n.lay.store[p]
		for c := 0; c < size; c += canonChunk {
			if err := f(buf); err != nil {
				return err
			}
			for h := c >> 12; h < (c+canonChunk)>>12; h++ {
				at := off + int(st.hi[h])
				in := buf[(h<<12-c)*per:][:4096*per]
				if per == 1 {
					for j, l := range &st.lo {
						dst[at+int(l)] = in[j]
					}
					continue
				}
				for j, l := range &st.lo {
					s := 2 * (at + int(l))
					dst[s], dst[s+1] = in[2*j], in[2*j+1]
				}
			}
		}
		return nil
	})
}

// eachTable calls f with each table's pattern, first weight and size,
// stage after stage, in storage order; a permuted network's tables are
// all 1<<24 long, a multiple of canonChunk.
func (n *Network) eachTable(f func(p, off, size int) error) error {
	for k := range n.spec.StageCount() {
		for p, c := range n.pats {
			if err := f(p, k*n.stage+int(c.off), 1<<(4*uint(len(n.spec.Patterns[p])))); err != nil {
				return err
			}
		}
	}
	return nil
}

// CanonicalTable returns pattern p's table of stage k in canonical order:
// StageTable itself when the network is Canonical, else a copy.
func (n *Network) CanonicalTable(k, p int) []float32 {
	t := n.StageTable(k, p)
	if n.lay == nil {
		return t
	}
	c := make([]float32, len(t))
	st := n.lay.store[p]
	for i := range c {
		c[i] = t[st.at(uint32(i))]
	}
	return c
}

// SetCanonicalTable sets pattern p's table of stage k from src, in
// canonical order.
func (n *Network) SetCanonicalTable(k, p int, src []float32) {
	t := n.StageTable(k, p)
	if n.lay == nil {
		copy(t, src)
		return
	}
	st := n.lay.store[p]
	for i, v := range src[:len(t)] {
		t[st.at(uint32(i))] = v
	}
}
