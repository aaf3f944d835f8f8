// Package search chooses moves with a learned value function, for 2048
// and for Threes!: greedy after-state selection (1-ply) and expectimax to
// any depth, under a fixed depth or a time budget with a hard deadline.
//
// The two games share everything but their nodes: one MoveValue, one
// Choice, one best-of-four rule, one Options, one iterative-deepening
// loop, one node counter and one transposition Table. Each game's
// searcher (Searcher for 2048, Threes for Threes!) has its own concrete
// max and chance nodes, so the hot path makes no interface call.
//
// Values are rewards plus V of an after-state, in float32 as the course
// code computes them; ties go to the first direction in up, right, down,
// left order.
//
// 2048 games past 32768 are decided by a Shifter (downgrade.go): on the
// view of the wide board (board.Wide.View) with any 4-bit policy, and
// with TDL2048+'s tile-downgrading when asked (Downgrade).
package search

import (
	"cmp"
	"fmt"
	"math"
	"time"

	"github.com/td2048/td2048/board"
	"github.com/td2048/td2048/rules/game2048"
)

// Kind says what a network values, which decides what a leaf of a search
// is and how a learner learns. It is the one kind of value function in
// td2048: package learn and the faces use this type.
type Kind int

const (
	// AfterState networks value boards right after a slide (the default):
	// moves maximise r + V(s'), a leaf is V(after-state), and V(s'_t)
	// learns toward r_{t+1} + V(s'_{t+1}).
	AfterState Kind = iota
	// State networks value boards before a move: moves maximise
	// r + E[V(s'')], a leaf is the expectation of V over the random tile
	// that follows the slide (2048 only), and V(s_t) learns toward
	// r_t + V(s_{t+1}).
	State
)

// String is the kind's name in weight files and flags.
func (k Kind) String() string {
	if k == State {
		return "state"
	}
	return "after"
}

// ParseKind reads "after" or "state".
func ParseKind(s string) (Kind, error) {
	switch s {
	case "after", "afterstate", "after-state":
		return AfterState, nil
	case "state":
		return State, nil
	}
	return 0, fmt.Errorf("learner %q: want after or state", s)
}

// MaxDepth bounds the depth of a search deepened without a cap, and of
// any Threes! search: the table keys hold depths up to 31.
const MaxDepth = 31

// Options configure a searcher of either game.
type Options struct {
	// Depth in plies: 1 chooses greedily (reward + leaf), 2 adds one chance
	// and max layer below each move, and so on. 0 means 1, or no cap
	// (MaxDepth) when MoveTime is set.
	Depth int
	// MoveTime, when positive, is a hard deadline per move: Best and
	// ValuesTimed deepen from depth 1 until it passes (or Depth, when set,
	// is reached) and answer with the deepest finished search, abandoning
	// the one under way. Depth 1 always finishes.
	MoveTime time.Duration
	// Kind is what the network values; Threes! knows AfterState only.
	Kind Kind
	// Stop, when not nil, interrupts searches once it is closed (a
	// context's Done channel, say): a search checks it every 1024 chance
	// nodes, cuts itself short and reports so through Stopped. A move
	// chosen by a stopped search is not a considered one.
	Stop <-chan struct{}
	// Threads, when more than 1, spreads the search of one move at 2
	// plies and deeper over that many goroutines (team.go), with the
	// values of one goroutine's search, bit for bit: for one game at a
	// time (several games scale better: evaluate.Run's threads). Under
	// MethodMCTS it is the number of trees searched at once (mcts.go).
	Threads int
	// Method is expectimax (the zero value: Depth and MoveTime) or MCTS
	// (MCTS's settings, with MoveTime).
	Method Method
	// MCTS are the settings of MethodMCTS (DefaultMCTS: the course's).
	MCTS MCTSOptions
}

// A MoveValue is one move's expectimax value.
type MoveValue struct {
	Legal  bool
	After  board.Board
	Reward uint32  // the move's reward
	Value  float32 // the value below the after-state (chance node)
	Total  float32 // reward + Value
	// Visits is the number of MCTS iterations through the move (0 under
	// expectimax); Value is then the mean return below the after-state.
	Visits int64
	// overflow: a 2048 slide merged two 32768s. The search values it as
	// any move, its after-state holding 32768 in the merged cell; the game
	// goes on on a wide board (Shifter).
	overflow bool
}

