package session

import (
	"math/rand/v2"
	"testing"

	"github.com/td2048/td2048/board"
	"github.com/td2048/td2048/rules/game2048"
	"github.com/td2048/td2048/rules/threes"
)

// The replay rule as the web server and the terminal view implemented it
// before they played through this package, kept as the reference that
// sessions must follow bit for bit, so that games begun before replay the
// same. The functions are those of internal/web/server.go (moveResult,
// threesMoveResult, newGame) and internal/tui/tui.go (Model.newGame, apply,
// applyThrees), cut down to the game state they change.

// oldState is a game as the old code kept it.
type oldState struct {
	b              board.Board
	hint           int
	bag            threes.Bag
	n, score       int
	over, overflow bool
	spawn, placed  int
}

// oldWebNew is web's newGame.
func oldWebNew(g string, seed uint64) oldState {
	if g == GameThrees {
		tg := threes.Start(Stream(seed, 0))
		return oldState{b: tg.Board, hint: tg.Next, bag: tg.Bag, score: threes.BoardScore(tg.Board), over: threes.Over(tg.Board), spawn: -1}
	}
	b := game2048.Start(Stream(seed, 0))
	return oldState{b: b, over: game2048.Over(b), spawn: -1}
}

// oldWebMove is web's moveResult: direction d on b as move n of the game
// with seed seed. The score is the page's: it adds the reward.
func oldWebMove(st oldState, d int, seed uint64, n int) (oldState, bool, board.Board, int) {
	b := st.b
	after, reward := game2048.Moves(b)
	st.spawn, st.placed = -1, 0
	if after[d] == b {
		st.over = game2048.Over(b)
		return st, false, 0, 0
	}
	st.score += game2048.Reward(reward[d])
	if game2048.Overflow(reward[d]) {
		st.b, st.over, st.overflow = after[d], true, true
		return st, true, after[d], game2048.Reward(reward[d])
	}
	next := game2048.Spawn(after[d], Stream(seed, n+1))
	for i := range 16 {
		if after[d].At(i) == 0 && next.At(i) != 0 {
			st.spawn = i
		}
	}
	st.b, st.over = next, game2048.Over(next)
	return st, true, after[d], game2048.Reward(reward[d])
}

// oldWebThreesMove is web's threesMoveResult.
func oldWebThreesMove(st oldState, d int, seed uint64, n int) (oldState, bool, board.Board, int) {
	g := threes.Game{Board: st.b, Next: st.hint, Bag: st.bag, Last: threes.Anywhere, Actions: threes.OpeningTiles}
	st.spawn, st.placed = -1, 0
	after, reward, legal := threes.Move(g.Board, d)
	if !legal {
		st.over = threes.Over(g.Board)
		return st, false, 0, 0
	}
	g.SlideTo(after, d)
	st.spawn, st.placed, _ = g.PlaceRandom(Stream(seed, n+1))
	st.b, st.hint, st.bag = g.Board, g.Next, g.Bag
	st.score, st.over = threes.BoardScore(g.Board), threes.Over(g.Board)
	return st, true, after, reward
}

// oldTui is the terminal view's game: Model.newGame, apply and
// applyThrees.
type oldTui struct {
	threes bool
	seed   uint64
	oldState
}

func oldTuiNew(threesGame bool, seed uint64) *oldTui {
	m := &oldTui{threes: threesGame, seed: seed}
	m.spawn = -1
	if m.threes {
		g := threes.Start(Stream(m.seed, 0))
		m.b, m.hint, m.bag = g.Board, g.Next, g.Bag
		m.score = threes.BoardScore(m.b)
		m.over = threes.Over(m.b)
		return m
	}
	m.b = game2048.Start(Stream(m.seed, 0))
	return m
}

func (m *oldTui) apply(d int) {
	if m.over {
		return
	}
	if m.threes {
		m.applyThrees(d)
		return
	}
	after, reward := game2048.Moves(m.b)
	if after[d] == m.b {
		return
	}
	m.n++
	m.score += game2048.Reward(reward[d])
	if game2048.Overflow(reward[d]) {
		m.overflow = true
		m.b = after[d]
		m.over = true
		return
	}
	m.b = game2048.Spawn(after[d], Stream(m.seed, m.n))
	m.spawn = -1
	for i := range 16 {
		if after[d].At(i) == 0 && m.b.At(i) != 0 {
			m.spawn = i
		}
	}
	if game2048.Over(m.b) {
		m.over = true
	}
}

