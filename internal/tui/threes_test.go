package tui

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/td2048/td2048/board"
	"github.com/td2048/td2048/learn"
	"github.com/td2048/td2048/ntuple"
	"github.com/td2048/td2048/rules/threes"
	"github.com/td2048/td2048/search"
	"github.com/td2048/td2048/session"
)

var (
	threesOnce sync.Once
	threesNet  *ntuple.Network
)

// trainedThrees is a small Threes! network (four lines, one table set per
// hint) after a few hundred episodes.
func trainedThrees() *ntuple.Network {
	threesOnce.Do(func() {
		threesNet = ntuple.MustNew("0123,4567,89ab,cdef+hint")
		if _, _, err := learn.TrainThrees(context.Background(), threesNet, learn.Config{Episodes: 300, Seed: 1, Threads: 1, Every: 100}); err != nil {
			panic(err)
		}
	})
	return threesNet
}

func newThreesModel(edit func(*Config)) *Model {
	cfg := Config{Net: trainedThrees(), Game: session.GameThrees, Network: "lines+hint", Depth: 1, Seed: 7, TableBytes: 1 << 20}
	if edit != nil {
		edit(&cfg)
	}
	return New(cfg)
}

// threesRows are the rows of tiles as the view should draw them.
func threesRows(b board.Board) []string {
	var rows []string
	for r := range 4 {
		var cells []string
		for c := range 4 {
			s := "·"
			if v := threes.Value(b.At(4*r + c)); v > 0 {
				s = fmt.Sprint(v)
			}
			cells = append(cells, s)
		}
		rows = append(rows, strings.Join(cells, " "))
	}
	return rows
}

func checkThreesScreen(t *testing.T, m *Model) string {
	t.Helper()
	v := m.View()
	got, want := screenRows(v), threesRows(m.g.Board())
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("screen shows\n%s\nwant\n%s\nscreen:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"), v)
	}
	hint := m.g.Next()
	line := lineWith(v, "next tile ")
	if !strings.Contains(line, fmt.Sprintf("score %d   moves %d   best tile %d   next tile ", m.g.Score(), m.g.Len(), threes.Value(m.g.Board().MaxTile()))) ||
		strings.Fields(strings.SplitN(line, "next tile ", 2)[1])[0] != fmt.Sprint(hint) {
		t.Fatalf("no score line with the next tile %d in:\n%s", hint, v)
	}
	if m.g.Score() != threes.BoardScore(m.g.Board()) {
		t.Fatalf("score %d, the board is worth %d", m.g.Score(), threes.BoardScore(m.g.Board()))
	}
	if !strings.Contains(v, "Threes!") {
		t.Fatalf("no Threes! title:\n%s", v)
	}
	return v
}

