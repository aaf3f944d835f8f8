// Package tui is td2048's terminal face: a bubbletea model that lets a
// trained network play 2048 or Threes! at an adjustable speed, or lets a
// person play with the arrow keys while it shows the value of each move,
// the best one marked.
//
// Searches run as commands, off the update loop, so the screen answers
// keys while the network thinks; each search has its own Searcher and all
// share one transposition table. q quits at once: the searches under way
// are dropped and no other begins. The random tile after move n of the
// game with seed s comes from learn.NewRand(s, n+1) (the start from
// stream 0), as on the web page, so a game can be replayed from its seed.
// In Threes! that stream places the hinted tile on a free cell of the edge
// opposite the slide and draws the next hint from the bag
// (threes.Game.PlaceRandom).
package tui

import (
	"fmt"
	"strings"
	"sync"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/td2048/td2048/board"
	"github.com/td2048/td2048/game"
	"github.com/td2048/td2048/game/threes"
	"github.com/td2048/td2048/learn"
	"github.com/td2048/td2048/ntuple"
	"github.com/td2048/td2048/search"
	"github.com/td2048/td2048/stats"
	"github.com/td2048/td2048/threeslearn"
)

// Games the model plays.
const (
	Game2048   = "2048"
	GameThrees = "threes"
)

// MaxDepth is the deepest search the view offers.
const MaxDepth = 4

// Speeds are the delays between the agent's moves, slowest first.
var Speeds = []time.Duration{time.Second, 500 * time.Millisecond, 250 * time.Millisecond,
	120 * time.Millisecond, 60 * time.Millisecond, 20 * time.Millisecond, 0}

// Config configures a Model.
type Config struct {
	Net *ntuple.Network
	// Game is the game of the network: Game2048 (also when empty) or
	// GameThrees (an after-state network that passes
	// threeslearn.CheckSpec).
	Game    string
	Kind    search.Kind
	Network string // shown in the title
	// Depth is the starting search depth of the agent and the hints (1 to
	// MaxDepth; 0 means 1).
	Depth int
	// MoveTime, when positive, bounds the agent's search per move: it
	// deepens up to Depth within it.
	MoveTime time.Duration
	// TableBytes sizes the transposition table (0: none).
	TableBytes int64
	// Seed decides the games: game g of the session has seed
	// learn.Mix(Seed, g).
	Seed uint64
	// Auto starts with the agent playing.
	Auto bool
	// Speed is the index in Speeds to start at (0 means 3, 120ms).
	Speed int
}

// Model is the state of the view; it implements tea.Model.
type Model struct {
	cfg Config
	tt  *search.Table

	threes   bool
	game     int // games begun
	seed     uint64
	b        board.Board
	hint     int        // Threes!: the next tile
	bag      threes.Bag // Threes!: the tiles not yet drawn
	pos      int        // counts the positions shown; an answer for an older one is stale
	n        int        // moves made
	score    int
	over     bool
	overflow bool
	byAgent  bool // every move of this game was the agent's
	spawn    int  // cell of the last new tile, -1 for none

	playing  bool
	loop     int // the autoplay loop's generation; old ticks are dropped
	thinking bool
	speed    int
	depth    int

	hints    bool
	hintFor  board.Board
	hintPos  int // the position the hint under way or shown is for
	hintOK   bool
	hintVals [4]search.MoveValue // Threes!: Reward is the plain reward
	hintBusy bool

	agent, you stats.Block
	status     string
	width      int

	quitting bool
	run      searches
}

// searches counts the searches under way; once stopped, none begins.
type searches struct {
	mu      sync.Mutex
	stopped bool
	running int
}

// begin counts a search that begins, unless the searches are stopped.
func (s *searches) begin() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopped {
		return false
	}
	s.running++
	return true
}

func (s *searches) end() {
	s.mu.Lock()
	s.running--
	s.mu.Unlock()
}

// stop lets no search begin; it reports whether none runs.
func (s *searches) stop() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stopped = true
	return s.running == 0
}