func (m *oldTui) applyThrees(d int) {
	g := threes.Game{Board: m.b, Next: m.hint, Bag: m.bag, Last: threes.Anywhere, Actions: threes.OpeningTiles}
	after, reward, legal := threes.Move(m.b, d)
	if !legal {
		return
	}
	m.n++
	g.SlideTo(after, d)
	pos, tile, _ := g.PlaceRandom(Stream(m.seed, m.n))
	m.score += reward + threes.Score(tile)
	m.b, m.hint, m.bag, m.spawn = g.Board, g.Next, g.Bag, pos
	if threes.Over(m.b) {
		m.over = true
	}
}

// TestAgreesWithOldFaces plays many games through a session and the old
// web and terminal code side by side, with random directions (illegal
// ones too), and wants the same game at every step: boards, new tiles and
// their cells, next tiles and bags, scores and ends. The web's games are
// resumed at every move, as the server does.
func TestAgreesWithOldFaces(t *testing.T) {
	seeds := 1000
	if testing.Short() {
		seeds = 40
	}
	for _, g := range games {
		moves := 0
		for seed := range uint64(seeds) {
			seed := seed * 0x9e3779b97f4a7c15 >> 11 // spread over the page's seeds (below 2^53)
			s, err := New(g, seed)
			if err != nil {
				t.Fatal(err)
			}
			web := oldWebNew(g, seed)
			tui := oldTuiNew(g == GameThrees, seed)
			same := func(what string, o oldState) {
				t.Helper()
				if s.Board() != o.b || s.Next() != o.hint || s.Bag() != o.bag || s.Score() != o.score || s.Over() != o.over {
					t.Fatalf("%s seed %d move %d, %s: session %s next %d bag %v score %d over %v; old %s next %d bag %v score %d over %v",
						g, seed, s.Len(), what, s.Board().Hex(), s.Next(), s.Bag(), s.Score(), s.Over(),
						o.b.Hex(), o.hint, o.bag, o.score, o.over)
				}
			}
			same("web start", web)
			same("tui start", tui.oldState)
			dirs := rand.New(rand.NewPCG(seed, 3))
			for !s.Over() {
				d := dirs.IntN(4)
				n := s.Len()
				// The page resumes its game at every request.
				r, err := Resume(g, seed, n, Position{Board: web.b, Next: web.hint, Bag: web.bag, Score: web.score})
				if err != nil {
					t.Fatal(err)
				}
				res := s.Apply(d)
				rres := r.Apply(d)
				var legal bool
				var after board.Board
				var reward int
				if g == GameThrees {
					web, legal, after, reward = oldWebThreesMove(web, d, seed, n)
				} else {
					web, legal, after, reward = oldWebMove(web, d, seed, n)
				}
				tui.apply(d)
				if res != rres {
					t.Fatalf("%s seed %d move %d: played %+v, resumed %+v", g, seed, n, res, rres)
				}
				if res.Legal != legal || legal && (res.After != after || res.Reward != reward || res.Cell != web.spawn) ||
					g == GameThrees && legal && res.tile != web.placed {
					t.Fatalf("%s seed %d move %d: %+v; web legal %v after %s reward %d spawn %d placed %d",
						g, seed, n, res, legal, after.Hex(), reward, web.spawn, web.placed)
				}
				if legal && (res.Cell != tui.spawn || s.Len() != tui.n) {
					t.Fatalf("%s seed %d move %d: cell %d, tui %d", g, seed, n, res.Cell, tui.spawn)
				}
				if res.Board != s.Board() || res.Next != s.Next() || res.Score != s.Score() || res.Over != s.Over() {
					t.Fatalf("%s seed %d move %d: result %+v, session %s", g, seed, n, res, s.Board().Hex())
				}
				same("web", web)
				same("tui", tui.oldState)
				if legal {
					moves++
				}
			}
			if tui.n != s.Len() || len(s.History()) != s.Len() {
				t.Fatalf("%s seed %d: %d moves, tui %d, history %d", g, seed, s.Len(), tui.n, len(s.History()))
			}
		}
		t.Logf("%s: %d games, %d moves alike", g, seeds, moves)
	}
}
