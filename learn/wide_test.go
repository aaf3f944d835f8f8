package learn

import (
	"math/rand/v2"
	"testing"

	"github.com/td2048/td2048/board"
	"github.com/td2048/td2048/ntuple"
)

// fourBig is a board whose top row holds four 32768s.
var fourBig = board.FromCells([16]int{15, 15, 15, 15, 1, 2})

// Learners go on past 32768 too, and learn from the whole episode.
func TestWorkersGoPast32768(t *testing.T) {
	for _, kind := range []Kind{AfterState, State} {
		net := ntuple.MustNew("01,45")
		w := NewWorker(net, kind, rand.New(rand.NewPCG(3, 4)))
		w.from = fourBig
		ep := w.Play(0.1)
		if ep.MaxTile < 17 || ep.Score < 2*131072 || !ep.Overflow || ep.diverged {
			t.Fatalf("%v: episode %+v", kind, ep)
		}
		if kind == AfterState && len(w.trace.steps) != ep.Moves {
			t.Fatalf("trace holds %d steps of %d moves", len(w.trace.steps), ep.Moves)
		}
	}
}
