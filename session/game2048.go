package session

import (
	"errors"
	"math/bits"
	"math/rand/v2"

	"github.com/td2048/td2048/board"
	"github.com/td2048/td2048/game"
)

// twenty48 is the session's part of 2048.
type twenty48 struct{}

func (twenty48) name() string { return Game2048 }

func (twenty48) start(rng *rand.PCG) Position { return Position{Board: game.Start(rng)} }

func (twenty48) check(p *Position) error {
	switch {
	case p.Next != 0 || p.Bag != 0:
		return errors.New("a 2048 game has no next tile and no bag")
	case p.Score < 0:
		return errors.New("a 2048 score is not negative")
	}
	return nil
}

// apply slides, then spawns a 2 or a 4 on an empty cell, unless the slide
// merged two 32768s: that ends the game on the after-state.
func (twenty48) apply(p *Position, d int, rng func() *rand.PCG, res *Result) bool {
	after, reward := game.Moves(p.Board)
	if after[d] == p.Board {
		return false
	}
	res.Legal, res.After, res.Reward = true, after[d], game.Reward(reward[d])
	p.Score += res.Reward
	if game.Overflow(reward[d]) {
		p.Board = after[d]
		return true
	}
	p.Board = game.Spawn(after[d], rng())
	// The spawn filled one empty cell: the only nibble that differs.
	res.Cell = bits.TrailingZeros64(uint64(p.Board^after[d])) / 4
	res.Tile = p.Board.At(res.Cell)
	return false
}

func (twenty48) moves(b board.Board) [4]bool {
	after, _ := game.Moves(b)
	return [4]bool{after[0] != b, after[1] != b, after[2] != b, after[3] != b}
}

func (twenty48) over(b board.Board) bool { return game.Over(b) }

func (twenty48) code() board.Code { return board.Pow2 }
