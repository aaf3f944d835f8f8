package search

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/td2048/td2048/board"
)

// Monte Carlo tree search over a network's after-state values, written once
// for both games over a small set of each game's rules (mcts_games.go).
//
// A decision node is a position where a move is due; its children are
// the chance nodes of its legal moves, each an after-state with the
// move's reward. A chance node's children are the positions its random
// tile makes (2048: a 2 or 4 on an empty cell; Threes!: the next tile on
// the edge opposite the slide, and the tile after it drawn from the bag),
// sampled by their probabilities with the rules' own samplers
// (game2048.Spawn, threes.Game.PlaceRandom) and kept as they are met, so that
// a chance node's mean is a Monte Carlo estimate of expectimax's average.
//
// An iteration descends from the root: at a decision node it selects a
// move by UCT, the move's normalised mean return plus Exploration x
// sqrt(ln N / n); at a chance node it samples a tile. A decision node met
// for the first time is expanded: the network values all its moves'
// after-states in one batch, each value counting as one visit of its
// move, so that UCT starts from the network's judgement rather than from
// moves tried in turn. The leaf: with RolloutDepth k > 0, a chance node
// at its first visit beyond the network's, valued by k greedy moves from
// it (the rewards gamma^i r_i on the way, plus gamma^k V of the
// after-state reached; 0 beyond a game's end); with no rollout, the new
// decision node, worth its best reward + value. The return is backed up,
// discounted by Gamma at every tile: a chance node's value is gamma x the
// mean of the reward + value of the moves chosen below it.
//
// Normalisation: at each decision node the moves' mean returns
// (reward + value) are scaled to [0, 1] by the lowest and the highest
// return backed up through that node, so the exploration constant weighs
// the moves against the spread of their own returns (the random tiles'
// noise and the moves' differences), whatever the game, the stage of the
// game or the network's scale: UCB1's setting of returns in [0, 1]. The
// move played is the most visited at the root, ties to the higher mean.

// Parallel search is root parallelism: with Threads t, t independent
// trees share the iterations out (the first Iterations mod t trees one
// more) and are merged by adding their root moves' visits and returns.
// Each tree draws its tiles from a generator seeded by the seed, the root
// position and the tree's number alone, so with Iterations (no MoveTime)
// the same seed, position and thread count give the same values and move,
// bit for bit; a different thread count gives other trees (as good, not
// the same). Under MoveTime each tree iterates until the deadline, so the
// counts depend on the machine's speed.
//
// Memory: each tree keeps a pool of nodes reused from move to move, of at
// most MCTSOptions.Nodes (a search whose pool is full stops iterating). A
// node takes 48 bytes in 2048 and 80 in Threes!.

// The course's settings, the defaults of MCTSOptions.
const (
	DefaultIterations   = 500
	DefaultExploration  = 1.41
	DefaultRolloutDepth = 10
	DefaultGamma        = 0.99
	// DefaultNodes bounds each tree's pool of nodes (12 MiB in 2048, 20 in
	// Threes!).
	DefaultNodes = 1 << 18
)

// A Method is a way of searching: expectimax (Options.Depth, MoveTime)
// or Monte Carlo tree search (Options.MCTS).
type Method int

const (
	MethodExpectimax Method = iota
	MethodMCTS
)

// String is the method's name in flags: expectimax or mcts.
func (m Method) String() string {
	if m == MethodMCTS {
		return "mcts"
	}
	return "expectimax"
}

// ParseMethod reads "expectimax" or "mcts".
func ParseMethod(s string) (Method, error) {
	switch s {
	case "expectimax", "":
		return MethodExpectimax, nil
	case "mcts":
		return MethodMCTS, nil
	}
	return 0, fmt.Errorf("search %q: want expectimax or mcts", s)
}

// MCTSOptions are the settings of Monte Carlo tree search (Options.MCTS);
// DefaultMCTS gives the course's.
type MCTSOptions struct {
	// Iterations per move, shared out among the threads' trees; 0 under
	// Options.MoveTime means as many as the time allows.
	Iterations int
	// Exploration is UCT's constant, on returns normalised to [0, 1].
	Exploration float64
	// RolloutDepth is the number of greedy moves played from a new leaf
	// before the network values the after-state reached (0: no rollout,
	// a new decision node valued by its best reward + value).
	RolloutDepth int
	// Gamma discounts the returns at every random tile (1: none).
	Gamma float64
	// Seed seeds the random tiles the trees sample; a move depends on it,
	// the position and the settings alone (but under MoveTime).
	Seed uint64
	// Nodes bounds each tree's pool (0: DefaultNodes).
	Nodes int
}

