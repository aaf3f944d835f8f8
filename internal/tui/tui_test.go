package tui

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/td2048/td2048/board"
	"github.com/td2048/td2048/learn"
	"github.com/td2048/td2048/ntuple"
	"github.com/td2048/td2048/rules/game2048"
	"github.com/td2048/td2048/search"
	"github.com/td2048/td2048/session"
)

var (
	netOnce sync.Once
	testNet *ntuple.Network
)

// trained is the 8x4 line network after a few hundred episodes.
func trained() *ntuple.Network {
	netOnce.Do(func() {
		testNet = ntuple.MustNew("8x4")
		learn.Train(context.Background(), testNet, learn.Config{Episodes: 300, Seed: 1, Threads: 1, Every: 300})
	})
	return testNet
}

func newModel(edit func(*Config)) *Model {
	cfg := Config{Net: trained(), Network: "8x4", Depth: 1, Seed: 7, TableBytes: 1 << 20}
	if edit != nil {
		edit(&cfg)
	}
	return New(cfg)
}

// pump runs cmd and feeds every message it makes back into m, as the
// bubbletea runtime would, one at a time, until stop says so after an
// update or nothing is left. Ticks are delivered at once, without their
// wait. It returns whether the program asked to quit.
func pump(t *testing.T, m *Model, cmd tea.Cmd, stop func() bool) bool {
	t.Helper()
	queue := []tea.Cmd{cmd}
	for steps := 0; len(queue) > 0; steps++ {
		if steps > 200000 {
			t.Fatal("the model never settles")
		}
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		msg := c()
		switch msg := msg.(type) {
		case tea.BatchMsg:
			queue = append(queue, msg...)
			continue
		case tea.QuitMsg:
			return true
		}
		_, next := m.Update(msg)
		queue = append(queue, next)
		if stop != nil && stop() {
			return false
		}
	}
	return false
}

// setBoard puts board b in place of the board of the game on screen, as
// if the game had come to it (session.Resume); the position count stays.
func setBoard(t *testing.T, m *Model, b board.Board) {
	t.Helper()
	p := m.g.Position()
	p.Board, p.Score = b, 0
	g, err := session.Resume(m.g.Game(), m.g.Seed(), m.g.Len(), p)
	if err != nil {
		t.Fatal(err)
	}
	m.g = g
}

func key(t *testing.T, m *Model, k tea.KeyMsg) bool {
	t.Helper()
	_, cmd := m.Update(k)
	return pump(t, m, cmd, nil)
}

func runes(s string) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)} }

// boardLines are the rows of tiles as the view draws them, without colour.
func boardRows(b board.Board) []string {
	var rows []string
	for r := range 4 {
		var cells []string
		for c := range 4 {
			v := board.Pow2.Value(b.At(4*r + c))
			s := "·"
			if v > 0 {
				s = fmt.Sprint(v)
			}
			cells = append(cells, s)
		}
		rows = append(rows, strings.Join(cells, " "))
	}
	return rows
}

// screenRows reads the tile rows off the screen.
func screenRows(view string) []string {
	var rows []string
	for _, line := range strings.Split(view, "\n") {
		f := strings.Fields(line)
		if len(f) < 4 {
			continue
		}
		ok := true
		for _, x := range f[:4] {
			if x != "·" && strings.Trim(x, "0123456789") != "" {
				ok = false
			}
		}
		if ok {
			rows = append(rows, strings.Join(f[:4], " "))
		}
	}
	return rows
}

func checkScreen(t *testing.T, m *Model) string {
	t.Helper()
	v := m.View()
	got, want := screenRows(v), boardRows(m.g.Board())
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("screen shows\n%s\nwant\n%s\nscreen:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"), v)
	}
	if !strings.Contains(v, fmt.Sprintf("score %d   moves %d", m.g.Score(), m.g.Len())) {
		t.Fatalf("no score line in:\n%s", v)
	}
	return v
}

