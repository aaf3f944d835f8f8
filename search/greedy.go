// Package search chooses 2048 moves with a learned value function: greedy
// after-state selection (1-ply), the expectation over random tiles, and
// expectimax to any depth.
//
// Values are rewards plus V of an after-state, in float32 as the course
// code computes them; ties go to the first direction in up, right, down,
// left order.
package search

import (
	"math"

	"github.com/td2048/td2048/board"
	"github.com/td2048/td2048/game"
	"github.com/td2048/td2048/ntuple"
)

// A Choice is one chosen move.
type Choice struct {
	Dir    int         // -1 when no move is legal
	After  board.Board // the after-state
	Reward uint32      // as game.Moves gives it, OverflowBit included
	Value  float32     // reward + value of what lies below
}

// Legal reports whether a move was found.
func (c Choice) Legal() bool { return c.Dir >= 0 }

// NoMove is the choice on a board where no move is legal.
var NoMove = Choice{Dir: -1, Value: float32(math.Inf(-1))}

// Greedy returns the move maximising reward + V(after-state).
func Greedy(net *ntuple.Network, b board.Board) Choice {
	after, reward := game.Moves(b)
	var legal [4]board.Board
	n := 0
	for d := range 4 {
		if after[d] != b && !game.Overflow(reward[d]) {
			legal[n] = after[d]
			n++
		}
	}
	var value [4]float32
	net.EstimateMany(legal[:n], value[:n])
	best := NoMove
	k := 0
	for d := range 4 {
		if after[d] == b {
			continue
		}
		v := float32(game.Reward(reward[d]))
		if !game.Overflow(reward[d]) { // a 65536 merge ends the game
			v += value[k]
			k++
		}
		if v > best.Value {
			best = Choice{Dir: d, After: after[d], Reward: reward[d], Value: v}
		}
	}
	return best
}