// DefaultMCTS returns the course's settings: 500 iterations, exploration
// 1.41, rollouts of 10 moves, gamma 0.99.
func DefaultMCTS() MCTSOptions {
	return MCTSOptions{Iterations: DefaultIterations, Exploration: DefaultExploration,
		RolloutDepth: DefaultRolloutDepth, Gamma: DefaultGamma}
}

// Check refuses settings MCTS cannot use; timed says Options.MoveTime is
// set (which allows 0 iterations).
func (o MCTSOptions) Check(timed bool) error {
	switch {
	case o.Iterations < 0 || o.Iterations == 0 && !timed:
		return fmt.Errorf("iterations %d: want 1 or more (or 0 with a move time)", o.Iterations)
	case o.Iterations > 1<<30:
		return fmt.Errorf("iterations %d: want at most %d", o.Iterations, 1<<30)
	case !(o.Exploration >= 0) || math.IsInf(o.Exploration, 1):
		return fmt.Errorf("exploration %v: want 0 or more", o.Exploration)
	case o.RolloutDepth < 0 || o.RolloutDepth > 10000:
		return fmt.Errorf("rollout depth %d: want 0 to 10000", o.RolloutDepth)
	case !(o.Gamma > 0 && o.Gamma <= 1):
		return fmt.Errorf("gamma %v: want more than 0, at most 1", o.Gamma)
	case o.Nodes < 0:
		return fmt.Errorf("nodes %d: want 0 or more", o.Nodes)
	}
	return nil
}

// rules are what MCTS needs of a game, P being its position (a board, or
// a Threes! game with its next tile and bag). An after-state is a P too.
type rules[P comparable] interface {
	// begin readies the rules for a search from root (a stage, say).
	begin(root P)
	// moves writes the legal moves of p (after-states, rewards) and
	// returns how many there are.
	moves(p P, after *[4]P, reward *[4]float32, dir *[4]int8) int
	// outcome samples the position the random tile makes of after-state a.
	outcome(a P, rng *rand.PCG) P
	// values writes the network's values of the first n after-states.
	values(after *[4]P, n int, v *[4]float32)
	// rollout values after-state a by depth greedy moves and the network.
	rollout(a P, depth int, gamma float32, rng *rand.PCG) float32
}

// An mnode is a node of a tree: a decision node (even depths) or a chance
// node (odd).
type mnode[P comparable] struct {
	pos    P
	sum    float64 // chance node: the sum of its returns
	visits int32
	// first is a decision node's first move (its moves are n nodes in a
	// row) or a chance node's first outcome (a list through next); -1
	// when none.
	first, next int32
	n           int8 // a decision node's legal moves, once expanded
	dir         int8 // a chance node's move
	expanded    bool
	reward      float32 // a chance node's move's reward
	lo, hi      float32 // a decision node's lowest and highest return
}

// A tree is one tree of a search, for one goroutine.
type tree[P comparable, R rules[P]] struct {
	rules R
	nodes []mnode[P]
	path  []int32
	rng   rand.PCG
	// expand's scratch, here so that it does not escape
	after  [4]P
	reward [4]float32
	dir    [4]int8
	value  [4]float32

	clock
	stop  <-chan struct{}
	depth int // the deepest decision layer reached
	iters int64
	cap   int // tests: chance nodes at this depth are leaves (0: none)
}

// search runs iters iterations from root (0: until the deadline or the
// pool is full), in a pool of at most limit nodes.
func (t *tree[P, R]) search(root P, iters int, o *MCTSOptions, seed uint64, limit int) {
	t.nodes = append(t.nodes[:0], mnode[P]{pos: root, first: -1, next: -1})
	t.rng.Seed(seed, seed^0x9e3779b97f4a7c15)
	t.depth, t.iters, t.stopped = 0, 0, false
	t.rules.begin(root)
	c, gamma := o.Exploration, float32(o.Gamma)
	for i := 0; iters <= 0 || i < iters; i++ {
		// The first iterations try each move once, whatever the time.
		if i >= 4 && i&7 == 0 && t.expired(t.stop) || len(t.nodes)+5 > limit {
			break
		}
		t.iterate(c, gamma, o.RolloutDepth)
		t.iters++
	}
}

