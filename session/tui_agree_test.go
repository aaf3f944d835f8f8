package session_test

import (
	"math/rand/v2"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/td2048/td2048/learn"
	"github.com/td2048/td2048/session"
	"github.com/td2048/td2048/tui"
)

// TestTuiAgrees drives the terminal view with arrow keys (hints off, so
// that nothing searches) and plays the same games through sessions: the
// view's boards, next tiles, bags, move counts, scores and ends must be
// the session's at every step. It checks the view's own replay code
// until the view plays through this package; then it is redundant.
func TestTuiAgrees(t *testing.T) {
	keys := [4]tea.KeyMsg{{Type: tea.KeyUp}, {Type: tea.KeyRight}, {Type: tea.KeyDown}, {Type: tea.KeyLeft}}
	press := func(m *tui.Model, k tea.KeyMsg) {
		if _, cmd := m.Update(k); cmd != nil && k.String() != "n" {
			t.Fatalf("key %q started a command", k)
		}
	}
	games := 40
	if testing.Short() {
		games = 8
	}
	for _, g := range session.Games {
		const seed = 11
		m := tui.New(tui.Config{Game: g, Seed: seed})
		press(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("t")}) // hints off
		dirs := rand.New(rand.NewPCG(seed, 5))
		for i := range games {
			s, err := session.New(g, learn.Mix(seed, uint64(i)))
			if err != nil {
				t.Fatal(err)
			}
			for {
				next, bag := m.Next()
				if m.Board() != s.Board() || next != s.Next() || bag != s.Bag() || m.Moves() != s.Len() ||
					m.Score() != s.Score() || m.Over() != s.Over() {
					t.Fatalf("%s game %d move %d: view %s next %d bag %v score %d over %v; session %s next %d bag %v score %d over %v",
						g, i, s.Len(), m.Board().Hex(), next, bag, m.Score(), m.Over(), s.Board().Hex(), s.Next(), s.Bag(), s.Score(), s.Over())
				}
				if s.Over() {
					break
				}
				d := dirs.IntN(4)
				s.Apply(d)
				press(m, keys[d])
			}
			press(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("n")}) // the next game
		}
	}
}
