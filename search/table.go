package search

import (
	"math"
	"math/bits"
	"sync/atomic"

	"github.com/td2048/td2048/board"
)

// A Table is a transposition table of chance-node values keyed by a board
// and a small word (2048's search uses the remaining depth; Threes! adds
// the slide, the hint and the bag), of fixed size: a new entry replaces
// whatever shared its slot. Several goroutines may use one table at once;
// each entry is two atomic words, the board stored xor the data, so a torn
// read fails the check instead of returning a wrong value.
type Table struct {
	e     []entry
	shift uint
}

type entry struct {
	check atomic.Uint64 // board ^ data
	data  atomic.Uint64 // value bits | aux << 32 | 1 << 63 (occupied)
}

// entryBytes is the size of one table entry.
const entryBytes = 16

// MaxAux bounds the word a key may carry: 31 bits.
const MaxAux = 1<<31 - 1

// NewTable returns a table of at most bytes bytes (a power of two
// entries), or nil when bytes is too small for 1024 entries.
func NewTable(bytes int64) *Table {
	n := TableBytes(bytes) / entryBytes
	if n == 0 {
		return nil
	}
	return &Table{e: make([]entry, n), shift: uint(bits.LeadingZeros64(uint64(n))) + 1}
}

// TableBytes is the memory of the table NewTable(bytes) makes, 0 when it
// makes none.
func TableBytes(bytes int64) int64 {
	n := bytes / entryBytes
	if n < 1024 {
		return 0
	}
	return int64(1) << (63 - bits.LeadingZeros64(uint64(n))) * entryBytes
}

// Bytes is the table's memory.
func (t *Table) Bytes() int64 { return int64(len(t.e)) * entryBytes }

func (t *Table) slot(key board.Board, aux uint32) *entry {
	h := (uint64(key) ^ uint64(aux)*0xff51afd7ed558ccd) * 0x9e3779b97f4a7c15
	return &t.e[h>>t.shift]
}

// get returns the value stored for key and aux (at most MaxAux).
func (t *Table) get(key board.Board, aux uint32) (float32, bool) {
	e := t.slot(key, aux)
	d := e.data.Load()
	if e.check.Load()^d != uint64(key) || d>>32 != uint64(aux)|1<<31 {
		return 0, false
	}
	return math.Float32frombits(uint32(d)), true
}

// Put stores the value of key and aux (at most MaxAux).
func (t *Table) Put(key board.Board, aux uint32, v float32) {
	e := t.slot(key, aux)
	d := uint64(math.Float32bits(v)) | uint64(aux&MaxAux)<<32 | 1<<63
	e.data.Store(d)
	e.check.Store(uint64(key) ^ d)
}