// Messages.
type (
	tickMsg  struct{ loop int }
	agentMsg struct {
		b      board.Board
		pos    int
		choice search.Choice // Threes!: Reward is the plain reward
		depth  int
		step   bool
	}
	hintMsg struct {
		b      board.Board
		values [4]search.MoveValue
	}
)

// New returns a model with a new game.
func New(cfg Config) *Model {
	if cfg.Depth < 1 {
		cfg.Depth = 1
	}
	cfg.Depth = min(cfg.Depth, MaxDepth)
	if cfg.Speed <= 0 || cfg.Speed >= len(Speeds) {
		cfg.Speed = 3
	}
	if cfg.Network == "" && cfg.Net != nil {
		cfg.Network = cfg.Net.Spec().String()
	}
	m := &Model{cfg: cfg, speed: cfg.Speed, depth: cfg.Depth, hints: true, threes: cfg.Game == GameThrees}
	if cfg.TableBytes > 0 {
		m.tt = search.NewTable(cfg.TableBytes)
	}
	m.newGame()
	return m
}

func (m *Model) newGame() {
	m.seed = learn.Mix(m.cfg.Seed, uint64(m.game))
	m.game++
	m.pos++
	m.n, m.score, m.over, m.overflow, m.byAgent, m.spawn = 0, 0, false, false, true, -1
	m.hintOK = false
	if m.threes {
		g := threes.Start(learn.NewRand(m.seed, 0))
		m.b, m.hint, m.bag = g.Board, g.Hint, g.Bag
		m.score = threes.BoardScore(m.b) // the opening's 3s count
		m.over = threes.Over(m.b)
		return
	}
	m.b = game.Start(learn.NewRand(m.seed, 0))
}

// threesGame is the Threes! game on screen, a slide being due.
func (m *Model) threesGame() threes.Game {
	return threes.Game{Board: m.b, Hint: m.hint, Bag: m.bag, Last: threes.Anywhere, Actions: threes.OpeningTiles}
}

// Game is the game played: Game2048 or GameThrees.
func (m *Model) Game() string {
	if m.threes {
		return GameThrees
	}
	return Game2048
}

// Next is the next tile of a Threes! game (0 in 2048); Bag the tiles not
// yet drawn.
func (m *Model) Next() (hint int, bag threes.Bag) { return m.hint, m.bag }

// Board returns the board on screen; Moves and Score the game's counts.
func (m *Model) Board() board.Board { return m.b }

// Moves is the number of moves made in the game on screen.
func (m *Model) Moves() int { return m.n }

// Score is the score of the game on screen.
func (m *Model) Score() int { return m.score }

// Over reports whether the game on screen has ended.
func (m *Model) Over() bool { return m.over }

// Playing reports whether the agent plays on its own.
func (m *Model) Playing() bool { return m.playing }

// Stats returns the finished games of the session: the agent's alone, and
// those the person had a hand in.
func (m *Model) Stats() (agent, you stats.Block) { return m.agent, m.you }

// Init starts the agent when configured to, and the first hint.
func (m *Model) Init() tea.Cmd {
	var cmds []tea.Cmd
	if m.cfg.Auto {
		cmds = append(cmds, m.setPlaying(true))
	}
	cmds = append(cmds, m.askHint())
	return tea.Batch(cmds...)
}

// Stop ends the model's searches as far as they can be ended, as q does:
// none begins after it and the answers of those under way are dropped. A
// search cannot be cut short, so one may still run on; Stop reports
// whether none does, for the network must not be freed under a search.
func (m *Model) Stop() (idle bool) {
	m.quitting, m.playing = true, false
	return m.run.stop()
}

