package search

import (
	"math"
	"math/bits"

	"github.com/td2048/td2048/board"
	"github.com/td2048/td2048/ntuple"
	"github.com/td2048/td2048/rules/game2048"
)

// A Searcher runs expectimax over one network for one goroutine; several
// searchers may share one Table.
type Searcher struct {
	run
	net    *ntuple.Network
	canon  bool // values depend only on the symmetry class of a board
	leaves *leaves
	// stage is the network stage of the root of the search under way,
	// which values every leaf below it (docs/methods.md section 1), and
	// aux its mark in the table keys.
	stage int
	aux   uint32
	// team is the team of a search on several goroutines
	// (Options.Threads, team.go), s first, made on first use; units and
	// tasks its leader's scratch.
	team  []*Searcher
	crew  crew
	units []unit
	tasks []int
}

// NewSearcher returns a searcher over net; tt may be nil (no table).
func NewSearcher(net *ntuple.Network, opt Options, tt *Table) *Searcher {
	if opt.Depth <= 0 && opt.MoveTime <= 0 {
		opt.Depth = 1
	}
	return &Searcher{run: run{opt: opt, tt: tt}, net: net, canon: net.Spec().Iso}
}

// Values returns the value of each move at depth plies (1 or more). A
// multi-stage network values the whole tree by the stage of b
// (ntuple.Network.StageOf), as TDL2048+ does.
func (s *Searcher) Values(b board.Board, depth int) [4]MoveValue {
	s.begin()
	s.stage = s.net.StageOf(b)
	s.aux = uint32(s.stage) << 5 // depths take 5 bits
	if s.opt.Threads > 1 && depth >= 2 {
		return s.valuesTeam(b, depth)
	}
	var mv [4]MoveValue
	after, reward := game2048.Moves(b)
	for d := range 4 {
		if after[d] == b {
			continue
		}
		v := s.chance(after[d], depth-1)
		r := game2048.Reward(reward[d])
		mv[d] = MoveValue{Legal: true, After: after[d], Reward: uint32(r), Value: v, Total: float32(r) + v, overflow: game2048.Overflow(reward[d])}
	}
	return mv
}

// Best chooses a move on b: at the configured depth, or iteratively
// deepened within the time budget.
func (s *Searcher) Best(b board.Board) Choice {
	if s.opt.MoveTime <= 0 { // a learner's every move: no closure
		mv := s.Values(b, s.opt.Depth)
		return BestOf(&mv)
	}
	mv, _ := s.ValuesTimed(b)
	return BestOf(&mv)
}

// ValuesTimed returns the values of the moves from the deepest search
// finished within the time budget (deepening from depth 1, up to Depth
// when set), with that depth; without a budget, Values at Depth. The
// deadline is hard: a search under way when it passes is abandoned.
func (s *Searcher) ValuesTimed(b board.Board) ([4]MoveValue, int) {
	return s.deepen(func(depth int) [4]MoveValue { return s.Values(b, depth) })
}

// chance is the value of an after-state with depth more max layers below:
// the average over its empty cells of 0.9 x (value with a 2 there) +
// 0.1 x (value with a 4 there). For after-state networks a chance node of
// depth 0 is the leaf V(after).
func (s *Searcher) chance(after board.Board, depth int) float32 {
	if depth == 0 && s.opt.Kind == AfterState {
		return s.net.EstimateStage(s.stage, after)
	}
	if s.enter() {
		return 0
	}
	key := after
	if s.canon {
		// The value of a board is the value of its symmetry class: search
		// the canonical image, so that with or without the table the same
		// board gives the same float32 value.
		key = after.Canonical()
	}
	if s.tt != nil {
		if v, ok := s.tt.get(key, uint32(depth)|s.aux); ok {
			return v
		}
	}
	var v float32
	if depth == 0 || depth == 1 && s.opt.Kind == AfterState {
		v = s.lastChance(key)
	} else {
		var sum float32
		n := 0
		for e := key.EmptyMask(); e != 0; e &= e - 1 {
			cell := board.Board(e & -e)
			sum = spawnSum(sum, s.node(key|cell, depth), s.node(key|cell*2, depth))
			n++
		}
		if n > 0 {
			v = sum / float32(n)
		}
	}
	if s.tt != nil && !s.aborted {
		s.tt.Put(key, uint32(depth)|s.aux, v)
	}
	return v
}

