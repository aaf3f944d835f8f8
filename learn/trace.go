package learn

import (
	"github.com/td2048/td2048/board"
	"github.com/td2048/td2048/ntuple"
)

// Moves are the candidates of one move of any game: for each direction its
// after-state and reward, which directions are legal, which of them end the
// game at once (their after-state is worth nothing, only the reward; no
// 2048 move does: its game goes on past 32768, see wide.go), and the stage
// of the network that values the after-states.
type Moves struct {
	After  [4]board.Board
	Reward [4]float32
	Legal  uint8 // bit d: direction d is legal
	Final  uint8 // bit d: direction d ends the game
	stage  int
}

// A Trace is one episode as the after-state learner sees it: each chosen
// after-state, the stage that values it and the reward of the move that
// made it. It chooses the moves (Choose, then Push) and learns from them
// (Learn) for every game: the game's episode loop only says what the
// candidates are and what happens after a move.
//
// For networks read fastest from boards (ntuple.Network.Direct) it keeps
// the boards and reads their weights again when it learns; for the others
// it keeps each chosen after-state's indices, computed once when the move
// was chosen. Both learn the same values, bit for bit. A Trace allocates
// nothing once its buffers have grown to the longest episode.
type Trace struct {
	net *ntuple.Network
	// Mode is how the trace learns: backward TD(0) after the episode (the
	// course's rule) unless it says otherwise.
	Mode    Mode
	alpha   float32 // this episode's rate (Reset)
	vals    [4]float32
	steps   []traceStep
	idx     []uint32 // lookups indices per step (indexed networks)
	direct  bool
	lookups int
	// The candidates' indices of the last Choose, one after another; at[d]
	// is direction d's place among the fetched candidates.
	cand    [4 * ntuple.MaxPatterns * 8]uint32
	at      [4]int
	fetched int // candidates fetched
	// interleaved: the trace is one of several episodes a worker plays in
	// turn (lanes.go), whose updates come between its choices and its
	// own, as another thread's do (racing).
	interleaved bool
	// shaped: the episodes are shaped; online TD(0) then values again by
	// default (fresh), as TDL2048+'s restart and stage modes do.
	shaped bool
	// pending: an online update is due (Push's) and waits for the next
	// fetch (flush).
	pending bool
	// keep makes an online trace keep every step of the episode (restart
	// shaping reads them back to choose where to restart); else it keeps
	// only the last ones, still waiting for their targets (slide).
	keep bool
	// observe, in tests, sees each update's target.
	observe func(i int, target float32)
}

type traceStep struct {
	after  board.Board
	reward float32
	stage  int32
	value  float32 // V(after) when it was chosen
}

// NewTrace returns an empty trace for net.
func NewTrace(net *ntuple.Network) *Trace {
	t := &Trace{net: net, direct: net.Direct(), lookups: net.Lookups(), steps: make([]traceStep, 0, 1<<13)}
	if !t.direct {
		t.idx = make([]uint32, 0, t.lookups<<13)
	}
	return t
}

// useIndices makes the trace keep indices even for a network it would
// read from boards: both learn the same, bit for bit, which tests check.
func (t *Trace) useIndices() {
	if t.direct {
		t.direct = false
		t.idx = make([]uint32, 0, t.lookups<<13)
	}
}

// Reset empties the trace for a new episode learnt with rate alpha (0: no
// learning).
func (t *Trace) Reset(alpha float32) {
	t.flush()
	t.steps, t.idx, t.alpha = t.steps[:0], t.idx[:0], alpha
}

// Choose returns the legal direction of m maximising reward + V(after)
// (a final move is worth its reward alone), ties to the first of up,
// right, down, left; -1 when none is legal. All candidates' weights are
// fetched before any is summed, so that their cache misses overlap.
func (t *Trace) Choose(m *Moves) int {
	t.fetch(m)
	return t.pick(m)
}

// fetch is Choose's first half: it computes the indices of m's valued
// candidates and starts loading their weights. An interleaving worker
// fetches the move of each of its games before it picks any (lanes.go).
func (t *Trace) fetch(m *Moves) {
	var bs [4]board.Board
	n := 0
	for d := range 4 {
		if (m.Legal&^m.Final)>>d&1 != 0 {
			t.at[d] = n
			bs[n] = m.After[d]
			n++
		}
	}
	t.fetched = n
	if t.direct || !t.net.Direct() {
		t.net.Fetch(m.stage, bs[:n], t.cand[:n*t.lookups])
	} else {
		for i := range n { // useIndices on a Direct network: Index's indices
			t.net.IndexStage(m.stage, bs[i], t.cand[i*t.lookups:])
		}
	}
	t.flush() // the last push's update, while the candidates' weights load
}

