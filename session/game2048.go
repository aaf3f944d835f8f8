package session

import (
	"errors"
	"math/bits"
	"math/rand/v2"

	"github.com/td2048/td2048/board"
	"github.com/td2048/td2048/rules/game2048"
)

// twenty48 is the session's part of 2048.
type twenty48 struct{}

func (twenty48) name() string { return Game2048 }

func (twenty48) start(rng *rand.PCG) Position { return Position{Board: game2048.Start(rng)} }

func (twenty48) check(p *Position) error {
	switch {
	case p.Next != 0 || p.Bag != 0:
		return errors.New("a 2048 game has no next tile and no bag")
	case p.Score < 0:
		return errors.New("a 2048 score is not negative")
	case p.Board == 0 && p.Ext == 0:
		return errors.New("an empty board is not a position of 2048: a game begins with two tiles and a move leaves at least two")
	}
	return nil
}

// slides are the slides of the board with its extra plane
// (game2048.MovesWide: on a board with no tile past 32768, game2048.Moves).
func (twenty48) slides(p Position) (sl slides) {
	sl.after, sl.reward = game2048.MovesWide(board.Wide{Low: p.Board, Ext: p.Ext})
	return sl
}

// apply spawns a 2 or a 4 on an empty cell of the after-state
// (game2048.SpawnWide: on a board with no tile past 32768,
// game2048.Spawn, draw for draw).
func (twenty48) apply(p *Position, d int, sl *slides, rng *rand.PCG, res *Result) {
	after := sl.after[d]
	res.Legal, res.After, res.AfterExt, res.Reward = true, after.Low, after.Ext, sl.reward[d]
	res.Overflow = p.Ext == 0 && after.Ext != 0
	p.Score += res.Reward
	n := game2048.SpawnWide(after, rng)
	p.Board, p.Ext = n.Low, n.Ext
	// The spawn filled one empty cell: the only nibble that differs.
	res.Cell = bits.TrailingZeros64(uint64(n.Low^after.Low)) / 4
	res.tile = n.At(res.Cell)
}

func (twenty48) code() board.Code { return board.Pow2 }
