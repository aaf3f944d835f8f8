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
	"sync"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/td2048/td2048/board"
	"github.com/td2048/td2048/games"
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
	// network that Threes! accepts (games.Lookup("threes").CheckSpec). New panics on a name
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
	// Seed is the seed of the session's first game, the one the header
	// shows; each new game takes the next seed (Seed+1, Seed+2, ...). A
	// game replays from its seed by package session's rule, as on the web
	// page.
	Seed uint64
	// Auto starts with the agent playing.
	Auto bool
	// Speed is the index in Speeds to start at (0 means 3, 120ms).
	Speed int
	// Threads are the goroutines one search spreads over
	// (search.Options.Threads; 0 means 1).
	Threads int
	// MCTS, when its Method is search.MethodMCTS, makes the agent and
	// the hints search by Monte Carlo tree search with its MCTS settings
	// (their iterations, or MoveTime when they have none) instead of
	// expectimax at the depth on screen.
	MCTS search.Options
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
	cfg.Depth = min(max(cfg.Depth, 1), MaxDepth)
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
// Seed+m.game.
func (m *Model) newGame() {
	g, err := session.New(m.cfg.Game, m.cfg.Seed+uint64(m.game))
	if err != nil {
		panic("tui: " + err.Error())
	}
	m.g = g
	m.game++
	m.pos++
	m.counted, m.byAgent, m.spawn = false, true, -1
	m.hintOK, m.downgrades = false, 0
}

// Stats returns the finished games of the session: the agent's alone, and
// those the person had a hand in.
func (m *Model) Stats() (agent, you stats.Block) { return m.agent, m.you }

// Init starts the agent when configured to, and the first hint.
func (m *Model) Init() tea.Cmd {
	var play tea.Cmd
	if m.cfg.Auto {
		play = m.setPlaying(true)
	}
	return tea.Batch(play, m.askHint())
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
	return m.next(0) // nothing when paused
}

// think searches the agent's move on the current board: at the depth
// chosen, or deepening up to it within the move time when one is set.
func (m *Model) think(step bool) tea.Cmd {
	b, pos := m.g.Board(), m.pos
	return m.search(m.depth, m.cfg.MoveTime, func(mv [4]search.MoveValue, depth int) tea.Msg {
		return agentMsg{b, pos, search.BestOf(&mv), depth, step}
	})
}

// askHint starts the search of the values of the current board's moves,
// unless one runs already (its answer then asks again).
func (m *Model) askHint() tea.Cmd {
	if !m.hints || m.hintBusy || (m.hintOK && m.hintFor == m.g.Board()) {
		return nil
	}
	m.hintBusy = true
	m.hintPos = m.pos
	b := m.g.Board()
	return m.search(m.depth, 0, func(mv [4]search.MoveValue, _ int) tea.Msg { return hintMsg{b, mv} })
}

// search returns the search of the values of the moves in the position on
// screen, to run off the update loop: at depth plies, or deepening from 1
// up to depth within budget when it is positive. It answers with answer
// of the values and the depth it finished, or with nothing once the
// searches are stopped (Stop) or when Stop cut it short.
func (m *Model) search(depth int, budget time.Duration, answer func(mv [4]search.MoveValue, depth int) tea.Msg) tea.Cmd {
	opt := search.Options{Depth: depth, MoveTime: budget, Kind: m.cfg.Kind, Stop: m.run.done, Threads: m.cfg.Threads}
	if m.cfg.MCTS.Method == search.MethodMCTS {
		opt.Method, opt.MCTS, opt.MoveTime = search.MethodMCTS, m.cfg.MCTS.MCTS, m.cfg.MoveTime
	}
	a, p, run := m.info.NewAdvisor(m.cfg.Net, opt, m.tt), m.g.Position(), &m.run
	p.Downgrades = m.downgrades
	return func() tea.Msg {
		if !run.begin() {
			return nil
		}
		defer run.end()
		mv, done := a.Values(p)
		if a.Stopped() {
			return nil
		}
		return answer(mv, done)
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
	m.byAgent = m.byAgent && agent
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
	b := &m.you
	if m.byAgent {
		b = &m.agent
	}
	b.Add(m.g.Score(), m.g.MaxTile(), n)
}

// value is the face value of tile index idx in the game played.
func (m *Model) value(idx int) int { return m.g.Code().Value(idx) }
