package session

import (
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/td2048/td2048/board"
	"github.com/td2048/td2048/rules/threes"
)

// threesRules is the session's part of Threes!.
type threesRules struct{}

func (threesRules) name() string { return GameThrees }

func (threesRules) start(rng *rand.PCG) Position {
	g := threes.Start(rng)
	return Position{Board: g.Board, Next: g.Next, Bag: g.Bag, Score: threes.BoardScore(g.Board)}
}

func (threesRules) check(p *Position) error {
	for i := range 16 {
		if v := p.Board.At(i); v > threes.MaxIndex {
			return fmt.Errorf("cell %d holds index %d, no Threes! tile", i, v)
		}
	}
	switch {
	case p.Ext != 0:
		return errors.New("a Threes! board has no extra plane")
	case p.Board == 0:
		return errors.New("an empty board is not a position of Threes!: a game begins with nine tiles and a move leaves at least one")
	case p.Next < 1 || p.Next > 3:
		return fmt.Errorf("next tile %d: want 1, 2 or 3", p.Next)
	case p.Bag == 0 || p.Bag&^threes.FullBag != 0:
		return fmt.Errorf("bag %#x: want a non-empty set of 1, 2 and 3", uint8(p.Bag))
	case p.Bag != threes.FullBag && p.Bag.Has(p.Next):
		return fmt.Errorf("next %d is still in the bag %v: the next tile was drawn from it (only a bag just refilled holds all three tiles)", p.Next, p.Bag.Tiles())
	}
	score := threes.BoardScore(p.Board)
	if p.Score != 0 && p.Score != score {
		return fmt.Errorf("score %d: a Threes! score is the board's value, %d", p.Score, score)
	}
	p.Score = score
	return nil
}

// slides are the board's slides (threes.Moves).
func (threesRules) slides(p Position) (sl slides) {
	after, reward := threes.Moves(p.Board)
	for d := range 4 {
		sl.after[d], sl.reward[d] = board.Wide{Low: after[d]}, int(reward[d])
	}
	return sl
}

// apply places the next tile on a free cell of the after-state's edge
// opposite the slide and draws the following next tile from the bag.
func (threesRules) apply(p *Position, d int, sl *slides, rng *rand.PCG, res *Result) {
	after := sl.after[d].Low
	res.Legal, res.After, res.Reward = true, after, sl.reward[d]
	g := p.ThreesGame()
	g.SlideTo(after, d)
	res.Cell, res.tile, _ = g.PlaceRandom(rng)
	p.Board, p.Next, p.Bag = g.Board, g.Next, g.Bag
	p.Score = threes.BoardScore(p.Board) // the old score, the slide's reward and the placed tile's value
}

func (threesRules) code() board.Code { return threes.Code }
