// Package board is the 4x4 board shared by 2048 and Threes!: sixteen 4-bit
// cells packed in a uint64, its eight symmetric images, and its text forms.
//
// Cell i (0..15) is row i/4, column i%4, cell 0 top-left, stored in bits
// 4i..4i+3. A cell holds a tile index: for 2048 the exponent (0 empty, 1 is
// the tile 2, 15 is 32768); for Threes! the course's index (see package
// threes). Row r is the 16 bits 16r..16r+15 with its first cell lowest, so
// printing a board as %016x shows cell 15 first.
package board

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"
)

// Board is a packed 4x4 board.
type Board uint64

// At returns the tile index in cell i.
func (b Board) At(i int) int { return int(b>>(4*uint(i))) & 0xf }

// Set returns b with cell i holding tile index v (0..15).
func (b Board) Set(i, v int) Board {
	s := 4 * uint(i)
	return b&^(0xf<<s) | Board(v&0xf)<<s
}

// Row returns row r as 16 bits, its first (leftmost) cell lowest.
func (b Board) Row(r int) uint16 { return uint16(b >> (16 * uint(r))) }

// Transpose mirrors b on its main diagonal: cell (r,c) goes to (c,r).
func (b Board) Transpose() Board {
	x := uint64(b)
	t := (x ^ x>>12) & 0x0000f0f00000f0f0
	x ^= t ^ t<<12
	t = (x ^ x>>24) & 0x00000000ff00ff00
	x ^= t ^ t<<24
	return Board(x)
}

// Mirror reverses the columns: cell (r,c) goes to (r,3-c).
func (b Board) Mirror() Board {
	x := uint64(b)
	return Board(x&0x000f000f000f000f<<12 | x&0x00f000f000f000f0<<4 |
		x&0x0f000f000f000f00>>4 | x&0xf000f000f000f000>>12)
}

// Flip reverses the rows: cell (r,c) goes to (3-r,c).
func (b Board) Flip() Board {
	x := uint64(b)
	return Board(x<<48 | x<<16&0x0000ffff00000000 | x>>16&0x00000000ffff0000 | x>>48)
}

// Images returns the eight symmetric images of b: the identity, its mirror,
// flip and half turn, then the same four of the transpose. Image k read
// through a pattern gives that pattern's k-th isomorphism.
func (b Board) Images() [8]Board {
	m, f := b.Mirror(), b.Flip()
	t := b.Transpose()
	tm, tf := t.Mirror(), t.Flip()
	return [8]Board{b, m, f, f.Mirror(), t, tm, tf, tf.Mirror()}
}

// Canonical returns the smallest of b's eight images, the same for every
// board in b's symmetry class.
func (b Board) Canonical() Board {
	im := b.Images()
	c := im[0]
	for _, x := range im[1:] {
		c = min(c, x)
	}
	return c
}

// EmptyMask has bit 4i set for each empty cell i.
func (b Board) EmptyMask() uint64 {
	x := uint64(b)
	x |= x >> 1
	x |= x >> 2
	return ^x & 0x1111111111111111
}

// Empty counts the empty cells.
func (b Board) Empty() int { return bits.OnesCount64(b.EmptyMask()) }

// MaxTile returns the largest tile index on the board.
func (b Board) MaxTile() int {
	m := 0
	for x := uint64(b); x != 0; x >>= 4 {
		m = max(m, int(x&0xf))
	}
	return m
}

// FromCells packs sixteen tile indices (each 0..15).
func FromCells(c [16]int) Board {
	var b Board
	for i, v := range c {
		b = b.Set(i, v)
	}
	return b
}

// Hex is the board as 0x and sixteen hex digits, cell 15 first.
func (b Board) Hex() string { return fmt.Sprintf("0x%016x", uint64(b)) }

// A Code maps tile indices to the values people see, for one game.
type Code interface {
	// Value is the tile value of index i (0 for empty).
	Value(i int) int
	// Index is the tile index of value v, false if no tile has that value.
	Index(v int) (int, bool)
}

// Pow2 is 2048's code: index i is the tile 2^i.
var Pow2 Code = pow2{}

type pow2 struct{}

func (pow2) Value(i int) int {
	if i == 0 {
		return 0
	}
	return 1 << uint(i)
}

func (pow2) Index(v int) (int, bool) {
	if e, ok := wideIndex(v); ok && e <= 15 {
		return e, true
	}
	return 0, false
}

// Parse reads a 2048 board: see ParseWith with Pow2.
func Parse(s string) (Board, error) { return ParseWith(s, Pow2) }

// ParseWith reads a board in one of two forms: sixteen comma-separated tile
// values row by row from the top left (0 for empty), or 0x followed by the
// board's hex packing (at most sixteen digits).
func ParseWith(s string, code Code) (Board, error) {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X") {
		h := s[2:]
		if len(h) == 0 || len(h) > 16 {
			return 0, fmt.Errorf("board %q: hex form needs 1 to 16 hex digits after 0x", short(s))
		}
		x, err := strconv.ParseUint(h, 16, 64)
		if err != nil {
			return 0, fmt.Errorf("board %q: not hex", short(s))
		}
		b := Board(x)
		for i := range 16 {
			if code.Value(b.At(i)) < 0 {
				return 0, fmt.Errorf("board %q: cell %d holds index %d, which is no tile", short(s), i, b.At(i))
			}
		}
		return b, nil
	}
	c, err := parseTiles(s, code.Index)
	return FromCells(c), err
}

// parseTiles reads sixteen comma-separated tile values, row by row from
// the top left, into their indices by index; all zero on an error.
func parseTiles(s string, index func(v int) (int, bool)) ([16]int, error) {
	f := strings.Split(s, ",")
	if len(f) != 16 {
		return [16]int{}, fmt.Errorf("board %q: want 16 comma-separated tiles (got %d) or 0x and the hex packing", short(s), len(f))
	}
	var c [16]int
	for i, t := range f {
		v, err := strconv.Atoi(strings.TrimSpace(t))
		if err != nil {
			return [16]int{}, fmt.Errorf("board: cell %d: %q is not a number", i, short(strings.TrimSpace(t)))
		}
		var ok bool
		if c[i], ok = index(v); !ok {
			return [16]int{}, fmt.Errorf("board: cell %d: %d is not a tile", i, v)
		}
	}
	return c, nil
}

// Format draws the board as four rows of right-aligned tile values, "." for
// empty cells.
func (b Board) Format(code Code) string {
	return grid(func(i int) int { return code.Value(b.At(i)) })
}

// grid draws the values of the sixteen cells as four rows of
// right-aligned numbers, "." for 0.
func grid(value func(i int) int) string {
	var sb strings.Builder
	for i := range 16 {
		t := "."
		if v := value(i); v != 0 {
			t = strconv.Itoa(v)
		}
		fmt.Fprintf(&sb, "%6s", t)
		if i%4 == 3 {
			sb.WriteByte('\n')
		}
	}
	return sb.String()
}

// String draws the board with 2048 tile values.
func (b Board) String() string { return b.Format(Pow2) }

// short cuts a long input for an error message: the message says where
// the input is wrong, it need not repeat all of it.
func short(s string) string {
	const n = 40
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}