// Update handles keys and the results of searches and ticks.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if m.quitting {
		// Answers and ticks that come after q are dropped; a key quits again.
		if _, ok := msg.(tea.KeyMsg); ok {
			return m, tea.Quit
		}
		return m, nil
	}
	switch msg := msg.(type) {
	case tea.KeyMsg:
		return m, m.keys(msg)
	case tea.WindowSizeMsg:
		m.width = msg.Width
	case tickMsg:
		if msg.loop != m.loop || !m.playing || m.thinking {
			return m, nil
		}
		if m.over {
			m.newGame()
			return m, tea.Batch(m.askHint(), m.next(0))
		}
		m.thinking = true
		return m, m.think(false)
	case agentMsg:
		m.thinking = false
		if !msg.step && !m.playing {
			return m, nil // paused while it thought
		}
		if msg.b != m.b || msg.pos != m.pos || m.over {
			return m, m.next(0) // the board changed meanwhile: think again
		}
		if !msg.choice.Legal() {
			m.finish()
			return m, m.next(m.pauseAfterGame())
		}
		cmd := m.apply(msg.choice.Dir, true)
		if msg.step {
			return m, cmd
		}
		delay := Speeds[m.speed]
		if m.over {
			delay = m.pauseAfterGame()
		}
		return m, tea.Batch(cmd, m.next(delay))
	case hintMsg:
		m.hintBusy = false
		if msg.b == m.b && m.hintPos == m.pos {
			m.hintFor, m.hintVals, m.hintOK = msg.b, msg.values, true
			return m, nil
		}
		return m, m.askHint() // a newer board waits for its hint
	}
	return m, nil
}

func (m *Model) pauseAfterGame() time.Duration {
	return min(1500*time.Millisecond, max(300*time.Millisecond, 3*Speeds[m.speed]))
}

// next schedules the agent's next move of the current loop.
func (m *Model) next(delay time.Duration) tea.Cmd {
	if !m.playing {
		return nil
	}
	loop := m.loop
	if delay <= 0 {
		return func() tea.Msg { return tickMsg{loop} }
	}
	return tea.Tick(delay, func(time.Time) tea.Msg { return tickMsg{loop} })
}

func (m *Model) setPlaying(on bool) tea.Cmd {
	if m.playing == on {
		return nil
	}
	m.playing = on
	m.loop++
	if on {
		return m.next(0)
	}
	return nil
}

// think searches the agent's move on the current board.
func (m *Model) think(step bool) tea.Cmd {
	b, depth, pos, run := m.b, m.depth, m.pos, &m.run
	if m.threes {
		g := m.threesGame()
		s := threeslearn.NewSearcher(m.cfg.Net, threeslearn.Options{Depth: depth}, m.tt)
		budget := m.cfg.MoveTime
		return func() tea.Msg {
			if !run.begin() {
				return nil
			}
			defer run.end()
			mv, d := deepen(depth, budget, func(depth int) [4]search.MoveValue { return threesValues(s, &g, depth) })
			c := search.NoMove
			if best := bestMove(&mv); best >= 0 {
				c = search.Choice{Dir: best, After: mv[best].After, Reward: mv[best].Reward, Value: mv[best].Total}
			}
			return agentMsg{b, pos, c, d, step}
		}
	}
	opt := search.Options{Depth: depth, Kind: m.cfg.Kind}
	if depth > 1 {
		opt.MoveTime = m.cfg.MoveTime
	}
	s := search.NewSearcher(m.cfg.Net, opt, m.tt)
	return func() tea.Msg {
		if !run.begin() {
			return nil
		}
		defer run.end()
		if opt.MoveTime > 0 {
			c, d := s.BestTimed(b)
			return agentMsg{b, pos, c, d, step}
		}
		return agentMsg{b, pos, s.Best(b), depth, step}
	}
}

// askHint starts the search of the values of the current board's moves,
// unless one runs already (its answer then asks again).
func (m *Model) askHint() tea.Cmd {
	if !m.hints || m.hintBusy || (m.hintOK && m.hintFor == m.b) {
		return nil
	}
	m.hintBusy = true
	m.hintPos = m.pos
	b, depth, run := m.b, m.depth, &m.run
	var values func() [4]search.MoveValue
	if m.threes {
		g := m.threesGame()
		s := threeslearn.NewSearcher(m.cfg.Net, threeslearn.Options{Depth: depth}, m.tt)
		values = func() [4]search.MoveValue { return threesValues(s, &g, depth) }
	} else {
		s := search.NewSearcher(m.cfg.Net, search.Options{Depth: depth, Kind: m.cfg.Kind}, m.tt)
		values = func() [4]search.MoveValue { return s.Values(b, depth) }
	}
	return func() tea.Msg {
		if !run.begin() {
			return nil
		}
		defer run.end()
		return hintMsg{b, values()}
	}
}

