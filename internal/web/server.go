// Package web serves a page to watch a trained network play 2048 or
// Threes! and to play it yourself with the network's advice, and the small
// JSON API the page runs on. Every asset is embedded in the binary;
// nothing is fetched from elsewhere at run time.
//
// # State lives in the page
//
// The server holds no per-game state. A game is the page's: its board (as
// the hex string board.Board.Hex gives), its seed, its move number, its
// score, and in Threes! its next tile and the bag of tiles not yet
// drawn. Every request carries what the answer depends on, and the
// server resumes the game there (session.Resume) to play the move: the
// random tile after move n of the game with seed s is drawn from
// session.Stream(s, n+1) (the start from stream 0), package session's
// replay rule, so the same game replays exactly, in the terminal view
// too, and any server process gives the same answer. This was
// chosen over keeping games on the server because it leaves nothing to bound,
// expire or evict, no game ids to guess, and a restart loses nothing;
// what a page could abuse (sending any board it likes) only changes its own
// game. The statistics of the games played are therefore the page's too.
//
// # API
//
// All requests and answers are JSON; an error is a 4xx or 5xx status with
// {"error": "one line"}.
//
//	GET  /api/info   the network, the game, the limits
//	GET  /api/curve  the training curve from the metrics log (404 without one)
//	POST /api/new    {game?, seed?}                         -> a new game
//	POST /api/move   {game?, board, dir, seed, n, next, bag} -> the after-state and the board with its new tile
//	POST /api/hint   {game?, board, depth, next, bag?}       -> each move's reward and value, the best marked
//	POST /api/agent  {game?, board, depth, next, bag?}       -> the network's move
//
// dir is "up", "right", "down" or "left"; depth is 1 to Config.MaxDepth.
//
// # Games
//
// A server plays one game, the one its weights were trained for
// (Config.Game): "2048" or "threes". A request names its game, or leaves
// it out to mean the server's; a request for the other game is refused
// with 400 and a message that says which game the server plays.
//
// In a 2048 request next and bag are absent. In a Threes! request the
// board is a Threes! board (the hex packing of tile indices, or sixteen
// face values 0, 1, 2, 3, 6, ..., 6144, as threes.Parse reads), next is
// the next tile (1, 2 or 3) and bag the tiles not yet drawn, as a list
// ([1,3]): never empty, and without the next tile unless the bag is full
// (the next tile was drawn from it). Searches without a bag take the full
// bag. After a legal slide the next tile goes to a cell of the edge
// opposite the slide chosen uniformly from session.Stream(seed, n+1),
// which then draws the following next tile from the bag
// (threes.Game.PlaceRandom); a Threes! state carries its score, the
// board's value.
package web

import (
	"cmp"
	"errors"
	"fmt"
	"net/http"
	"runtime"
	"sync"
	"time"

	"github.com/td2048/td2048/games"
	"github.com/td2048/td2048/ntuple"
	"github.com/td2048/td2048/search"
)

// Limits of the server; see Config for the ones that can be changed.
const (
	// MaxBody is the largest request body accepted.
	MaxBody = 1 << 10
	// MaxSeed is the largest seed: seeds travel as JSON numbers, which
	// JavaScript holds exactly up to 2^53-1.
	MaxSeed = 1<<53 - 1
	// MaxMoves bounds the move number n of a request.
	MaxMoves = 1 << 24
	// maxLog is the largest metrics log read.
	maxLog = 64 << 20
)

