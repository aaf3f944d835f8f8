// Package web serves a page to watch a trained network play 2048 or
// Threes! and to play it yourself with the network's advice, and the small
// JSON API the page runs on. Every asset is embedded in the binary;
// nothing is fetched from elsewhere at run time.
//
// # State lives in the page
//
// The server holds no per-game state. A game is the page's: its board (as
// the hex string board.Board.Hex gives), its seed, its move number, its
// score, and in Threes! its next tile (the hint) and the bag of tiles not
// yet drawn. Every request carries what the answer depends on, and the
// server resumes the game there (session.Resume) to play the move: the
// random tile after move n of the game with seed s is drawn from
// session.Stream(s, n+1) (the start from stream 0), package session's
// replay rule, so the same game replays exactly, in the terminal view
// too, and any server process gives the same answer. This was
// chosen over server-side sessions because it leaves nothing to bound,
// expire or evict, no session ids to guess, and a restart loses nothing;
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
//	POST /api/move   {game?, board, dir, seed, n, hint, bag} -> the after-state and the board with its new tile
//	POST /api/hint   {game?, board, depth, hint, bag?}       -> each move's reward and value, the best marked
//	POST /api/agent  {game?, board, depth, hint, bag?}       -> the network's move
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
// In a 2048 request hint and bag are absent. In a Threes! request the
// board is a Threes! board (the hex packing of tile indices, or sixteen
// face values 0, 1, 2, 3, 6, ..., 6144, as threes.Parse reads), hint is the next tile (1, 2 or 3) and bag the tiles not yet drawn, as a
// list ([1,3]): never empty, and without the hint unless the bag is full
// (the hint was drawn from it). Searches without a bag take the full bag.
// After a legal slide the hint tile goes to a cell of the edge opposite
// the slide chosen uniformly from session.Stream(seed, n+1), which then
// draws the next hint from the bag (threes.Game.PlaceRandom); a Threes!
// state carries its score, the board's value. (The JSON field hint is
// the tile package session calls Next; /api/hint is move advice.)
package web

import (
	"bytes"
	"context"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"mime"
	"net"
	"net/http"
	"os"
	"path"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/td2048/td2048/board"
	"github.com/td2048/td2048/game"
	"github.com/td2048/td2048/game/threes"
	"github.com/td2048/td2048/ntuple"
	"github.com/td2048/td2048/search"
	"github.com/td2048/td2048/session"
	"github.com/td2048/td2048/stats"
	"github.com/td2048/td2048/threeslearn"
)

// The games a server can play, named as package session names them.
const (
	Game2048   = session.Game2048
	GameThrees = session.GameThrees
)

// gameTitle is a game's name for people.
func gameTitle(g string) string {
	if g == GameThrees {
		return "Threes!"
	}
	return "2048"
}

//go:embed static
var staticFS embed.FS

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
	// Game is the game the network plays and the page offers: Game2048
	// (also when empty) or GameThrees.
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
	// the agent deepens iteratively within it, a hint stops deepening when
	// the next depth would not fit. Depth 1 always finishes.
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
	// LoopbackOnly refuses requests whose Host is not a loopback name or
	// address: a server listening on loopback must not answer pages of
	// other sites through DNS rebinding.
	LoopbackOnly bool
}

