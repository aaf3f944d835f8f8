package game2048

import "github.com/td2048/td2048/board"

// The slow path of 2048: boards whose tiles may pass 32768 (board.Wide).
// A game stays on the 4-bit Board, whose row tables the hot path uses,
// until a slide merges two 32768s; from then on the game loop plays on a
// Wide board with MovesWide and SpawnWide. The rules are the same: a
// merge of two exponent-e tiles makes e+1 and scores 2^(e+1), for every e
// up to board.WideMax-1 (two 2^31 tiles do not merge, a case no game can
// reach: it takes 2^32 points of new tiles).

// slideRowWide slides one row of exponents (0..31) toward cell 0, the
// plain way: the definition MovesWide is checked against.
func slideRowWide(c [4]int) ([4]int, int) {
	var out [4]int
	reward, n := 0, 0
	merged := false // out[n-1] is the product of a merge
	for _, v := range c {
		if v == 0 {
			continue
		}
		if n > 0 && out[n-1] == v && !merged && v < board.WideMax {
			out[n-1] = v + 1
			reward += 1 << uint(v+1)
			merged = true
			continue
		}
		out[n] = v
		n++
		merged = false
	}
	return out, reward
}

// slideWide slides row r of w (nibbles r16, extra bits e4) left, or right
// when right is set: through the 4-bit tables when the row holds no tile
// past 32768 and makes none, else cell by cell.
func slideWide(r16 uint16, e4 uint16, right bool) (uint16, uint16, int) {
	if e4 == 0 && !Overflow(rowReward[r16]) {
		if right {
			return rowRight[r16], 0, int(rowReward[r16])
		}
		return rowLeft[r16], 0, int(rowReward[r16])
	}
	flip := 0 // cell i of the row is cell i^flip in the slide's order
	if right {
		flip = 3
	}
	var c [4]int
	for i := range c {
		c[i^flip] = int(r16>>(4*uint(i))&0xf) | int(e4>>uint(i)&1)<<4
	}
	out, reward := slideRowWide(c)
	var lo, hi uint16
	for i := range out {
		v := out[i^flip]
		lo |= uint16(v&0xf) << (4 * uint(i))
		hi |= uint16(v>>4&1) << uint(i)
	}
	return lo, hi, reward
}

// slideRowsWide slides the four rows of w left (or right).
func slideRowsWide(w board.Wide, right bool) (board.Wide, int) {
	var out board.Wide
	reward := 0
	for r := range 4 {
		lo, hi, rew := slideWide(w.Low.Row(r), w.Ext>>(4*uint(r))&0xf, right)
		out.Low |= board.Board(lo) << (16 * uint(r))
		out.Ext |= hi << (4 * uint(r))
		reward += rew
	}
	return out, reward
}

// AfterWide is the real after-state of slide d of b, on a wide board:
// where the slide merged two 32768s into 65536, the board past the 4-bit
// one that the rest of the game is played on.
func AfterWide(b board.Board, d int) board.Wide {
	a, _ := MovesWide(board.Wide{Low: b})
	return a[d]
}

// MovesWide slides w in all four directions, as Moves does a Board:
// after[d] == w means d is illegal; reward[d] counts every merge at its
// value (65536, 131072, ...).
func MovesWide(w board.Wide) (after [4]board.Wide, reward [4]int) {
	if w.Ext == 0 {
		// No tile past 32768: the row tables' slides, unless one of them
		// merges two 32768s.
		a, r := Moves(w.Low)
		if max(r[0], r[1], r[2], r[3]) < OverflowBit {
			for d := range 4 {
				after[d], reward[d] = board.Wide{Low: a[d]}, int(r[d])
			}
			return after, reward
		}
	}
	after[Left], reward[Left] = slideRowsWide(w, false)
	after[Right], reward[Right] = slideRowsWide(w, true)
	t := w.Transpose()
	var a board.Wide
	a, reward[Up] = slideRowsWide(t, false)
	after[Up] = a.Transpose()
	a, reward[Down] = slideRowsWide(t, true)
	after[Down] = a.Transpose()
	return after, reward
}

// OverWide reports whether no slide of w is legal.
func OverWide(w board.Wide) bool {
	a, _ := MovesWide(w)
	return a[0] == w && a[1] == w && a[2] == w && a[3] == w
}

// SpawnWide puts a 2 (probability 0.9) or 4 (0.1) on a uniformly chosen
// cell of w empty in both planes, drawing from rng exactly as Spawn does
// (so a Wide with Ext 0 gets the tile Spawn would give its Low). w must
// have an empty cell.
func SpawnWide(w board.Wide, rng Rand) board.Wide {
	// Cells holding a tile past 32768 may have an empty low nibble: fill
	// them for Spawn, which then sees exactly w's empty cells.
	filled := w.Low | extFill(w.Ext)
	tile := Spawn(filled, rng) ^ filled
	return board.Wide{Low: w.Low | tile, Ext: w.Ext}
}

// extFill has nibble i set to 1 for each bit i of ext.
func extFill(ext uint16) board.Board {
	var b board.Board
	for i := range 16 {
		if ext>>uint(i)&1 != 0 {
			b = b.Set(i, 1)
		}
	}
	return b
}
