package web

// The game API: the server's game and limits (GET /api/info), a new game
// (POST /api/new) and a move (POST /api/move), played through package
// session; the reading and checking of the arguments they share with the
// searches.

import (
	"math/rand/v2"
	"net/http"

	"github.com/td2048/td2048/board"
	"github.com/td2048/td2048/game/threes"
	"github.com/td2048/td2048/session"
)

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
func (s *Server) noThreesFields(next *int, bag []int) error {
	if !s.threes() && (next != nil || bag != nil) {
		return badRequest("next and bag are fields of Threes! requests; this server plays 2048")
	}
	return nil
}

// parsePosition reads the position of a request: a board, and in
// Threes! the next tile (the field next) and the bag. needBag says
// whether a Threes! request without a bag is an error or means the full
// bag.
func (s *Server) parsePosition(boardArg string, next *int, bag []int, needBag bool) (session.Position, error) {
	if s.threes() {
		return parseThrees(boardArg, next, bag, needBag)
	}
	w, err := parseBoard(boardArg)
	return session.Position{Board: w.Low, Ext: w.Ext}, err
}

// parseThrees reads a Threes! position: the board, the next tile and the
// bag. needBag says whether a missing bag is an error or the full bag.
func parseThrees(boardArg string, next *int, bag []int, needBag bool) (session.Position, error) {
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
	if next == nil {
		return g, badRequest("next is missing: want the next tile, 1, 2 or 3")
	}
	if *next < 1 || *next > 3 {
		return g, badRequest("next %d: want the next tile, 1, 2 or 3", *next)
	}
	g.Next = *next
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
		return g, badRequest("next %d is still in the bag %v: the next tile was drawn from it (only a bag just refilled holds all three tiles)", g.Next, bag)
	}
	return g, nil
}

func parseBoard(s string) (board.Wide, error) {
	if s == "" {
		return board.Wide{}, badRequest("board is missing: want \"0x\" and 16 hex digits, as a state's board")
	}
	if len(s) > 200 {
		return board.Wide{}, badRequest("board is too long")
	}
	w, err := board.ParseWide(s)
	if err != nil {
		return board.Wide{}, badRequest("%v", err)
	}
	return w, nil
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
	Next  int   `json:"next,omitempty"`
	Bag   []int `json:"bag,omitempty"`
	Score *int  `json:"score,omitempty"`
}

// stateOf is the state of a session's game as the page holds it.
func stateOf(ss *session.Session) State {
	st := State{Game: ss.Game(), Board: ss.Hex(), Seed: ss.Seed(), Over: ss.Over(), Tiles: ss.Tiles()}
	if next := ss.Next(); next != 0 { // a game with a next tile, a bag and a score on the board: Threes!
		score := ss.Score()
		st.Next, st.Bag, st.Score = next, ss.Bag().Tiles(), &score
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
	Next *int  `json:"next"`
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
	// Overflow: the slide made the game's first tile past 32768.
	Overflow bool `json:"overflow,omitempty"`
	// Placed is the tile put on Spawn in Threes! (the next tile of the request).
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
	if err := s.noThreesFields(req.Next, req.Bag); err != nil {
		fail(w, err)
		return
	}
	p, err := s.parsePosition(req.Board, req.Next, req.Bag, true)
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
		res.After = r.AfterHex()
		if r.Next != 0 { // Threes! says which tile it placed
			res.Placed = r.Value
		}
	}
	return res
}
