package search

import (
	"math"
	"sync/atomic"

	"td2048/board"
)

// A Table is a transposition table of chance-node values keyed by board
// and remaining depth, of fixed size: a new entry replaces whatever shared
// its slot. Several goroutines may use one table at once; each entry is two
// atomic words, the key stored xor the data, so a torn read fails the key
// check instead of returning a wrong value.
type Table struct {
	e     []entry
	shift uint
}

type entry struct {
	check atomic.Uint64 // key ^ data
	data  atomic.Uint64 // value bits | depth << 32 | 1 << 40 (occupied)
}

// EntryBytes is the size of one table entry.
const EntryBytes = 16

// NewTable returns a table of at most bytes bytes (a power of two entries),
// or nil when bytes is too small for 1024 entries.
func NewTable(bytes int64) *Table {
	n := bytes / EntryBytes
	if n < 1024 {
		return nil
	}
	bits := uint(0)
	for int64(1)<<(bits+1) <= n {
		bits++
	}
	return &Table{e: make([]entry, 1<<bits), shift: 64 - bits}
}

// Bytes is the table's memory.
func (t *Table) Bytes() int64 { return int64(len(t.e)) * EntryBytes }

func (t *Table) slot(key board.Board, depth int) *entry {
	h := (uint64(key) ^ uint64(depth)<<59) * 0x9e3779b97f4a7c15
	return &t.e[h>>t.shift]
}

// Get returns the value stored for key at depth.
func (t *Table) Get(key board.Board, depth int) (float32, bool) {
	e := t.slot(key, depth)
	d := e.data.Load()
	if e.check.Load()^d != uint64(key) || d>>32 != uint64(depth)|1<<8 {
		return 0, false
	}
	return math.Float32frombits(uint32(d)), true
}

// Put stores the value of key at depth.
func (t *Table) Put(key board.Board, depth int, v float32) {
	e := t.slot(key, depth)
	d := uint64(math.Float32bits(v)) | uint64(depth)<<32 | 1<<40
	e.data.Store(d)
	e.check.Store(uint64(key) ^ d)
}
