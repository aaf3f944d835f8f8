package search

import (
	"math"
	"math/bits"

	"github.com/td2048/td2048/board"
	"github.com/td2048/td2048/ntuple"
	"github.com/td2048/td2048/rules/threes"
)

// ThreesStage is the stage of net's tables that values a Threes!
// after-state whose next tile is hint: hint-1 for a "+hint" network,
// else 0.
func ThreesStage(net *ntuple.Network, hint int) int {
	if net.Spec().Hint && hint >= 1 {
		return hint - 1
	}
	return 0
}

// GreedyThrees returns the Threes! slide maximising reward +
// V(after-state), valued with the stage of hint (the tile that will be
// placed next).
func GreedyThrees(net *ntuple.Network, b board.Board, hint int) Choice {
	after, reward := threes.Moves(b)
	k := ThreesStage(net, hint)
	var legal [4]board.Board
	var value [4]float32
	n := legalAfter(b, &after, &legal)
	net.EstimateManyStage(k, legal[:n], value[:n])
	best, i := NoMove, 0
	for d := range 4 {
		if after[d] == b {
			continue
		}
		v := float32(reward[d]) + value[i]
		i++
		if v > best.Value {
			best = Choice{Dir: d, After: after[d], Reward: uint32(reward[d]), Value: v}
		}
	}
	return best
}

// Threes runs expectimax for Threes! over one network, for one goroutine;
// several searchers may share one Table.
//
// A max node is a board before a slide with its hint and bag: the best
// over legal slides of reward + the chance node below, 0 when no slide is
// legal (the game is over). A chance node is an after-state with the
// direction of its slide, its hint and its bag: the average over the empty
// cells of the edge opposite the slide, where the hint tile goes, and over
// the tiles of the bag, one of which becomes the next hint, of the max
// node so made. At depth 0 a chance node is the leaf V(after-state) by the
// hint's stage. Placements carry no reward here, as in learning.
type Threes struct {
	run
	net *ntuple.Network
	// team are the other searchers of a search on several goroutines
	// (Options.Threads, team.go), made on first use.
	team []*Threes
	crew crew
}

// NewThrees returns a Threes! searcher over net; tt may be nil (no
// table). Depths are capped at MaxDepth; Kind must be AfterState.
func NewThrees(net *ntuple.Network, opt Options, tt *Table) *Threes {
	if opt.Depth <= 0 && opt.MoveTime <= 0 {
		opt.Depth = 1
	}
	opt.Depth = min(max(opt.Depth, 0), MaxDepth)
	return &Threes{run: run{opt: opt, tt: tt}, net: net}
}

// Values returns the value of each slide on the game's board at depth
// plies, the game's hint and bag being known. It ignores MoveTime (see
// ValuesTimed) but not Stop.
func (s *Threes) Values(g *threes.Game, depth int) [4]MoveValue {
	s.begin()
	if s.opt.Threads > 1 && depth >= 2 {
		return s.valuesTeam(g, depth)
	}
	var mv [4]MoveValue
	after, reward := threes.Moves(g.Board)
	for d := range 4 {
		if after[d] == g.Board {
			continue
		}
		v := s.chance(after[d], d, g.Next, g.Bag, depth-1)
		mv[d] = MoveValue{Legal: true, After: after[d], Reward: uint32(reward[d]), Value: v, Total: float32(reward[d]) + v}
	}
	return mv
}

// ValuesTimed deepens from depth 1 until MoveTime passes (or the depth
// cap is reached) and returns the values of the deepest finished search
// and its depth. Without MoveTime it is Values at the configured depth.
func (s *Threes) ValuesTimed(g *threes.Game) ([4]MoveValue, int) {
	return s.deepen(func(depth int) [4]MoveValue { return s.Values(g, depth) })
}

// Best chooses a slide at the configured depth, or within MoveTime.
func (s *Threes) Best(g *threes.Game) Choice {
	if s.opt.MoveTime <= 0 && s.opt.Depth == 1 {
		s.stopped = false
		return GreedyThrees(s.net, g.Board, g.Next)
	}
	mv, _ := s.ValuesTimed(g)
	return BestOf(&mv)
}

func (s *Threes) chance(after board.Board, last, hint int, bag threes.Bag, depth int) float32 {
	if depth == 0 {
		return s.net.EstimateStage(ThreesStage(s.net, hint), after)
	}
	if s.enter() {
		return 0
	}
	aux := uint32(depth) | uint32(last)<<5 | uint32(hint)<<8 | uint32(bag)<<10
	if s.tt != nil {
		if v, ok := s.tt.get(after, aux); ok {
			return v
		}
	}
	var sum float32
	n := 0
	tile := board.Board(hint)
	for free := threes.Free(after, last); free != 0; free &= free - 1 {
		cell := free & -free
		placed := after | board.Board(cell)*tile
		for m := uint8(bag & threes.FullBag); m != 0; m &= m - 1 {
			next := bits.TrailingZeros8(m) + 1
			sum += s.node(placed, next, bag.Take(next), depth)
			n++
		}
	}
	var v float32
	if n > 0 {
		v = sum / float32(n)
	}
	if s.tt != nil && !s.aborted {
		s.tt.Put(after, aux, v)
	}
	return v
}

// node is a max node: the best of reward + chance below over the legal
// slides of b, whose hint and bag are given; 0 when none is legal.
func (s *Threes) node(b board.Board, hint int, bag threes.Bag, depth int) float32 {
	if depth == 1 {
		// Leaves below: the greedy choice, its loads batched.
		if c := GreedyThrees(s.net, b, hint); c.Legal() {
			return c.Value
		}
		return 0
	}
	after, reward := threes.Moves(b)
	best := float32(math.Inf(-1))
	for d := range 4 {
		if after[d] == b {
			continue
		}
		best = max(best, float32(reward[d])+s.chance(after[d], d, hint, bag, depth-1))
	}
	if math.IsInf(float64(best), -1) {
		return 0
	}
	return best
}
