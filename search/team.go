package search

import (
	"math"
	"math/bits"

	"github.com/td2048/td2048/board"
	"github.com/td2048/td2048/rules/game2048"
	"github.com/td2048/td2048/rules/threes"
)

// Every core on one move (Options.Threads). A team of searchers, one a
// goroutine, shares the top of a move's tree out among themselves: its
// leader expands the nodes near the root (in 2048 as many levels as it
// takes to make teamTasks tasks; in Threes! the root's chance nodes'
// children), the searchers take the unexpanded ones as each comes free,
// and the leader then sums each expanded node from its children in the
// order one searcher does. Every value below the root is a function of its
// board, depth and stage alone, so the values are a single searcher's, bit
// for bit, whatever the order the team finishes them in. The searchers
// share the transposition table.

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

// A unit is a node of the top of a 2048 search that a team shares out:
// a chance node (an after-state, its depth the max layers below) or a max
// node (a board where a move is due, its depth the max layers left). The
// units the leader does not expand (expand) are the team's tasks.
type unit struct {
	chance bool
	b      board.Board // a chance node's after-state as given (not its key)
	depth  int
	reward float32 // a chance node's: its move's reward
	// first and n are an expanded unit's children among the units: a
	// chance node's are its cells' max nodes, the 2 then the 4 of each; a
	// max node's the chance nodes of its legal moves.
	first, n int
	expanded bool
	known    bool // valued already (a leaf, the table, a cut)
	key      board.Board
	v        float32
}

// teamTasks is how many tasks a team of t searchers' leader makes at
// least, where the tree allows: few enough that each task is a whole
// subtree whose leaves share their weights' cache lines, enough for tasks
// of unequal size to even out (docs/speed.md, "Thresholds and what they
// rest on").
func teamTasks(t int) int { return max(8*t, 4*t*t) }

// valuesTeam is Values on the team (Options.Threads), s leading, with
// s.stage and s.aux set.
func (s *Searcher) valuesTeam(b board.Board, depth int) [4]MoveValue {
	us := append(s.units[:0], unit{b: b, depth: depth}) // the root: a max node
	s.expandUnit(&us, 0)
	team := s.helpers()
	s.expand(&us, 1, len(us), teamTasks(len(team)))
	// The tasks, the larger (of the upper levels) first.
	tasks := s.tasks[:0]
	for i := 1; i < len(us); i++ {
		if !us[i].expanded && !us[i].known {
			tasks = append(tasks, i)
		}
	}
	for _, h := range team[1:] {
		h.run.follow(&s.run)
		h.stage, h.aux = s.stage, s.aux
	}
	s.crew.run(len(team), len(tasks), func(w, i int) {
		u := &us[tasks[i]]
		if u.chance {
			u.v = team[w].chance(u.b, u.depth)
		} else {
			u.v = team[w].node(u.b, u.depth)
		}
	})
	for _, h := range team[1:] {
		s.run.join(&h.run)
	}
	s.sumUnits(us)
	s.units, s.tasks = us, tasks // kept for the next search
	var mv [4]MoveValue
	after, reward := game2048.Moves(b)
	c := us[0].first
	for d := range 4 {
		if after[d] == b {
			continue
		}
		u := &us[c]
		c++
		r := game2048.Reward(reward[d])
		mv[d] = MoveValue{Legal: true, After: after[d], Reward: uint32(r), Value: u.v, Total: float32(r) + u.v, overflow: game2048.Overflow(reward[d])}
	}
	return mv
}

// expand expands the units from..to-1 (one level of the tree) and the
// levels below them, breadth first, until there are want units not
// expanded or none can be.
func (s *Searcher) expand(us *[]unit, from, to, want int) {
	for {
		open, any := 0, false
		for i := from; i < to; i++ {
			any = any || s.expandable(&(*us)[i])
		}
		for i := range *us {
			if u := &(*us)[i]; !u.expanded && !u.known {
				open++
			}
		}
		if !any || open >= want {
			return
		}
		for i := from; i < to; i++ {
			if s.expandable(&(*us)[i]) {
				s.expandUnit(us, i)
			}
		}
		from, to = to, len(*us)
	}
}

// expandable reports whether a unit's children are worth units of their
// own: a max node always, a chance node unless it is valued by the leaf
// (depth 0) or is the last layer above the leaves (lastChance).
func (s *Searcher) expandable(u *unit) bool {
	if u.known || u.expanded {
		return false
	}
	if !u.chance {
		return true
	}
	return !(u.depth == 0 || u.depth == 1 && s.opt.Kind == AfterState)
}

// expandUnit makes unit i's children, as chance and node would visit
// them, or values it when the table holds it.
func (s *Searcher) expandUnit(us *[]unit, i int) {
	u := &(*us)[i]
	if !u.chance {
		after, reward := game2048.Moves(u.b)
		u.first, u.expanded = len(*us), true
		var kids []unit
		for d := range 4 {
			if after[d] != u.b {
				kids = append(kids, unit{chance: true, b: after[d], depth: u.depth - 1, reward: float32(game2048.Reward(reward[d]))})
			}
		}
		u.n = len(kids)
		*us = append(*us, kids...)
		return
	}
	if s.enter() { // counted, and cut short, as chance does
		u.known = true
		return
	}
	u.key = u.b
	if s.canon {
		u.key = u.b.Canonical()
	}
	if s.tt != nil {
		if v, ok := s.tt.get(u.key, uint32(u.depth)|s.aux); ok {
			u.known, u.v = true, v
			return
		}
	}
	key, depth := u.key, u.depth
	u.first, u.expanded = len(*us), true
	n := 0
	for e := key.EmptyMask(); e != 0; e &= e - 1 {
		cell := board.Board(e & -e)
		*us = append(*us, unit{b: key | cell, depth: depth}, unit{b: key | cell*2, depth: depth})
		n += 2
	}
	(*us)[i].n = n
}

// sumUnits values the expanded units from their children, the last made
// first (children come after their parents), as chance and node do.
func (s *Searcher) sumUnits(us []unit) {
	for i := len(us) - 1; i >= 1; i-- {
		u := &us[i]
		if !u.expanded {
			continue
		}
		kids := us[u.first : u.first+u.n]
		if u.chance {
			var sum float32
			for k := 0; k < len(kids); k += 2 {
				sum = spawnSum(sum, kids[k].v, kids[k+1].v)
			}
			u.v = 0
			if len(kids) > 0 {
				u.v = sum / float32(len(kids)/2)
			}
			if s.tt != nil && !s.aborted {
				s.tt.Put(u.key, uint32(u.depth)|s.aux, u.v)
			}
			continue
		}
		best := float32(math.Inf(-1))
		for k := range kids {
			best = max(best, kids[k].reward+kids[k].v)
		}
		if math.IsInf(float64(best), -1) {
			best = 0
		}
		u.v = best
	}
}

// helpers returns s's team, s first, the others made on first use.
func (s *Searcher) helpers() []*Searcher {
	if len(s.team) == 0 {
		s.team = append(s.team, s)
	}
	for len(s.team) < s.opt.threads() {
		h := NewSearcher(s.net, s.opt, s.tt)
		h.opt.Threads = 1
		s.team = append(s.team, h)
	}
	return s.team
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
			if v, ok := s.tt.get(after[d], r.aux); ok {
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
	s.crew.run(len(team), len(tasks), func(w, i int) {
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
