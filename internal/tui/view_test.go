package tui

import (
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/td2048/td2048/games"
	"github.com/td2048/td2048/session"
)

// terminals are the sizes the view is checked at: the classic 80x24, a
// small window, a narrow tall one (a phone's terminal) and a large one.
var terminals = []struct{ w, h int }{{80, 24}, {60, 18}, {40, 30}, {120, 40}}

// shot is one screen of the view at one terminal size.
type shot struct {
	state string
	lines []string
}

// lastBoardRow is the index of the last line that shows a row of tiles,
// -1 for none.
func lastBoardRow(lines []string) int {
	last := -1
	for i, l := range lines {
		if len(screenRows(l)) > 0 {
			last = i
		}
	}
	return last
}

// legalKey is an arrow key that moves something on m's board, and
// whether there is one; illegalKey one that moves nothing.
func legalKey(m *Model, legal bool) (tea.KeyMsg, bool) {
	for _, k := range []tea.KeyType{tea.KeyUp, tea.KeyRight, tea.KeyDown, tea.KeyLeft} {
		d := map[tea.KeyType]int{tea.KeyUp: 0, tea.KeyRight: 1, tea.KeyDown: 2, tea.KeyLeft: 3}[k]
		if m.g.Moves()[d] == legal {
			return tea.KeyMsg{Type: k}, true
		}
	}
	return tea.KeyMsg{}, false
}

// TestLayoutFits draws the view in each of its states (values shown, a
// search for the values under way, the agent thinking, an illegal move's
// message, values off, the help, a game over with statistics) at each
// terminal size: no line is wider than the terminal, there are never more
// lines than it has, the header, the whole board and the footer are always
// on screen, and the number of lines is the same in every state, so that
// nothing jumps from frame to frame. The panel of values and statistics
// stands beside the board on a wide terminal, under it on a narrow one.
func TestLayoutFits(t *testing.T) {
	for _, g := range []string{session.Game2048, session.GameThrees} {
		t.Run(g, func(t *testing.T) {
			edit := func(c *Config) { c.Depth = 2; c.Speed = len(Speeds) - 1 }
			m := newModel(edit)
			rows := boardRows
			if g == session.GameThrees {
				m = newThreesModel(edit)
				rows = threesRows
			}
			pump(t, m, m.Init(), nil)
			frames := map[int][]shot{} // by terminal
			shoot := func(state string) {
				t.Helper()
				for i, tm := range terminals {
					m.Update(tea.WindowSizeMsg{Width: tm.w, Height: tm.h})
					v := m.View()
					lines := strings.Split(v, "\n")
					where := fmt.Sprintf("%dx%d, %s", tm.w, tm.h, state)
					if len(lines) > tm.h {
						t.Errorf("%s: %d lines:\n%s", where, len(lines), v)
					}
					for _, l := range lines {
						if w := lipgloss.Width(l); w > tm.w {
							t.Errorf("%s: a line %d wide: %q", where, w, l)
						}
					}
					first := 0
					for first < len(lines) && strings.TrimSpace(lines[first]) == "" {
						first++
					}
					if first == len(lines) || !strings.Contains(lines[first], "td2048") {
						t.Errorf("%s: the header is not on the first line:\n%s", where, v)
					}
					if !strings.Contains(lines[len(lines)-1], "? help") {
						t.Errorf("%s: the footer is not on the last line:\n%s", where, v)
					}
					if state != "help" {
						if got, want := strings.Join(screenRows(v), "\n"), strings.Join(rows(m.g.Board()), "\n"); got != want {
							t.Errorf("%s: the board shows\n%s\nwant\n%s\nscreen:\n%s", where, got, want, v)
						}
						for _, want := range []string{fmt.Sprintf("score %d   moves %d", m.g.Score(), m.g.Len()), "agent: ", "games"} {
							if !strings.Contains(v, want) {
								t.Errorf("%s: no %q on screen:\n%s", where, want, v)
							}
						}
					}
					frames[i] = append(frames[i], shot{state, lines})
				}
			}
			shoot("values shown")
			for i, tm := range terminals {
				f := frames[i][0]
				v := strings.Join(f.lines, "\n")
				if !strings.Contains(v, "★ best") || !strings.Contains(v, "move values, depth 2") {
					t.Errorf("%dx%d: no move values:\n%s", tm.w, tm.h, v)
				}
				title := -1
				for j, l := range f.lines {
					if strings.Contains(l, "move values") {
						title = j
						break
					}
				}
				side := title < lastBoardRow(f.lines)
				if want := tm.w >= 80; tm.w != 60 && side != want {
					t.Errorf("%dx%d: the panel beside the board %v, want %v:\n%s", tm.w, tm.h, side, want, v)
				}
			}

			// A move: the search of the new board's values is under way.
			// The last values stay on screen (dimmed), not a word in their
			// place.
			k, ok := legalKey(m, true)
			if !ok {
				t.Fatal("no legal move at the start")
			}
			_, hint := m.Update(k)
			if hint == nil {
				t.Fatal("a move did not start a search of the values")
			}
			shoot("values searched")
			if v := m.View(); strings.Contains(v, "thinking") || !strings.Contains(v, "★ best") {
				t.Errorf("the last values are not kept while a search runs:\n%s", v)
			}
			pump(t, m, hint, nil)

			// The agent thinking about its move.
			_, cmd := m.Update(tea.KeyMsg{Type: tea.KeySpace})
			_, think := m.Update(cmd())
			if !m.thinking || think == nil {
				t.Fatal("the agent is not thinking")
			}
			shoot("agent thinking")
			m.Update(tea.KeyMsg{Type: tea.KeySpace}) // pause; its answer is dropped
			pump(t, m, think, nil)

			if k, ok := legalKey(m, false); ok {
				m.Update(k)
				if !strings.Contains(m.View(), "does not move anything") {
					t.Errorf("no message for an illegal move:\n%s", m.View())
				}
				shoot("illegal move")
			}
			key(t, m, runes("t"))
			shoot("values off")
			key(t, m, runes("t"))
			key(t, m, runes("?"))
			shoot("help")
			if v := m.View(); !strings.Contains(v, "space") || !strings.Contains(v, "agent") {
				t.Errorf("no help:\n%s", v)
			}
			key(t, m, runes("?"))

			// A game over, counted in the statistics.
			key(t, m, runes("1"))
			_, cmd = m.Update(tea.KeyMsg{Type: tea.KeySpace})
			pump(t, m, cmd, func() bool { return m.g.Over() })
			key(t, m, tea.KeyMsg{Type: tea.KeySpace}) // pause
			if !m.g.Over() {
				t.Fatal("the game did not end")
			}
			shoot("game over")
			if v := m.View(); !strings.Contains(v, "GAME OVER") {
				t.Errorf("no game over:\n%s", v)
			}

			for i, tm := range terminals {
				for _, f := range frames[i][1:] {
					if len(f.lines) != len(frames[i][0].lines) {
						t.Errorf("%dx%d: %d lines with %s, %d with %s:\n%s\n\n%s", tm.w, tm.h, len(frames[i][0].lines), frames[i][0].state,
							len(f.lines), f.state, strings.Join(frames[i][0].lines, "\n"), strings.Join(f.lines, "\n"))
					}
				}
			}
		})
	}
}

