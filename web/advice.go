package web

// Move advice: POST /api/hint (each move's value) and POST /api/agent
// (the network's move), searched within the server's time budget.

import (
	"net/http"
	"time"

	"github.com/td2048/td2048/board"
	"github.com/td2048/td2048/game"
	"github.com/td2048/td2048/game/threes"
	"github.com/td2048/td2048/search"
	"github.com/td2048/td2048/session"
	"github.com/td2048/td2048/threeslearn"
)

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
