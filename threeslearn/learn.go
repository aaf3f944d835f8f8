// Package threeslearn trains n-tuple networks on Threes! by after-state
// TD(0), plays with them greedily or by expectimax, and evaluates them in
// the course's terms.
//
// Learning is the course's after-state TD(0), as package learn does it for
// 2048: a whole episode is played choosing the slide that maximises
// r + V(after-state), then from the last after-state (target 0) back to
// the first, V(s'_t) moves by alpha*(target - V(s'_t)) and the next target
// is r_t + V(s'_t) (updated). The reward r of a slide is the change in
// board value it makes; placements are the environment's and carry no
// reward for the learner (they are the same whatever the slider chooses).
//
// What differs from 2048 lives in package threes (the slides, the hint,
// the bag, the placement edge). A network may see the hint: with the spec
// "4x6+hint" it has one set of tables per hint value, and an after-state
// is valued by the tables of the tile that will be placed next.
package threeslearn

import (
	"fmt"

	"github.com/td2048/td2048/board"
	"github.com/td2048/td2048/game/threes"
	"github.com/td2048/td2048/ntuple"
)

func errorf(format string, a ...any) error { return fmt.Errorf(format, a...) }

// An Episode is the outcome of one game.
type Episode struct {
	Score   int // value of the final board
	MaxTile int // largest tile index: 13 is 3072, 14 is 6144
	Slides  int
	// Diverged: learning drove a value to NaN or infinity.
	Diverged bool
}

type step struct {
	after  board.Board
	reward float32
	stage  int // the tables after is valued by (playDirect)
}

// A Worker plays and learns episodes with one random generator. It is not
// safe for concurrent use; several workers may share one network when the
// network is Shared. A step allocates nothing.
type Worker struct {
	Net  *ntuple.Network
	Rand threes.Rand
	path []step
	// idx holds the weight indices of each chosen after-state of the
	// episode, computed when the slide was chosen and used again to learn.
	idx  []uint32
	cand [4 * ntuple.MaxPatterns * 8]uint32 // the candidates' indices, one after another
}

// NewWorker returns a worker for net, which must pass CheckSpec.
func NewWorker(net *ntuple.Network, rng threes.Rand) *Worker {
	w := &Worker{Net: net, Rand: rng, path: make([]step, 0, 1<<12)}
	if !net.Direct() { // playIndexed keeps indices
		w.idx = make([]uint32, 0, net.Lookups()<<12)
	}
	return w
}

// Play plays one episode with the current weights and the random placer.
// With alpha > 0 it then learns from it.
func (w *Worker) Play(alpha float32) Episode {
	if w.Net.Direct() {
		return w.playDirect(alpha)
	}
	return w.playIndexed(alpha)
}

// playIndexed keeps the indices of each chosen after-state, computed when
// the slide was chosen, and learns from them.
func (w *Worker) playIndexed(alpha float32) Episode {
	net := w.Net
	hinted := net.Spec().Hint
	lookups := net.Lookups()
	g := threes.Start(w.Rand)
	path, idx := w.path[:0], w.idx[:0]
	var ep Episode
	for {
		b := g.Board
		after, reward := threes.Moves(b)
		k := 0
		if hinted {
			k = g.Hint - 1
		}
		var x [4][]uint32
		n := 0
		for d := range 4 {
			if after[d] != b {
				x[d] = net.IndexStage(k, after[d], w.cand[n*lookups:])
				n++
			}
		}
		if n == 0 {
			break
		}
		// Start every load before waiting for any.
		net.Prefetch(w.cand[:n*lookups])
		best, bestV := -1, float32(0)
		for d := range 4 {
			if after[d] != b {
				if t := float32(reward[d]) + net.Sum(x[d]); best < 0 || t > bestV {
					best, bestV = d, t
				}
			}
		}
		ep.Slides++
		path = append(path, step{after[best], float32(reward[best]), k})
		idx = append(idx, x[best][:lookups]...)
		g.SlideTo(after[best], best)
		g.PlaceRandom(w.Rand)
	}
	ep.Score = threes.BoardScore(g.Board)
	ep.MaxTile = g.Board.MaxTile()
	w.path, w.idx = path, idx
	if alpha > 0 {
		ep.Diverged = w.learn(path, idx, lookups, alpha)
	}
	return ep
}

// learn runs the backward TD(0) pass: for t from the last step down,
// V(path[t]) moves by alpha*(target - V(path[t])) with target 0 at the
// last step, and the next target is path[t]'s reward plus its updated
// value. The weights of step t-4 are prefetched while step t learns, so
// that their cache misses overlap.
func (w *Worker) learn(path []step, idx []uint32, lookups int, alpha float32) (diverged bool) {
	net := w.Net
	var target float32
	for t := len(path) - 1; t >= 0; t-- {
		if t >= 4 {
			net.Prefetch(idx[(t-4)*lookups : (t-3)*lookups])
		}
		x := idx[t*lookups : (t+1)*lookups]
		v := net.Sum(x)
		v = net.Add(x, alpha*(target-v))
		target = path[t].reward + v
	}
	return target-target != 0
}

// playDirect is Play for networks that read a board's weights as fast from
// the board as from stored indices (ntuple.Network.Direct): slides are
// Greedy's, and the backward pass reads and steps each after-state's
// weights from the board, in its stage, prefetching those of the step four
// back. It learns exactly what Play's index path does, bit for bit.
func (w *Worker) playDirect(alpha float32) Episode {
	net := w.Net
	g := threes.Start(w.Rand)
	path := w.path[:0]
	var ep Episode
	for {
		k := Stage(net, g.Hint)
		c := Greedy(net, g.Board, g.Hint)
		if !c.Legal() {
			break
		}
		ep.Slides++
		path = append(path, step{c.After, float32(c.Reward), k})
		g.SlideTo(c.After, c.Dir)
		g.PlaceRandom(w.Rand)
	}
	ep.Score = threes.BoardScore(g.Board)
	ep.MaxTile = g.Board.MaxTile()
	w.path = path
	if alpha > 0 {
		var target float32
		for t := len(path) - 1; t >= 0; t-- {
			if t >= 4 {
				net.PrefetchBoardStage(path[t-4].stage, path[t-4].after)
			}
			s := path[t]
			v := net.UpdateStage(s.stage, s.after, alpha*(target-net.EstimateStage(s.stage, s.after)))
			target = s.reward + v
		}
		ep.Diverged = target-target != 0
	}
	return ep
}
