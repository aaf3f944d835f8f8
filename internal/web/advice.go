package web

// Move advice: POST /api/hint (each move's value) and POST /api/agent
// (the network's move), searched within the server's time budget.

import (
	"net/http"
	"time"

	"github.com/td2048/td2048/search"
	"github.com/td2048/td2048/session"
)

type searchRequest struct {
	Game  string `json:"game"`
	Board string `json:"board"`
	Depth *int   `json:"depth"`
	// Threes! only.
	Next *int  `json:"next"`
	Bag  []int `json:"bag"`
	// Downgrades under way (2048 with tile-downgrading).
	Downgrades *int `json:"downgrades"`
}

// searchArgs reads and checks a search request's arguments.
func (s *Server) searchArgs(body []byte) (session.Position, int, error) {
	var req searchRequest
	if err := s.read(body, &req, &req.Game); err != nil {
		return session.Position{}, 0, err
	}
	p, err := s.parsePosition(req.Board, req.Next, req.Bag, false, req.Downgrades)
	switch {
	case err != nil:
		return p, 0, err
	case req.Depth == nil:
		return p, 1, nil
	case *req.Depth < 1 || *req.Depth > s.cfg.MaxDepth:
		return p, 0, badRequest("depth %d: want 1 to %d", *req.Depth, s.cfg.MaxDepth)
	}
	return p, *req.Depth, nil
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
	// Visits are MCTS's iterations through the move (Value is then their
	// mean return); absent under expectimax.
	Visits int64 `json:"visits,omitempty"`
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

// advise searches position p to depth plies, deepening from depth 1
// within the server's time budget (a hard deadline; depth 1 always
// finishes), and returns the moves' values, the depth reached, the
// best move and the microseconds it took.
func (s *Server) advise(p session.Position, depth int) ([4]MoveValue, int, search.Choice, int64) {
	start := time.Now()
	opt := search.Options{Depth: depth, MoveTime: s.cfg.MoveTime, Kind: s.cfg.Kind, Threads: s.cfg.Threads}
	if s.cfg.MCTS.Method == search.MethodMCTS {
		opt.Method, opt.MCTS = search.MethodMCTS, s.cfg.MCTS.MCTS
	}
	v, got := s.game.NewAdvisor(s.cfg.Net, opt, s.tt).Values(p)
	var mv [4]MoveValue
	for d := range 4 {
		mv[d] = MoveValue{Dir: session.DirNames[d], Legal: v[d].Legal}
		if v[d].Legal {
			mv[d].Reward = int(v[d].Reward)
			mv[d].Value, mv[d].Total = float64(v[d].Value), float64(v[d].Total)
			mv[d].Visits = v[d].Visits
		}
	}
	return mv, got, search.BestOf(&v), time.Since(start).Microseconds()
}

// Values returns the hint for position p at depth plies, or as deep as
// the time budget allows.
func (s *Server) Values(p session.Position, depth int) Hint {
	mv, got, c, us := s.advise(p, depth)
	h := Hint{Board: p.View().Hex(), Moves: mv, Depth: got, Requested: depth, Micros: us}
	if c.Legal() {
		h.Best = &h.Moves[c.Dir].Dir
	}
	return h
}

// searchAPI is the handler of a search request (hint or agent): answer
// runs in a place among the searches running at once, taken once the
// request's arguments have been read and checked.
func searchAPI[T any](s *Server, answer func(p session.Position, depth int) T) apiHandler {
	return func(r *http.Request, body []byte) (any, error) {
		p, depth, err := s.searchArgs(body)
		if err != nil {
			return nil, err
		}
		if !s.acquire(r.Context(), s.searches) {
			return nil, errBusy
		}
		defer func() { <-s.searches }()
		return answer(p, depth), nil
	}
}

// Agent is the answer of POST /api/agent.
type Agent struct {
	Board  string  `json:"board"`
	Dir    *string `json:"dir"` // null when no move is legal
	Value  float64 `json:"value"`
	Depth  int     `json:"depth"`
	Micros int64   `json:"us"`
}

// Choose returns the network's move in position p, searched to depth
// plies or as deep as the time budget allows.
func (s *Server) Choose(p session.Position, depth int) Agent {
	_, got, c, us := s.advise(p, depth)
	a := Agent{Board: p.View().Hex(), Depth: got, Micros: us}
	if c.Legal() {
		a.Dir = &session.DirNames[c.Dir]
		a.Value = float64(c.Value)
	}
	return a
}