// Server is the page and its API; it is an http.Handler.
type Server struct {
	cfg      Config
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

type asset struct {
	data  []byte
	ctype string
	etag  string
}

type logStamp struct {
	size int64
	mod  time.Time
}

// New returns a server over cfg.Net.
func New(cfg Config) (*Server, error) {
	if cfg.Net == nil {
		return nil, errors.New("web: no network")
	}
	switch cfg.Game {
	case "":
		cfg.Game = Game2048
	case Game2048:
	case GameThrees:
		if err := threeslearn.CheckSpec(cfg.Net.Spec()); err != nil {
			return nil, fmt.Errorf("web: %v", err)
		}
		if cfg.Kind != search.AfterState {
			return nil, errors.New("web: Threes! networks are after-state networks")
		}
	default:
		return nil, fmt.Errorf("web: game %q: want %s or %s", cfg.Game, Game2048, GameThrees)
	}
	if cfg.MaxDepth <= 0 {
		cfg.MaxDepth = 4
	}
	if cfg.MaxDepth > 4 {
		return nil, fmt.Errorf("web: max depth %d: the page searches at most 4 plies", cfg.MaxDepth)
	}
	if cfg.MoveTime <= 0 {
		cfg.MoveTime = 250 * time.Millisecond
	}
	if cfg.MaxSearches <= 0 {
		cfg.MaxSearches = runtime.GOMAXPROCS(0)
	}
	if cfg.MaxRequests <= 0 {
		cfg.MaxRequests = 64
	}
	if cfg.QueueWait <= 0 {
		cfg.QueueWait = 2 * time.Second
	}
	if cfg.Learner == "" {
		cfg.Learner = "after"
		if cfg.Kind == search.State {
			cfg.Learner = "state"
		}
	}
	if cfg.Network == "" {
		cfg.Network = cfg.Net.Spec().String()
	}
	s := &Server{
		cfg:      cfg,
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
		if _, err := s.curve(); err != nil {
			return nil, err
		}
	}
	s.mux.HandleFunc("GET /{$}", s.page)
	s.mux.HandleFunc("GET /static/{name}", s.static)
	s.api("GET", "/api/info", s.info)
	s.api("GET", "/api/curve", s.curveHandler)
	s.api("POST", "/api/new", s.newGame)
	s.api("POST", "/api/move", s.move)
	s.api("POST", "/api/hint", s.hint)
	s.api("POST", "/api/agent", s.agent)
	s.mux.HandleFunc("/api/", s.apiFallback)
	s.mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "404 page not found", http.StatusNotFound)
	})
	return s, nil
}

// loadAssets reads the embedded files once, with their types and tags.
func (s *Server) loadAssets() error {
	s.assets = map[string]asset{}
	return fs.WalkDir(staticFS, "static", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := staticFS.ReadFile(p)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(data)
		ctype := mime.TypeByExtension(path.Ext(p))
		if ctype == "" {
			ctype = "application/octet-stream"
		}
		s.assets[strings.TrimPrefix(p, "static/")] = asset{data, ctype, `"` + hex.EncodeToString(sum[:8]) + `"`}
		return nil
	})
}

// ServeHTTP checks the host, sets the headers every answer carries and
// routes the request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'")
	if s.cfg.LoopbackOnly && !loopbackHost(r.Host) {
		if strings.HasPrefix(r.URL.Path, "/api/") {
			jsonError(w, http.StatusMisdirectedRequest, "this server answers only requests for a loopback host (localhost, 127.0.0.1, [::1])")
		} else {
			http.Error(w, "this server answers only requests for a loopback host", http.StatusMisdirectedRequest)
		}
		return
	}
	s.mux.ServeHTTP(w, r)
}

// loopbackHost reports whether a Host header names this machine.
func loopbackHost(host string) bool {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func (s *Server) page(w http.ResponseWriter, r *http.Request) {
	s.serveAsset(w, r, "index.html")
}

// static serves one embedded file by its name; there are no folders, so no
// name can lead anywhere but to an embedded file.
func (s *Server) static(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	if name == "index.html" {
		http.Redirect(w, r, "/", http.StatusMovedPermanently)
		return
	}
	s.serveAsset(w, r, name)
}

func (s *Server) serveAsset(w http.ResponseWriter, r *http.Request, name string) {
	a, ok := s.assets[name]
	if !ok {
		http.Error(w, "404 page not found", http.StatusNotFound)
		return
	}
	h := w.Header()
	h.Set("Content-Type", a.ctype)
	h.Set("Cache-Control", "no-cache")
	h.Set("ETag", a.etag)
	http.ServeContent(w, r, name, time.Time{}, bytes.NewReader(a.data))
}

// An apiHandler answers one API request; body is the request's body,
// read whole (nil for a GET).
type apiHandler func(w http.ResponseWriter, r *http.Request, body []byte)

// api registers a JSON handler for one method and path. A POST's body is
// read whole first, under the connection's read deadline
// (HTTPServer.ReadTimeout), and only then does the request take a place
// among the requests in progress: a client sending slowly ties up its own
// connection, never a place that other requests wait for.
func (s *Server) api(method, p string, h apiHandler) {
	s.routes[p] = method
	s.mux.HandleFunc(method+" "+p, func(w http.ResponseWriter, r *http.Request) {
		var body []byte
		if method == http.MethodPost {
			var err error
			if body, err = readBody(w, r); err != nil {
				fail(w, err)
				return
			}
		}
		if !s.acquire(r.Context(), s.requests) {
			busy(w)
			return
		}
		defer func() { <-s.requests }()
		h(w, r, body)
	})
}

// apiFallback answers API paths that match no route: 405 for a known path
// with another method, else 404, both as JSON.
func (s *Server) apiFallback(w http.ResponseWriter, r *http.Request) {
	if m, ok := s.routes[r.URL.Path]; ok {
		w.Header().Set("Allow", m)
		jsonError(w, http.StatusMethodNotAllowed, fmt.Sprintf("%s wants %s, not %s", r.URL.Path, m, r.Method))
		return
	}
	jsonError(w, http.StatusNotFound, fmt.Sprintf("no API at %s", r.URL.Path))
}

// searchPlace takes a place among the searches running at once, for a
// request whose arguments have been read and checked. It answers 503 and
// returns false when none comes free within QueueWait; else the caller
// must call s.searchDone.
func (s *Server) searchPlace(w http.ResponseWriter, r *http.Request) bool {
	if !s.acquire(r.Context(), s.searches) {
		busy(w)
		return false
	}
	return true
}

func (s *Server) searchDone() { <-s.searches }

// acquire takes a place in sem, waiting at most QueueWait.
func (s *Server) acquire(ctx context.Context, sem chan struct{}) bool {
	select {
	case sem <- struct{}{}:
		return true
	default:
	}
	t := time.NewTimer(s.cfg.QueueWait)
	defer t.Stop()
	select {
	case sem <- struct{}{}:
		return true
	case <-t.C:
	case <-ctx.Done():
	}
	return false
}

func busy(w http.ResponseWriter) {
	w.Header().Set("Retry-After", "1")
	jsonError(w, http.StatusServiceUnavailable, "the server is busy: try again in a moment")
}

func jsonError(w http.ResponseWriter, code int, msg string) {
	writeJSON(w, code, map[string]string{"error": msg})
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		code, b = http.StatusInternalServerError, []byte(`{"error":"cannot encode the answer"}`)
	}
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	w.Write(append(b, '\n'))
}

