package board

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"
)

// WideMax is the largest exponent a Wide cell holds: 31, the tile 2^31.
const WideMax = 31

// Wide is a 2048 board whose tiles may pass 32768: the four low bits of
// each cell's exponent in Low, as a Board packs them, and bit 4 of cell
// i's exponent in bit i of Ext, as TDL2048+'s extra bit plane keeps it.
// So cell i holds exponents 0..31 (65536 is Low nibble 0 with its Ext bit
// set, 131072 nibble 1 with it). A Wide with Ext 0 is exactly its Low.
//
// Wide boards are the slow path of 2048: the game loop keeps one only
// once a 32768+32768 merge has been made (package game2048's MovesWide,
// SpawnWide). Networks and searches never read one: they read the board
// View returns (see there).
type Wide struct {
	Low Board
	Ext uint16
}

// At returns the exponent in cell i (0 empty, 16 is 65536).
func (w Wide) At(i int) int { return w.Low.At(i) | int(w.Ext>>uint(i)&1)<<4 }

// set returns w with cell i holding exponent v (0..31).
func (w Wide) set(i, v int) Wide {
	w.Low = w.Low.Set(i, v&0xf)
	w.Ext = w.Ext&^(1<<uint(i)) | uint16(v>>4&1)<<uint(i)
	return w
}

// WideFromCells packs sixteen exponents (each 0..31).
func WideFromCells(c [16]int) Wide {
	var w Wide
	for i, v := range c {
		w = w.set(i, v)
	}
	return w
}

// Cells returns the sixteen exponents.
func (w Wide) Cells() [16]int {
	var c [16]int
	for i := range c {
		c[i] = w.At(i)
	}
	return c
}

// extNibbles spreads the 16 bits of ext to bit 4i of a word, one per cell.
func extNibbles(ext uint16) uint64 {
	var m uint64
	for e := uint64(ext); e != 0; e &= e - 1 {
		m |= 1 << (4 * uint(bits.TrailingZeros64(e)))
	}
	return m
}

// emptyMask has bit 4i set for each cell i empty in both planes.
func (w Wide) emptyMask() uint64 { return w.Low.EmptyMask() &^ extNibbles(w.Ext) }

// Empty counts the empty cells.
func (w Wide) Empty() int { return bits.OnesCount64(w.emptyMask()) }

// MaxTile returns the largest exponent on the board.
func (w Wide) MaxTile() int {
	m := 0
	for i := range 16 {
		m = max(m, w.At(i))
	}
	return m
}

// Scale has bit e set for each exponent e >= 1 some cell holds: the set
// of tiles on the board (TDL2048+'s scale, without the empty cell's bit).
func (w Wide) Scale() uint32 {
	var s uint32
	for i := range 16 {
		s |= 1 << uint(w.At(i))
	}
	return s &^ 1
}

// Transpose mirrors w on its main diagonal, both planes.
func (w Wide) Transpose() Wide {
	var ext uint16
	for e := w.Ext; e != 0; e &= e - 1 {
		i := bits.TrailingZeros16(e)
		ext |= 1 << uint(i%4*4+i/4)
	}
	return Wide{w.Low.Transpose(), ext}
}

// Downgrade lowers w's large tiles into the gaps below them, as
// TDL2048+'s shift does (board.h shift80): the gaps are the tiles
// 2 .. max/2 absent from the board; of them the n highest are taken (all
// when there are fewer), and every tile is lowered by the number of taken
// gaps below it. Distinct tiles stay distinct and keep their order, so
// the legal moves and which tiles merge are the same on the downgraded
// board; n <= 0 or a board without gaps is unchanged.
func (w Wide) Downgrade(n int) Wide {
	rank := w.Scale()
	if n <= 0 || rank == 0 {
		return w
	}
	top := bits.Len32(rank) - 1
	hole := ^rank & (1<<uint(top) - 1) &^ 1
	for bits.OnesCount32(hole) > n {
		hole &= hole - 1 // drop the lowest gap
	}
	if hole == 0 {
		return w
	}
	var to [WideMax + 1]int
	for e := range to {
		to[e] = e - bits.OnesCount32(hole&(1<<uint(e)-1))
	}
	var c [16]int
	for i := range c {
		c[i] = to[w.At(i)]
	}
	return WideFromCells(c)
}

// View is the board networks and searches read for w: w downgraded by at
// least n (see Downgrade), and by as many more gaps as it takes to bring
// every tile down to 32768, which it always can when some slide is legal
// on w (a board on which 65536 or more has no such gaps holds sixteen
// distinct tiles and no legal slide). ok is false when some tile stays
// above 32768; the board returned then holds 32768 in its place.
//
// With no tile past 32768 and n = 0 the view is w.Low: the 4-bit game is
// its own view. This is td2048's reading of large tiles, the same for
// learning, greedy play and search; TDL2048+ instead reads the four low
// bits, so that 65536 looks like an empty cell (docs/methods.md §6).
func (w Wide) View(n int) (v Board, ok bool) {
	if w.Ext == 0 && n <= 0 {
		return w.Low, true
	}
	x := w.Downgrade(max(n, w.MaxTile()-15))
	if x.Ext == 0 {
		return x.Low, true
	}
	for e := x.Ext; e != 0; e &= e - 1 {
		x.Low = x.Low.Set(bits.TrailingZeros16(e), 15)
	}
	return x.Low, false
}

// Hex is the board as TDL2048+ prints an 80-bit board: the Ext plane in
// four hex digits, a colon, then Low as Board.Hex does.
func (w Wide) Hex() string { return fmt.Sprintf("0x%04x:%016x", w.Ext, uint64(w.Low)) }

// Tiles are the tile values of the sixteen cells (0 for empty).
func (w Wide) Tiles() [16]int {
	var t [16]int
	for i := range t {
		t[i] = Pow2.Value(w.At(i))
	}
	return t
}

// String draws the board as four rows of right-aligned tile values, "."
// for empty cells, as Board.String does.
func (w Wide) String() string { return grid(func(i int) int { return Pow2.Value(w.At(i)) }) }

// wideIndex is the exponent of tile value v (0 for empty), false when v
// is no 2048 tile a Wide holds (2 .. 2^31, powers of two).
func wideIndex(v int) (int, bool) {
	if v == 0 {
		return 0, true
	}
	if v < 2 || v > 1<<WideMax || v&(v-1) != 0 {
		return 0, false
	}
	return bits.TrailingZeros(uint(v)), true
}

// ParseWide reads a 2048 board whose tiles may pass 32768: sixteen
// comma-separated tile values row by row from the top left (0 for
// empty; 65536, 131072, ... up to 2^31 allowed), or the hex forms
// Board's Parse reads (0x and up to sixteen digits, no tile past 32768)
// and Wide.Hex prints (0x, four digits of Ext, a colon, up to sixteen of
// Low).
func ParseWide(s string) (Wide, error) {
	s = strings.TrimSpace(s)
	if h, ok := strings.CutPrefix(strings.ToLower(s), "0x"); ok {
		if ext, low, wide := strings.Cut(h, ":"); wide {
			e, err := strconv.ParseUint(ext, 16, 16)
			if err != nil || len(ext) != 4 {
				return Wide{}, fmt.Errorf("board %q: want 0x, four hex digits of the extra plane, a colon and the board", short(s))
			}
			b, err := ParseWith("0x"+low, Pow2)
			if err != nil {
				return Wide{}, err
			}
			return Wide{b, uint16(e)}, nil
		}
		b, err := ParseWith(s, Pow2)
		return Wide{Low: b}, err
	}
	c, err := parseTiles(s, wideIndex)
	return WideFromCells(c), err
}
