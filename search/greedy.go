package search

import (
	"github.com/td2048/td2048/board"
	"github.com/td2048/td2048/game"
	"github.com/td2048/td2048/ntuple"
)

// Greedy returns the move maximising reward + V(after-state), the
// after-states valued by the stage of b (ntuple.Network.StageOf). A move
// that merges two 32768s is worth 65536 plus V of its after-state, which
// holds 32768 in the merged cell: the game goes on (see Shifter).
func Greedy(net *ntuple.Network, b board.Board) Choice {
	after, reward := game.Moves(b)
	var legal [4]board.Board
	n := 0
	for d := range 4 {
		if after[d] != b {
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
		v := float32(game.Reward(reward[d])) + value[k]
		k++
		if v > bestV {
			best, bestV = d, v
		}
	}
	if best < 0 {
		return NoMove
	}
	return Choice{Dir: best, After: after[best], Reward: reward[best], Value: bestV}
}
