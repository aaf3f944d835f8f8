// Package threes holds the rules of Threes! as the course (the TCG 2022
// framework) defines them, on the board shared with 2048: tile indices,
// one-cell slides through 65,536-entry row tables, scoring, the bag of
// {1,2,3} and the hint, placement on the edge opposite the last slide, the
// nine-tile opening and the end of a game.
//
// A cell holds a tile index 0..14: 0 empty, 1, 2 and 3 the tiles 1, 2 and
// 3, and i >= 3 the tile 3*2^(i-3) (6, 12, ..., 6144). Directions are
// numbered up, right, down, left (0..3), as in package game2048.
//
// A slide moves each tile at most one cell: for a left slide of a row, for
// c = 1, 2, 3 in turn, the tile in c moves into an empty c-1, or merges with
// c-1 when they can (1+2, or two equal tiles from 3 to 3072), leaving c
// empty. The first place where something moves decides the row; everything
// behind it shifts one cell and a row merges at most once. A direction is
// legal only when some row changes.
//
// A tile v >= 3 is worth 3^(log2(v/3)+1); 1 and 2 are worth 0. The score of
// a game is the value of its last board, and every action's reward is the
// change in board value it makes, so the rewards sum to the score.
package threes

import (
	"math/bits"

	"github.com/td2048/td2048/board"
)

// Directions, board's.
const Up, Right, Down, Left = board.Up, board.Right, board.Down, board.Left

// Anywhere is the "last slide" of a board no slide has touched since the
// last placement: the opening places on any empty cell.
const Anywhere = Left + 1

// DirNames are the direction names in direction order.
var DirNames = board.DirNames

// MaxIndex is the largest tile index: 6144, which merges no further.
const MaxIndex = 14

// Value is the face value of tile index i: 0 for empty, 1, 2, 3, 6, ...,
// 6144; -1 for an index that is no tile (15 and up).
func Value(i int) int {
	switch {
	case i < 0 || i > MaxIndex:
		return -1
	case i <= 3:
		return i
	}
	return 3 << uint(i-3)
}

// index is the tile index of face value v (0 for empty), false when no
// tile has that value.
func index(v int) (int, bool) {
	switch {
	case v >= 0 && v <= 3:
		return v, true
	case v < 6 || v > 6144 || v%3 != 0:
		return 0, false
	}
	q := v / 3
	if q&(q-1) != 0 {
		return 0, false
	}
	return bits.TrailingZeros(uint(q)) + 3, true
}

// Score is the scoring value of tile index i: 3^(i-2) for i >= 3 (the tile
// v = 3*2^(i-3) is worth 3^(log2(v/3)+1)); 0 for empty, 1 and 2. Index 15,
// which no game reaches, is given 3^13 so that tables stay consistent.
func Score(i int) int {
	if i < 3 {
		return 0
	}
	s := 1
	for range i - 2 {
		s *= 3
	}
	return s
}

// TileValue is Value clamped to 0 for non-tiles: the tile shown for an
// index in statistics blocks (stats.Block.Write).
func TileValue(i int) int { return max(Value(i), 0) }

// Code is Threes!'s board.Code: the face values 0, 1, 2, 3, 6, ..., 6144.
var Code board.Code = code{}

type code struct{}

func (code) Value(i int) int         { return Value(i) }
func (code) Index(v int) (int, bool) { return index(v) }

// Parse reads a Threes! board: sixteen comma-separated face values row by
// row from the top left (0 for empty), or 0x and the hex packing of tile
// indices (see board.ParseWith).
func Parse(s string) (board.Board, error) { return board.ParseWith(s, Code) }

// canMerge reports whether tile indices a (the cell slid into) and b (the
// tile sliding) merge: 1+2 in either order, or equal tiles from 3 to 3072.
func canMerge(a, b int) bool {
	return a != 0 && b != 0 && (a+b == 3 || a == b && a >= 3 && a < MaxIndex)
}

// SlideRow slides one row of tile indices toward cell 0 the plain way, as
// docs/reference/rules.md states it: the definition the row tables are built from. It
// returns the new row and the merge's reward (value of the new tile minus
// twice the value of the old, i.e. the change in the row's value).
func SlideRow(c [4]int) ([4]int, int) {
	reward := 0
	for i := 1; i < 4; i++ {
		switch {
		case c[i-1] == 0:
			c[i-1], c[i] = c[i], 0
		case canMerge(c[i-1], c[i]):
			before := Score(c[i-1]) + Score(c[i])
			c[i-1], c[i] = max(c[i-1], c[i])+1, 0
			reward += Score(c[i-1]) - before
		}
	}
	return c, reward
}