// landmarks are where the parts of the screen stand: for each, the line
// and the column it begins at.
func landmarks(v string) map[string][2]int {
	at := map[string][2]int{}
	lines := strings.Split(v, "\n")
	for i, l := range lines {
		for _, s := range []string{"td2048", "score ", "move values", "hints off", "agent: ", "games", "? help"} {
			if j := strings.Index(l, s); j >= 0 {
				at[s] = [2]int{i, lipgloss.Width(l[:j])}
			}
		}
	}
	at["board"] = [2]int{lastBoardRow(lines), 0}
	at["lines"] = [2]int{len(lines), 0}
	return at
}

// TestLayoutStill: frames before a move, with the search of its values
// under way and with its values come have every part of the screen in
// the same place, at every terminal size.
func TestLayoutStill(t *testing.T) {
	for _, tm := range terminals {
		t.Run(fmt.Sprintf("%dx%d", tm.w, tm.h), func(t *testing.T) {
			m := newModel(func(c *Config) { c.Depth = 2 })
			m.Update(tea.WindowSizeMsg{Width: tm.w, Height: tm.h})
			pump(t, m, m.Init(), nil)
			before := landmarks(m.View())
			k, _ := legalKey(m, true)
			_, hint := m.Update(k)
			busy := m.View()
			pump(t, m, hint, nil)
			after := m.View()
			for name, v := range map[string]string{"searching": busy, "after": after} {
				if got := landmarks(v); fmt.Sprint(got) != fmt.Sprint(before) {
					t.Errorf("%dx%d: the parts of the screen moved, %s: %v, before: %v\n%s", tm.w, tm.h, name, got, before, v)
				}
			}
		})
	}
}