// iterate is one iteration: down to a leaf, its value, and back up.
func (t *tree[P, R]) iterate(c float64, gamma float32, rollout int) {
	path := t.path[:0]
	n, depth := int32(0), 0
	var g float32
	for {
		path = append(path, n)
		if !t.nodes[n].expanded {
			// A new node below the root is the leaf without rollouts.
			if v := t.expand(n); rollout == 0 && n != 0 {
				g = v
				break
			}
		}
		if t.nodes[n].n == 0 { // the game is over here: worth 0
			g = 0
			break
		}
		ci := t.choose(n, c)
		path = append(path, ci)
		depth++
		if t.nodes[ci].visits <= 1 && rollout > 0 || depth == t.cap {
			// Its first visit but the network's: the leaf.
			g = t.rules.rollout(t.nodes[ci].pos, rollout, gamma, &t.rng)
			break
		}
		n = t.child(ci, t.rules.outcome(t.nodes[ci].pos, &t.rng))
	}
	t.depth = max(t.depth, depth)
	for i := len(path) - 1; i >= 0; i-- {
		nd := &t.nodes[path[i]]
		nd.visits++
		if i&1 == 1 { // a chance node: g is a return of its after-state
			nd.sum += float64(g)
			g += nd.reward
		} else { // a decision node: g is a return from it
			nd.lo, nd.hi = min(nd.lo, g), max(nd.hi, g)
			g *= gamma
		}
	}
	t.path = path
}

// expand makes the moves of decision node n, each valued by the network
// (its after-states in one batch) as one visit of its own, and returns
// the best reward + value (0 when no move is legal).
func (t *tree[P, R]) expand(n int32) float32 {
	k := t.rules.moves(t.nodes[n].pos, &t.after, &t.reward, &t.dir)
	t.rules.values(&t.after, k, &t.value)
	var lo, hi float32
	first := int32(len(t.nodes))
	for i := range k {
		q := t.reward[i] + t.value[i]
		if i == 0 {
			lo, hi = q, q
		}
		lo, hi = min(lo, q), max(hi, q)
		t.nodes = append(t.nodes, mnode[P]{pos: t.after[i], first: -1, next: -1, dir: t.dir[i], reward: t.reward[i],
			visits: 1, sum: float64(t.value[i])})
	}
	nd := &t.nodes[n] // after the appends, which may move the pool
	nd.expanded, nd.n, nd.first, nd.visits = true, int8(k), first, int32(k)
	nd.lo, nd.hi = lo, hi
	return hi // the best reward + value, 0 with no move
}

// choose returns the move of decision node n that UCT selects.
func (t *tree[P, R]) choose(n int32, c float64) int32 {
	nd := &t.nodes[n]
	kids := t.nodes[nd.first : nd.first+int32(nd.n)]
	var mean [4]float64
	for i := range kids {
		k := &kids[i]
		if k.visits == 0 {
			return nd.first + int32(i)
		}
		mean[i] = float64(k.reward) + k.sum/float64(k.visits)
	}
	lo, hi := float64(nd.lo), float64(nd.hi)
	scale := 0.0
	if hi > lo {
		scale = 1 / (hi - lo)
	}
	logN := math.Log(float64(nd.visits))
	best, bestU := 0, math.Inf(-1)
	for i := range kids {
		u := (mean[i]-lo)*scale + c*math.Sqrt(logN/float64(kids[i].visits))
		if u > bestU {
			best, bestU = i, u
		}
	}
	return nd.first + int32(best)
}

// child returns the decision node p below chance node ci, adding it when
// it is new.
func (t *tree[P, R]) child(ci int32, p P) int32 {
	for k := t.nodes[ci].first; k >= 0; k = t.nodes[k].next {
		if t.nodes[k].pos == p {
			return k
		}
	}
	k := int32(len(t.nodes))
	t.nodes = append(t.nodes, mnode[P]{pos: p, first: -1, next: t.nodes[ci].first})
	t.nodes[ci].first = k
	return k
}

// A rootMove is one root move merged over the trees.
type rootMove[P comparable] struct {
	legal  bool
	after  P
	reward float32
	visits int64
	sum    float64
	prior  int64 // the network's visits among them, one a tree
}