// A requestError is a bad request: its status and message.
type requestError struct {
	code int
	msg  string
}

func (e *requestError) Error() string { return e.msg }

func badRequest(format string, a ...any) error {
	return &requestError{http.StatusBadRequest, fmt.Sprintf(format, a...)}
}

// readBody reads a request's JSON body whole, at most MaxBody bytes,
// refusing other content types. A body that does not come within the
// connection's read deadline is refused with 408 (503 when the server is
// stopping and cut the read short).
func readBody(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	ct, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || ct != "application/json" {
		return nil, &requestError{http.StatusUnsupportedMediaType, "the body must be JSON (Content-Type: application/json)"}
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBody))
	if err != nil {
		var tooBig *http.MaxBytesError
		var netErr net.Error
		switch {
		case errors.As(err, &tooBig):
			return nil, &requestError{http.StatusRequestEntityTooLarge, fmt.Sprintf("the body is larger than %d bytes", MaxBody)}
		case errors.As(err, &netErr) && netErr.Timeout() && errors.Is(context.Cause(r.Context()), errStopping):
			return nil, &requestError{http.StatusServiceUnavailable, errStopping.Error()}
		case errors.As(err, &netErr) && netErr.Timeout():
			return nil, &requestError{http.StatusRequestTimeout, "the body came too slowly"}
		}
		return nil, badRequest("reading the body: %v", err)
	}
	return body, nil
}

// decode reads one JSON object from body into v, refusing unknown fields
// and trailing data.
func decode(body []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var typeErr *json.UnmarshalTypeError
		switch {
		case errors.Is(err, io.EOF):
			return badRequest("the body is empty: want a JSON object")
		case errors.As(err, &typeErr) && typeErr.Field != "":
			return badRequest("field %q: want %s", typeErr.Field, typeErr.Type)
		}
		return badRequest("bad JSON: %v", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return badRequest("bad JSON: data after the object")
	}
	return nil
}

// fail answers a request error (or any other error as 500).
func fail(w http.ResponseWriter, err error) {
	var re *requestError
	if errors.As(err, &re) {
		jsonError(w, re.code, re.msg)
		return
	}
	jsonError(w, http.StatusInternalServerError, err.Error())
}

// checkGame accepts the server's game, named or left out.
func (s *Server) checkGame(g string) error {
	switch g {
	case "", s.cfg.Game:
		return nil
	case Game2048, GameThrees:
		return badRequest("game %q: this server plays %s only (its weights are for %s; serve %s weights to play %s)",
			g, gameTitle(s.cfg.Game), gameTitle(s.cfg.Game), gameTitle(g), gameTitle(g))
	}
	return badRequest("game %q: want %q or %q (this server plays %s)", g, Game2048, GameThrees, s.cfg.Game)
}