var (
	rowLeft, rowRight       [65536]uint16
	rewardLeft, rewardRight [65536]int32
	rowScore                [65536]int32
)

func init() {
	for r := range 65536 {
		var c [4]int
		for i := range c {
			c[i] = r >> (4 * i) & 0xf
		}
		l, rl := SlideRow(c)
		rowLeft[r], rewardLeft[r] = pack(l), int32(rl)
		rev, rr := SlideRow([4]int{c[3], c[2], c[1], c[0]})
		rowRight[r], rewardRight[r] = pack([4]int{rev[3], rev[2], rev[1], rev[0]}), int32(rr)
		rowScore[r] = int32(Score(c[0]) + Score(c[1]) + Score(c[2]) + Score(c[3]))
	}
}

func pack(c [4]int) uint16 {
	return uint16(c[0] | c[1]<<4 | c[2]<<8 | c[3]<<12)
}

// BoardScore is the value of a board: the sum of its tiles' scores.
func BoardScore(b board.Board) int {
	x := uint64(b)
	return int(rowScore[uint16(x)] + rowScore[uint16(x>>16)] + rowScore[uint16(x>>32)] + rowScore[uint16(x>>48)])
}

// Moves slides b in all four directions. after[d] == b means d is illegal;
// reward[d] is the change in board value (the merges' rewards).
func Moves(b board.Board) (after [4]board.Board, reward [4]int32) {
	x := uint64(b)
	r0, r1, r2, r3 := uint16(x), uint16(x>>16), uint16(x>>32), uint16(x>>48)
	after[Left] = board.Board(uint64(rowLeft[r0]) | uint64(rowLeft[r1])<<16 |
		uint64(rowLeft[r2])<<32 | uint64(rowLeft[r3])<<48)
	after[Right] = board.Board(uint64(rowRight[r0]) | uint64(rowRight[r1])<<16 |
		uint64(rowRight[r2])<<32 | uint64(rowRight[r3])<<48)
	reward[Left] = rewardLeft[r0] + rewardLeft[r1] + rewardLeft[r2] + rewardLeft[r3]
	reward[Right] = rewardRight[r0] + rewardRight[r1] + rewardRight[r2] + rewardRight[r3]
	t := uint64(b.Transpose())
	c0, c1, c2, c3 := uint16(t), uint16(t>>16), uint16(t>>32), uint16(t>>48)
	after[Up] = board.Board(uint64(rowLeft[c0]) | uint64(rowLeft[c1])<<16 |
		uint64(rowLeft[c2])<<32 | uint64(rowLeft[c3])<<48).Transpose()
	after[Down] = board.Board(uint64(rowRight[c0]) | uint64(rowRight[c1])<<16 |
		uint64(rowRight[c2])<<32 | uint64(rowRight[c3])<<48).Transpose()
	reward[Up] = rewardLeft[c0] + rewardLeft[c1] + rewardLeft[c2] + rewardLeft[c3]
	reward[Down] = rewardRight[c0] + rewardRight[c1] + rewardRight[c2] + rewardRight[c3]
	return after, reward
}

// Move slides b in direction d: the after-state, the reward, and whether
// the slide was legal.
func Move(b board.Board, d int) (after board.Board, reward int, legal bool) {
	a, r := Moves(b)
	return a[d], int(r[d]), a[d] != b
}

// Over reports whether no slide is legal.
func Over(b board.Board) bool {
	a, _ := Moves(b)
	return a[0] == b && a[1] == b && a[2] == b && a[3] == b
}

// Edge masks: bit 4i set for each cell i where a tile may be placed after
// a slide in each direction (the edge opposite the slide), and anywhere.
var edges = [5]uint64{
	Up:       0x1111 << 48,       // cells 12-15
	Right:    0x0001000100010001, // cells 0, 4, 8, 12
	Down:     0x1111,             // cells 0-3
	Left:     0x1000100010001000, // cells 3, 7, 11, 15
	Anywhere: 0x1111111111111111,
}

// Edge returns the mask (bit 4i for cell i) of the cells where a tile may
// be placed after a slide in direction last (or Anywhere).
func Edge(last int) uint64 { return edges[last] }

// EdgeCells lists the cells of Edge(last) in increasing order.
func EdgeCells(last int) []int {
	var c []int
	for m := edges[last]; m != 0; m &= m - 1 {
		c = append(c, bits.TrailingZeros64(m)/4)
	}
	return c
}

// Free returns the mask (bit 4i for cell i) of the empty cells of b where
// a tile may be placed after a slide in direction last.
func Free(b board.Board, last int) uint64 { return b.EmptyMask() & edges[last] }
