package learn

import (
	"github.com/td2048/td2048/board"
	"github.com/td2048/td2048/rules/game2048"
	"github.com/td2048/td2048/search"
)

// Tiles past 32768. The episode loops of this package play the 4-bit
// board, the hot path, until a slide merges two 32768s; then the game
// goes on on a board.Wide (the slow path), and every decision and every
// learned after-state is the board's view (board.Wide.View: its large
// tiles lowered into the gaps below them until they fit in four bits),
// with the view's rewards. The score counts the real rewards.

// afterOn is playAfter's slow path: the after-state learner's episode
// goes on from real board w, choosing and learning on its views, in stage
// k of a multi-stage network (the last one reached: past 32768 the scale
// only grows).
func (w *Worker) afterOn(tr *Trace, real board.Wide, ep *Episode, k int) {
	var m Moves
	m.stage = k
	for {
		x, ok := real.View(0)
		if !ok {
			break
		}
		fillMoves(&m, x, false)
		d := tr.Choose(&m)
		if d < 0 {
			break
		}
		ra, rr := game2048.MovesWide(real)
		ep.Moves++
		ep.Score += rr[d]
		tr.Push(&m, d)
		real = game2048.SpawnWide(ra[d], w.Rand)
	}
	ep.MaxTile = real.MaxTile()
}

// stateOn is playState's slow path: the state learner's episode goes on
// from real board w, its path holding the views; it returns the view of
// the last board.
func (w *Worker) stateOn(path []step, real board.Wide, ep *Episode) ([]step, board.Board) {
	sh := search.NewShifter(search.Downgrade{})
	for {
		st := sh.Step(real, w.stateSearch.Best)
		if !st.Choice.Legal() {
			break
		}
		ep.Moves++
		ep.Score += st.Reward
		path = append(path, step{st.View, float32(st.Choice.Points())})
		real = game2048.SpawnWide(st.After, w.Rand)
	}
	ep.MaxTile = real.MaxTile()
	x, _ := real.View(0)
	return path, x
}