func (s *Server) threes() bool { return s.cfg.Game == GameThrees }

// noThreesFields refuses the fields of Threes! requests in a 2048 one.
func (s *Server) noThreesFields(hint *int, bag []int) error {
	if !s.threes() && (hint != nil || bag != nil) {
		return badRequest("hint and bag are fields of Threes! requests; this server plays 2048")
	}
	return nil
}

// parsePosition reads the position of a request: a board, and in
// Threes! the next tile (the field hint) and the bag. needBag says
// whether a Threes! request without a bag is an error or means the full
// bag.
func (s *Server) parsePosition(boardArg string, hint *int, bag []int, needBag bool) (session.Position, error) {
	if s.threes() {
		return parseThrees(boardArg, hint, bag, needBag)
	}
	b, err := parseBoard(boardArg)
	return session.Position{Board: b}, err
}

// parseThrees reads a Threes! position: the board, the next tile and the
// bag. needBag says whether a missing bag is an error or the full bag.
func parseThrees(boardArg string, hint *int, bag []int, needBag bool) (session.Position, error) {
	var g session.Position
	if boardArg == "" {
		return g, badRequest("board is missing: want \"0x\" and 16 hex digits, as a state's board")
	}
	if len(boardArg) > 200 {
		return g, badRequest("board is too long")
	}
	b, err := threes.Parse(boardArg)
	if err != nil {
		return g, badRequest("%v (Threes! tiles are 1, 2, 3, 6, 12, ..., 6144)", err)
	}
	g.Board = b
	if hint == nil {
		return g, badRequest("hint is missing: want the next tile, 1, 2 or 3")
	}
	if *hint < 1 || *hint > 3 {
		return g, badRequest("hint %d: want the next tile, 1, 2 or 3", *hint)
	}
	g.Next = *hint
	if bag == nil {
		if needBag {
			return g, badRequest("bag is missing: want the tiles not yet drawn, a list of 1, 2 and 3 such as [1,3]")
		}
		g.Bag = threes.FullBag
		return g, nil
	}
	if len(bag) == 0 {
		return g, badRequest("bag is empty: it is refilled when its last tile is drawn, so it holds 1 to 3 tiles")
	}
	for _, t := range bag {
		switch {
		case t < 1 || t > 3:
			return g, badRequest("bag holds %d: its tiles are 1, 2 and 3", t)
		case g.Bag.Has(t):
			return g, badRequest("bag holds %d twice: it holds each of 1, 2 and 3 at most once", t)
		}
		g.Bag |= 1 << uint(t-1)
	}
	if g.Bag != threes.FullBag && g.Bag.Has(g.Next) {
		return g, badRequest("hint %d is still in the bag %v: the hint was drawn from it (only a bag just refilled holds all three tiles)", g.Next, bag)
	}
	return g, nil
}

func parseBoard(s string) (board.Board, error) {
	if s == "" {
		return 0, badRequest("board is missing: want \"0x\" and 16 hex digits, as a state's board")
	}
	if len(s) > 200 {
		return 0, badRequest("board is too long")
	}
	b, err := board.Parse(s)
	if err != nil {
		return 0, badRequest("%v", err)
	}
	return b, nil
}

func parseDir(s string) (int, error) {
	for d, n := range session.DirNames {
		if s == n {
			return d, nil
		}
	}
	return 0, badRequest("dir %q: want up, right, down or left", s)
}

func (s *Server) parseDepth(d *int) (int, error) {
	if d == nil {
		return 1, nil
	}
	if *d < 1 || *d > s.cfg.MaxDepth {
		return 0, badRequest("depth %d: want 1 to %d", *d, s.cfg.MaxDepth)
	}
	return *d, nil
}

// Info is the answer of GET /api/info.
type Info struct {
	// Games are the games the server plays: its weights' game alone.
	Games    []string `json:"games"`
	Network  string   `json:"network"`
	Learner  string   `json:"learner"`
	Episodes int64    `json:"episodes"`
	MaxDepth int      `json:"maxDepth"`
	MoveMS   int64    `json:"moveTimeMs"`
	Curve    bool     `json:"curve"`
}

func (s *Server) info(w http.ResponseWriter, r *http.Request, _ []byte) {
	writeJSON(w, http.StatusOK, Info{
		Games: []string{s.cfg.Game}, Network: s.cfg.Network, Learner: s.cfg.Learner,
		Episodes: s.cfg.Episodes, MaxDepth: s.cfg.MaxDepth,
		MoveMS: s.cfg.MoveTime.Milliseconds(), Curve: s.cfg.LogPath != "",
	})
}

