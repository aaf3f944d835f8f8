package search

import (
	"math/bits"
	"sync"
	"sync/atomic"

	"github.com/td2048/td2048/board"
	"github.com/td2048/td2048/game"
	"github.com/td2048/td2048/game/threes"
)

// Every core on one move (Options.Threads). A search of one move is a max
// node over up to four chance nodes, each the average of its children:
// the boards one new tile away, each a max node of its own. A team of
// searchers, one a goroutine, shares the children of the root's chance
// nodes out among themselves as each comes free (the root's chance nodes
// themselves where their children are the last layer above the leaves,
// which values them in one batch), and the team's leader sums each chance
// node's children in the order one searcher does. Every value below the
// root is a function of its board, depth and stage alone (the table
// stores exactly what a search computes), so the values are a single
// searcher's, bit for bit, whatever the order the team finishes them in.
// The searchers share the transposition table; what two of them compute
// at once is computed twice, the team's overhead beside a search that
// finds the other's result in the table.

// runTeam runs tasks 0..n-1 on the workers goroutines (the caller's the
// first): worker w runs do(w, i) for each task i it takes, taking the
// next when it is done.
func runTeam(workers, n int, do func(w, i int)) {
	var next atomic.Int64
	work := func(w int) {
		for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
			do(w, i)
		}
	}
	workers = min(workers, n)
	var wg sync.WaitGroup
	for w := 1; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			work(w)
		}()
	}
	work(0)
	wg.Wait()
}

// threads is the number of goroutines a search of one move takes.
func (o *Options) threads() int { return max(o.Threads, 1) }

// follow readies a helper of the team led by r for a search: the same
// deadline and state.
func (h *run) follow(r *run) {
	h.deadline, h.timed = r.deadline, r.timed
	h.aborted, h.stopped = r.aborted, false
}

// join counts a helper's work into the leader's: its nodes, and whether
// it cut the search short.
func (r *run) join(h *run) {
	r.Nodes += h.Nodes
	h.Nodes = 0
	r.aborted = r.aborted || h.aborted
	r.stopped = r.stopped || h.stopped
}

// spawnSum adds a chance node's cell to sum: 0.9 x the value with a 2
// there plus 0.1 x the value with a 4 (each product rounded to float32
// before the sum, as written, so that no compiler fuses them).
func spawnSum(sum, two, four float32) float32 {
	return sum + (float32(0.9*two) + float32(0.1*four))
}

// teamTask is one task of a 2048 team: the max node b at depth plies, or
// (chance set) the root's chance node b at depth.
type teamTask struct {
	b      board.Board
	depth  int
	chance bool
}

// helpers returns the searchers of s's team beside s, made on first use.
func (s *Searcher) helpers() []*Searcher {
	for len(s.team) < s.opt.threads()-1 {
		h := NewSearcher(s.net, s.opt, s.tt)
		h.opt.Threads = 1
		s.team = append(s.team, h)
	}
	return s.team
}

// valuesTeam is Values on the team (Options.Threads), s leading, with
// s.stage and s.aux set.
func (s *Searcher) valuesTeam(b board.Board, depth int) [4]MoveValue {
	var mv [4]MoveValue
	after, reward := game.Moves(b)
	type root struct {
		key         board.Board
		first, n    int // its tasks
		known, leaf bool
		v           float32
	}
	var roots [4]root
	var tasks []teamTask
	below := depth - 1 // the depth of the root's chance nodes
	leaf := below == 0 || below == 1 && s.opt.Kind == AfterState
	for d := range 4 {
		if after[d] == b {
			continue
		}
		r := &roots[d]
		r.key, r.first = after[d], len(tasks)
		if below == 0 && s.opt.Kind == AfterState {
			r.known, r.v = true, s.net.EstimateStage(s.stage, after[d])
			continue
		}
		if s.enter() { // counted, and cut short, as chance does
			r.known = true
			continue
		}
		if s.canon {
			r.key = after[d].Canonical()
		}
		if s.tt != nil {
			if v, ok := s.tt.Get(r.key, uint32(below)|s.aux); ok {
				r.known, r.v = true, v
				continue
			}
		}
		if leaf {
			r.leaf = true
			tasks = append(tasks, teamTask{b: r.key, depth: below, chance: true})
		} else {
			for e := r.key.EmptyMask(); e != 0; e &= e - 1 {
				cell := board.Board(e & -e)
				tasks = append(tasks, teamTask{b: r.key | cell, depth: below}, teamTask{b: r.key | cell*2, depth: below})
			}
		}
		r.n = len(tasks) - r.first
	}
	team := append([]*Searcher{s}, s.helpers()...)
	for _, h := range team[1:] {
		h.run.follow(&s.run)
		h.stage, h.aux = s.stage, s.aux
	}
	vals := make([]float32, len(tasks))
	runTeam(len(team), len(tasks), func(w, i int) {
		h, t := team[w], tasks[i]
		if t.chance {
			vals[i] = h.chance(t.b, t.depth)
		} else {
			vals[i] = h.node(t.b, t.depth)
		}
	})
	for _, h := range team[1:] {
		s.run.join(&h.run)
	}
	for d := range 4 {
		if after[d] == b {
			continue
		}
		r := &roots[d]
		if !r.known {
			if r.leaf {
				r.v = vals[r.first]
			} else {
				var sum float32
				for i := r.first; i < r.first+r.n; i += 2 {
					sum = spawnSum(sum, vals[i], vals[i+1])
				}
				if r.n > 0 {
					r.v = sum / float32(r.n/2)
				}
				if s.tt != nil && !s.aborted {
					s.tt.Put(r.key, uint32(below)|s.aux, r.v)
				}
			}
		}
		rw := game.Reward(reward[d])
		mv[d] = MoveValue{Legal: true, After: after[d], Reward: uint32(rw), Value: r.v, Total: float32(rw) + r.v, Overflow: game.Overflow(reward[d])}
	}
	return mv
}