// threesValues are a Threes! searcher's values as search.MoveValues, the
// reward plain (Threes! has no 65536 overflow bit).
func threesValues(s *threeslearn.Searcher, g *threes.Game, depth int) [4]search.MoveValue {
	v := s.Values(g, depth)
	var mv [4]search.MoveValue
	for d := range 4 {
		if v[d].Legal {
			mv[d] = search.MoveValue{Legal: true, After: v[d].After, Reward: uint32(v[d].Reward), Value: v[d].Value, Total: v[d].Total}
		}
	}
	return mv
}

// bestMove is the legal move of the largest total, -1 for none; ties go
// to the first in up, right, down, left order.
func bestMove(mv *[4]search.MoveValue) int {
	best := -1
	for d := range 4 {
		if mv[d].Legal && (best < 0 || mv[d].Total > mv[best].Total) {
			best = d
		}
	}
	return best
}

// deepen runs values at depth 1, then deeper up to depth while the next
// depth is expected to finish within budget (none when budget is 0), each
// depth costing some tens of times the one before; it returns the deepest
// answer and its depth. Threes! searches, which cannot be cut short, are
// timed this way.
func deepen(depth int, budget time.Duration, values func(depth int) [4]search.MoveValue) ([4]search.MoveValue, int) {
	start := time.Now()
	mv := values(1)
	got := 1
	last, growth := time.Since(start), time.Duration(20)
	for d := 2; d <= depth; d++ {
		if budget > 0 && time.Since(start)+max(last, 20*time.Microsecond)*growth > budget {
			break
		}
		t0 := time.Now()
		mv = values(d)
		got = d
		this := time.Since(t0)
		if last > 0 {
			growth = max(20, this/last)
		}
		last = this
	}
	return mv, got
}

// apply plays direction d; it returns the commands that follow (a hint).
func (m *Model) apply(d int, agent bool) tea.Cmd {
	if m.over {
		return nil
	}
	if m.threes {
		return m.applyThrees(d, agent)
	}
	after, reward := game.Moves(m.b)
	if after[d] == m.b {
		m.status = fmt.Sprintf("%s does not move anything", game.DirNames[d])
		return nil
	}
	m.status = ""
	if !agent {
		m.byAgent = false
	}
	m.n++
	m.pos++
	m.score += game.Reward(reward[d])
	if game.Overflow(reward[d]) {
		m.overflow = true
		m.b = after[d]
		m.finish()
		return nil
	}
	m.b = game.Spawn(after[d], learn.NewRand(m.seed, uint64(m.n)))
	m.spawn = -1
	for i := range 16 {
		if after[d].At(i) == 0 && m.b.At(i) != 0 {
			m.spawn = i
		}
	}
	if game.Over(m.b) {
		m.finish()
	}
	return m.askHint()
}

// applyThrees slides in direction d, then places the next tile on the
// edge opposite the slide and draws a new next tile, from the move's
// stream.
func (m *Model) applyThrees(d int, agent bool) tea.Cmd {
	g := m.threesGame()
	after, reward, legal := threes.Move(m.b, d)
	if !legal {
		m.status = fmt.Sprintf("%s does not move anything", threes.DirNames[d])
		return nil
	}
	m.status = ""
	if !agent {
		m.byAgent = false
	}
	m.n++
	m.pos++
	g.SlideTo(after, d)
	pos, tile, _ := g.PlaceRandom(learn.NewRand(m.seed, uint64(m.n)))
	m.score += reward + threes.Score(tile)
	m.b, m.hint, m.bag, m.spawn = g.Board, g.Hint, g.Bag, pos
	if threes.Over(m.b) {
		m.finish()
	}
	return m.askHint()
}

