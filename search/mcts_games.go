package search

import (
	"math/rand/v2"

	"github.com/td2048/td2048/board"
	"github.com/td2048/td2048/ntuple"
	"github.com/td2048/td2048/rules/game2048"
	"github.com/td2048/td2048/rules/threes"
)

// Each game's rules for MCTS (mcts.go), and its searcher. A rollout's
// greedy moves call the rules and the network directly.

// rules2048 are 2048's: a position is a board; a search values every
// board by the stage of its root, as expectimax does.
type rules2048 struct {
	net   *ntuple.Network
	stage int
}

func (r *rules2048) begin(root board.Board) { r.stage = r.net.StageOf(root) }

func (r *rules2048) moves(b board.Board, after *[4]board.Board, reward *[4]float32, dir *[4]int8) int {
	a, rw := game2048.Moves(b)
	n := 0
	for d := range 4 {
		if a[d] != b {
			after[n], reward[n], dir[n] = a[d], float32(game2048.Reward(rw[d])), int8(d)
			n++
		}
	}
	return n
}

func (r *rules2048) values(after *[4]board.Board, n int, v *[4]float32) {
	r.net.EstimateManyStage(r.stage, after[:n], v[:n])
}

func (r *rules2048) outcome(a board.Board, rng *rand.PCG) board.Board { return game2048.Spawn(a, rng) }

func (r *rules2048) rollout(a board.Board, depth int, gamma float32, rng *rand.PCG) float32 {
	if depth == 0 {
		return r.net.EstimateStage(r.stage, a)
	}
	g, disc := float32(0), float32(1)
	var legal [4]board.Board
	var value [4]float32
	for i := range depth {
		b := game2048.Spawn(a, rng)
		after, reward := game2048.Moves(b)
		n := legalAfter(b, &after, &legal)
		if n == 0 {
			break
		}
		r.net.EstimateManyStage(r.stage, legal[:n], value[:n])
		c := pick(b, &after, &reward, &value)
		disc *= gamma
		if i == depth-1 {
			g += disc * c.Value // the reward and V of the last after-state
			break
		}
		g += disc * float32(c.Points())
		a = c.After
	}
	return g
}

// rulesThrees are Threes!': a position is a game (its board, next tile,
// bag and last slide); a placement carries no reward, as in learning.
type rulesThrees struct{ net *ntuple.Network }

func (r *rulesThrees) begin(threes.Game) {}

// threesKey is a hash of a Threes! position that seeds a search from it.
func threesKey(g threes.Game) uint64 {
	return uint64(g.Board) ^ uint64(g.Next)<<59 ^ uint64(g.Bag)<<61 ^ uint64(g.Last+1)*0x9e3779b97f4a7c15
}

func (r *rulesThrees) moves(g threes.Game, after *[4]threes.Game, reward *[4]float32, dir *[4]int8) int {
	a, rw := threes.Moves(g.Board)
	n := 0
	for d := range 4 {
		if a[d] != g.Board {
			k := g
			k.SlideTo(a[d], d)
			after[n], reward[n], dir[n] = k, float32(rw[d]), int8(d)
			n++
		}
	}
	return n
}

func (r *rulesThrees) values(after *[4]threes.Game, n int, v *[4]float32) {
	if n == 0 {
		return
	}
	var b [4]board.Board
	for i := range n {
		b[i] = after[i].Board
	}
	r.net.EstimateManyStage(ThreesStage(r.net, after[0].Next), b[:n], v[:n])
}

func (r *rulesThrees) outcome(a threes.Game, rng *rand.PCG) threes.Game {
	a.PlaceRandom(rng)
	return a
}

func (r *rulesThrees) rollout(a threes.Game, depth int, gamma float32, rng *rand.PCG) float32 {
	if depth == 0 {
		return r.net.EstimateStage(ThreesStage(r.net, a.Next), a.Board)
	}
	g, disc := float32(0), float32(1)
	for i := range depth {
		a.PlaceRandom(rng)
		c := GreedyThrees(r.net, a.Board, a.Next)
		if !c.Legal() {
			break
		}
		disc *= gamma
		if i == depth-1 {
			g += disc * c.Value
			break
		}
		g += disc * float32(c.Reward)
		a.SlideTo(c.After, c.Dir)
	}
	return g
}

// MCTS runs Monte Carlo tree search for 2048 over one network (mcts.go):
// Options.MCTS are its settings, Options.MoveTime its time budget, Stop
// and Threads as for expectimax. It is not safe for concurrent use.
type MCTS struct {
	*mcts[board.Board, *rules2048]
}

// NewMCTS returns a 2048 MCTS searcher over net.
func NewMCTS(net *ntuple.Network, opt Options) *MCTS {
	return &MCTS{newMCTS(opt, func() *rules2048 { return &rules2048{net: net} })}
}

// Values searches b and returns each move's value: Visits, the mean
// return of the after-state below it (Value) and reward + Value (Total);
// and the deepest layer of moves the trees reached.
func (s *MCTS) Values(b board.Board) ([4]MoveValue, int) {
	mv, depth := s.moveValues(b, uint64(b), func(a board.Board) board.Board { return a })
	_, rw := game2048.Moves(b)
	for d := range mv {
		mv[d].overflow = mv[d].Legal && game2048.Overflow(rw[d])
	}
	return mv, depth
}

// Best chooses a move on b: the most visited.
func (s *MCTS) Best(b board.Board) Choice {
	mv, _ := s.Values(b)
	return BestOf(&mv)
}

// MCTSThrees runs Monte Carlo tree search for Threes!, as MCTS for 2048.
type MCTSThrees struct {
	*mcts[threes.Game, *rulesThrees]
}

// NewMCTSThrees returns a Threes! MCTS searcher over net.
func NewMCTSThrees(net *ntuple.Network, opt Options) *MCTSThrees {
	return &MCTSThrees{newMCTS(opt, func() *rulesThrees { return &rulesThrees{net: net} })}
}

// Values searches the game's position (a slide being due), as
// MCTS.Values.
func (s *MCTSThrees) Values(g *threes.Game) ([4]MoveValue, int) {
	return s.moveValues(*g, threesKey(*g), func(a threes.Game) board.Board { return a.Board })
}

// Best chooses a slide: the most visited.
func (s *MCTSThrees) Best(g *threes.Game) Choice {
	mv, _ := s.Values(g)
	return BestOf(&mv)
}