// TestHelpKey: ? shows the keys in place of the board and hides them
// again; esc closes the help before it quits.
func TestHelpKey(t *testing.T) {
	m := newModel(nil)
	pump(t, m, m.Init(), nil)
	key(t, m, runes("?"))
	v := m.View()
	for _, want := range []string{"space", "search depth", "quit"} {
		if !strings.Contains(v, want) {
			t.Errorf("help without %q:\n%s", want, v)
		}
	}
	if len(screenRows(v)) != 0 {
		t.Errorf("the help shows the board:\n%s", v)
	}
	if key(t, m, tea.KeyMsg{Type: tea.KeyEscape}) {
		t.Error("esc in the help quits")
	}
	if len(screenRows(m.View())) != 4 {
		t.Errorf("esc did not close the help:\n%s", m.View())
	}
	key(t, m, runes("?"))
	key(t, m, runes("?"))
	if len(screenRows(m.View())) != 4 {
		t.Errorf("? did not close the help:\n%s", m.View())
	}
	if !key(t, m, tea.KeyMsg{Type: tea.KeyEscape}) {
		t.Error("esc does not quit")
	}
}

// TestGameDescriptors: what differs between the games on screen comes
// from their descriptors in package games: the title in the header, the
// tiles of the statistics' rates, the game played (the default when none
// is named); a name games does not know is refused with its message.
func TestGameDescriptors(t *testing.T) {
	for _, g := range games.All() {
		m := New(Config{Game: g.Name, Seed: 1, Network: "n"})
		m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
		v := m.View()
		if m.g.Game() != g.Name || !strings.Contains(lineWith(v, "td2048"), "td2048 · "+g.Title+" ") {
			t.Errorf("%s: game %q, header %q", g.Name, m.g.Game(), lineWith(v, "td2048"))
		}
		head := ""
		for _, i := range g.Rates[:3] {
			head += fmt.Sprintf(" %4d", g.Value(i))
		}
		if !strings.Contains(lineWith(v, "games"), "max"+head) {
			t.Errorf("%s: statistics head %q, want the rates%s", g.Name, lineWith(v, "games"), head)
		}
	}
	if m := New(Config{}); m.g.Game() != games.Default {
		t.Errorf("no game named: %q, want %q", m.g.Game(), games.Default)
	}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), `unknown game "chess"`) {
			t.Errorf("an unknown game: %v", r)
		}
	}()
	New(Config{Game: "chess"})
}

// A large terminal's room is used: the board's tiles grow to 11 columns
// by 5 lines, and the screen stands in the middle of the terminal, its
// margins left and right, above and below, within a column or a line of
// each other.
func TestLargeTerminalRoom(t *testing.T) {
	m := newModel(nil)
	pump(t, m, m.Init(), nil)
	for _, tm := range []struct{ w, h, cell int }{{120, 40, 11}, {200, 60, 11}, {80, 24, 7}} {
		t.Run(fmt.Sprintf("%dx%d", tm.w, tm.h), func(t *testing.T) {
			m.Update(tea.WindowSizeMsg{Width: tm.w, Height: tm.h})
			l := m.layout(tm.w, tm.h)
			if l.board.cell != tm.cell {
				t.Errorf("%dx%d: tiles %d columns wide, want %d", tm.w, tm.h, l.board.cell, tm.cell)
			}
			lines := strings.Split(m.View(), "\n")
			top, left, right := 0, tm.w, tm.w
			for top < len(lines) && lines[top] == "" {
				top++
			}
			bottom := tm.h - len(lines)
			for _, s := range lines[top:] {
				if strings.TrimSpace(s) == "" {
					continue
				}
				left = min(left, len(s)-len(strings.TrimLeft(s, " ")))
			}
			right = tm.w - left - l.width
			if d := top - bottom; d < -1 || d > 1 {
				t.Errorf("%dx%d: %d lines above the screen, %d below", tm.w, tm.h, top, bottom)
			}
			if d := left - right; d < -1 || d > 1 {
				t.Errorf("%dx%d: %d columns left of the screen, %d right", tm.w, tm.h, left, right)
			}
		})
	}
}