// leaves is the scratch of lastChance: the leaf boards below one chance
// node and how its children's moves map to them.
type leaves struct {
	boards [15 * 2 * 4]board.Board
	values [15 * 2 * 4]float32
	moves  [15 * 2 * 4]leafMove
	// children slides the chance node's children (one row and one column
	// each, game2048.Children).
	children game2048.Children
	end      [15 * 2]uint8 // moves[end[c-1]:end[c]] are child c's
	// seen finds a leaf already gathered: different tiles often slide to
	// the same board. A slot holds a leaf's index and is valid only in its
	// generation (gen, one per chance node), so nothing needs clearing.
	seen    [256]struct{ gen, leaf uint32 }
	seenKey [256]board.Board
	gen     uint32
}

// leaf returns the index of board b among the gathered leaves, adding it.
func (l *leaves) leaf(b board.Board, nb *int) int16 {
	h := uint64(b) * 0x9e3779b97f4a7c15 >> 56
	for ; ; h = (h + 1) & 255 {
		e := &l.seen[h]
		if e.gen != l.gen {
			*e = struct{ gen, leaf uint32 }{l.gen, uint32(*nb)}
			l.seenKey[h] = b
			l.boards[*nb] = b
			*nb++
			return int16(*nb - 1)
		}
		if l.seenKey[h] == b {
			return int16(e.leaf)
		}
	}
}

type leafMove struct {
	reward float32
	leaf   int16 // index in boards
}

// lastChance is chance for the last chance layer above the leaves (depth
// 1 for after-state networks, where each child's moves lead to leaves;
// depth 0 for state networks, where each child is a leaf), with the same
// value bit for bit: it gathers all the leaves first and values them in
// one batch, so that their cache misses overlap.
func (s *Searcher) lastChance(key board.Board) float32 {
	l := s.leaves
	if l == nil {
		l = new(leaves)
		s.leaves = l
	}
	nb, nm, nc := 0, 0, 0
	l.gen++
	if l.gen == 0 { // wrapped: clear the old generations once
		l.seen = [256]struct{ gen, leaf uint32 }{}
		l.gen = 1
	}
	if s.opt.Kind != State {
		l.children.Reset(key)
	}
	var after [4]board.Board
	var reward [4]uint32
	for e := key.EmptyMask(); e != 0; e &= e - 1 {
		cell, at := board.Board(e&-e), bits.TrailingZeros64(e)/4
		for t, b := range [2]board.Board{key | cell, key | cell*2} {
			if s.opt.Kind == State {
				l.boards[nb], l.moves[nm] = b, leafMove{0, int16(nb)}
				nb++
				nm++
			} else {
				l.children.MovesTo(at, t+1, &after, &reward)
				for d := range 4 {
					if after[d] == b {
						continue
					}
					l.moves[nm] = leafMove{float32(game2048.Reward(reward[d])), l.leaf(after[d], &nb)}
					nm++
				}
			}
			l.end[nc] = uint8(nm)
			nc++
		}
	}
	if nc == 0 {
		return 0
	}
	s.net.EstimateManyStage(s.stage, l.boards[:nb], l.values[:nb])
	child := func(c int) float32 {
		from := 0
		if c > 0 {
			from = int(l.end[c-1])
		}
		if s.opt.Kind == State {
			return l.values[l.moves[from].leaf]
		}
		ms := l.moves[from:l.end[c]]
		if len(ms) == 0 {
			return 0
		}
		// Plain comparisons, not max: max's care for NaN and the sign
		// of zero costs here, and a leaf's value is a sum of finite
		// weights (a weight file with NaN or infinities is refused).
		best := ms[0].reward + l.values[ms[0].leaf]
		for _, m := range ms[1:] {
			if v := m.reward + l.values[m.leaf]; v > best {
				best = v
			}
		}
		return best
	}
	var sum float32
	for c := 0; c < nc; c += 2 {
		sum += 0.9*child(c) + 0.1*child(c+1)
	}
	return sum / float32(nc/2)
}

// node is the value of a board where a move is due with depth (1 or more)
// max layers left: the best of reward + chance below over the legal moves,
// 0 when none is legal. The last layers above the leaves are lastChance's.
func (s *Searcher) node(b board.Board, depth int) float32 {
	after, reward := game2048.Moves(b)
	best := float32(math.Inf(-1))
	for d := range 4 {
		if after[d] == b {
			continue
		}
		best = max(best, float32(game2048.Reward(reward[d]))+s.chance(after[d], depth-1))
	}
	if math.IsInf(float64(best), -1) {
		return 0
	}
	return best
}
