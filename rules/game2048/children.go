package game2048

import "github.com/td2048/td2048/board"

// Children slides the boards one new tile away from an after-state: a
// search's chance node. A tile added at (row, col) changes one row and one
// column, so each child's four slides redo one row for left and right and
// one column for up and down, and keep the after-state's other slides.
// The results are MovesTo's, bit for bit (TestChildrenMatchesMoves).
type Children struct {
	after      [4]board.Board // key's slides
	rows, cols [4]uint16      // key's rows, and its columns as rows (cell r of column c at nibble r)
	rl, ru     uint32         // key's rewards left/right and up/down
}

// colMask is column 0's cells.
const colMask = 0x000f000f000f000f

// column returns column c of x as a row: cell (r,c) at nibble r.
func column(x uint64, c int) uint16 {
	x = x >> (4 * c) & colMask
	x = (x | x>>12) & 0x000000ff000000ff
	return uint16(x | x>>24)
}

// spread is column's inverse, to column 0: nibble r of v at cell (r,0).
func spread(v uint16) uint64 {
	x := uint64(v)
	x = (x | x<<24) & 0x000000ff000000ff
	return (x | x<<12) & colMask
}

// Reset makes key the after-state whose children MovesTo slides.
func (c *Children) Reset(key board.Board) {
	x := uint64(key)
	c.rl, c.ru = 0, 0
	var l, r, u, d uint64
	for i := range 4 {
		row := uint16(x >> (16 * i))
		col := column(x, i)
		c.rows[i], c.cols[i] = row, col
		l |= uint64(rowLeft[row]) << (16 * i)
		r |= uint64(rowRight[row]) << (16 * i)
		u |= spread(rowLeft[col]) << (4 * i)
		d |= spread(rowRight[col]) << (4 * i)
		c.rl += rowReward[row]
		c.ru += rowReward[col]
	}
	c.after = [4]board.Board{Up: board.Board(u), Right: board.Board(r), Down: board.Board(d), Left: board.Board(l)}
}

// MovesTo is MovesTo(key with tile exponent t at cell, after, reward)
// for the key of the last Reset; cell must be empty in it and 1 <= t <= 15.
func (c *Children) MovesTo(cell, t int, after *[4]board.Board, reward *[4]uint32) {
	i, j := cell>>2, cell&3 // row, column
	row := c.rows[i] | uint16(t)<<(4*j)
	col := c.cols[j] | uint16(t)<<(4*i)
	rs, cs := 16*i, 4*j
	rm, cm := uint64(0xffff)<<rs, uint64(colMask)<<cs
	after[Left] = board.Board(uint64(c.after[Left])&^rm | uint64(rowLeft[row])<<rs)
	after[Right] = board.Board(uint64(c.after[Right])&^rm | uint64(rowRight[row])<<rs)
	after[Up] = board.Board(uint64(c.after[Up])&^cm | spread(rowLeft[col])<<cs)
	after[Down] = board.Board(uint64(c.after[Down])&^cm | spread(rowRight[col])<<cs)
	rl := c.rl - rowReward[c.rows[i]] + rowReward[row]
	ru := c.ru - rowReward[c.cols[j]] + rowReward[col]
	*reward = [4]uint32{Up: ru, Right: rl, Down: ru, Left: rl}
}
