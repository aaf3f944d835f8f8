// Package advice is one board's moves as td2048 reports them to people and
// programs: each move's legality, after-state, reward and value, the best
// marked. The hint command prints it (as text or JSON) and the Python
// package returns it, so both report the same fields.
package advice

import (
	"time"

	"github.com/td2048/td2048/board"
	"github.com/td2048/td2048/games"
	"github.com/td2048/td2048/search"
	"github.com/td2048/td2048/session"
)

// A Move is one move of a hint; JSON null for what an illegal move lacks.
type Move struct {
	Dir    string  `json:"dir"`
	Legal  bool    `json:"legal"`
	After  *string `json:"after"`
	Reward *int    `json:"reward"`
	// ViewReward is the move's reward on the board valued (View), when
	// that is not Reward: what the search adds to Value in Total.
	ViewReward *int     `json:"view_reward,omitempty"`
	Cells      []int    `json:"cells,omitempty"` // Threes!: where the next tile may go
	Value      *float32 `json:"value,omitempty"`
	Total      *float32 `json:"total,omitempty"`
	// Visits: MCTS's iterations through the move (Value is then their
	// mean).
	Visits *int64 `json:"visits,omitempty"`

	// ViewAfter is the view's after-state, for text output; Picture the
	// real after-state's picture when it holds tiles past 32768.
	ViewAfter board.Board `json:"-"`
	Picture   string      `json:"-"`
}

// A Hint is the moves of one position.
type Hint struct {
	Board string `json:"board"`
	// View is the board the moves were valued on when it is not Board: a
	// 2048 board past 32768, or with downgrades under way, lowered into
	// the gaps below its large tiles (board.Wide.View). After-states and
	// rewards are the real board's.
	View  *string `json:"view,omitempty"`
	Next  int     `json:"next,omitempty"` // Threes!: the next tile
	Moves []Move  `json:"moves"`
	Best  *string `json:"best"`
	// Depth is the depth searched when the deadline (--move-time) cut the
	// search short of --depth: the deepest finished within it.
	Depth int `json:"depth,omitempty"`
	// With MCTS: the iterations, and the deepest layer of moves the trees
	// reached.
	Iterations int64 `json:"iterations,omitempty"`
	TreeDepth  int   `json:"tree_depth,omitempty"`
	// With --downgrade: the downgrades under way (--downgrades), and
	// whether the best move fails TDL2048+'s test, so that the game's
	// next decisions are made with one more.
	Downgrades *int  `json:"downgrades,omitempty"`
	Triggers   *bool `json:"triggers,omitempty"`
	// Within is that deadline, for text output.
	Within time.Duration `json:"-"`
}

// Searched records in h how the search of mv went: for MCTS its
// iterations and the depth of moves its trees reached (done); for
// expectimax, the depth finished (done) when the deadline moveTime cut it
// short of depth.
func (h *Hint) Searched(mv *[4]search.MoveValue, done int, mcts bool, depth int, moveTime time.Duration) {
	switch {
	case mcts:
		for d := range mv {
			h.Iterations += mv[d].Visits
		}
		h.TreeDepth = done
	case moveTime > 0 && done < depth:
		h.Depth, h.Within = done, moveTime
	}
}

// Moves completes res with the four moves of p in game g: legality,
// after-state, reward, and when valued the value and reward+value; the
// best is search.BestOf's (by reward alone when not valued). mv are the
// moves of p's view (session.Position.View); the after-states and
// rewards given are those of p's real board. In a game with a next tile
// each move lists where it may go.
func Moves(g *games.Game, p session.Position, mv *[4]search.MoveValue, valued bool, res Hint) Hint {
	b := p.View()
	q := p
	q.Downgrades = 0
	res.Next = p.Next
	for d := range 4 {
		// The move played on the real board (session.Apply, whose rewards
		// count 65536 and up at their values).
		ss, err := session.Resume(g.Name, 0, 0, q)
		if err != nil { // a position Parse gave: cannot happen
			panic(err)
		}
		res.Board = ss.Hex()
		m := Move{Dir: session.DirNames[d], Legal: mv[d].Legal, ViewAfter: b}
		if real := ss.Apply(d); m.Legal {
			h, r := "", 0
			if real.Legal {
				h, r = real.AfterHex(), real.Reward
				if real.AfterExt != 0 {
					m.Picture = board.Wide{Low: real.After, Ext: real.AfterExt}.String()
				}
			}
			m.After, m.Reward, m.ViewAfter = &h, &r, mv[d].After
			if vr := int(mv[d].Reward); vr != r {
				m.ViewReward = &vr
			}
			if g.HasNext {
				m.Cells = g.Cells(mv[d].After, d)
			}
			if valued {
				m.Value, m.Total = &mv[d].Value, &mv[d].Total
			}
			if res.Iterations > 0 {
				m.Visits = &mv[d].Visits
			}
		}
		res.Moves = append(res.Moves, m)
	}
	if res.Board != b.Hex() {
		v := b.Hex()
		res.View = &v
	}
	if c := search.BestOf(mv); c.Legal() {
		res.Best = &res.Moves[c.Dir].Dir
	}
	return res
}