// mcts is a search of either game: the trees of its threads and the
// state of the search under way.
type mcts[P comparable, R rules[P]] struct {
	run
	crew   crew
	mo     MCTSOptions
	trees  []*tree[P, R]
	rules  func() R
	cap    int   // tests: see tree.cap
	iters  int64 // the last search's iterations, all trees'
	reach  int
	merged [4]rootMove[P]
	// the search under way, for searchTree
	root P
	key  uint64
	nt   int
	do   func(w, i int)
}

func newMCTS[P comparable, R rules[P]](opt Options, rules func() R) *mcts[P, R] {
	return &mcts[P, R]{run: run{opt: opt}, mo: opt.MCTS, rules: rules}
}

// Iterations is the number of iterations of the last search, all trees'.
func (m *mcts[P, R]) Iterations() int64 { return m.iters }

// values searches from root and returns its moves merged over the trees,
// by direction, and the deepest decision layer reached.
func (m *mcts[P, R]) values(root P, key uint64) (*[4]rootMove[P], int) {
	m.begin()
	nt := m.opt.threads()
	for len(m.trees) < nt {
		m.trees = append(m.trees, &tree[P, R]{rules: m.rules()})
	}
	m.root, m.key, m.nt = root, key, nt
	m.deadline = time.Now().Add(m.opt.MoveTime)
	if m.do == nil { // made once: a closure made per search would allocate
		m.do = m.searchTree
	}
	if nt == 1 {
		m.searchTree(0, 0)
	} else {
		m.crew.run(nt, nt, m.do)
	}
	m.merge(nt)
	return &m.merged, m.reach
}

// moveValues searches from root and returns the MoveValue of each move
// (its after-state's board by at) and the deepest decision layer reached.
func (m *mcts[P, R]) moveValues(root P, key uint64, at func(P) board.Board) ([4]MoveValue, int) {
	mv, depth := m.values(root, key)
	var out [4]MoveValue
	for d, k := range mv {
		if !k.legal {
			continue
		}
		v := float32(0)
		if n := k.visits + k.prior; n > 0 {
			v = float32(k.sum / float64(n))
		}
		out[d] = MoveValue{Legal: true, After: at(k.after), Reward: uint32(k.reward), Value: v, Total: k.reward + v, Visits: k.visits}
	}
	return out, depth
}

// searchTree runs tree i of the search under way (m.root, m.nt trees).
func (m *mcts[P, R]) searchTree(_, i int) {
	t := m.trees[i]
	t.deadline, t.timed, t.stop, t.cap = m.deadline, m.opt.MoveTime > 0, m.opt.Stop, m.cap
	limit := cmp.Or(max(m.mo.Nodes, 0), DefaultNodes)
	its := 0
	if m.mo.Iterations <= 0 && m.opt.MoveTime <= 0 {
		m.mo.Iterations = DefaultIterations // neither iterations nor a time: the default
	}
	if m.mo.Iterations > 0 {
		its = m.mo.Iterations / m.nt
		if i < m.mo.Iterations%m.nt {
			its++
		}
		its = max(its, 1)
		limit = min(limit, 1+5*its)
	}
	t.search(m.root, its, &m.mo, mix(m.mo.Seed, m.key, uint64(i)), limit)
}

// merge adds the root moves of the first nt trees by direction.
func (m *mcts[P, R]) merge(nt int) {
	m.merged = [4]rootMove[P]{}
	m.reach, m.iters = 0, 0
	for _, t := range m.trees[:nt] {
		m.stopped = m.stopped || t.stopped
		m.reach = max(m.reach, t.depth)
		m.iters += t.iters
		m.Nodes += t.iters
		r := &t.nodes[0]
		for i := range int32(r.n) {
			k := &t.nodes[r.first+i]
			mv := &m.merged[k.dir]
			mv.legal, mv.after, mv.reward = true, k.pos, k.reward
			mv.visits += int64(k.visits) - 1 // not the network's visit
			mv.sum += k.sum
			mv.prior++
		}
	}
}

// mix hashes a seed, a position's key and a tree's number into a seed
// (splitmix64's finaliser over their combination).
func mix(seed, key, tree uint64) uint64 {
	z := seed ^ key*0xbf58476d1ce4e5b9 ^ (tree+1)*0x94d049bb133111eb
	for range 2 {
		z ^= z >> 30
		z *= 0xbf58476d1ce4e5b9
		z ^= z >> 27
		z *= 0x94d049bb133111eb
		z ^= z >> 31
	}
	return z
}