func TestArrowKeysAndHints(t *testing.T) {
	m := newModel(nil)
	pump(t, m, m.Init(), nil)
	v := checkScreen(t, m)
	if m.g.Board() != game2048.Start(learn.NewRand(7, 0)) {
		t.Fatalf("start board:\n%s", m.g.Board())
	}
	if !strings.Contains(v, "★ best") || !strings.Contains(v, "move values, depth 1") {
		t.Fatalf("no hint:\n%s", v)
	}
	moved := 0
	for _, k := range []tea.KeyType{tea.KeyLeft, tea.KeyUp, tea.KeyRight, tea.KeyDown, tea.KeyLeft, tea.KeyUp} {
		before, n := m.g.Board(), m.g.Len()
		after, _, legal := game2048.Move(before, map[tea.KeyType]int{tea.KeyUp: 0, tea.KeyRight: 1, tea.KeyDown: 2, tea.KeyLeft: 3}[k])
		key(t, m, tea.KeyMsg{Type: k})
		if !legal {
			if m.g.Board() != before || m.g.Len() != n || !strings.Contains(m.View(), "does not move anything") {
				t.Fatalf("an illegal key changed the game:\n%s", m.View())
			}
			continue
		}
		moved++
		if want := game2048.Spawn(after, learn.NewRand(7, uint64(n+1))); m.g.Board() != want || m.g.Len() != n+1 {
			t.Fatalf("after %v: board\n%s\nwant\n%s", k, m.g.Board(), want)
		}
		checkScreen(t, m)
	}
	if moved == 0 {
		t.Fatal("no key moved")
	}
	// The hint is for the board on screen, with four values as search
	// gives them and the best one marked.
	v = m.View()
	values := search.NewSearcher(trained(), search.Options{Depth: 1}, nil).Values(m.g.Board(), 1)
	best := -1
	for d, mv := range values {
		line := lineWith(v, arrows[d])
		want := "illegal"
		if mv.Legal {
			want = fmt.Sprintf("%.1f", mv.Total)
			if best < 0 || mv.Total > values[best].Total {
				best = d
			}
		}
		if !strings.Contains(line, want) {
			t.Errorf("%s: line %q, want %s", arrows[d], line, want)
		}
	}
	if !strings.Contains(lineWith(v, arrows[best]), "★ best") || strings.Count(v, "★ best") != 1 {
		t.Errorf("best %s not marked alone:\n%s", arrows[best], v)
	}
	// Depth keys change the hint's depth; t turns hints off and on.
	key(t, m, runes("3"))
	if v := m.View(); !strings.Contains(v, "move values, depth 3") || !strings.Contains(v, "★ best") {
		t.Errorf("depth 3:\n%s", v)
	}
	key(t, m, runes("t"))
	if v := m.View(); !strings.Contains(v, "hints off") || strings.Contains(v, "★") {
		t.Errorf("hints off:\n%s", v)
	}
	key(t, m, runes("t"))
	if !strings.Contains(m.View(), "★ best") {
		t.Error("hints back on: no best")
	}
}

func lineWith(view, s string) string {
	for _, l := range strings.Split(view, "\n") {
		if strings.Contains(l, s) {
			return l
		}
	}
	return ""
}

