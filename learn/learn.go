// Package learn trains an n-tuple network on 2048 by temporal-difference
// learning: whole episodes played by the current policy, then TD(0) updates
// from the last step back to the first, as the course defines them.
package learn

import (
	"fmt"

	"github.com/td2048/td2048/board"
	"github.com/td2048/td2048/game"
	"github.com/td2048/td2048/ntuple"
	"github.com/td2048/td2048/search"
)

// Kind selects what the network values.
type Kind int

const (
	// AfterState values the board right after a slide (the default):
	// moves maximise r + V(s'), and V(s'_t) learns toward r_{t+1} + V(s'_{t+1}).
	AfterState Kind = iota
	// State values the board before a move (seed 004): moves maximise
	// r + E[V(s'')], and V(s_t) learns toward r_t + V(s_{t+1}).
	State
)

func (k Kind) String() string {
	if k == State {
		return "state"
	}
	return "after"
}

// ParseKind reads "after" or "state".
func ParseKind(s string) (Kind, error) {
	switch s {
	case "after", "afterstate", "after-state":
		return AfterState, nil
	case "state":
		return State, nil
	}
	return 0, fmt.Errorf("learner %q: want after or state", s)
}

// An Episode is the outcome of one game.
type Episode struct {
	Score    int
	MaxTile  int // exponent: 11 is 2048, 16 is 65536
	Moves    int
	Overflow bool // stopped by a 32768+32768 merge
	// Diverged is set when learning drove a value to NaN or infinity (a
	// learning rate far too large): Train stops the run.
	Diverged bool
}

// finite reports whether x is a number and not an infinity.
func finite(x float32) bool { return x-x == 0 }

// end records the largest tile of the last board b: 65536 when the game
// stopped at a 32768+32768 merge, which b cannot hold.
func (ep *Episode) end(b board.Board) {
	ep.MaxTile = b.MaxTile()
	if ep.Overflow {
		ep.MaxTile = 16
	}
}

type step struct {
	board  board.Board // after-state (AfterState) or state (State)
	reward float32
}

// A Worker plays and learns episodes with one random generator. It is not
// safe for concurrent use; several workers may share one network when the
// network is Shared.
type Worker struct {
	Net  *ntuple.Network
	Kind Kind
	Rand game.Rand
	path []step
	// idx holds the weight indices of each after-state of the episode,
	// computed once when the move was chosen and used again to learn.
	idx  []uint32
	cand [4 * ntuple.MaxPatterns * 8]uint32
	// stateSearch chooses moves for state networks: reward plus the
	// expectation of V over the random tile, expectimax's chance node.
	stateSearch *search.Searcher
}

// NewWorker returns a worker for net.
func NewWorker(net *ntuple.Network, kind Kind, rng game.Rand) *Worker {
	w := &Worker{Net: net, Kind: kind, Rand: rng, path: make([]step, 0, 1<<13)}
	if kind == AfterState && !net.Direct() { // playAfterIndexed keeps indices
		w.idx = make([]uint32, 0, net.Lookups()<<13)
	}
	if kind == State {
		w.stateSearch = search.NewSearcher(net, search.Options{Depth: 1, Kind: search.State}, nil)
	}
	return w
}

// Play plays one episode with the current weights. With alpha > 0 it then
// learns from it.
func (w *Worker) Play(alpha float32) Episode {
	if w.Kind == State {
		return w.playState(alpha)
	}
	return w.playAfter(alpha)
}

// playAfter plays and learns an after-state episode, reading weights from
// boards where the network does that fastest (Network.Direct) and from
// stored indices otherwise; both learn the same, bit for bit.
func (w *Worker) playAfter(alpha float32) Episode {
	if w.Net.Direct() {
		return w.playAfterDirect(alpha)
	}
	return w.playAfterIndexed(alpha)
}