// Config configures a Server.
type Config struct {
	Net *ntuple.Network
	// Game is the name of the game the network plays and the page offers
	// (package games; empty: the default game, 2048).
	Game    string
	Kind    search.Kind
	Network string // the network's name, shown on the page
	Learner string // "after" or "state", shown on the page
	// Episodes trained, shown on the page.
	Episodes int64
	// LogPath, when set, is a metrics log (JSON lines, stats.ReadLog) whose
	// training curve the page draws. It is read when asked for, so a log
	// that training still writes shows its progress.
	LogPath string
	// MaxDepth caps the search depth of a request (1 to 4; 0 means 4).
	MaxDepth int
	// MoveTime is the time budget of one search request (0 means 250ms):
	// hints and the agent deepen iteratively within it, a hard deadline
	// that abandons the depth under way. Depth 1 always finishes.
	MoveTime time.Duration
	// TableBytes sizes the transposition table shared by all requests
	// (0 means none).
	TableBytes int64
	// MaxSearches caps the searches (hint, agent) running at once (0 means
	// the number of CPUs); MaxRequests caps the API requests in progress
	// (0 means 64). A request that finds no room within QueueWait (0
	// means 2s) gets 503. A request takes its places only once its body
	// has been read (and, for a search, checked), so that clients sending
	// slowly hold none.
	MaxSearches, MaxRequests int
	QueueWait                time.Duration
	// Threads are the goroutines one search spreads over
	// (search.Options.Threads; 0 means the number of CPUs).
	Threads int
	// MCTS, when its Method is search.MethodMCTS, makes the agent and the
	// hints search by Monte Carlo tree search with its MCTS settings
	// (their iterations, or MoveTime when they have none).
	MCTS search.Options
	// Downgrade is the tile-downgrading of the page's 2048 games
	// (search.Downgrade; the zero value is off): a game's requests carry
	// the downgrades under way, which a move's answer counts on.
	Downgrade search.Downgrade
	// LoopbackOnly refuses requests whose Host is not a loopback name or
	// address: a server listening on loopback must not answer pages of
	// other sites through DNS rebinding.
	LoopbackOnly bool
}

// Server is the page and its API; it is an http.Handler.
type Server struct {
	cfg      Config
	game     *games.Game
	tt       *search.Table
	searches chan struct{}
	requests chan struct{}
	mux      *http.ServeMux
	assets   map[string]asset
	routes   map[string]string // API path -> its method

	logMu    sync.Mutex
	logStamp logStamp
	logCurve []curvePoint
	logOther int // blocks of the other game, left out
	logErr   error
}

// New returns a server over cfg.Net.
func New(cfg Config) (*Server, error) {
	if cfg.Net == nil {
		return nil, errors.New("web: no network")
	}
	g, err := games.Lookup(cfg.Game)
	if err == nil {
		err = cmp.Or(g.CheckSpec(cfg.Net.Spec()), g.CheckLearner(cfg.Kind))
	}
	if err != nil {
		return nil, fmt.Errorf("web: %v", err)
	}
	cfg.Game = g.Name
	positive(&cfg.MaxDepth, 4)
	if cfg.MaxDepth > 4 {
		return nil, fmt.Errorf("web: max depth %d: the page searches at most 4 plies", cfg.MaxDepth)
	}
	positive(&cfg.MoveTime, 250*time.Millisecond)
	positive(&cfg.MaxSearches, runtime.GOMAXPROCS(0))
	positive(&cfg.Threads, runtime.GOMAXPROCS(0))
	if err := cfg.Downgrade.Check(); err != nil {
		return nil, fmt.Errorf("web: %v", err)
	}
	if cfg.Downgrade.On() && !g.Downgrades {
		return nil, fmt.Errorf("web: %s has no tiles to downgrade", g.Title)
	}
	positive(&cfg.MaxRequests, 64)
	positive(&cfg.QueueWait, 2*time.Second)
	cfg.Learner = cmp.Or(cfg.Learner, cfg.Kind.String())
	cfg.Network = cmp.Or(cfg.Network, cfg.Net.Spec().String())
	s := &Server{
		cfg:      cfg,
		game:     g,
		searches: make(chan struct{}, cfg.MaxSearches),
		requests: make(chan struct{}, cfg.MaxRequests),
		mux:      http.NewServeMux(),
		routes:   map[string]string{},
	}
	if cfg.TableBytes > 0 {
		s.tt = search.NewTable(cfg.TableBytes)
	}
	if err := s.loadAssets(); err != nil {
		return nil, err
	}
	if cfg.LogPath != "" {
		if _, _, err := s.curve(); err != nil {
			return nil, err
		}
	}
	s.mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) { s.serveAsset(w, r, "index.html") })
	s.mux.HandleFunc("GET /static/{name}", s.static)
	s.api("GET", "/api/info", s.info)
	s.api("GET", "/api/curve", s.curveHandler)
	s.api("POST", "/api/new", s.newGame)
	s.api("POST", "/api/move", s.move)
	s.api("POST", "/api/hint", searchAPI(s, s.Values))
	s.api("POST", "/api/agent", searchAPI(s, s.Choose))
	s.mux.HandleFunc("/api/", s.apiFallback)
	s.mux.HandleFunc("/", http.NotFound)
	return s, nil
}

// positive sets *v to def when it is 0 or less: a setting left out.
func positive[T int | time.Duration](v *T, def T) {
	if *v <= 0 {
		*v = def
	}
}