// finish ends the game and counts it.
func (m *Model) finish() {
	if m.over {
		return
	}
	m.over = true
	if m.n == 0 {
		return
	}
	top := m.b.MaxTile()
	if m.overflow {
		top = 16
	}
	if m.byAgent {
		m.agent.Add(m.score, top, m.n)
	} else {
		m.you.Add(m.score, top, m.n)
	}
}

var keyDirs = map[string]int{
	"up": game.Up, "right": game.Right, "down": game.Down, "left": game.Left,
	"k": game.Up, "l": game.Right, "j": game.Down, "h": game.Left,
}

// keys handles a key message. Keys that arrive together, typed fast or
// pasted, come as one message of several runes ("++++q"): each rune is a
// key, in order, and a q among them quits at once.
func (m *Model) keys(k tea.KeyMsg) tea.Cmd {
	names := []string{k.String()}
	if k.Type == tea.KeyRunes && !k.Alt && (len(k.Runes) > 1 || k.Paste) {
		names = names[:0]
		for _, r := range k.Runes {
			names = append(names, string(r))
		}
	}
	var cmds []tea.Cmd
	for _, s := range names {
		cmd, quit := m.key(s)
		if quit {
			m.Stop()
			return tea.Quit
		}
		cmds = append(cmds, cmd)
	}
	return tea.Batch(cmds...)
}

// key handles the key named s (as tea.Key.String names it); it reports
// whether the key quits.
func (m *Model) key(s string) (tea.Cmd, bool) {
	if d, ok := keyDirs[s]; ok {
		m.setPlaying(false)
		return m.apply(d, false), false
	}
	switch s {
	case "q", "ctrl+c", "esc":
		return nil, true
	}
	return m.command(s), false
}

// command handles the keys that neither move nor quit.
func (m *Model) command(s string) tea.Cmd {
	switch s {
	case " ", "p":
		if m.over && !m.playing {
			m.newGame()
			return tea.Batch(m.setPlaying(true), m.askHint())
		}
		return m.setPlaying(!m.playing)
	case "s", ".":
		m.setPlaying(false)
		if m.over || m.thinking {
			return nil
		}
		m.thinking = true
		return m.think(true)
	case "+", "=", "f":
		m.speed = min(m.speed+1, len(Speeds)-1)
	case "-", "_":
		m.speed = max(m.speed-1, 0)
	case "1", "2", "3", "4":
		m.depth = int(s[0] - '0')
		m.hintOK = false
		return m.askHint()
	case "t":
		m.hints = !m.hints
		m.hintOK = false
		return m.askHint()
	case "n", "r":
		m.newGame()
		m.thinking = false
		return tea.Batch(m.askHint(), m.next(0))
	}
	return nil
}

// Colours: the familiar 2048 tiles.
var (
	tileBG = []string{"#cdc1b4", "#eee4da", "#ede0c8", "#f2b179", "#f59563", "#f67c5f", "#f65e3b",
		"#edcf72", "#edcc61", "#edc850", "#edc53f", "#edc22e"}
	darkInk  = lipgloss.Color("#776e65")
	lightInk = lipgloss.Color("#f9f6f2")
	frame    = lipgloss.Color("#bbada0")

	titleStyle = lipgloss.NewStyle().Bold(true).Foreground(lipgloss.Color("#edc22e"))
	dimStyle   = lipgloss.NewStyle().Foreground(lipgloss.Color("#8f7a66"))
	bestStyle  = lipgloss.NewStyle().Bold(true).Foreground(lipgloss.Color("#edc22e"))
	overStyle  = lipgloss.NewStyle().Bold(true).Foreground(lightInk).Background(lipgloss.Color("#f65e3b")).Padding(0, 1)
	boardStyle = lipgloss.NewStyle().Background(frame).Padding(0, 1)
)

const cellWidth = 7

