package web

// The game API: the server's game and limits (GET /api/info), a new game
// (POST /api/new) and a move (POST /api/move), played through package
// session; the reading and checking of the arguments they share with the
// searches.

import (
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"

	"github.com/td2048/td2048/games"
	"github.com/td2048/td2048/rules/threes"
	"github.com/td2048/td2048/search"
	"github.com/td2048/td2048/session"
)

// checkGame accepts the server's game, named or left out.
func (s *Server) checkGame(name string) error {
	if name == "" || name == s.game.Name {
		return nil
	}
	if g, err := games.Lookup(name); err == nil {
		return badRequest("game %q: this server plays %s only (its weights are for %s; serve %s weights to play %s)",
			name, s.game.Title, s.game.Title, g.Title, g.Title)
	}
	return badRequest("game %q: want %s (this server plays %s)", name, `"`+strings.Join(games.Names(), `" or "`)+`"`, s.game.Name)
}

// read decodes a request's body into req and accepts the game it names
// (game, a field of req).
func (s *Server) read(body []byte, req any, game *string) error {
	if err := decode(body, req); err != nil {
		return err
	}
	return s.checkGame(*game)
}

// checkSeed accepts a seed the page can hold.
func checkSeed(seed uint64) error {
	if seed > MaxSeed {
		return badRequest("seed %d: want 0 to 2^53-1", seed)
	}
	return nil
}

// parsePosition reads the position of a request: a board, and in a game
// with a next tile (Threes!) the next tile (the field next) and the bag.
// needBag says whether a request of such a game without a bag is an
// error or means the full bag.
//
// A 2048 request may give the tile-downgrades under way in its game
// (downgrades; search.Downgrade.After counts them, and a move's answer
// gives the count after it): the searches value the board lowered by as
// many gaps.
func (s *Server) parsePosition(boardArg string, next *int, bag []int, needBag bool, downgrades *int) (session.Position, error) {
	var p session.Position
	if downgrades != nil && *downgrades != 0 {
		if !s.cfg.Downgrade.On() {
			return p, badRequest("downgrades %d: this server plays without tile-downgrading (serve --downgrade)", *downgrades)
		}
		if *downgrades < 0 || *downgrades > search.MaxDowngrades {
			return p, badRequest("downgrades %d: want 0 to %d", *downgrades, search.MaxDowngrades)
		}
	}
	if boardArg == "" {
		return p, badRequest("board is missing: want \"0x\" and 16 hex digits, as a state's board")
	}
	if len(boardArg) > 200 {
		return p, badRequest("board is too long")
	}
	p, err := s.game.ParseState(boardArg)
	if err != nil {
		return p, badRequest("%v", err)
	}
	if !s.game.HasNext {
		if next != nil || bag != nil {
			return p, badRequest("next and bag are fields of games with a next tile; this server plays %s", s.game.Title)
		}
		if downgrades != nil {
			p.Downgrades = *downgrades
		}
	} else {
		if next == nil {
			return p, badRequest("next is missing: want the next tile, 1, 2 or 3")
		}
		if p, err = s.game.Position(p.Board, *next); err != nil {
			return p, badRequest("next %d: %v", *next, err)
		}
		switch {
		case bag != nil:
			if p.Bag, err = threes.BagOf(bag); err != nil {
				return p, badRequest("%v", err)
			}
		case needBag:
			return p, badRequest("bag is missing: want the tiles not yet drawn, a list of 1, 2 and 3 such as [1,3]")
		}
	}
	if err := session.Check(s.game.Name, &p); err != nil {
		return p, badRequest("%v", err)
	}
	return p, nil
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

func (s *Server) info(*http.Request, []byte) (any, error) {
	return Info{
		Games: []string{s.cfg.Game}, Network: s.cfg.Network, Learner: s.cfg.Learner,
		Episodes: s.cfg.Episodes, MaxDepth: s.cfg.MaxDepth,
		MoveMS: s.cfg.MoveTime.Milliseconds(), Curve: s.cfg.LogPath != "",
	}, nil
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
	// Downgrades are the tile-downgrades under way (2048 with serve
	// --downgrade), for the game's next requests.
	Downgrades int `json:"downgrades,omitempty"`
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

func (s *Server) newGame(_ *http.Request, body []byte) (any, error) {
	var req newRequest
	if err := s.read(body, &req, &req.Game); err != nil {
		return nil, err
	}
	seed := rand.Uint64() & MaxSeed
	if req.Seed != nil {
		if err := checkSeed(*req.Seed); err != nil {
			return nil, err
		}
		seed = *req.Seed
	}
	ss, err := session.New(s.cfg.Game, seed)
	if err != nil {
		return nil, err
	}
	return stateOf(ss), nil
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
	// Downgrades under way (2048 with tile-downgrading).
	Downgrades *int `json:"downgrades"`
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

func (s *Server) move(_ *http.Request, body []byte) (any, error) {
	var req moveRequest
	if err := s.read(body, &req, &req.Game); err != nil {
		return nil, err
	}
	p, err := s.parsePosition(req.Board, req.Next, req.Bag, true, req.Downgrades)
	if err != nil {
		return nil, err
	}
	d := slices.Index(session.DirNames[:], req.Dir)
	if d < 0 {
		return nil, badRequest("dir %q: want up, right, down or left", req.Dir)
	}
	if err := checkSeed(req.Seed); err != nil {
		return nil, err
	}
	if req.N < 0 || req.N >= MaxMoves {
		return nil, badRequest("n %d: want 0 to %d", req.N, MaxMoves-1)
	}
	ss, err := session.Resume(s.cfg.Game, req.Seed, req.N, p)
	if err != nil {
		return nil, badRequest("%v", err)
	}
	// Move n+1 of the game; an illegal slide is an answer, not an error:
	// the game is unchanged.
	r := ss.Apply(d)
	res := MoveResult{Dir: session.DirNames[d], Legal: r.Legal, Reward: r.Reward, Spawn: r.Cell, Overflow: r.Overflow, State: stateOf(ss)}
	res.Downgrades = p.Downgrades
	if r.Legal {
		res.After = r.AfterHex()
		if r.Next != 0 { // Threes! says which tile it placed
			res.Placed = r.Value
		}
		// The move was decided on the position's view.
		res.Downgrades = s.cfg.Downgrade.After(p.Downgrades, p.View(), d)
	}
	return res, nil
}
