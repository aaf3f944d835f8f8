package search

import (
	"github.com/td2048/td2048/board"
	"github.com/td2048/td2048/ntuple"
	"github.com/td2048/td2048/rules/game2048"
)

// Greedy returns the move maximising reward + V(after-state), the
// after-states valued by the stage of b (ntuple.Network.StageOf). A move
// that merges two 32768s is worth 65536 plus V of its after-state, which
// holds 32768 in the merged cell: the game goes on (see Shifter).
func Greedy(net *ntuple.Network, b board.Board) Choice {
	after, reward := game2048.Moves(b)
	var legal [4]board.Board
	n := legalAfter(b, &after, &legal)
	var value [4]float32
	net.EstimateManyStage(net.StageOf(b), legal[:n], value[:n])
	return pick(b, &after, &reward, &value)
}

// legalAfter writes the after-states of b's legal moves (those that change
// it) to legal in direction order and returns how many there are.
func legalAfter(b board.Board, after, legal *[4]board.Board) int {
	n := 0
	for d := range 4 {
		if after[d] != b {
			legal[n] = after[d]
			n++
		}
	}
	return n
}

// pick is Greedy's choice among the moves of b, given the values of the
// legal after-states in direction order: the highest reward + value, the
// first on ties.
func pick(b board.Board, after *[4]board.Board, reward *[4]uint32, value *[4]float32) Choice {
	best, bestV := -1, NoMove.Value
	k := 0
	for d := range 4 {
		if after[d] == b {
			continue
		}
		v := float32(game2048.Reward(reward[d])) + value[k]
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

// Pending is Greedy split in two around the wait for the weights, so that
// one goroutine can play several games in turn (evaluate.Config's
// Interleave): Fetch computes a board's moves and starts loading their
// weights, Choose sums them and picks, as Greedy does, bit for bit. A
// Pending serves one game at a time; the zero value is ready for Fetch.
type Pending struct {
	b      board.Board
	after  [4]board.Board
	reward [4]uint32
	legal  [4]board.Board
	n      int // legal moves
	stage  int
	idx    []uint32
}

// Fetch starts Greedy's move on b with net: the after-states and the
// loads of their weights (ntuple.Network.Fetch).
func (p *Pending) Fetch(net *ntuple.Network, b board.Board) {
	p.b = b
	p.after, p.reward = game2048.Moves(b)
	if p.n = legalAfter(b, &p.after, &p.legal); p.n == 0 {
		return
	}
	if need := 4 * net.Lookups(); len(p.idx) < need {
		p.idx = make([]uint32, need)
	}
	p.stage = net.StageOf(b)
	net.Fetch(p.stage, p.legal[:p.n], p.idx)
}

// Choose finishes the move Fetch started with the same net: Greedy's
// choice on the board given to Fetch.
func (p *Pending) Choose(net *ntuple.Network) Choice {
	if p.n == 0 {
		return NoMove
	}
	var value [4]float32
	net.SumFetched(p.stage, p.idx, value[:p.n])
	return pick(p.b, &p.after, &p.reward, &value)
}
