package tui

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/td2048/td2048/ntuple"
	"github.com/td2048/td2048/session"
)

// quits reports whether running cmd (and the commands it batches) asks
// the program to quit.
func quits(cmd tea.Cmd) bool {
	if cmd == nil {
		return false
	}
	switch msg := cmd().(type) {
	case tea.QuitMsg:
		return true
	case tea.BatchMsg:
		for _, c := range msg {
			if quits(c) {
				return true
			}
		}
	}
	return false
}

// TestKeyBursts: keys typed together reach the view as one message with
// several runes ("++++q"); each one counts, in order, and a q among them
// quits, also while the agent's search runs.
func TestKeyBursts(t *testing.T) {
	m := newModel(func(c *Config) { c.Speed = 1; c.Depth = 4 })
	pump(t, m, m.Init(), nil)
	_, cmd := m.Update(tea.KeyMsg{Type: tea.KeySpace})
	_, think := m.Update(cmd())
	if !m.thinking || think == nil {
		t.Fatal("the agent is not thinking")
	}
	b, n := m.g.Board(), m.g.Len()
	_, cmd = m.Update(runes("++++q"))
	if m.speed != 5 || !strings.Contains(m.View(), "20ms per move") {
		t.Errorf("speed %d after ++++ from 1:\n%s", m.speed, m.View())
	}
	if !quits(cmd) {
		t.Fatal(`"++++q" does not quit`)
	}
	// The search under way is dropped: it does not run if it has not
	// begun, and its answer moves nothing.
	if msg := think(); msg != nil {
		m.Update(msg)
	}
	if m.g.Board() != b || m.g.Len() != n {
		t.Error("the agent moved after q")
	}
	m.Wait() // no search runs: the one asked for never began

	for _, s := range []string{"qq", "xq", "q+"} {
		m := newModel(nil)
		pump(t, m, m.Init(), nil)
		if _, cmd := m.Update(runes(s)); !quits(cmd) {
			t.Errorf("%q does not quit", s)
		}
	}

	// Moves typed together are played in order: "kh" is up, then left.
	one, two := newModel(nil), newModel(nil)
	pump(t, one, one.Init(), nil)
	pump(t, two, two.Init(), nil)
	key(t, one, runes("k"))
	key(t, one, runes("h"))
	key(t, two, runes("kh"))
	if one.g.Board() != two.g.Board() || one.g.Len() != two.g.Len() || one.g.Len() == 0 {
		t.Errorf("kh: %d moves\n%s\nwant %d\n%s", two.g.Len(), two.g.Board(), one.g.Len(), one.g.Board())
	}
	// Depth and values keys too: "3t" sets depth 3 and hides the values.
	key(t, two, runes("3t"))
	if v := two.View(); !strings.Contains(v, "hints off") || two.depth != 3 {
		t.Errorf("3t: depth %d\n%s", two.depth, v)
	}
}

// TestStopCountsSearches: Wait waits for the searches under way, and
// after Stop none starts.
func TestStopCountsSearches(t *testing.T) {
	m := newModel(nil)
	if !m.run.begin() {
		t.Fatal("a search cannot begin")
	}
	m.Stop()
	waited := make(chan struct{})
	go func() { m.Wait(); close(waited) }()
	select {
	case <-waited:
		t.Fatal("Wait returned while a search runs")
	default:
	}
	m.run.end()
	<-waited
	setBoard(t, m, m.g.Board().Set(0, 0).Set(1, 1)) // another board, so that a hint is due
	m.hintOK = false
	if cmd := m.askHint(); cmd != nil {
		if msg := cmd(); msg != nil {
			t.Errorf("a search ran after Stop: %T", msg)
		}
	}
}

// TestQuitCutsSearchesShort: q cuts short the searches under way, however
// deep, in both games: Wait returns once they have ended, and from then
// on none reads the network, which is freed (its weights unmapped, so
// that a read would fault).
func TestQuitCutsSearchesShort(t *testing.T) {
	for _, c := range []struct{ game, spec string }{{session.Game2048, "8x4"}, {session.GameThrees, "0123,4567,89ab,cdef+hint"}} {
		t.Run(c.game, func(t *testing.T) {
			net := ntuple.MustNew(c.spec)
			net.Optimistic(1000) // weights not 0, as if trained
			m := New(Config{Net: net, Game: c.game, Seed: 3, TableBytes: 1 << 20})
			m.depth = 9 // deeper than any search finishes in a test's time
			hint := m.askHint()
			answer := make(chan tea.Msg, 1)
			go func() { answer <- hint() }()
			for begun := false; !begun; {
				time.Sleep(time.Millisecond)
				m.run.mu.Lock()
				begun = m.run.running > 0
				m.run.mu.Unlock()
			}
			if _, cmd := m.Update(runes("q")); !quits(cmd) {
				t.Fatalf("%s: q does not quit", c.game)
			}
			waited := make(chan struct{})
			go func() { m.Wait(); close(waited) }()
			select {
			case <-waited:
			case <-time.After(time.Minute):
				t.Fatalf("%s: a search runs on a minute after q", c.game)
			}
			net.Free()
			if msg := <-answer; msg != nil {
				t.Errorf("%s: a search cut short answered %T", c.game, msg)
			}
		})
	}
}