// TestThreesArrowKeysAndHints plays Threes! with the arrow keys: each
// legal slide places the hinted tile on the edge opposite it, as the
// move's random stream says, and the hint shows the searcher's values.
func TestThreesArrowKeysAndHints(t *testing.T) {
	m := newThreesModel(nil)
	pump(t, m, m.Init(), nil)
	seed := uint64(7)
	g := threes.Start(learn.NewRand(seed, 0))
	if m.g.Game() != session.GameThrees || m.g.Board() != g.Board {
		t.Fatalf("start board:\n%s", m.g.Board().Format(threes.Code))
	}
	if hint, bag := m.g.Next(), m.g.Bag(); hint != g.Next || bag != g.Bag {
		t.Fatalf("next tile %d bag %v, want %d %v", hint, bag, g.Next, g.Bag)
	}
	v := checkThreesScreen(t, m)
	if !strings.Contains(v, "★ best") || !strings.Contains(v, "move values, depth 1") {
		t.Fatalf("no hint:\n%s", v)
	}
	if !strings.Contains(lineWith(v, "games"), "1536") || !strings.Contains(lineWith(v, "games"), "3072") || !strings.Contains(lineWith(v, "games"), "6144") {
		t.Errorf("statistics head: %q", lineWith(v, "games"))
	}
	moved := 0
	keys := map[tea.KeyType]int{tea.KeyUp: threes.Up, tea.KeyRight: threes.Right, tea.KeyDown: threes.Down, tea.KeyLeft: threes.Left}
	for _, k := range []tea.KeyType{tea.KeyLeft, tea.KeyUp, tea.KeyRight, tea.KeyDown, tea.KeyLeft, tea.KeyUp, tea.KeyDown, tea.KeyLeft} {
		before, n, hint := m.g.Board(), m.g.Len(), g.Next
		d := keys[k]
		after, _, legal := threes.Move(before, d)
		key(t, m, tea.KeyMsg{Type: k})
		if !legal {
			if m.g.Board() != before || m.g.Len() != n || !strings.Contains(m.View(), "does not move anything") {
				t.Fatalf("an illegal key changed the game:\n%s", m.View())
			}
			continue
		}
		moved++
		g.SlideTo(after, d)
		pos, tile, _ := g.PlaceRandom(learn.NewRand(seed, uint64(n+1)))
		if m.g.Board() != g.Board || m.g.Len() != n+1 || tile != hint || m.spawn != pos {
			t.Fatalf("after %v: board\n%s\nwant\n%s", k, m.g.Board().Format(threes.Code), g.Board.Format(threes.Code))
		}
		if !slices.Contains(threes.EdgeCells(d), pos) || after.At(pos) != 0 {
			t.Fatalf("after %v: tile on cell %d", k, pos)
		}
		if h, bag := m.g.Next(), m.g.Bag(); h != g.Next || bag != g.Bag {
			t.Fatalf("after %v: next %d bag %v, want %d %v", k, h, bag, g.Next, g.Bag)
		}
		checkThreesScreen(t, m)
	}
	if moved == 0 {
		t.Fatal("no key moved")
	}
	// The hint is for the position on screen, with the searcher's values.
	v = m.View()
	tg := m.g.Position().ThreesGame()
	values := search.NewThrees(trainedThrees(), search.Options{Depth: 1}, nil).Values(&tg, 1)
	best := -1
	for d, mv := range values {
		line := lineWith(v, arrows[d])
		want := "illegal"
		if mv.Legal {
			want = fmt.Sprintf("%.1f", mv.Total)
			if best < 0 || mv.Total > values[best].Total {
				best = d
			}
			if mv.Reward > 0 {
				want += fmt.Sprintf("  (+%d)", mv.Reward)
			}
		}
		if !strings.Contains(line, want) {
			t.Errorf("%s: line %q, want %s", arrows[d], line, want)
		}
	}
	if !strings.Contains(lineWith(v, arrows[best]), "★ best") || strings.Count(v, "★ best") != 1 {
		t.Errorf("best %s not marked alone:\n%s", arrows[best], v)
	}
	// Depth 3: the searcher's depth-3 values.
	key(t, m, runes("3"))
	v = m.View()
	values = search.NewThrees(trainedThrees(), search.Options{Depth: 3}, nil).Values(&tg, 3)
	if !strings.Contains(v, "move values, depth 3") {
		t.Fatalf("depth 3:\n%s", v)
	}
	for d, mv := range values {
		if mv.Legal && !strings.Contains(lineWith(v, arrows[d]), fmt.Sprintf("%.1f", mv.Total)) {
			t.Errorf("depth 3 %s: %q, want %.1f", arrows[d], lineWith(v, arrows[d]), mv.Total)
		}
	}
	// A hint for this board but an older position (another game's) is
	// not shown.
	b := m.g.Board()
	m.hintBusy, m.hintOK, m.hintPos = true, false, m.pos // a hint under way for this position
	m.Update(runes("n"))
	setBoard(t, m, b) // the same board in the new game
	_, cmd := m.Update(hintMsg{b, [4]search.MoveValue{{Legal: true, Total: 1e9}}})
	if strings.Contains(m.View(), "1000000000") {
		t.Error("a stale hint is shown")
	}
	if pump(t, m, cmd, nil); !strings.Contains(m.View(), "★ best") {
		t.Errorf("no hint for the new game:\n%s", m.View())
	}
}

