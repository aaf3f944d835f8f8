package learn

// Threes! (package threes) on the same learner core as 2048: the episode
// loop says what the candidate slides are and what follows a slide, and
// the Trace chooses and learns. The reward of a slide is the change in
// board value it makes; placements are the environment's and carry no
// reward for the learner (they are the same whatever the slider chooses).
// A network may see the next tile: with the spec "4x6+hint" it has one
// set of tables per next-tile value, and an after-state is valued by the
// tables of the tile that will be placed next (search.ThreesStage).

import (
	"context"
	"fmt"

	"github.com/td2048/td2048/ntuple"
	"github.com/td2048/td2048/rules/threes"
	"github.com/td2048/td2048/search"
)

// CheckThreesSpec reports whether a network can play Threes!: a plain
// network (one stage) or a "+hint" one (a stage per next-tile value).
func CheckThreesSpec(spec ntuple.Spec) error {
	if spec.StageCount() > 1 && !spec.Hint {
		return fmt.Errorf("network %s: Threes! uses plain networks or +hint ones (a stage per next tile), not %d stages", spec, spec.StageCount())
	}
	return nil
}

// NewThreesWorker returns a worker that plays and learns Threes! with
// net, which must pass CheckThreesSpec: after-state values, one episode
// at a time. A step allocates nothing.
func NewThreesWorker(net *ntuple.Network, rng threes.Rand) *Worker {
	w := NewWorker(net, AfterState, rng)
	w.threes = true
	return w
}

// playThrees plays one Threes! episode with the current weights and the
// random placer, choosing the slide that maximises r + V(after-state) by
// the stage of the next tile. With alpha > 0 it then learns from it (Trace). An episode's
// moves are its slides; its largest tile is a Threes! index (13 is 3072).
func (w *Worker) playThrees(alpha float32) Episode {
	tr := w.trace
	tr.Reset(alpha)
	g := threes.Start(w.Rand)
	var ep Episode
	var m Moves
	for {
		after, reward := threes.Moves(g.Board)
		m.Legal, m.stage = 0, search.ThreesStage(w.Net, g.Next)
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
		ep.Moves++
		tr.Push(&m, d)
		g.SlideTo(after[d], d)
		g.PlaceRandom(w.Rand)
	}
	ep.Score = threes.BoardScore(g.Board)
	ep.MaxTile = g.Board.MaxTile()
	if alpha > 0 {
		ep.diverged = !tr.Learn(alpha, 0)
	}
	return ep
}

// TrainThrees trains net on Threes! with Train's machinery (statistics
// blocks, checkpoints and exact resume, schedules, update modes, worker
// threads), each worker a Threes! worker. Tile indices in the blocks are
// Threes! indices (threes.TileValue); an episode's moves are its slides.
func TrainThrees(ctx context.Context, net *ntuple.Network, cfg Config) (RunState, Result, error) {
	cfg.Kind, cfg.threes = AfterState, true
	return Train(ctx, net, cfg)
}