func TestAutoplayToGameOver(t *testing.T) {
	m := newModel(func(c *Config) { c.Speed = len(Speeds) - 1 })
	pump(t, m, m.Init(), nil)
	if !strings.Contains(m.View(), "agent: paused, full speed") {
		t.Fatalf("not paused at full speed:\n%s", m.View())
	}
	// Space starts the agent; it plays until the game ends.
	_, cmd := m.Update(tea.KeyMsg{Type: tea.KeySpace})
	if !m.playing || !strings.Contains(m.View(), "agent: playing") {
		t.Fatalf("space did not start the agent:\n%s", m.View())
	}
	pump(t, m, cmd, func() bool { return m.g.Len() >= 30 })
	checkScreen(t, m)
	pump(t, m, nil, nil)
	pump(t, m, m.next(0), func() bool { return m.g.Over() })
	if !m.g.Over() || m.g.Len() < 30 {
		t.Fatalf("game not over after %d moves", m.g.Len())
	}
	v := checkScreen(t, m)
	if !strings.Contains(v, fmt.Sprintf("GAME OVER: score %d in %d moves", m.g.Score(), m.g.Len())) {
		t.Fatalf("no game over screen:\n%s", v)
	}
	agent, you := m.Stats()
	if agent.Games != 1 || you.Games != 0 || agent.Sum != int64(m.g.Score()) {
		t.Fatalf("stats: agent %+v you %+v", agent, you)
	}
	if !strings.Contains(lineWith(v, "agent  "), fmt.Sprintf("%d", m.g.Score())) {
		t.Errorf("stats line: %q", lineWith(v, "agent  "))
	}
	// Paused, it stays put; n starts a new game.
	key(t, m, tea.KeyMsg{Type: tea.KeySpace})
	if m.playing {
		// Space on a finished game with the agent playing pauses it.
		t.Fatal("still playing")
	}
	key(t, m, runes("n"))
	if m.g.Over() || m.g.Len() != 0 || !strings.Contains(m.View(), "moves 0") {
		t.Fatalf("new game:\n%s", m.View())
	}
}

func TestStepSpeedAndQuit(t *testing.T) {
	m := newModel(func(c *Config) { c.Depth = 2 })
	pump(t, m, m.Init(), nil)
	for range 3 {
		n := m.g.Len()
		key(t, m, runes("s"))
		if m.g.Len() != n+1 || m.playing {
			t.Fatalf("step: %d moves, playing %v", m.g.Len(), m.playing)
		}
	}
	checkScreen(t, m)
	// The person's move makes the game theirs in the statistics.
	before := m.g.Board()
	for _, k := range []tea.KeyType{tea.KeyLeft, tea.KeyRight, tea.KeyUp, tea.KeyDown} {
		key(t, m, tea.KeyMsg{Type: k})
		if m.g.Board() != before {
			break
		}
	}
	if m.byAgent {
		t.Error("a game with the person's move counts as the agent's")
	}
	if !strings.Contains(m.View(), "120ms per move") {
		t.Fatalf("speed:\n%s", m.View())
	}
	key(t, m, runes("+"))
	key(t, m, runes("+"))
	if !strings.Contains(m.View(), "20ms per move") {
		t.Errorf("faster:\n%s", m.View())
	}
	for range 10 {
		key(t, m, runes("-"))
	}
	if !strings.Contains(m.View(), "1s per move") {
		t.Errorf("slowest:\n%s", m.View())
	}
	// An arrow pauses the agent.
	_, cmd := m.Update(tea.KeyMsg{Type: tea.KeySpace})
	if !m.playing {
		t.Fatal("not playing")
	}
	_ = cmd // its tick is not delivered: the arrow comes first
	key(t, m, tea.KeyMsg{Type: tea.KeyLeft})
	if m.playing {
		t.Error("an arrow did not pause the agent")
	}
	if !key(t, m, runes("q")) {
		t.Error("q does not quit")
	}
	if !key(t, m, tea.KeyMsg{Type: tea.KeyCtrlC}) {
		t.Error("ctrl+c does not quit")
	}
}

// TestStaleAnswers: a search answer for a board no longer on screen is
// not applied.
func TestStaleAnswers(t *testing.T) {
	m := newModel(nil)
	pump(t, m, m.Init(), nil)
	old := m.g.Board()
	think := m.think(true)
	for _, k := range []tea.KeyType{tea.KeyLeft, tea.KeyRight, tea.KeyUp, tea.KeyDown} {
		key(t, m, tea.KeyMsg{Type: k})
		if m.g.Board() != old {
			break
		}
	}
	b, n := m.g.Board(), m.g.Len()
	m.Update(think())
	if m.g.Board() != b || m.g.Len() != n {
		t.Error("a stale move was played")
	}
	m.Update(hintMsg{old, [4]search.MoveValue{{Legal: true, Total: 1e9}}})
	if strings.Contains(m.View(), "1000000000") {
		t.Error("a stale hint is shown")
	}
}

