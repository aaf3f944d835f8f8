package evaluate

import (
	"math/rand/v2"
	"sync/atomic"
	"testing"

	"github.com/td2048/td2048/board"
	"github.com/td2048/td2048/episode"
	"github.com/td2048/td2048/rules/game2048"
	"github.com/td2048/td2048/search"
)

func leftFirst(b board.Board) search.Choice {
	a, r := game2048.Moves(b)
	for _, d := range []int{game2048.Left, game2048.Up, game2048.Down, game2048.Right} {
		if a[d] != b {
			return search.Choice{Dir: d, After: a[d], Reward: r[d]}
		}
	}
	return search.NoMove
}

// fourBig is a board whose top row holds four 32768s.
var fourBig = board.FromCells([16]int{15, 15, 15, 15, 1, 2})

func TestGameGoesPast32768(t *testing.T) {
	var boards []board.Board
	policy := func(b board.Board) search.Choice { boards = append(boards, b); return leftFirst(b) }
	ep, ok := playFrom(fourBig, policy, nil, rand.New(rand.NewPCG(1, 2)), new(atomic.Bool), new(atomic.Int64))
	if !ok || ep.MaxTile < 17 || ep.Score < 2*131072 || !ep.Overflow || ep.Moves < 2 {
		t.Fatalf("episode %+v", ep)
	}
	// The second decision saw the two 65536s as 32768s (its view).
	if v := boards[1]; v.At(0) != 15 || v.At(1) != 15 {
		t.Fatalf("second decision on %s", v.Hex())
	}
	// Replaying the real game on the wide board gives the same score.
	rng := rand.New(rand.NewPCG(1, 2))
	w := board.Wide{Low: fourBig}
	score, moves := 0, 0
	for !game2048.OverWide(w) {
		x, _ := w.View(0)
		d := leftFirst(x).Dir
		a, r := game2048.MovesWide(w)
		score += r[d]
		moves++
		w = game2048.SpawnWide(a[d], rng)
	}
	if score != ep.Score || moves != ep.Moves || w.MaxTile() != ep.MaxTile {
		t.Fatalf("replay: score %d moves %d max %d, episode %+v", score, moves, w.MaxTile(), ep)
	}
	// Downgrading tests the first move on TDL2048+'s after-state, where
	// the two merges of 32768s leave their cells empty: from 32768 it
	// passes (no 32768 stands), from 4 it triggers (a 4 stands), and the
	// rest of that game is decided on lower boards.
	sh := search.NewShifter(search.Downgrade{Tile: 32768, Stint: 1})
	if sh.Step(board.Wide{Low: fourBig}, leftFirst); sh.N() != 0 {
		t.Fatalf("the first move triggered at 32768: n %d", sh.N())
	}
	sh = search.NewShifter(search.Downgrade{Tile: 4, Stint: 1})
	var dg episode.Outcome
	if !playOn(leftFirst, sh, rand.New(rand.NewPCG(1, 2)), board.Wide{Low: fourBig}, &dg, new(atomic.Bool), new(atomic.Int64)) || dg.MaxTile < 17 || dg.Score < 2*131072 || sh.N() == 0 {
		t.Fatalf("downgraded episode %+v n %d", dg, sh.N())
	}
}