// threesTask is one task of a Threes! team: the max node b with its hint
// and bag at depth plies.
type threesTask struct {
	b     board.Board
	hint  int
	bag   threes.Bag
	depth int
}

// helpers returns the searchers of s's team beside s, made on first use.
func (s *Threes) helpers() []*Threes {
	for len(s.team) < s.opt.threads()-1 {
		h := NewThrees(s.net, s.opt, s.tt)
		h.opt.Threads = 1
		s.team = append(s.team, h)
	}
	return s.team
}

// valuesTeam is Values on the team, s leading: the children of the
// root's chance nodes (their placements and next hints) shared out.
func (s *Threes) valuesTeam(g *threes.Game, depth int) [4]MoveValue {
	var mv [4]MoveValue
	after, reward := threes.Moves(g.Board)
	type root struct {
		aux      uint32
		first, n int
		known    bool
		v        float32
	}
	var roots [4]root
	var tasks []threesTask
	below := depth - 1
	for d := range 4 {
		if after[d] == g.Board {
			continue
		}
		r := &roots[d]
		r.first = len(tasks)
		if s.enter() {
			r.known = true
			continue
		}
		r.aux = uint32(below) | uint32(d)<<5 | uint32(g.Next)<<8 | uint32(g.Bag)<<10
		if s.tt != nil {
			if v, ok := s.tt.Get(after[d], r.aux); ok {
				r.known, r.v = true, v
				continue
			}
		}
		tile := board.Board(g.Next)
		for free := threes.Free(after[d], d); free != 0; free &= free - 1 {
			placed := after[d] | board.Board(free&-free)*tile
			for m := uint8(g.Bag & threes.FullBag); m != 0; m &= m - 1 {
				next := bits.TrailingZeros8(m) + 1
				tasks = append(tasks, threesTask{placed, next, g.Bag.Take(next), below})
			}
		}
		r.n = len(tasks) - r.first
	}
	team := append([]*Threes{s}, s.helpers()...)
	for _, h := range team[1:] {
		h.run.follow(&s.run)
	}
	vals := make([]float32, len(tasks))
	runTeam(len(team), len(tasks), func(w, i int) {
		t := tasks[i]
		vals[i] = team[w].node(t.b, t.hint, t.bag, t.depth)
	})
	for _, h := range team[1:] {
		s.run.join(&h.run)
	}
	for d := range 4 {
		if after[d] == g.Board {
			continue
		}
		r := &roots[d]
		if !r.known {
			var sum float32
			for _, v := range vals[r.first : r.first+r.n] {
				sum += v
			}
			if r.n > 0 {
				r.v = sum / float32(r.n)
			}
			if s.tt != nil && !s.aborted {
				s.tt.Put(after[d], r.aux, r.v)
			}
		}
		mv[d] = MoveValue{Legal: true, After: after[d], Reward: uint32(reward[d]), Value: r.v, Total: float32(reward[d]) + r.v}
	}
	return mv
}