// TestPast32768: the slide that merges two 32768s scores 65536 and the
// game goes on: the screen shows the 65536, another key moves, and the
// statistics count a game whose best tile is 65536 when it ends.
func TestPast32768(t *testing.T) {
	m := newModel(nil)
	key(t, m, runes("t")) // no values: nothing searches
	for _, k := range []tea.KeyType{tea.KeyLeft, tea.KeyRight, tea.KeyUp, tea.KeyDown} {
		if key(t, m, tea.KeyMsg{Type: k}); m.g.Len() > 0 {
			break
		}
	}
	b := board.Board(0).Set(0, 15).Set(1, 15).Set(4, 1) // 32768 32768 in the top row, a 2 under them
	setBoard(t, m, b)
	n, score := m.g.Len(), m.g.Score()
	key(t, m, tea.KeyMsg{Type: tea.KeyLeft})
	if m.g.Over() || m.g.Len() != n+1 || m.g.Score() != score+65536 || !strings.Contains(m.View(), "65536") {
		t.Fatalf("after the 65536 merge: over %v, %d moves, score %d, screen\n%s", m.g.Over(), m.g.Len(), m.g.Score(), m.View())
	}
	key(t, m, tea.KeyMsg{Type: tea.KeyRight})
	if m.g.Len() != n+2 || !strings.Contains(m.View(), "65536") {
		t.Errorf("a key after the 65536 did not move:\n%s", m.View())
	}
	if m.g.MaxTile() != 16 {
		t.Errorf("best tile index %d", m.g.MaxTile())
	}
}

// The header shows the seed the user gave for the first game, and the
// next for each new game: the seed that replays it (session.New).
func TestHeaderShowsGivenSeed(t *testing.T) {
	m := newModel(func(c *Config) { c.Seed = 42 })
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	if v := m.View(); !strings.Contains(v, "game seed 42") {
		t.Fatalf("first game:\n%s", v)
	}
	m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("n")})
	g, err := session.New(session.Game2048, 43)
	if err != nil {
		t.Fatal(err)
	}
	if v := m.View(); !strings.Contains(v, "game seed 43") || m.g.Board() != g.Board() {
		t.Fatalf("second game: board %v, want %v:\n%s", m.g.Board(), g.Board(), v)
	}
}

// With Config.Downgrade every move played counts the downgrades under way
// (search.Downgrade.After on the board it was decided on), a new game
// starts at none, and the searches value the board lowered by them.
func TestDowngrades(t *testing.T) {
	dg := search.Downgrade{Tile: 8, Stint: 0}
	m := newModel(func(c *Config) { c.Downgrade, c.Threads = dg, 2 })
	key(t, m, runes("t")) // no values: nothing searches
	b := board.FromCells([16]int{2, 2, 3, 0, 1})
	setBoard(t, m, b)
	key(t, m, tea.KeyMsg{Type: tea.KeyLeft})
	if m.downgrades != 1 || m.downgrades != dg.After(0, b, game2048.Left) {
		t.Fatalf("%d downgrades after 4 4 8 left from 8 on", m.downgrades)
	}
	mv := m.search(1, 0, func(mv [4]search.MoveValue, _ int) tea.Msg { return hintMsg{values: mv} })().(hintMsg).values
	p := m.g.Position()
	p.Downgrades = 1
	want := search.NewSearcher(trained(), search.Options{Depth: 1}, nil).Values(p.View(), 1)
	if mv != want {
		t.Fatalf("values %+v, want those of the lowered board %+v", mv, want)
	}
	m.newGame()
	if m.downgrades != 0 {
		t.Fatal("a new game keeps the last one's downgrades")
	}
}
