package learn

import (
	"sync/atomic"

	"github.com/td2048/td2048/board"
	"github.com/td2048/td2048/game"
	"github.com/td2048/td2048/search"
)

// Tiles past 32768. The episode loops of this package play the 4-bit
// board, the hot path, until a slide merges two 32768s; then the game
// goes on on a board.Wide (the slow path), and every decision and every
// learned after-state is the board's view (board.Wide.View: its large
// tiles lowered into the gaps below them until they fit in four bits),
// with the view's rewards. The score counts the real rewards.

// wideAfter is the real after-state of slide d of b, which made 65536.
func wideAfter(b board.Board, d int) board.Wide {
	a, _ := game.MovesWide(board.Wide{Low: b})
	return a[d]
}

// overflowOn plays game ep on after choice c on board b merged two
// 32768s into 65536: on the wide board, to its end (playOn, without
// downgrading).
func overflowOn(policy Policy, b board.Board, c search.Choice, rng game.Rand, ep *Episode, stop *atomic.Bool, moves *atomic.Int64) bool {
	w := game.SpawnWide(wideAfter(b, c.Dir), rng)
	return playOn(policy, search.NewShifter(search.Downgrade{}), rng, w, ep, stop, moves)
}

// playOn plays game ep on from real board w, its new tile placed, to its
// end, deciding with sh and policy; it gives up (false) when stop is set,
// and adds every move to moves when moves is not nil.
func playOn(policy Policy, sh *search.Shifter, rng game.Rand, w board.Wide, ep *Episode, stop *atomic.Bool, moves *atomic.Int64) bool {
	for {
		if stop != nil && stop.Load() {
			return false
		}
		st := sh.Step(w, policy)
		if !st.Choice.Legal() {
			if stop != nil && stop.Load() {
				return false // the policy may have been cut short
			}
			break
		}
		ep.Moves++
		if moves != nil {
			moves.Add(1)
		}
		ep.Score += st.Reward
		w = game.SpawnWide(st.After, rng)
	}
	ep.MaxTile = w.MaxTile()
	ep.Overflow = ep.MaxTile > 15
	return true
}

// afterOn is playAfter's slow path: the after-state learner's episode
// goes on from real board w, choosing and learning on its views, in stage
// k of a multi-stage network (the last one reached: past 32768 the scale
// only grows).
func (w *Worker) afterOn(tr *Trace, real board.Wide, ep *Episode, k int) {
	var m Moves
	m.Stage = k
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
		ra, rr := game.MovesWide(real)
		ep.Moves++
		ep.Score += rr[d]
		tr.Push(&m, d)
		real = game.SpawnWide(ra[d], w.Rand)
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
		real = game.SpawnWide(st.After, w.Rand)
	}
	ep.MaxTile = real.MaxTile()
	x, _ := real.View(0)
	return path, x
}
