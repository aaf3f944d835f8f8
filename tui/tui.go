// Package tui is td2048's terminal face: a bubbletea model that lets a
// trained network play 2048 or Threes! at an adjustable speed, or lets a
// person play with the arrow keys while it shows the value of each move,
// the best one marked.
//
// Searches run as commands, off the update loop, so the screen answers
// keys while the network thinks; each search has its own Searcher and all
// share one transposition table. q quits at once: the searches under way
// are cut short (the searchers' Stop option), their answers dropped, and
// no other begins. The games are played through package session, as on
// the web page, so a game replays from its seed and its moves by
// session's replay rule; what differs between the games on screen comes
// from their descriptors in package games.
//
// The screen fits the terminal: the panel of move values and statistics
// stands beside the board on a wide terminal and under it on a narrow
// one, the tiles shrink on a short one, and the screen never has more
// lines than the terminal nor a line wider than it. The layout depends on
// the terminal's size alone, so nothing moves from frame to frame: while
// the values of a new position are searched, the last ones stay on
// screen, dimmed. ? shows all the keys in place of the board.
package tui

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/td2048/td2048/board"
	"github.com/td2048/td2048/game"
	"github.com/td2048/td2048/game/threes"
	"github.com/td2048/td2048/games"
	"github.com/td2048/td2048/learn"
	"github.com/td2048/td2048/ntuple"
	"github.com/td2048/td2048/search"
	"github.com/td2048/td2048/session"
	"github.com/td2048/td2048/stats"
)

// MaxDepth is the deepest search the view offers.
const MaxDepth = 4

// Speeds are the delays between the agent's moves, slowest first.
var Speeds = []time.Duration{time.Second, 500 * time.Millisecond, 250 * time.Millisecond,
	120 * time.Millisecond, 60 * time.Millisecond, 20 * time.Millisecond, 0}

// Config configures a Model.
type Config struct {
	Net *ntuple.Network
	// Game is the game of the network, by its name in package games
	// (games.Default when empty): "2048", or "threes" for an after-state
	// network that passes learn.CheckThreesSpec. New panics on a name
	// games does not know.
	Game    string
	Kind    search.Kind
	Network string // shown in the title
	// Depth is the starting search depth of the agent and the hints (1 to
	// MaxDepth; 0 means 1).
	Depth int
	// MoveTime, when positive, bounds the agent's search per move: it
	// deepens from depth 1 up to Depth and answers with the deepest search
	// finished within it (a hard deadline: the search under way when it
	// passes is abandoned). The hints search at Depth, untimed.
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
	// Threads are the goroutines one search spreads over
	// (search.Options.Threads; 0 means 1).
	Threads int
	// Downgrade is the tile-downgrading of the agent and the hints in
	// 2048 (search.Downgrade; the zero value is off): the moves are
	// valued on the board lowered by the downgrades under way, which
	// every move played counts on (search.Downgrade.After).
	Downgrade search.Downgrade
}

// Model is the state of the view; it implements tea.Model.
type Model struct {
	cfg Config
	tt  *search.Table

	info    *games.Game // the game's descriptor: title, tile code, rates
	pal     palette     // the game's colours
	game    int         // games begun
	g       *session.Session
	pos     int  // counts the positions shown; an answer for an older one is stale
	counted bool // the game on screen is in the statistics
	byAgent bool // every move of this game was the agent's
	spawn   int  // cell of the last new tile, -1 for none
	// downgrades are the tile-downgrades under way in the game on
	// screen (Config.Downgrade).
	downgrades int

	playing  bool
	loop     int // the autoplay loop's generation; old ticks are dropped
	thinking bool
	speed    int
	depth    int

	hints    bool
	hintFor  board.Board
	hintPos  int // the position the hint under way or shown is for
	hintOK   bool
	hintVals [4]search.MoveValue
	hintBusy bool
	hintHave bool // hintVals holds values, of this position when hintOK and hintFor match

	agent, you stats.Block
	status     string

	width, height int // the terminal's, 0 until it tells
	help          bool
	quitting      bool
	run           searches
}

// searches counts the searches under way and stops them: once stopped,
// none begins, and those under way see done closed (their searchers'
// Stop) and end within 1024 chance nodes.
type searches struct {
	mu      sync.Mutex
	idle    sync.Cond // signalled when running falls to 0
	done    chan struct{}
	stopped bool
	running int
}