// TestThreesAutoplayToGameOver: the agent plays a Threes! game to its end;
// the game over screen shows the score, the statistics count the game.
func TestThreesAutoplayToGameOver(t *testing.T) {
	m := newThreesModel(func(c *Config) { c.Speed = len(Speeds) - 1; c.Depth = 2 })
	pump(t, m, m.Init(), nil)
	_, cmd := m.Update(tea.KeyMsg{Type: tea.KeySpace})
	if !m.playing || !strings.Contains(m.View(), "agent: playing") {
		t.Fatalf("space did not start the agent:\n%s", m.View())
	}
	pump(t, m, cmd, func() bool { return m.g.Len() >= 10 })
	checkThreesScreen(t, m)
	pump(t, m, nil, nil)
	pump(t, m, m.next(0), func() bool { return m.g.Over() })
	if !m.g.Over() || m.g.Len() < 10 {
		t.Fatalf("game not over after %d moves", m.g.Len())
	}
	v := checkThreesScreen(t, m)
	if !strings.Contains(v, fmt.Sprintf("GAME OVER: score %d in %d moves, best tile %d", m.g.Score(), m.g.Len(), threes.Value(m.g.Board().MaxTile()))) {
		t.Fatalf("no game over screen:\n%s", v)
	}
	if !threes.Over(m.g.Board()) {
		t.Fatalf("a slide is still legal:\n%s", m.g.Board().Format(threes.Code))
	}
	agent, you := m.Stats()
	if agent.Games != 1 || you.Games != 0 || agent.Sum != int64(m.g.Score()) || agent.MaxScore != m.g.Score() {
		t.Fatalf("stats: agent %+v you %+v", agent, you)
	}
	if !strings.Contains(lineWith(v, "agent  "), fmt.Sprint(m.g.Score())) {
		t.Errorf("stats line: %q", lineWith(v, "agent  "))
	}
	key(t, m, tea.KeyMsg{Type: tea.KeySpace})
	if m.playing {
		t.Fatal("still playing")
	}
	key(t, m, runes("n"))
	if m.g.Over() || m.g.Len() != 0 || !strings.Contains(m.View(), "moves 0") {
		t.Fatalf("new game:\n%s", m.View())
	}
	checkThreesScreen(t, m)
	// One step is one slide.
	key(t, m, runes("s"))
	if m.g.Len() != 1 || m.playing {
		t.Fatalf("step: %d moves", m.g.Len())
	}
	checkThreesScreen(t, m)
}

// TestAgentMoveTime: without a move time the agent searches at its depth;
// with one, the deadline is hard: a budget of nothing still gives a move,
// by the deepest search that finished, short of the depth. In both the
// move is the best of the searcher's values at the depth reported.
func TestAgentMoveTime(t *testing.T) {
	for _, g := range []string{session.Game2048, session.GameThrees} {
		for _, c := range []struct {
			depth int
			time  time.Duration
		}{{3, 0}, {4, 1}} {
			t.Run(fmt.Sprintf("depth %d time %v", c.depth, c.time), func(t *testing.T) {
				edit := func(cfg *Config) { cfg.Depth, cfg.MoveTime, cfg.TableBytes = c.depth, c.time, 0 }
				m := newModel(edit)
				if g == session.GameThrees {
					m = newThreesModel(edit)
				}
				msg := m.think(true)().(agentMsg)
				if c.time == 0 && msg.depth != c.depth || c.time > 0 && (msg.depth < 1 || msg.depth >= c.depth) {
					t.Errorf("%s, depth %d, move time %v: searched to depth %d", g, c.depth, c.time, msg.depth)
				}
				var want search.Choice
				if g == session.GameThrees {
					tg := m.g.Position().ThreesGame()
					want = search.NewThrees(trainedThrees(), search.Options{Depth: msg.depth}, nil).Best(&tg)
				} else {
					want = search.NewSearcher(trained(), search.Options{Depth: msg.depth}, nil).Best(m.g.Board())
				}
				if !msg.choice.Legal() || msg.choice != want {
					t.Errorf("%s, depth %d, move time %v: %+v, want %+v at depth %d", g, c.depth, c.time, msg.choice, want, msg.depth)
				}
			})
		}
	}
}