// State is a game as the page holds it.
type State struct {
	Game  string `json:"game"`
	Board string `json:"board"`
	Seed  uint64 `json:"seed"`
	Over  bool   `json:"over"`
	// Tiles are the sixteen tile values, row by row from the top left.
	Tiles [16]int `json:"tiles"`
	// Threes! only: the next tile, the tiles not yet drawn (in increasing
	// order) and the score, the board's value.
	Hint  int   `json:"hint,omitempty"`
	Bag   []int `json:"bag,omitempty"`
	Score *int  `json:"score,omitempty"`
}

// stateOf is the state of a session's game as the page holds it.
func stateOf(ss *session.Session) State {
	st := State{Game: ss.Game(), Board: ss.Board().Hex(), Seed: ss.Seed(), Over: ss.Over(), Tiles: ss.Tiles()}
	if next := ss.Next(); next != 0 { // a game with a next tile, a bag and a score on the board: Threes!
		score := ss.Score()
		st.Hint, st.Bag, st.Score = next, ss.Bag().Tiles(), &score
	}
	return st
}

type newRequest struct {
	Game string  `json:"game"`
	Seed *uint64 `json:"seed"`
}

func (s *Server) newGame(w http.ResponseWriter, r *http.Request, body []byte) {
	var req newRequest
	if err := decode(body, &req); err != nil {
		fail(w, err)
		return
	}
	if err := s.checkGame(req.Game); err != nil {
		fail(w, err)
		return
	}
	seed := rand.Uint64() & MaxSeed
	if req.Seed != nil {
		if *req.Seed > MaxSeed {
			fail(w, badRequest("seed %d: want 0 to 2^53-1", *req.Seed))
			return
		}
		seed = *req.Seed
	}
	ss, err := session.New(s.cfg.Game, seed)
	if err != nil {
		fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, stateOf(ss))
}

type moveRequest struct {
	Game  string `json:"game"`
	Board string `json:"board"`
	Dir   string `json:"dir"`
	Seed  uint64 `json:"seed"`
	N     int    `json:"n"` // moves made so far in this game
	// Threes! only.
	Hint *int  `json:"hint"`
	Bag  []int `json:"bag"`
}

// MoveResult is the answer of POST /api/move.
type MoveResult struct {
	Dir   string `json:"dir"`
	Legal bool   `json:"legal"`
	// After is the board right after the slide; Reward its merge reward.
	After  string `json:"after,omitempty"`
	Reward int    `json:"reward"`
	// Spawn is the cell (0..15) that received the new tile, -1 for none.
	Spawn int `json:"spawn"`
	// Overflow: the slide merged two 32768s, which ends the game.
	Overflow bool `json:"overflow,omitempty"`
	// Placed is the tile put on Spawn in Threes! (the hint of the request).
	Placed int `json:"placed,omitempty"`
	State
}

func (s *Server) move(w http.ResponseWriter, r *http.Request, body []byte) {
	var req moveRequest
	if err := decode(body, &req); err != nil {
		fail(w, err)
		return
	}
	if err := s.checkGame(req.Game); err != nil {
		fail(w, err)
		return
	}
	if err := s.noThreesFields(req.Hint, req.Bag); err != nil {
		fail(w, err)
		return
	}
	p, err := s.parsePosition(req.Board, req.Hint, req.Bag, true)
	if err != nil {
		fail(w, err)
		return
	}
	d, err := parseDir(req.Dir)
	if err != nil {
		fail(w, err)
		return
	}
	if req.Seed > MaxSeed {
		fail(w, badRequest("seed %d: want 0 to 2^53-1", req.Seed))
		return
	}
	if req.N < 0 || req.N >= MaxMoves {
		fail(w, badRequest("n %d: want 0 to %d", req.N, MaxMoves-1))
		return
	}
	ss, err := session.Resume(s.cfg.Game, req.Seed, req.N, p)
	if err != nil {
		fail(w, badRequest("%v", err))
		return
	}
	writeJSON(w, http.StatusOK, moveResult(ss, d))
}

// moveResult plays direction d in the game ss, as move ss.Len()+1 of it.
// An illegal slide is an answer, not an error: the game is unchanged.
func moveResult(ss *session.Session, d int) MoveResult {
	r := ss.Apply(d)
	res := MoveResult{Dir: session.DirNames[d], Legal: r.Legal, Reward: r.Reward, Spawn: r.Cell, Overflow: r.Overflow, State: stateOf(ss)}
	if r.Legal {
		res.After = r.After.Hex()
		if r.Next != 0 { // Threes! says which tile it placed
			res.Placed = r.Value
		}
	}
	return res
}

