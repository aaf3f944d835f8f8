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

// apply slides, then spawns a 2 or a 4 on an empty cell, on the board
// with its extra plane (game2048.MovesWide, game2048.SpawnWide: on a board with
// no tile past 32768 they are game2048.Moves and game2048.Spawn, draw for draw).
func (twenty48) apply(p *Position, d int, rng *rand.PCG, res *Result) {
	w := board.Wide{Low: p.Board, Ext: p.Ext}
	after, reward := game2048.MovesWide(w)
	if after[d] == w {
		return
	}
	res.Legal, res.After, res.AfterExt, res.Reward = true, after[d].Low, after[d].Ext, reward[d]
	res.Overflow = w.Ext == 0 && after[d].Ext != 0
	p.Score += res.Reward
	n := game2048.SpawnWide(after[d], rng)
	p.Board, p.Ext = n.Low, n.Ext
	// The spawn filled one empty cell: the only nibble that differs.
	res.Cell = bits.TrailingZeros64(uint64(n.Low^after[d].Low)) / 4
	res.tile = n.At(res.Cell)
}

func (twenty48) moves(p Position) [4]bool {
	w := board.Wide{Low: p.Board, Ext: p.Ext}
	after, _ := game2048.MovesWide(w)
	return [4]bool{after[0] != w, after[1] != w, after[2] != w, after[3] != w}
}

func (twenty48) over(p Position) bool { return game2048.OverWide(board.Wide{Low: p.Board, Ext: p.Ext}) }

func (twenty48) code() board.Code { return board.Pow2 }
