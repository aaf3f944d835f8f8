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
	"math/rand/v2"

	"github.com/td2048/td2048/game/threes"
	"github.com/td2048/td2048/ntuple"
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

// A ThreesWorker plays and learns Threes! episodes with one random
// generator. It is not safe for concurrent use; several workers may
// share one network when the network is Shared. A step allocates nothing.
type ThreesWorker struct {
	Net   *ntuple.Network
	Rand  threes.Rand
	trace *Trace
}

// NewThreesWorker returns a worker for net, which must pass
// CheckThreesSpec.
func NewThreesWorker(net *ntuple.Network, rng threes.Rand) *ThreesWorker {
	return &ThreesWorker{Net: net, Rand: rng, trace: NewTrace(net)}
}

// Play plays one episode with the current weights and the random placer,
// choosing the slide that maximises r + V(after-state) by the stage of the
// next tile. With alpha > 0 it then learns from it (Trace). An episode's
// moves are its slides; its largest tile is a Threes! index (13 is 3072).
func (w *ThreesWorker) Play(alpha float32) Episode {
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
// threads), each worker a ThreesWorker. Tile indices in the blocks are
// Threes! indices (threes.TileValue); an episode's moves are its slides.
func TrainThrees(ctx context.Context, net *ntuple.Network, cfg Config) (RunState, Result, error) {
	if err := CheckThreesSpec(net.Spec()); err != nil {
		return RunState{}, Result{}, err
	}
	cfg.Kind = AfterState
	cfg.newPlayer = func(rng *rand.PCG) player {
		w := NewThreesWorker(net, rng)
		w.trace.Mode = cfg.Mode
		return w
	}
	return Train(ctx, net, cfg)
}
