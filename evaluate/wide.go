package evaluate

import (
	"sync/atomic"

	"github.com/td2048/td2048/board"
	"github.com/td2048/td2048/episode"
	"github.com/td2048/td2048/rules/game2048"
	"github.com/td2048/td2048/search"
)

// Tiles past 32768: a game plays the 4-bit board, the hot path, until a
// slide merges two 32768s; then it goes on on a board.Wide (the slow
// path), every decision made on the board's view (board.Wide.View, through
// a search.Shifter). The score counts the real rewards.

// overflowOn plays game ep on after choice c on board b merged two
// 32768s into 65536: on the wide board, to its end (playOn, without
// downgrading).
func overflowOn(policy Policy, b board.Board, c search.Choice, rng game2048.Rand, ep *episode.Outcome, stop *atomic.Bool, moves *atomic.Int64) bool {
	w := game2048.SpawnWide(game2048.AfterWide(b, c.Dir), rng)
	return playOn(policy, search.NewShifter(search.Downgrade{}), rng, w, ep, stop, moves)
}

// playOn plays game ep on from real board w, its new tile placed, to its
// end, deciding with sh and policy; it gives up (false) when stop is set,
// and adds every move to moves.
func playOn(policy Policy, sh *search.Shifter, rng game2048.Rand, w board.Wide, ep *episode.Outcome, stop *atomic.Bool, moves *atomic.Int64) bool {
	for {
		if stop.Load() {
			return false
		}
		st := sh.Step(w, policy)
		if !st.Choice.Legal() {
			if stop.Load() {
				return false // the policy may have been cut short
			}
			break
		}
		ep.Moves++
		moves.Add(1)
		ep.Score += st.Reward
		w = game2048.SpawnWide(st.After, rng)
	}
	ep.MaxTile = w.MaxTile()
	ep.Overflow = ep.MaxTile > 15
	return true
}
