package search

import (
	"github.com/td2048/td2048/board"
	"github.com/td2048/td2048/game"
	"github.com/td2048/td2048/ntuple"
)

// Greedy returns the move maximising reward + V(after-state), the
// after-states valued by the stage of b (ntuple.Network.StageOf).
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
	net.EstimateManyStage(net.StageOf(b), legal[:n], value[:n])
	best, bestV := -1, NoMove.Value
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
		if v > bestV {
			best, bestV = d, v
		}
	}
	if best < 0 {
		return NoMove
	}
	return Choice{Dir: best, After: after[best], Reward: reward[best], Value: bestV}
}