// playAfterIndexed is search.Greedy fused with the bookkeeping of
// learning: the indices of every legal after-state are computed once,
// valued with Network.Sum (bit for bit Estimate), and the chosen one's
// kept for the backward pass.
func (w *Worker) playAfterIndexed(alpha float32) Episode {
	net := w.Net
	lookups := net.Lookups()
	b := game.Start(w.Rand)
	path, idx := w.path[:0], w.idx[:0]
	var ep Episode
	var final float32 // target of the last after-state
	for {
		after, reward := game.Moves(b)
		var x [4][]uint32
		n := 0
		for d := range 4 {
			if after[d] != b {
				x[d] = net.Index(after[d], w.cand[n*lookups:])
				n++
			}
		}
		net.Prefetch(w.cand[:n*lookups])
		best, bestV := -1, float32(0)
		for d := range 4 {
			if after[d] != b {
				v := float32(game.Reward(reward[d]))
				if !game.Overflow(reward[d]) { // a 65536 merge ends the game
					v += net.Sum(x[d])
				}
				if best < 0 || v > bestV {
					best, bestV = d, v
				}
			}
		}
		if best < 0 {
			break
		}
		ep.Moves++
		r := game.Reward(reward[best])
		ep.Score += r
		if game.Overflow(reward[best]) {
			// 65536 cannot be stored: the game stops here, and the merge's
			// reward is the last after-state's target.
			ep.Overflow = true
			final = float32(r)
			break
		}
		path = append(path, step{after[best], float32(r)})
		idx = append(idx, x[best][:lookups]...)
		b = game.Spawn(after[best], w.Rand)
	}
	ep.end(b)
	w.path, w.idx = path, idx
	if alpha > 0 {
		// Backward TD(0): for t from the last step down, V(s'_t) moves by
		// alpha*(target - V(s'_t)), and the next target is s'_t's reward
		// plus its updated value.
		// The weights of step t-4 are prefetched while step t learns, so
		// that their cache misses overlap.
		target := final
		for t := len(path) - 1; t >= 0; t-- {
			if t >= 4 {
				net.Prefetch(idx[(t-4)*lookups : (t-3)*lookups])
			}
			x := idx[t*lookups : (t+1)*lookups]
			v := net.Add(x, alpha*(target-net.Sum(x)))
			target = path[t].reward + v
		}
		ep.Diverged = !finite(target)
	}
	return ep
}

// playAfterDirect is playAfter for networks that read a board's weights
// as fast from the board as from stored indices (Network.Direct): moves
// are search.Greedy's, and the backward pass reads and steps each
// after-state's weights from the board itself, prefetching those of the
// step four back so that their cache misses overlap. It learns exactly
// what playAfter does, bit for bit.
func (w *Worker) playAfterDirect(alpha float32) Episode {
	net := w.Net
	b := game.Start(w.Rand)
	path := w.path[:0]
	var ep Episode
	var final float32 // target of the last after-state
	for {
		c := search.Greedy(net, b)
		if !c.Legal() {
			break
		}
		ep.Moves++
		r := game.Reward(c.Reward)
		ep.Score += r
		if game.Overflow(c.Reward) {
			ep.Overflow = true
			final = float32(r)
			break
		}
		path = append(path, step{c.After, float32(r)})
		b = game.Spawn(c.After, w.Rand)
	}
	ep.end(b)
	w.path = path
	if alpha > 0 {
		target := final
		for t := len(path) - 1; t >= 0; t-- {
			if t >= 4 {
				net.PrefetchBoard(path[t-4].board)
			}
			s := path[t].board
			v := net.Update(s, alpha*(target-net.Estimate(s)))
			target = path[t].reward + v
		}
		ep.Diverged = !finite(target)
	}
	return ep
}

func (w *Worker) playState(alpha float32) Episode {
	net := w.Net
	b := game.Start(w.Rand)
	path := w.path[:0]
	var ep Episode
	for {
		c := w.stateSearch.Best(b)
		if !c.Legal() {
			break
		}
		ep.Moves++
		r := game.Reward(c.Reward)
		ep.Score += r
		path = append(path, step{b, float32(r)})
		if game.Overflow(c.Reward) {
			ep.Overflow = true
			break
		}
		b = game.Spawn(c.After, w.Rand)
	}
	ep.end(b)
	w.path = path
	if alpha > 0 {
		// The state where the game ended is worth 0 (after an overflow the
		// game ends on a board that cannot be stored, worth 0 too).
		var next float32
		if !ep.Overflow {
			x := net.Index(b, w.cand[:])
			next = net.Add(x, -alpha*net.Sum(x))
		}
		ep.Diverged = !finite(w.learnState(path, next, alpha))
	}
	return ep
}

// learnState: for t from the last step down, V(s_t) moves toward
// r_t + V(s_{t+1}), next being the updated value of s_{t+1}.
func (w *Worker) learnState(path []step, next, alpha float32) float32 {
	net := w.Net
	for t := len(path) - 1; t >= 0; t-- {
		x := net.Index(path[t].board, w.cand[:])
		next = net.Add(x, alpha*(path[t].reward+next-net.Sum(x)))
	}
	return next
}
