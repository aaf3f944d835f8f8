package search

import (
	"fmt"

	"github.com/td2048/td2048/board"
	"github.com/td2048/td2048/rules/game2048"
)

// Downgrade configures tile-downgrading, TDL2048+'s `-h T STINT`
// evaluation (docs/methods.md §7): once the game makes a tile of Tile or
// more, moves are decided on the board with its large tiles lowered into
// the gaps below them (board.Wide.Downgrade), by one more gap each time a
// decision fails TDL2048+'s test, while the real board is played and its
// real rewards scored. The zero value is off.
type Downgrade struct {
	// Tile is the threshold T, a tile value: a power of two from 4 to
	// 65536 (TDL2048+'s bare -h means 32768); 0 turns downgrading off.
	Tile int
	// Stint is TDL2048+'s STINT: while at most Stint downgrades are under
	// way the threshold stays Tile, after that it is 65536; 0 means
	// unlimited. TDL2048+'s default is 1.
	Stint int
}

// MaxDowngrades is the most downgrades a game can have under way: a
// board has at most 14 gaps to lower its tiles into.
const MaxDowngrades = 15

// On reports whether downgrading is on.
func (d Downgrade) On() bool { return d.Tile > 0 }

// Check reports a threshold that is no power of two from 4 to 65536, or a
// negative stint.
func (d Downgrade) Check() error {
	if d.Tile != 0 && (d.Tile < 4 || d.Tile > 65536 || d.Tile&(d.Tile-1) != 0) {
		return fmt.Errorf("downgrade threshold %d: want a tile from 4 to 65536 (a power of two), or 0 for none", d.Tile)
	}
	if d.Stint < 0 {
		return fmt.Errorf("downgrade stint %d: want 0 (unlimited) or more", d.Stint)
	}
	return nil
}

// threshold is the trigger's threshold with n downgrades under way:
// Tile, or 65536 once n exceeds a Stint that is not 0.
func (d Downgrade) threshold(n int) uint32 {
	if d.Stint > 0 && n > d.Stint {
		return 65536
	}
	return uint32(d.Tile)
}

// After is the number of downgrades under way after the move dir is
// played on the board view, the view of a game with n under way (what
// the move was decided on): one more when the move fails TDL2048+'s test
// (a trigger), else n; n when downgrading is off. Play that keeps its
// state elsewhere (a web page's game, the terminal view) follows a game
// with it, as Shifter does.
func (d Downgrade) After(n int, view board.Board, dir int) int {
	if !d.On() {
		return n
	}
	after, reward := game2048.Moves(view)
	c := NoMove
	if after[dir] != view {
		c = Choice{Dir: dir, After: after[dir], Reward: reward[dir]}
	}
	if !validate(view, c, d.threshold(n)) {
		return n + 1
	}
	return n
}

// String is the setting as TDL2048+'s flags write it.
func (d Downgrade) String() string {
	if !d.On() {
		return "off"
	}
	return fmt.Sprintf("-h %d %d", d.Tile, d.Stint)
}

// A Shifter decides the moves of one 2048 game on boards a network reads:
// the real board is a board.Wide, which holds tiles past 32768, and every
// decision is a policy's choice on the view of it (board.Wide.View): the
// real board downgraded by the Shifter's count n, or by more when its
// tiles need it to fit in four bits. Without downgrading n stays 0, so a
// game with no tile past 32768 is decided on its own board and the view
// of a larger tile is the smallest downgrade that fits: that is how
// td2048 reads 65536 and up everywhere (learning, greedy play, search).
//
// A Shifter holds one game's state; Reset it for the next game.
type Shifter struct {
	opt Downgrade
	n   int // downgrades under way
}

// NewShifter returns a Shifter for a new game.
func NewShifter(opt Downgrade) *Shifter { return &Shifter{opt: opt} }

// Reset starts a new game.
func (s *Shifter) Reset() { s.n = 0 }

// N is the number of downgrades under way (TDL2048+'s n, 0 before the
// trigger).
func (s *Shifter) N() int { return s.n }

// A Step is one move of a Shifter's game.
type Step struct {
	// Choice is the policy's choice on View: its direction, the view's
	// after-state and reward, and its value. Choice.Dir is -1 when no
	// move is legal: the game is over.
	Choice Choice
	View   board.Board
	// After is the real after-state and Reward the real reward of the
	// move, which is legal on the real board when it is on the view.
	After  board.Wide
	Reward int
}

// Step decides the move on the real board w with policy, and plays it on
// w (without the new tile): the Shifter's game loop is
//
//	for st := s.Step(w, policy); st.Choice.Legal(); st = s.Step(w, policy) {
//		score += st.Reward
//		w = game2048.SpawnWide(st.After, rng)
//	}
//
// With downgrading on, a decision that fails TDL2048+'s test (validate,
// 2048.cpp) is still played, and the following decisions are made with
// one more downgrade (the trigger is the first such failure).
func (s *Shifter) Step(w board.Wide, policy func(board.Board) Choice) Step {
	x, ok := w.View(s.n)
	if !ok { // sixteen distinct tiles: no legal move
		return Step{Choice: NoMove, View: x, After: w}
	}
	c := policy(x)
	st := Step{Choice: c, View: x, After: w}
	if !c.Legal() {
		return st
	}
	if w.Ext == 0 && x == w.Low && !c.Overflow() {
		// The 4-bit game, on its own board: the choice is the real move.
		st.After, st.Reward = board.Wide{Low: c.After}, c.Points()
	} else {
		a, r := game2048.MovesWide(w)
		st.After, st.Reward = a[c.Dir], r[c.Dir]
	}
	if s.opt.On() && !validate(x, c, s.opt.threshold(s.n)) {
		s.n++
	}
	return st
}

// validate is TDL2048+'s test of a move chosen on the board view against
// threshold t: the move is legal, and its reward is below the lowest set
// bit of t, or its after-state holds no tile of t or more (for t >=
// 65536, which no 4-bit board holds: the same slide would change the
// after-state no more). The after-state is TDL2048+'s, of its 64-bit
// board (tdlAfter).
func validate(view board.Board, c Choice, t uint32) bool {
	if !c.Legal() {
		return false
	}
	if uint32(c.Points()) < t&-t {
		return true
	}
	a := tdlAfter(view, c)
	if t < 65536 {
		return (board.Wide{Low: a}).Scale() < t
	}
	next, _ := game2048.Moves(a)
	return next[c.Dir] == a
}

// tdlAfter is the after-state of the move c on view as TDL2048+'s 64-bit
// board holds it: a merge of two 32768s leaves its cell empty (the 65536
// is dropped), where td2048's after-state keeps 32768 there (game2048.Moves).
func tdlAfter(view board.Board, c Choice) board.Board {
	if !c.Overflow() {
		return c.After
	}
	a, _ := game2048.MovesWide(board.Wide{Low: view})
	var b board.Board
	for i := range 16 {
		if e := a[c.Dir].At(i); e <= 15 {
			b = b.Set(i, e)
		}
	}
	return b
}