func (s *searches) init() {
	s.idle.L = &s.mu
	s.done = make(chan struct{})
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
	if s.running == 0 {
		s.idle.Broadcast()
	}
	s.mu.Unlock()
}

// stop lets no search begin and cuts short those under way.
func (s *searches) stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.stopped {
		s.stopped = true
		close(s.done)
	}
}

// wait returns once no search runs.
func (s *searches) wait() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for s.running > 0 {
		s.idle.Wait()
	}
}

// Messages.
type (
	tickMsg  struct{ loop int }
	agentMsg struct {
		b      board.Board
		pos    int
		choice search.Choice
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
	info, err := games.Lookup(cfg.Game)
	if err != nil {
		panic("tui: " + err.Error())
	}
	cfg.Game = info.Name
	if cfg.Network == "" && cfg.Net != nil {
		cfg.Network = cfg.Net.Spec().String()
	}
	m := &Model{cfg: cfg, info: info, pal: palettes[session.Game2048], speed: cfg.Speed, depth: cfg.Depth, hints: true}
	if p, ok := palettes[info.Name]; ok {
		m.pal = p
	}
	m.run.init()
	if cfg.TableBytes > 0 {
		m.tt = search.NewTable(cfg.TableBytes)
	}
	m.newGame()
	return m
}

// newGame starts game number m.game of the session, with seed
// learn.Mix(Seed, m.game).
func (m *Model) newGame() {
	g, err := session.New(m.cfg.Game, learn.Mix(m.cfg.Seed, uint64(m.game)))
	if err != nil {
		panic("tui: " + err.Error())
	}
	m.g = g
	m.game++
	m.pos++
	m.counted, m.byAgent, m.spawn = false, true, -1
	m.hintOK, m.downgrades = false, 0
}

// Game is the name of the game played, as package games names it.
func (m *Model) Game() string { return m.g.Game() }

// Next is the next tile of a Threes! game (0 in 2048); Bag the tiles not
// yet drawn.
func (m *Model) Next() (hint int, bag threes.Bag) { return m.g.Next(), m.g.Bag() }

// Board returns the board on screen; Moves and Score the game's counts.
func (m *Model) Board() board.Board { return m.g.Board() }

// Moves is the number of moves made in the game on screen.
func (m *Model) Moves() int { return m.g.Len() }

// Score is the score of the game on screen.
func (m *Model) Score() int { return m.g.Score() }

// Over reports whether the game on screen has ended.
func (m *Model) Over() bool { return m.g.Over() }

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

// Stop ends the model's searches, as q does: none begins after it, those
// under way are cut short (their searchers' Stop option, checked every
// 1024 chance nodes) and their answers dropped. It does not wait for them
// to return; Wait does.
func (m *Model) Stop() {
	m.quitting, m.playing = true, false
	m.run.stop()
}

// Wait returns once none of the model's searches runs. After Stop that
// takes a few milliseconds, and from then on no search reads the network:
// it may be freed.
func (m *Model) Wait() { m.run.wait() }

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
		m.width, m.height = msg.Width, msg.Height
	case tickMsg:
		if msg.loop != m.loop || !m.playing || m.thinking {
			return m, nil
		}
		if m.g.Over() {
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
		if msg.b != m.g.Board() || msg.pos != m.pos || m.g.Over() {
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
		if m.g.Over() {
			delay = m.pauseAfterGame()
		}
		return m, tea.Batch(cmd, m.next(delay))
	case hintMsg:
		m.hintBusy = false
		if msg.b == m.g.Board() && m.hintPos == m.pos {
			m.hintFor, m.hintVals, m.hintOK, m.hintHave = msg.b, msg.values, true, true
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

// think searches the agent's move on the current board: at the depth
// chosen, or deepening up to it within the move time when one is set.
func (m *Model) think(step bool) tea.Cmd {
	b, pos, run := m.g.Board(), m.pos, &m.run
	values := m.values(m.depth, m.cfg.MoveTime)
	return func() tea.Msg {
		if !run.begin() {
			return nil
		}
		defer run.end()
		mv, depth, stopped := values()
		if stopped {
			return nil
		}
		return agentMsg{b, pos, search.BestOf(&mv), depth, step}
	}
}

// askHint starts the search of the values of the current board's moves,
// unless one runs already (its answer then asks again).
func (m *Model) askHint() tea.Cmd {
	if !m.hints || m.hintBusy || (m.hintOK && m.hintFor == m.g.Board()) {
		return nil
	}
	m.hintBusy = true
	m.hintPos = m.pos
	b, run := m.g.Board(), &m.run
	values := m.values(m.depth, 0)
	return func() tea.Msg {
		if !run.begin() {
			return nil
		}
		defer run.end()
		mv, _, stopped := values()
		if stopped {
			return nil
		}
		return hintMsg{b, mv}
	}
}

// values returns the search of the values of the moves in the position on
// screen, to run off the update loop: at depth plies, or deepening from 1
// up to depth within budget when it is positive. The search answers with
// the depth it finished and whether Stop cut it short.
func (m *Model) values(depth int, budget time.Duration) func() (mv [4]search.MoveValue, done int, stopped bool) {
	opt := search.Options{Depth: depth, MoveTime: budget, Kind: m.cfg.Kind, Stop: m.run.done, Threads: m.cfg.Threads}
	a, p := m.info.NewAdvisor(m.cfg.Net, opt, m.tt), m.g.Position()
	p.Downgrades = m.downgrades
	return func() ([4]search.MoveValue, int, bool) {
		mv, done := a.Values(p)
		return mv, done, a.Stopped()
	}
}

// apply plays direction d; it returns the commands that follow (a hint).
func (m *Model) apply(d int, agent bool) tea.Cmd {
	if m.g.Over() {
		return nil
	}
	p := m.g.Position()
	p.Downgrades = m.downgrades
	r := m.g.Apply(d)
	if !r.Legal {
		m.status = session.DirNames[d] + " does not move anything"
		return nil
	}
	m.downgrades = m.cfg.Downgrade.After(m.downgrades, p.View(), d)
	m.status = ""
	if !agent {
		m.byAgent = false
	}
	m.pos++
	m.spawn = r.Cell
	if r.Over {
		m.finish()
	}
	return m.askHint()
}

// finish counts the game on screen in the statistics, once.
func (m *Model) finish() {
	if m.counted {
		return
	}
	m.counted = true
	n := m.g.Len()
	if n == 0 {
		return
	}
	if m.byAgent {
		m.agent.Add(m.g.Score(), m.top(), n)
	} else {
		m.you.Add(m.g.Score(), m.top(), n)
	}
}

// top is the index of the game's largest tile.
func (m *Model) top() int { return m.g.MaxTile() }

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
	case "q", "ctrl+c":
		return nil, true
	case "esc":
		if !m.help {
			return nil, true
		}
		m.help = false
	case "?":
		m.help = !m.help
	default:
		return m.command(s), false
	}
	return nil, false
}

// command handles the keys that neither move nor quit.
func (m *Model) command(s string) tea.Cmd {
	switch s {
	case " ", "p":
		if m.g.Over() && !m.playing {
			m.newGame()
			return tea.Batch(m.setPlaying(true), m.askHint())
		}
		return m.setPlaying(!m.playing)
	case "s", ".":
		m.setPlaying(false)
		if m.g.Over() || m.thinking {
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

// tileStyle is the style of a 2048 tile of index idx, w columns wide and
// h lines high.
func tileStyle(idx, w, h int) lipgloss.Style {
	st := lipgloss.NewStyle().Width(w).Height(h).Align(lipgloss.Center, lipgloss.Center).Bold(true)
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

// A palette is the colours of a game's board: its frame, and the style of
// a tile of index idx, w columns wide and h lines high.
type palette struct {
	frame lipgloss.Color
	tile  func(idx, w, h int) lipgloss.Style
}

// palettes are the games' colours by name; a game without its own is
// drawn in 2048's.
var palettes = map[string]palette{
	session.Game2048:   {frame, tileStyle},
	session.GameThrees: {threesFrame, threesTileStyle},
}

// Threes! colours, as the original game: 1 blue, 2 red, 3 and up white
// with dark figures, on a pale blue-green board.
var (
	threesFrame = lipgloss.Color("#9fc4c4")
	threesEmpty = lipgloss.Color("#cfe6e6")
	threesBG    = [4]lipgloss.Color{threesEmpty, "#66ccff", "#ff6680", "#ffffff"}
	threesInk   = lipgloss.Color("#262626")
)

// threesTileStyle is the style of a Threes! tile of index idx, w columns
// wide and h lines high.
func threesTileStyle(idx, w, h int) lipgloss.Style {
	st := lipgloss.NewStyle().Width(w).Height(h).Align(lipgloss.Center, lipgloss.Center).Bold(true)
	switch {
	case idx == 0:
		return st.Background(threesEmpty).Foreground(lipgloss.Color("#8fb3b3"))
	case idx <= 2:
		return st.Background(threesBG[idx]).Foreground(lipgloss.Color("#ffffff"))
	}
	return st.Background(threesBG[3]).Foreground(threesInk)
}

// value is the face value of tile index idx in the game played.
func (m *Model) value(idx int) int { return m.g.Code().Value(idx) }

// A shape is a way to draw the board: tiles cell columns wide (5 holds
// 65536) and three lines high or one, with a line of the frame between
// rows of tiles or none.
type shape struct {
	cell       int
	tall, gaps bool
}

// shapes are the board's shapes, largest first.
var shapes = []shape{{7, true, true}, {5, true, true}, {7, false, true}, {5, false, true}, {7, false, false}, {5, false, false}}

func (s shape) width() int { return 4*s.cell + 3 + 2 }

func (s shape) height() int {
	h := 4
	if s.tall {
		h = 12
	}
	if s.gaps {
		h += 3
	}
	return h
}

func (m *Model) viewBoard(s shape) []string {
	h := 1
	if s.tall {
		h = 3
	}
	fr := m.pal.frame
	style := func(idx int) lipgloss.Style { return m.pal.tile(idx, s.cell, h) }
	gap := lipgloss.NewStyle().Background(fr).Width(1).Height(h).Render("")
	var rows []string
	for r := range 4 {
		var cells []string
		for c := range 4 {
			i := 4*r + c
			idx := m.g.Cell(i)
			text := "·"
			if idx > 0 {
				text = fmt.Sprint(m.value(idx))
			}
			if c > 0 {
				cells = append(cells, gap)
			}
			cells = append(cells, style(idx).Render(text))
		}
		if r > 0 && s.gaps {
			rows = append(rows, lipgloss.NewStyle().Background(fr).Width(4*s.cell+3).Render(""))
		}
		rows = append(rows, lipgloss.JoinHorizontal(lipgloss.Top, cells...))
	}
	return strings.Split(boardStyle.Background(fr).Render(lipgloss.JoinVertical(lipgloss.Left, rows...)), "\n")
}

var arrows = [4]string{"↑ up", "→ right", "↓ down", "← left"}

// The move values' block: a title and a line per move, as wide as
// hintWidth (with the rewards) or narrowHintWidth (without).
const (
	hintLines       = 5
	hintWidth       = 38
	narrowHintWidth = 28
)

// viewHint is the block of move values, hintLines lines of width w. The
// values of an earlier position stay, dimmed, while the current one's
// are searched.
func (m *Model) viewHint(w int) []string {
	lines := make([]string, hintLines)
	if !m.hints {
		lines[0] = dimStyle.Render("hints off (t shows them)")
		return lines
	}
	fresh := m.hintOK && m.hintFor == m.g.Board()
	title := fmt.Sprintf("move values, depth %d", m.depth)
	if !fresh {
		if w >= hintWidth {
			title += " (searching…)"
		} else {
			title += " …"
		}
	}
	lines[0] = titleStyle.Render(title)
	best := -1
	if m.hintHave {
		best = search.BestOf(&m.hintVals).Dir
	}
	for d, v := range m.hintVals {
		value, reward, mark, star := "…", "", " ", ""
		if m.hintHave {
			value = "illegal"
			if v.Legal {
				value = fmt.Sprintf("%.1f", v.Total)
				if v.Reward > 0 {
					reward = fmt.Sprintf("  (+%d)", v.Reward)
				}
			}
		}
		if d == best {
			mark, star = "▶", "  ★ best"
		}
		line := fmt.Sprintf("%s %-7s %10s", mark, arrows[d], value)
		if w >= hintWidth {
			line += fmt.Sprintf("%-10s", reward)
		}
		line += star
		switch {
		case !fresh || !v.Legal:
			line = dimStyle.Render(line)
		case d == best:
			line = bestStyle.Render(line)
		}
		lines[1+d] = line
	}
	return lines
}

func rate(b *stats.Block, idx int) string {
	if b.Games == 0 {
		return "-"
	}
	return fmt.Sprintf("%.0f%%", 100*b.Reach(idx))
}

// RateTiles are the tile indices whose reach rates the statistics show,
// the game's first three (games.Game.Rates): 2048, 4096 and 8192, or in
// Threes! 1536, 3072 and 6144. The slice is the caller's.
func (m *Model) RateTiles() []int { return slices.Clone(m.info.Rates[:min(3, len(m.info.Rates))]) }

// The statistics' block: a head and three lines, statsWidth wide and a
// rate column wider for each of the rates shown.
const (
	statsLines = 4
	statsWidth = 27
	rateWidth  = 5
)

func statLine(name string, b *stats.Block, tiles []int) string {
	if b.Games == 0 {
		return fmt.Sprintf("%-5s %5d", name, 0)
	}
	s := fmt.Sprintf("%-5s %5d %7.0f %7d", name, b.Games, b.Avg(), b.MaxScore)
	for _, t := range tiles {
		s += fmt.Sprintf(" %4s", rate(b, t))
	}
	return s
}

// viewStats is the statistics' block with the first rates of the rate
// tiles.
func (m *Model) viewStats(rates int) []string {
	all := m.agent
	all.Merge(&m.you)
	t := m.RateTiles()
	t = t[:min(rates, len(t))]
	head := fmt.Sprintf("%-5s %5s %7s %7s", "", "games", "avg", "max")
	for _, i := range t {
		head += fmt.Sprintf(" %4d", m.value(i))
	}
	return []string{dimStyle.Render(head), statLine("agent", &m.agent, t), statLine("you", &m.you, t), statLine("all", &all, t)}
}

// agentWidth is the width of the agent's line.
const agentWidth = len("agent: playing, 500ms per move")

func (m *Model) viewAgent() string {
	agent := "agent: paused"
	if m.playing {
		agent = "agent: playing"
	}
	speed := "full speed"
	if delay := Speeds[m.speed]; delay > 0 {
		speed = fmt.Sprintf("%v per move", delay)
	}
	return agent + ", " + speed
}

// The terminal's size until it tells its own, or when it cannot.
const (
	defaultWidth  = 80
	defaultHeight = 24
)

// The widest the numbers on the score line get, for the layout: a score
// of 7 digits, moves of 6, a tile of 5.
const maxScoreLine = len("score 1234567   moves 123456   best tile 65536")

// nextWidth is the width of the next tile's cell on the score line.
const nextWidth = 3

// A layout places the parts of the screen for one terminal size; it
// depends on the size alone (and the game and the network's name), never
// on what the screen shows, so that nothing moves from frame to frame.
type layout struct {
	header, score int // lines of each: 1, or 2 on a narrow terminal
	board         shape
	side          bool // the panel beside the board, else under it
	gap           int  // columns between the board and the panel beside it

	// The panel's parts shown: the move values (hintW wide), the agent's
	// line, the statistics (with rates of the rate tiles).
	hints, agent, stats bool
	hintW, rates        int
	panelW              int

	outer, inner bool // blank lines between the screen's parts; between the body's
	bodyH        int  // lines of the board and the panel, or the help
	height       int  // lines of the whole screen
}

// panel is the number of the panel's parts shown, for the layout's
// choice: values before the agent's line before the statistics.
func (l *layout) panel() int {
	n := 0
	for _, on := range []bool{l.hints, l.agent, l.stats} {
		if on {
			n++
		}
	}
	return n
}

// better reports whether l is to be preferred to o: more of the panel
// shown, then a larger board, then the panel beside the board, then blank
// lines around the parts.
func (l *layout) better(o *layout) bool {
	a := [...]int{l.panel(), l.board.height(), l.board.cell, b2i(l.side), b2i(l.outer), b2i(l.inner)}
	b := [...]int{o.panel(), o.board.height(), o.board.cell, b2i(o.side), b2i(o.outer), b2i(o.inner)}
	for i := range a {
		if a[i] != b[i] {
			return a[i] > b[i]
		}
	}
	return false
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// size is the terminal's size.
func (m *Model) size() (w, h int) {
	w, h = m.width, m.height
	if w <= 0 {
		w = defaultWidth
	}
	if h <= 0 {
		h = defaultHeight
	}
	return w, h
}

// title is the header's title: the program and the game's title.
func (m *Model) title() string { return "td2048 · " + m.info.Title }

// layout chooses the best layout that fits a terminal of w x h: every
// part of the panel that fits, the largest board, the panel beside the
// board if there is room. When nothing fits, the smallest.
func (m *Model) layout(w, h int) layout {
	var base layout
	base.header, base.score = 1, 1
	if lipgloss.Width(m.title()+"  network "+m.cfg.Network+" · depth 4 · game seed 18446744073709551615") > w {
		base.header = 2
	}
	scoreW := maxScoreLine
	if m.g.Next() != 0 {
		scoreW += len("   next tile ") + nextWidth
	}
	if scoreW > w {
		base.score = 2
	}
	var best layout
	found := false
	for _, s := range shapes {
		for _, parts := range [][3]bool{{true, true, true}, {true, true, false}, {false, true, false}, {false, false, false}} {
			for _, side := range []bool{true, false} {
				for _, outer := range []bool{true, false} {
					for _, inner := range []bool{true, false} {
						l := base
						l.board, l.side, l.outer, l.inner = s, side, outer, inner
						l.hints, l.agent, l.stats = parts[0], parts[1], parts[2]
						if !l.fit(w, h) {
							continue
						}
						if !found || l.better(&best) {
							best, found = l, true
						}
					}
				}
			}
		}
	}
	if !found {
		best = base
		best.board = shapes[len(shapes)-1]
		best.fit(w, 1<<20)
	}
	return best
}

// fit sizes the panel for a terminal w wide and reports whether the
// layout fits in w x h.
func (l *layout) fit(w, h int) bool {
	if l.panel() == 0 && l.side {
		return false // one of the two is enough
	}
	avail := w
	if l.side {
		avail = w - l.board.width() - 2
	}
	l.hintW, l.rates, l.panelW = 0, 0, 0
	var heights []int
	if l.hints {
		switch {
		case avail >= hintWidth:
			l.hintW = hintWidth
		case avail >= narrowHintWidth:
			l.hintW = narrowHintWidth
		default:
			return false
		}
		l.panelW = max(l.panelW, l.hintW)
		heights = append(heights, hintLines)
	}
	if l.agent {
		if avail < agentWidth {
			return false
		}
		l.panelW = max(l.panelW, agentWidth)
		heights = append(heights, 1)
	}
	if l.stats {
		if avail < statsWidth {
			return false
		}
		l.rates = min(3, (avail-statsWidth)/rateWidth)
		l.panelW = max(l.panelW, statsWidth+l.rates*rateWidth)
		heights = append(heights, statsLines)
	}
	panelH := 0
	for i, ph := range heights {
		panelH += ph
		if i > 0 && l.inner {
			panelH++
		}
	}
	if l.side {
		l.gap = 2
		if l.board.width()+3+l.panelW <= w {
			l.gap = 3
		}
		l.bodyH = max(l.board.height(), panelH)
	} else {
		if l.board.width() > w {
			return false
		}
		l.bodyH = l.board.height() + panelH
		if panelH > 0 && l.inner {
			l.bodyH++
		}
	}
	l.height = l.header + l.score + l.bodyH + 2 // the status line and the footer
	if l.outer {
		l.height += 3
	}
	return l.height <= h
}

// viewHeader is the title and what is played: the network, the depth and
// the game's seed.
func (m *Model) viewHeader(l *layout) []string {
	title := titleStyle.Render(m.title())
	net := "network " + m.cfg.Network
	rest := fmt.Sprintf("depth %d · game seed %d", m.depth, m.g.Seed())
	if l.header == 1 {
		return []string{title + "  " + dimStyle.Render(net+" · "+rest)}
	}
	return []string{title + "  " + dimStyle.Render(net), dimStyle.Render(rest)}
}

// viewScore is the score line, or two.
func (m *Model) viewScore(l *layout) []string {
	a := fmt.Sprintf("score %d   moves %d", m.g.Score(), m.g.Len())
	b := fmt.Sprintf("best tile %d", m.value(m.top()))
	if next := m.g.Next(); next != 0 { // a game that shows its next tile: Threes!
		b += "   next tile " + m.pal.tile(next, nextWidth, 1).Render(fmt.Sprint(next))
	}
	if l.score == 1 {
		return []string{a + "   " + b}
	}
	return []string{a, b}
}

// viewStatus is the line under the board: the end of the game, or what
// became of the last key.
func (m *Model) viewStatus(w int) string {
	if !m.g.Over() {
		return m.status
	}
	top := m.value(m.top())
	says := []string{
		fmt.Sprintf("GAME OVER: score %d in %d moves, best tile %d", m.g.Score(), m.g.Len(), top),
		fmt.Sprintf("GAME OVER: score %d", m.g.Score()),
	}
	for _, s := range says {
		if r := overStyle.Render(s); lipgloss.Width(r) <= w {
			return r
		}
	}
	return overStyle.Render("GAME OVER")
}

// Footers, the longest that fits the terminal shown.
var (
	footers = []string{
		"←↑→↓/hjkl move · space agent play/pause · s step · +/- speed · 1-4 depth · t values · n new game · ? help · q quit",
		"←↑→↓ move · space agent · s step · +/- speed · ? help · q quit",
		"←↑→↓ move · space play · ? help · q quit",
		"? help · q quit",
	}
	overFooters = []string{
		"n new game · space the agent plays on · ? help · q quit",
		"n new · space play on · ? help · q quit",
		"? help · q quit",
	}
)

func (m *Model) viewFooter(w int) string {
	fs := footers
	if m.g.Over() {
		fs = overFooters
	}
	for _, f := range fs {
		if lipgloss.Width(f) <= w {
			return dimStyle.Render(f)
		}
	}
	return dimStyle.Render(fs[len(fs)-1])
}

// help lists the keys.
var help = []string{
	"keys",
	"←↑→↓ hjkl  your move (the agent pauses)",
	"space p    the agent plays or pauses",
	"s .        the agent makes one move",
	"+ -        the agent faster, slower",
	"1 to 4     search depth",
	"t          move values shown or not",
	"n          a new game",
	"?  esc     this help shown, hidden",
	"q ctrl+c   quit, printing statistics",
}

// viewHelp is the help, in place of the board and the panel.
func (m *Model) viewHelp() []string {
	return append([]string{titleStyle.Render(help[0])}, help[1:]...)
}

// viewBody is the board and the panel beside or under it, bodyH lines.
func (m *Model) viewBody(l *layout) []string {
	if m.help {
		return m.viewHelp()
	}
	var panel []string
	add := func(block []string, w int) {
		if len(panel) > 0 && l.inner {
			panel = append(panel, "")
		}
		for _, s := range block {
			panel = append(panel, pad(s, w))
		}
	}
	if l.hints {
		add(m.viewHint(l.hintW), l.panelW)
	}
	if l.agent {
		add([]string{m.viewAgent()}, l.panelW)
	}
	if l.stats {
		add(m.viewStats(l.rates), l.panelW)
	}
	board := m.viewBoard(l.board)
	if !l.side {
		body := board
		if len(panel) > 0 && l.inner {
			body = append(body, "")
		}
		return append(body, panel...)
	}
	body := make([]string, max(len(board), len(panel)))
	for i := range body {
		b, p := "", ""
		if i < len(board) {
			b = board[i]
		}
		if i < len(panel) {
			p = panel[i]
		}
		body[i] = pad(b, l.board.width()) + strings.Repeat(" ", l.gap) + p
	}
	return body
}

// pad fills s with spaces to w columns.
func pad(s string, w int) string {
	if n := w - lipgloss.Width(s); n > 0 {
		return s + strings.Repeat(" ", n)
	}
	return s
}

// View draws the screen: never a line wider than the terminal nor more
// lines than it has, and the same lines in every frame.
func (m *Model) View() string {
	w, h := m.size()
	l := m.layout(w, h)
	var lines []string
	blank := func() {
		if l.outer {
			lines = append(lines, "")
		}
	}
	lines = append(lines, m.viewHeader(&l)...)
	blank()
	lines = append(lines, m.viewScore(&l)...)
	blank()
	body := m.viewBody(&l)
	for len(body) < l.bodyH {
		body = append(body, "")
	}
	lines = append(lines, body[:l.bodyH]...)
	blank()
	lines = append(lines, m.viewStatus(w), m.viewFooter(w))
	if len(lines) > h {
		lines = lines[:h]
	}
	clip := lipgloss.NewStyle().MaxWidth(w)
	for i, s := range lines {
		if lipgloss.Width(s) > w {
			s = clip.Render(s)
		}
		lines[i] = strings.TrimRight(s, " ")
	}
	return strings.Join(lines, "\n")
}
