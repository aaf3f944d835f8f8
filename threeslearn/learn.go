// Package threeslearn trains n-tuple networks on Threes! by after-state
// TD(0), plays with them greedily or by expectimax (package search's
// Threes searcher, known here by its Threes! names), and evaluates them
// in the course's terms.
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

	"github.com/td2048/td2048/game/threes"
	"github.com/td2048/td2048/learn"
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

// A Worker plays and learns episodes with one random generator. It is not
// safe for concurrent use; several workers may share one network when the
// network is Shared. A step allocates nothing.
type Worker struct {
	Net   *ntuple.Network
	Rand  threes.Rand
	trace *learn.Trace
}

// NewWorker returns a worker for net, which must pass CheckSpec.
func NewWorker(net *ntuple.Network, rng threes.Rand) *Worker {
	return &Worker{Net: net, Rand: rng, trace: learn.NewTrace(net)}
}

// Play plays one episode with the current weights and the random placer,
// choosing the slide that maximises r + V(after-state) by the stage of the
// next tile. With alpha > 0 it then learns from it by backward TD(0)
// (learn.Trace).
func (w *Worker) Play(alpha float32) Episode {
	tr := w.trace
	tr.Reset(alpha)
	g := threes.Start(w.Rand)
	var ep Episode
	var m learn.Moves
	for {
		after, reward := threes.Moves(g.Board)
		m.Legal, m.Stage = 0, Stage(w.Net, g.Next)
		for d := range 4 {
			m.After[d] = after[d]
			m.Reward[d] = float32(reward[d])
			if after[d] != g.Board {
				m.Legal |= 1 << d
			}
		}
		d := tr.Choose(&m)
		if d < 0 {
			break
		}
		ep.Slides++
		tr.Push(&m, d)
		g.SlideTo(after[d], d)
		g.PlaceRandom(w.Rand)
	}
	ep.Score = threes.BoardScore(g.Board)
	ep.MaxTile = g.Board.MaxTile()
	if alpha > 0 {
		ep.Diverged = !tr.Learn(alpha, 0)
	}
	return ep
}