type searchRequest struct {
	Game  string `json:"game"`
	Board string `json:"board"`
	Depth *int   `json:"depth"`
	// Threes! only.
	Hint *int  `json:"hint"`
	Bag  []int `json:"bag"`
}

// searchArgs reads and checks a search request's arguments, answering
// the request when they are wrong.
func (s *Server) searchArgs(w http.ResponseWriter, body []byte) (session.Position, int, bool) {
	var req searchRequest
	var p session.Position
	if err := decode(body, &req); err != nil {
		fail(w, err)
		return p, 0, false
	}
	if err := s.checkGame(req.Game); err != nil {
		fail(w, err)
		return p, 0, false
	}
	if err := s.noThreesFields(req.Hint, req.Bag); err != nil {
		fail(w, err)
		return p, 0, false
	}
	p, err := s.parsePosition(req.Board, req.Hint, req.Bag, false)
	if err != nil {
		fail(w, err)
		return p, 0, false
	}
	d, err := s.parseDepth(req.Depth)
	if err != nil {
		fail(w, err)
		return p, 0, false
	}
	return p, d, true
}

// MoveValue is one move of a hint.
type MoveValue struct {
	Dir   string `json:"dir"`
	Legal bool   `json:"legal"`
	// Reward of the slide, Value of what lies below (V of the after-state
	// at depth 1), Total their sum: what the search maximises.
	Reward int     `json:"reward"`
	Value  float64 `json:"value"`
	Total  float64 `json:"total"`
}

// Hint is the answer of POST /api/hint.
type Hint struct {
	Board string       `json:"board"`
	Moves [4]MoveValue `json:"moves"`
	Best  *string      `json:"best"` // null when no move is legal
	// Depth is the depth searched: the one asked for unless the time
	// budget ran short, then less.
	Depth     int   `json:"depth"`
	Requested int   `json:"requested"`
	Micros    int64 `json:"us"`
}

func (s *Server) searcher(depth int, moveTime time.Duration) *search.Searcher {
	return search.NewSearcher(s.cfg.Net, search.Options{Depth: depth, MoveTime: moveTime, Kind: s.cfg.Kind}, s.tt)
}