// A Choice is one chosen move, returned at every move of every game, so
// it stays four words: a 2048 move that merged two 32768s is marked by
// game.OverflowBit in Reward (Overflow, Points), not by a fifth field,
// which cost greedy play 8%.
type Choice struct {
	Dir    int         // -1 when no move is legal
	After  board.Board // the after-state
	Reward uint32      // the move's reward, with game.OverflowBit for a 65536 merge
	Value  float32     // reward + value of what lies below
}

// Legal reports whether a move was found.
func (c Choice) Legal() bool { return c.Dir >= 0 }

// Points is the move's reward in points.
func (c Choice) Points() int { return game2048.Reward(c.Reward) }

// Overflow reports a 2048 move that merged two 32768s: After holds 32768
// in the merged cell, and a game loop goes on from the real after-state
// on a wide board (Shifter.Step, game2048.MovesWide).
func (c Choice) Overflow() bool { return game2048.Overflow(c.Reward) }

// NoMove is the choice on a board where no move is legal.
var NoMove = Choice{Dir: -1, Value: float32(math.Inf(-1))}

// BestOf picks the legal move of highest total, the first on ties, or
// NoMove; of MCTS values (Visits), the most visited, ties to the higher
// total.
func BestOf(mv *[4]MoveValue) Choice {
	best, visits := NoMove, int64(-1)
	for d := range mv {
		if mv[d].Visits > visits && mv[d].Legal || mv[d].Visits == visits && mv[d].Legal && mv[d].Total > best.Value {
			visits = mv[d].Visits
			r := mv[d].Reward
			if mv[d].overflow {
				r |= game2048.OverflowBit
			}
			best = Choice{Dir: d, After: mv[d].After, Reward: r, Value: mv[d].Total}
		}
	}
	return best
}

// run is the state of a search that does not depend on the game; each
// game's searcher embeds one.
type run struct {
	opt Options
	tt  *Table
	clock
	aborted bool // the search under way was cut short
	// Nodes counts the chance nodes evaluated, for speed figures.
	Nodes int64
}

// A clock is when a search must end, for a searcher or an MCTS tree.
type clock struct {
	deadline time.Time
	timed    bool
	stopped  bool // by the Stop channel
}

// Stopped reports whether the last search was cut short because Stop was
// closed; its values and choice are then not to be trusted.
func (r *run) Stopped() bool { return r.stopped }

// begin starts a search at one depth: a new search unless it is one depth
// of a timed one.
func (r *run) begin() {
	if !r.timed {
		r.stopped = false
		r.aborted = r.opt.Stop != nil && r.expired(r.opt.Stop)
	}
}

// enter counts a chance node and reports whether the search is to be
// abandoned; the deadline and Stop are checked every 1024 nodes.
func (r *run) enter() bool {
	if r.aborted {
		return true
	}
	r.Nodes++
	return r.Nodes&1023 == 0 && r.check()
}

// check is enter's rare part, kept out of line so that enter inlines.
//
//go:noinline
func (r *run) check() bool {
	r.aborted = r.expired(r.opt.Stop)
	return r.aborted
}

// expired reports whether the search must stop: its deadline passed or
// stop is closed.
func (c *clock) expired(stop <-chan struct{}) bool {
	if stop != nil {
		select {
		case <-stop:
			c.stopped = true
			return true
		default:
		}
	}
	return c.timed && time.Now().After(c.deadline)
}

// deepen returns values at the configured depth, or, with a time budget,
// the values of the deepest search finished within it (deepening from
// depth 1 up to Depth when set, else MaxDepth) with that depth. The
// deadline is hard: a search under way when it passes is abandoned.
func (r *run) deepen(values func(depth int) [4]MoveValue) ([4]MoveValue, int) {
	if r.opt.MoveTime <= 0 {
		return values(r.opt.Depth), r.opt.Depth
	}
	start := time.Now()
	best, depth := values(1), 1
	if r.stopped || !BestOf(&best).Legal() {
		return best, 1
	}
	limit := cmp.Or(max(r.opt.Depth, 0), MaxDepth)
	r.deadline, r.timed = start.Add(r.opt.MoveTime), true
	r.aborted, r.stopped = false, false
	defer func() { r.timed, r.aborted = false, false }()
	for d := 2; d <= limit && !time.Now().After(r.deadline); d++ {
		mv := values(d)
		if r.aborted {
			break
		}
		best, depth = mv, d
	}
	return best, depth
}