func tileStyle(idx int) lipgloss.Style {
	st := lipgloss.NewStyle().Width(cellWidth).Height(3).Align(lipgloss.Center, lipgloss.Center).Bold(true)
	bg := "#3c3a32"
	if idx < len(tileBG) {
		bg = tileBG[idx]
	}
	fg := lightInk
	if idx <= 2 {
		fg = darkInk
	}
	return st.Background(lipgloss.Color(bg)).Foreground(fg)
}

// Threes! colours, as the original game: 1 blue, 2 red, 3 and up white
// with dark figures, on a pale blue-green board.
var (
	threesFrame = lipgloss.Color("#9fc4c4")
	threesEmpty = lipgloss.Color("#cfe6e6")
	threesBG    = [4]lipgloss.Color{threesEmpty, "#66ccff", "#ff6680", "#ffffff"}
	threesInk   = lipgloss.Color("#262626")
)

// threesTileStyle is the style of a Threes! tile of index idx, h lines
// high.
func threesTileStyle(idx, h int) lipgloss.Style {
	st := lipgloss.NewStyle().Width(cellWidth).Height(h).Align(lipgloss.Center, lipgloss.Center).Bold(true)
	switch {
	case idx == 0:
		return st.Background(threesEmpty).Foreground(lipgloss.Color("#8fb3b3"))
	case idx <= 2:
		return st.Background(threesBG[idx]).Foreground(lipgloss.Color("#ffffff"))
	}
	return st.Background(threesBG[3]).Foreground(threesInk)
}

// value is the face value of tile index idx in the game played.
func (m *Model) value(idx int) int {
	if m.threes {
		return threes.Value(idx)
	}
	return board.Pow2.Value(idx)
}

func (m *Model) viewBoard() string {
	var rows []string
	fr, style := frame, tileStyle
	if m.threes {
		fr = threesFrame
		style = func(idx int) lipgloss.Style { return threesTileStyle(idx, 3) }
	}
	gap := lipgloss.NewStyle().Background(fr).Width(1).Height(3).Render("")
	for r := range 4 {
		var cells []string
		for c := range 4 {
			i := 4*r + c
			idx := m.b.At(i)
			text := "·"
			if idx > 0 {
				text = fmt.Sprint(m.value(idx))
			}
			if c > 0 {
				cells = append(cells, gap)
			}
			cells = append(cells, style(idx).Render(text))
		}
		if r > 0 {
			rows = append(rows, lipgloss.NewStyle().Background(fr).Width(4*cellWidth+3).Render(""))
		}
		rows = append(rows, lipgloss.JoinHorizontal(lipgloss.Top, cells...))
	}
	return boardStyle.Background(fr).Render(lipgloss.JoinVertical(lipgloss.Left, rows...))
}

// viewNext is the next tile of a Threes! game, in its colour.
func (m *Model) viewNext() string {
	return "next tile " + threesTileStyle(m.hint, 1).Render(fmt.Sprint(m.hint))
}

var arrows = [4]string{"↑ up", "→ right", "↓ down", "← left"}

func (m *Model) viewHint() string {
	var sb strings.Builder
	if !m.hints {
		sb.WriteString(dimStyle.Render("hints off (t shows them)"))
		return sb.String()
	}
	fmt.Fprintf(&sb, "%s\n", titleStyle.Render(fmt.Sprintf("move values, depth %d", m.depth)))
	if !m.hintOK || m.hintFor != m.b {
		sb.WriteString(dimStyle.Render("thinking…"))
		return sb.String()
	}
	best := -1
	for d, v := range m.hintVals {
		if v.Legal && (best < 0 || v.Total > m.hintVals[best].Total) {
			best = d
		}
	}
	for d, v := range m.hintVals {
		line := fmt.Sprintf("  %-8s %12s", arrows[d], "illegal")
		if v.Legal {
			line = fmt.Sprintf("  %-8s %12.1f", arrows[d], v.Total)
			if r := game.Reward(v.Reward); r > 0 { // Threes! rewards are plain, below the overflow bit
				line += fmt.Sprintf("  (+%d)", r)
			}
		}
		if d == best {
			line = bestStyle.Render("▶" + line[1:] + "  ★ best")
		} else if !v.Legal {
			line = dimStyle.Render(line)
		}
		sb.WriteString(line + "\n")
	}
	if best < 0 {
		sb.WriteString(dimStyle.Render("no legal move") + "\n")
	}
	return strings.TrimRight(sb.String(), "\n")
}