// deepen runs values at depth 1, then deeper up to depth while the next
// depth is expected to finish within the server's time budget (each depth
// costs some tens of times the one before). It returns the deepest
// answer and its depth.
func (s *Server) deepen(depth int, values func(d int) [4]MoveValue) ([4]MoveValue, int) {
	start := time.Now()
	mv := values(1)
	got := 1
	last, growth := time.Since(start), time.Duration(20)
	for d := 2; d <= depth; d++ {
		if time.Since(start)+max(last, 20*time.Microsecond)*growth > s.cfg.MoveTime {
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

// bestMove is the legal move of largest total, -1 for none; ties go to the
// first in up, right, down, left order.
func bestMove(mv *[4]MoveValue) int {
	best := -1
	for d := range 4 {
		if mv[d].Legal && (best < 0 || mv[d].Total > mv[best].Total) {
			best = d
		}
	}
	return best
}

func makeHint(b board.Board, mv [4]MoveValue, got, depth int, start time.Time) Hint {
	h := Hint{Board: b.Hex(), Moves: mv, Depth: got, Requested: depth, Micros: time.Since(start).Microseconds()}
	if best := bestMove(&h.Moves); best >= 0 {
		h.Best = &h.Moves[best].Dir
	}
	return h
}

// Values returns the hint for b at depth plies, deepening from 1 and
// stopping early when the next depth is not expected to finish within the
// server's time budget.
func (s *Server) Values(b board.Board, depth int) Hint {
	start := time.Now()
	sr := s.searcher(depth, 0)
	mv, got := s.deepen(depth, func(depth int) [4]MoveValue {
		v := sr.Values(b, depth)
		var mv [4]MoveValue
		for d := range 4 {
			mv[d] = MoveValue{Dir: game.DirNames[d], Legal: v[d].Legal}
			if v[d].Legal {
				mv[d].Reward = game.Reward(v[d].Reward)
				mv[d].Value, mv[d].Total = float64(v[d].Value), float64(v[d].Total)
			}
		}
		return mv
	})
	return makeHint(b, mv, got, depth, start)
}

// ThreesValues is Values for a Threes! game: its board, hint and bag.
func (s *Server) ThreesValues(g *threes.Game, depth int) Hint {
	start := time.Now()
	mv, got := s.deepen(depth, s.threesValues(g))
	return makeHint(g.Board, mv, got, depth, start)
}

func (s *Server) threesValues(g *threes.Game) func(d int) [4]MoveValue {
	sr := threeslearn.NewSearcher(s.cfg.Net, threeslearn.Options{Depth: s.cfg.MaxDepth}, s.tt)
	return func(depth int) [4]MoveValue {
		v := sr.Values(g, depth)
		var mv [4]MoveValue
		for d := range 4 {
			mv[d] = MoveValue{Dir: threes.DirNames[d], Legal: v[d].Legal}
			if v[d].Legal {
				mv[d].Reward = v[d].Reward
				mv[d].Value, mv[d].Total = float64(v[d].Value), float64(v[d].Total)
			}
		}
		return mv
	}
}

func (s *Server) hint(w http.ResponseWriter, r *http.Request, body []byte) {
	p, depth, ok := s.searchArgs(w, body)
	if !ok || !s.searchPlace(w, r) {
		return
	}
	defer s.searchDone()
	if s.threes() {
		g := p.ThreesGame()
		writeJSON(w, http.StatusOK, s.ThreesValues(&g, depth))
		return
	}
	writeJSON(w, http.StatusOK, s.Values(p.Board, depth))
}

// Agent is the answer of POST /api/agent.
type Agent struct {
	Board  string  `json:"board"`
	Dir    *string `json:"dir"` // null when no move is legal
	Value  float64 `json:"value"`
	Depth  int     `json:"depth"`
	Micros int64   `json:"us"`
}

// Choose returns the network's move on b, searched to depth plies or as
// deep as the time budget allows.
func (s *Server) Choose(b board.Board, depth int) Agent {
	start := time.Now()
	a := Agent{Board: b.Hex(), Depth: 1}
	var c search.Choice
	if depth == 1 {
		c = s.searcher(1, 0).Best(b)
	} else {
		c, a.Depth = s.searcher(depth, s.cfg.MoveTime).BestTimed(b)
	}
	if c.Legal() {
		a.Dir = &game.DirNames[c.Dir]
		a.Value = float64(c.Value)
	}
	a.Micros = time.Since(start).Microseconds()
	return a
}

// ThreesChoose is Choose for a Threes! game: the network's slide,
// searched to depth plies or as deep as the time budget is expected to
// allow (a Threes! search is not cut short once begun).
func (s *Server) ThreesChoose(g *threes.Game, depth int) Agent {
	start := time.Now()
	a := Agent{Board: g.Board.Hex(), Depth: 1}
	var c threeslearn.Choice
	if depth == 1 {
		c = threeslearn.Greedy(s.cfg.Net, g.Board, g.Hint)
		if c.Legal() {
			a.Dir, a.Value = &threes.DirNames[c.Dir], float64(c.Value)
		}
	} else {
		var mv [4]MoveValue
		mv, a.Depth = s.deepen(depth, s.threesValues(g))
		if best := bestMove(&mv); best >= 0 {
			a.Dir, a.Value = &threes.DirNames[best], mv[best].Total
		}
	}
	a.Micros = time.Since(start).Microseconds()
	return a
}

func (s *Server) agent(w http.ResponseWriter, r *http.Request, body []byte) {
	p, depth, ok := s.searchArgs(w, body)
	if !ok || !s.searchPlace(w, r) {
		return
	}
	defer s.searchDone()
	if s.threes() {
		g := p.ThreesGame()
		writeJSON(w, http.StatusOK, s.ThreesChoose(&g, depth))
		return
	}
	writeJSON(w, http.StatusOK, s.Choose(p.Board, depth))
}

// curvePoint is one block of the training curve.
type curvePoint struct {
	Episodes int64   `json:"episodes"`
	Avg      float64 `json:"avg"`
	Max      int     `json:"max"`
	Reach    float64 `json:"reach"` // share of games reaching the goal tile (2048, or 3072 in Threes!)
}

// goal is the tile whose reach the curve draws: 2048, or 3072 in Threes!.
func (s *Server) goal() int {
	if s.threes() {
		return 3072
	}
	return 2048
}

// curve reads the metrics log again when it has changed.
func (s *Server) curve() ([]curvePoint, error) {
	s.logMu.Lock()
	defer s.logMu.Unlock()
	fi, err := os.Stat(s.cfg.LogPath)
	if err != nil {
		return nil, fmt.Errorf("metrics log: %w", err)
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("metrics log %s is not a regular file", s.cfg.LogPath)
	}
	st := logStamp{fi.Size(), fi.ModTime()}
	if st == s.logStamp && (s.logCurve != nil || s.logErr != nil) {
		return s.logCurve, s.logErr
	}
	if fi.Size() > maxLog {
		return nil, fmt.Errorf("metrics log %s is larger than %d MiB", s.cfg.LogPath, maxLog>>20)
	}
	f, err := os.Open(s.cfg.LogPath)
	if err != nil {
		return nil, fmt.Errorf("metrics log: %w", err)
	}
	defer f.Close()
	recs, err := stats.ReadLog(io.LimitReader(f, maxLog))
	s.logStamp, s.logCurve, s.logOther, s.logErr = st, []curvePoint{}, 0, nil
	if err != nil {
		s.logErr = fmt.Errorf("metrics log %s: %v", s.cfg.LogPath, err)
		return nil, s.logErr
	}
	for _, r := range recs {
		g := r.Game
		if g == "" {
			g = Game2048 // logs written before Threes! came
		}
		if g != s.cfg.Game {
			s.logOther++
			continue
		}
		s.logCurve = append(s.logCurve, curvePoint{r.Episodes, r.Avg, r.Max, r.ReachOf(s.goal())})
	}
	return s.logCurve, nil
}

func (s *Server) curveHandler(w http.ResponseWriter, r *http.Request, _ []byte) {
	if s.cfg.LogPath == "" {
		jsonError(w, http.StatusNotFound, "no metrics log: start serve with --log FILE")
		return
	}
	c, err := s.curve()
	if err != nil {
		jsonError(w, http.StatusInternalServerError, err.Error())
		return
	}
	s.logMu.Lock()
	other := s.logOther
	s.logMu.Unlock()
	// other counts the blocks of another game's training, which the curve
	// leaves out: the page says so when they are all there is.
	writeJSON(w, http.StatusOK, map[string]any{"game": s.cfg.Game, "goal": s.goal(), "points": c, "other": other})
}

// HTTPServer returns an http.Server for h with timeouts and limits fit for
// a page and its small API.
func HTTPServer(h http.Handler) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       10 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    16 << 10,
	}
}

// errStopping is the cause of the requests' contexts' end when Serve
// shuts down.
var errStopping = errors.New("the server is stopping")

// Serve answers on ln until ctx is cancelled, then shuts down cleanly and
// promptly: it stops accepting connections, closes the idle ones, and
// abandons the requests still coming in (a half-sent request's headers or
// body do not hold the server up: its connection's reads fail at once);
// the requests under way (their contexts cancelled) may finish for at
// most grace, and any still running then are cut off. Serve returns nil
// once every handler has returned, so that the caller may free what they
// use.
func Serve(ctx context.Context, ln net.Listener, h http.Handler, grace time.Duration) error {
	base, stopping := context.WithCancelCause(context.Background())
	defer stopping(nil)
	var (
		mu      sync.Mutex
		running int // handlers running
		idle    = sync.NewCond(&mu)
		conns   = map[net.Conn]http.ConnState{}
	)
	srv := HTTPServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		running++
		mu.Unlock()
		defer func() {
			mu.Lock()
			if running--; running == 0 {
				idle.Broadcast()
			}
			mu.Unlock()
		}()
		h.ServeHTTP(w, r)
	}))
	srv.BaseContext = func(net.Listener) context.Context { return base }
	srv.ConnState = func(c net.Conn, st http.ConnState) {
		mu.Lock()
		defer mu.Unlock()
		if st == http.StateClosed || st == http.StateHijacked {
			delete(conns, c)
		} else {
			conns[c] = st
		}
	}
	// Once the listener is closed, a connection that is not idle is
	// reading a request's headers or body, or has read them all: its next
	// read fails now. Shutdown closes the idle ones itself.
	srv.RegisterOnShutdown(func() {
		mu.Lock()
		defer mu.Unlock()
		for c, st := range conns {
			if st != http.StateIdle {
				c.SetReadDeadline(time.Now())
			}
		}
	})
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	stopping(errStopping)
	sctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		srv.Close() // grace is over: cut off what still runs
	}
	err := <-done
	mu.Lock()
	for running > 0 {
		idle.Wait()
	}
	mu.Unlock()
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	return err
}
