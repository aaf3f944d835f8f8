package threeslearn

import (
	"context"
	"math/rand/v2"

	"github.com/td2048/td2048/learn"
	"github.com/td2048/td2048/ntuple"
)

// Train trains net on Threes! with learn.Train's machinery (statistics
// blocks, checkpoints and exact resume, schedules, worker threads), each
// worker a Threes! Worker. Tile indices in the blocks are Threes! indices
// (threes.TileValue); an episode's moves are its slides.
func Train(ctx context.Context, net *ntuple.Network, cfg learn.Config) (learn.RunState, learn.Result, error) {
	if err := CheckSpec(net.Spec()); err != nil {
		return learn.RunState{}, learn.Result{}, err
	}
	cfg.Kind = learn.AfterState
	cfg.NewPlayer = func(rng *rand.PCG) learn.Player {
		w := NewWorker(net, rng)
		w.trace.Mode = cfg.Mode
		return player{w}
	}
	return learn.Train(ctx, net, cfg)
}

type player struct{ *Worker }

func (p player) Play(alpha float32) learn.Episode {
	e := p.Worker.Play(alpha)
	return learn.Episode{Score: e.Score, MaxTile: e.MaxTile, Moves: e.Slides, Diverged: e.Diverged}
}
