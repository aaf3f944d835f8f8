// Package game holds the rules of 2048: slides through 65,536-entry row
// tables, rewards, legal moves, random tiles and the end of a game.
//
// Directions are numbered up, right, down, left (0..3) everywhere. A slide
// that changes nothing is illegal. After every legal slide one tile appears
// on a uniformly chosen empty cell: 2 with probability 0.9, 4 with 0.1.
//
// The board stores exponents in 4 bits, so 32768+32768 cannot be stored. A
// slide that makes that merge reports it (Overflow) and its after-state
// holds 32768 in the merged cell (the network's reading of it, see
// board.Wide.View); a game loop goes on from there on a board.Wide with
// MovesWide and SpawnWide (wide.go), so no board is ever silently wrong.
package game2048

import (
	"math/bits"

	"github.com/td2048/td2048/board"
)

// Directions, board's.
const Up, Right, Down, Left = board.Up, board.Right, board.Down, board.Left

// DirNames are the direction names in direction order.
var DirNames = board.DirNames

// OverflowBit is set in a Moves reward when some merge would have made
// 65536. The rest of the reward (Reward) counts that merge as 65536.
const OverflowBit = 1 << 24

// Reward strips OverflowBit (and its carries) from a Moves reward.
func Reward(r uint32) int { return int(r & (OverflowBit - 1)) }

// Overflow reports whether a Moves reward includes a 65536 merge.
func Overflow(r uint32) bool { return r >= OverflowBit }

var (
	rowLeft   [65536]uint16
	rowRight  [65536]uint16
	rowReward [65536]uint32
)

func init() {
	for r := range 65536 {
		var c [4]int
		for i := range c {
			c[i] = r >> (4 * i) & 0xf
		}
		l, rew := slideRow(c)
		rowLeft[r] = pack(l)
		rowReward[r] = rew
		rev := [4]int{c[3], c[2], c[1], c[0]}
		l, _ = slideRow(rev)
		rowRight[r] = pack([4]int{l[3], l[2], l[1], l[0]})
	}
}

func pack(c [4]int) uint16 {
	return uint16(c[0] | c[1]<<4 | c[2]<<8 | c[3]<<12)
}

// slideRow slides one row of exponents toward cell 0, the plain way: it is
// the definition the row tables are built from, slideRowWide's slide with
// 65536, which four bits cannot hold, kept as 15 in the merged cell and
// reported by OverflowBit in the reward.
func slideRow(c [4]int) ([4]int, uint32) {
	out, r := slideRowWide(c)
	reward := uint32(r)
	for i, v := range out {
		if v == 16 {
			out[i] = 15
			reward += OverflowBit
		}
	}
	return out, reward
}

// Moves slides b in all four directions. after[d] == b means d is illegal.
// reward[d] is the merge reward, with OverflowBit set for a 65536 merge.
func Moves(b board.Board) (after [4]board.Board, reward [4]uint32) {
	MovesTo(b, &after, &reward)
	return after, reward
}

// MovesTo is Moves writing to after and reward: no copies on the hot path.
func MovesTo(b board.Board, after *[4]board.Board, reward *[4]uint32) {
	x := uint64(b)
	r0, r1, r2, r3 := uint16(x), uint16(x>>16), uint16(x>>32), uint16(x>>48)
	after[Left] = board.Board(uint64(rowLeft[r0]) | uint64(rowLeft[r1])<<16 |
		uint64(rowLeft[r2])<<32 | uint64(rowLeft[r3])<<48)
	after[Right] = board.Board(uint64(rowRight[r0]) | uint64(rowRight[r1])<<16 |
		uint64(rowRight[r2])<<32 | uint64(rowRight[r3])<<48)
	rl := rowReward[r0] + rowReward[r1] + rowReward[r2] + rowReward[r3]
	t := uint64(b.Transpose())
	c0, c1, c2, c3 := uint16(t), uint16(t>>16), uint16(t>>32), uint16(t>>48)
	after[Up] = board.Board(uint64(rowLeft[c0]) | uint64(rowLeft[c1])<<16 |
		uint64(rowLeft[c2])<<32 | uint64(rowLeft[c3])<<48).Transpose()
	after[Down] = board.Board(uint64(rowRight[c0]) | uint64(rowRight[c1])<<16 |
		uint64(rowRight[c2])<<32 | uint64(rowRight[c3])<<48).Transpose()
	ru := rowReward[c0] + rowReward[c1] + rowReward[c2] + rowReward[c3]
	*reward = [4]uint32{Up: ru, Right: rl, Down: ru, Left: rl}
}

// Move slides b in direction d: the after-state, the reward (65536 for the
// impossible merge, see Overflow), and whether the slide was legal.
func Move(b board.Board, d int) (after board.Board, reward int, legal bool) {
	a, r := Moves(b)
	return a[d], Reward(r[d]), a[d] != b
}

// Over reports whether no slide is legal.
func Over(b board.Board) bool {
	a, _ := Moves(b)
	return a[0] == b && a[1] == b && a[2] == b && a[3] == b
}

// Rand is the source of randomness the rules need: uniform 64-bit words.
// *rand.PCG and *rand.ChaCha8 from math/rand/v2 satisfy it.
type Rand interface{ Uint64() uint64 }

// below returns a uniform integer in [0,n) for 0 < n <= 16 from rng,
// without bias (Lemire's multiply-shift with rejection).
func below(rng Rand, n uint32) uint32 {
	for {
		x := uint32(rng.Uint64() >> 32)
		m := uint64(x) * uint64(n)
		if l := uint32(m); l >= n || l >= -n%n { // reject the 2^32 mod n low values
			return uint32(m >> 32)
		}
	}
}

// Spawn puts a 2 (probability 0.9) or 4 (0.1) on a uniformly chosen empty
// cell of b. b must have an empty cell.
func Spawn(b board.Board, rng Rand) board.Board {
	e := b.EmptyMask()
	n := uint32(bits.OnesCount64(e))
	k := below(rng, n)
	for ; k > 0; k-- {
		e &= e - 1
	}
	tile := uint64(1)
	if below(rng, 10) == 0 {
		tile = 2
	}
	return b | board.Board((e&-e)*tile)
}

// Start returns a new game: an empty board with two random tiles.
func Start(rng Rand) board.Board {
	return Spawn(Spawn(0, rng), rng)
}