func rate(b *stats.Block, idx int) string {
	if b.Games == 0 {
		return "-"
	}
	return fmt.Sprintf("%.0f%%", 100*b.Reach(idx))
}

// RateTiles are the tile indices whose reach rates the statistics show:
// 2048, 4096 and 8192, or in Threes! 1536, 3072 and 6144.
func (m *Model) RateTiles() [3]int {
	if m.threes {
		return [3]int{12, 13, 14}
	}
	return [3]int{11, 12, 13}
}

func statLine(name string, b *stats.Block, tiles [3]int) string {
	if b.Games == 0 {
		return fmt.Sprintf("%-6s %5d", name, 0)
	}
	return fmt.Sprintf("%-6s %5d %8.0f %8d %6s %6s %6s", name, b.Games, b.Avg(), b.MaxScore,
		rate(b, tiles[0]), rate(b, tiles[1]), rate(b, tiles[2]))
}

func (m *Model) viewStats() string {
	all := m.agent
	all.Merge(&m.you)
	t := m.RateTiles()
	head := dimStyle.Render(fmt.Sprintf("%-6s %5s %8s %8s %6d %6d %6d", "", "games", "avg", "max", m.value(t[0]), m.value(t[1]), m.value(t[2])))
	return strings.Join([]string{head, statLine("agent", &m.agent, t), statLine("you", &m.you, t), statLine("all", &all, t)}, "\n")
}

// View draws the screen.
func (m *Model) View() string {
	var sb strings.Builder
	title := "td2048"
	if m.threes {
		title = "td2048 · Threes!"
	}
	fmt.Fprintf(&sb, "%s  %s\n\n", titleStyle.Render(title),
		dimStyle.Render(fmt.Sprintf("network %s · depth %d · game seed %d", m.cfg.Network, m.depth, m.seed)))
	top := 0
	if m.n > 0 || m.b != 0 {
		top = m.value(m.b.MaxTile())
	}
	if m.overflow {
		top = 65536
	}
	fmt.Fprintf(&sb, "score %d   moves %d   best tile %d", m.score, m.n, top)
	if m.threes {
		sb.WriteString("   " + m.viewNext())
	}
	sb.WriteString("\n\n")

	agent := "agent: paused"
	if m.playing {
		agent = "agent: playing"
	}
	delay := Speeds[m.speed]
	speed := "full speed"
	if delay > 0 {
		speed = fmt.Sprintf("%v per move", delay)
	}
	side := lipgloss.JoinVertical(lipgloss.Left,
		m.viewHint(), "",
		fmt.Sprintf("%s, %s", agent, speed), "",
		m.viewStats())
	sb.WriteString(lipgloss.JoinHorizontal(lipgloss.Top, m.viewBoard(), "   ", side))
	sb.WriteString("\n\n")
	switch {
	case m.over && m.overflow:
		sb.WriteString(overStyle.Render(fmt.Sprintf("GAME OVER: 32768+32768 makes 65536, which the board cannot hold. Score %d.", m.score)))
		sb.WriteString("\n" + dimStyle.Render("n new game · space the agent plays on · q quit") + "\n")
	case m.over:
		sb.WriteString(overStyle.Render(fmt.Sprintf("GAME OVER: score %d in %d moves, best tile %d", m.score, m.n, top)))
		sb.WriteString("\n" + dimStyle.Render("n new game · space the agent plays on · q quit") + "\n")
	case m.status != "":
		sb.WriteString(m.status + "\n\n")
	default:
		sb.WriteString("\n\n")
	}
	sb.WriteString(dimStyle.Render("←↑→↓/hjkl move · space agent play/pause · s step · +/- speed · 1-4 depth · t hints · n new game · q quit"))
	sb.WriteString("\n")
	return sb.String()
}