// pick is Choose's second half, on the weights fetch asked for.
func (t *Trace) pick(m *Moves) int {
	t.flush()
	var out, value [4]float32
	if t.direct || !t.net.Direct() {
		t.net.SumFetched(m.stage, t.cand[:t.fetched*t.lookups], out[:t.fetched])
	} else {
		for i := range t.fetched {
			out[i] = t.net.Sum(t.cand[i*t.lookups : (i+1)*t.lookups])
		}
	}
	valued := m.Legal &^ m.Final
	for d := range 4 {
		if valued>>d&1 != 0 {
			value[d] = out[t.at[d]]
		}
	}
	t.vals = value
	best, bestV := -1, float32(0)
	for d := range 4 {
		if m.Legal>>d&1 == 0 {
			continue
		}
		v := m.Reward[d]
		if m.Final>>d&1 == 0 {
			v += value[d]
		}
		if best < 0 || v > bestV {
			best, bestV = d, v
		}
	}
	return best
}

// Push records direction d of m, the last Choose's argument, as the next
// step. A final move is not pushed: its reward is the last target.
func (t *Trace) Push(m *Moves, d int) {
	t.flush()
	t.steps = append(t.steps, traceStep{m.After[d], m.Reward[d], int32(m.stage), t.vals[d]})
	if !t.direct {
		t.idx = append(t.idx, t.cand[t.at[d]*t.lookups:(t.at[d]+1)*t.lookups]...)
	}
	if t.Mode.online && t.alpha > 0 {
		// The step before this one learns at the next fetch (flush), while
		// the next move's weights load; this one a move later. TC: fetch
		// its accumulators meanwhile (its weights were read to choose it).
		t.net.PrefetchAccumulators(m.stage, m.After[d])
		t.pending = true
		if t.interleaved || eagerUpdates { // the other games' moves come between: now
			t.flush()
		}
	}
}

// eagerUpdates makes every online update at its push (tests compare).
var eagerUpdates = false

// flush makes the online update the last Push left pending. It waits for
// the next fetch, so that the next move's weights are already on their
// way while it computes; every read of the weights or of the trace comes
// after it, so the learning is the same, bit for bit. Small enough to
// inline: most calls find nothing pending.
func (t *Trace) flush() {
	if t.pending {
		t.learnPending()
	}
}

// learnPending is flush's update.
func (t *Trace) learnPending() {
	t.pending = false
	t.online()
	if !t.keep && len(t.steps) >= t.Mode.n()+window {
		t.slide()
	}
}

// window is how many steps an online trace may hold beyond the ones it
// still learns before it slides: few enough to stay in the cache, enough
// that sliding is rare.
const window = 64

// slide drops the steps an online trace has learnt: the last n steps
// (Mode.n) still wait for their targets, and the updates read no others.
// Like TDL2048+'s online modes, a trace keeps only what it still learns
// from, rather than streaming a long game's indices through the cache
// (docs/speed.md).
func (t *Trace) slide() {
	n := t.Mode.n()
	k := len(t.steps) - n
	t.steps = t.steps[:copy(t.steps, t.steps[k:])]
	if !t.direct {
		t.idx = t.idx[:copy(t.idx, t.idx[k*t.lookups:])]
	}
}

// Learn ends the episode's learning. Backward modes learn the whole
// trace now; online ones the steps still waiting for their targets.
// final is the return after the last pushed step: 0 when the game ended
// there, as it does for every learner here (a game's last move is pushed;
// 2048 plays on past 32768 on the wide board). It reports false when a
// value became NaN or infinite.
//
// Backward TD(0) (Mode) prefetches the weights of step t-4 while step t
// learns, so that their cache misses overlap.
func (t *Trace) Learn(alpha, final float32) bool {
	t.flush()
	t.alpha = alpha
	if t.Mode.online {
		return t.onlineEnd(final)
	}
	if t.Mode.lambda > 0 || t.Mode.steps > 1 || t.observe != nil {
		return t.backwardGeneral(final)
	}
	net := t.net
	target := final
	steps := t.steps
	if t.direct {
		for i := len(steps) - 1; i >= 0; i-- {
			if i >= 4 {
				net.PrefetchBoardStage(int(steps[i-4].stage), steps[i-4].after)
			}
			s := &steps[i]
			v := net.UpdateStage(int(s.stage), s.after, alpha*(target-net.EstimateStage(int(s.stage), s.after)))
			target = s.reward + v
		}
		return finite(target)
	}
	n := t.lookups
	for i := len(steps) - 1; i >= 0; i-- {
		if i >= 4 {
			net.Prefetch(t.idx[(i-4)*n : (i-3)*n])
		}
		x := t.idx[i*n : (i+1)*n]
		v := net.Add(x, alpha*(target-net.Sum(x)))
		target = steps[i].reward + v
	}
	return finite(target)
}
