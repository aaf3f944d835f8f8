package learn

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Interleaved episodes (Config.Interleave). Training is bound by memory
// latency: a move reads a hundred or more weights scattered over hundreds
// of megabytes, and a game's moves depend on each other, so one game
// keeps only one move's cache misses in flight, and between two moves (the
// choice, the new tile, the next candidates) none at all. A worker that
// plays several games in turn asks for the weights of every game's next
// move before it sums any: while one game's weights arrive, the others
// compute. Each game learns as it would alone; the games share the
// network as threads do (Hogwild), within one thread.

// A stepper plays its episodes a move at a time (a Worker's 2048
// after-state episodes).
type stepper interface {
	begin(alpha float32) // start an episode learnt with rate alpha
	fetch()              // compute the next move's candidates, ask for their weights
	advance() bool       // make the move; false when the game is over
	finish() Episode     // learn what is left and return the episode
}

// CheckInterleave refuses k > 1 episodes per thread where they cannot be
// interleaved: state learners and shaped episodes play one at a time.
func CheckInterleave(k int, kind Kind, s Shaping) error {
	if k > 1 && (kind != AfterState || s != (Shaping{})) {
		return fmt.Errorf("interleave %d: %s learning%s plays one episode at a time on each thread", k, kind, map[bool]string{true: " with shaping"}[s != (Shaping{})])
	}
	return nil
}

// interleave plays episodes on the lanes in turn until take has none to
// give: each lane makes its move and at once fetches its next one, whose
// weights then arrive while the other lanes make theirs. A lane whose game
// ends hands it to finish and takes the next episode at once, without
// waiting. Once take has none (a checkpoint's boundary, or the end), the
// lanes drain: none takes another until all are idle, and then they take
// episodes in lane order, waiting for the first (take(true)). So a run
// hands the same episodes to the same lanes whether it goes on past a
// checkpoint or resumes from it.
//
// With a control (nil: all lanes, always), worker k keeps only
// ctl.lanes(k) lanes playing: a lane at or above it finishes its game and
// stays idle, and idle lanes below it take one as soon as it rises. A
// worker left none parks (ctl.park) once its games end. The worker's moves
// are counted into ctl.moves.
func interleave(lanes []stepper, take func(wait bool) (int, float32, bool), finish func(int, Episode, float32), ctl *laneControl, k int) {
	type slot struct {
		i     int
		alpha float32
		live  bool
	}
	slots := make([]slot, len(lanes))
	live, draining := 0, false
	want := len(lanes)
	var moves int64 // not yet counted into ctl
	fill := func(j int, wait bool) bool {
		if draining && !wait {
			return false
		}
		i, alpha, ok := take(wait)
		if !ok {
			draining = true
			return false
		}
		slots[j] = slot{i, alpha, true}
		lanes[j].begin(alpha)
		lanes[j].fetch()
		live++
		return true
	}
	for {
		if ctl != nil {
			if moves >= laneCount {
				ctl.moves.Add(moves)
				moves = 0
			}
			want = min(ctl.lanes(k), len(lanes))
			if live == 0 && want == 0 {
				if !ctl.park(k) {
					return
				}
				continue
			}
			if live > 0 && live < want && !draining {
				for j := range want {
					if !slots[j].live && !fill(j, false) {
						break
					}
				}
			}
		}
		if live == 0 {
			draining = false
			if !fill(0, true) {
				if ctl != nil {
					ctl.moves.Add(moves)
				}
				return
			}
			for j := 1; j < want && fill(j, false); j++ {
			}
		}
		for j := range slots {
			s := &slots[j]
			if !s.live {
				continue
			}
			moves++
			if lanes[j].advance() {
				lanes[j].fetch()
				continue
			}
			finish(s.i, lanes[j].finish(), s.alpha)
			s.live = false
			live--
			if j < want {
				fill(j, false)
			}
		}
	}
}

// laneCount is how many moves a worker makes between additions to
// laneControl.moves, so that the shared counter's line moves between
// cores rarely.
const laneCount = 1024

// A laneControl varies, in a run of several threads, how many of the
// threads play and how many episodes each plays in turn
// (Config.AdaptInterleave). Threads that share a core share its
// outstanding misses, and threads that write the same weights pay for
// each line that moves between their caches, so which is fastest varies
// with the machine and over time (docs/speed.md, "Threads"): the run keeps
// its current choice, tries another for a short while now and then, and
// keeps whichever made more moves per second.
type laneControl struct {
	_       [64]byte
	want    atomic.Int32 // lanes each playing worker keeps busy
	threads atomic.Int32 // workers playing: worker k plays while k < threads
	_       [56]byte
	moves   atomic.Int64 // moves made, counted by the workers in batches
	_       [56]byte
	// over reports whether the run will hand out no more episodes (its
	// end, an error, or a cancel): a parked worker then returns.
	over func() bool

	mu    sync.Mutex // guards the time each choice was in effect
	cur   laneChoice
	since time.Time
	spent map[laneChoice]time.Duration
}

// lanes is how many games worker k should keep playing, 0 to park.
func (c *laneControl) lanes(k int) int {
	if k >= int(c.threads.Load()) {
		return 0
	}
	return max(int(c.want.Load()), 1)
}

// park waits while worker k should not play; false if the run is over.
func (c *laneControl) park(k int) bool {
	for c.lanes(k) == 0 {
		if c.over() {
			return false
		}
		time.Sleep(time.Millisecond)
	}
	return true
}

// A laneChoice is how many workers play and how many games each plays in
// turn.
type laneChoice struct{ threads, lanes int }

// laneChoices are the choices a run of threads workers of lanes lanes
// tries, its own first: all threads one game at a time, and half the
// threads (one per core where each core runs two).
func laneChoices(threads, lanes int) []laneChoice {
	c := []laneChoice{{threads, lanes}}
	if lanes > 1 {
		c = append(c, laneChoice{threads, 1})
	}
	if threads > 1 {
		c = append(c, laneChoice{threads / 2, lanes})
	}
	return c
}

// AdaptChoices describes what a run of threads workers, each playing
// lanes episodes in turn, varies with Config.AdaptInterleave, like
// "threads (2 or 1) and episodes in turn (2 or 1)"; "" for one thread.
func AdaptChoices(threads, lanes int) string {
	if threads < 2 {
		return ""
	}
	var th, ln []string
	for _, c := range laneChoices(threads, max(lanes, 1)) {
		if t := strconv.Itoa(c.threads); !slices.Contains(th, t) {
			th = append(th, t)
		}
		if l := strconv.Itoa(c.lanes); !slices.Contains(ln, l) {
			ln = append(ln, l)
		}
	}
	s := "threads (" + strings.Join(th, " or ") + ")"
	if len(ln) > 1 {
		s += " and episodes in turn (" + strings.Join(ln, " or ") + ")"
	}
	return s
}

func (c *laneControl) set(x laneChoice) {
	c.want.Store(int32(x.lanes))
	c.threads.Store(int32(x.threads))
	c.mu.Lock()
	defer c.mu.Unlock()
	now := time.Now()
	if c.spent == nil {
		c.spent = map[laneChoice]time.Duration{}
	} else {
		c.spent[c.cur] += now.Sub(c.since)
	}
	c.cur, c.since = x, now
}

// A ChoiceTime is how long a run of several threads (Config.AdaptInterleave)
// had Threads workers playing, each Lanes episodes in turn, probes included.
type ChoiceTime struct {
	Threads, Lanes int
	Time           time.Duration
}

// times returns how long each choice set has been in effect, the longest
// first.
func (c *laneControl) times() []ChoiceTime {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.spent == nil {
		return nil
	}
	m := maps.Clone(c.spent)
	m[c.cur] += time.Since(c.since)
	ts := make([]ChoiceTime, 0, len(m))
	for x, d := range m {
		ts = append(ts, ChoiceTime{x.threads, x.lanes, d})
	}
	slices.SortFunc(ts, func(a, b ChoiceTime) int {
		return cmp.Or(cmp.Compare(b.Time, a.Time), cmp.Compare(b.Threads, a.Threads), cmp.Compare(b.Lanes, a.Lanes))
	})
	return ts
}

// DescribeChoices says how a run's time went among its choices, like "2
// threads 96%, 1 thread 4%", with the episodes in turn where any choice
// had several ("2 threads x 2 games 80%, 2 threads x 1 game 20%"); "" for
// none.
func DescribeChoices(ts []ChoiceTime) string {
	var total time.Duration
	games := false
	for _, t := range ts {
		total += t.Time
		games = games || t.Lanes > 1
	}
	if total <= 0 {
		return ""
	}
	plural := func(n int, one string) string {
		if n == 1 {
			return "1 " + one
		}
		return strconv.Itoa(n) + " " + one + "s"
	}
	parts := make([]string, len(ts))
	for i, t := range ts {
		parts[i] = plural(t.Threads, "thread")
		if games {
			parts[i] += " x " + plural(t.Lanes, "game")
		}
		parts[i] += " " + strconv.FormatFloat(100*t.Time.Seconds()/total.Seconds(), 'f', 0, 64) + "%"
	}
	return strings.Join(parts, ", ")
}

// Timing of laneControl.run: a window measures moves per second, a switch
// is given settle to take effect (the lanes above want finish their
// games), and the current choice is kept for hold, doubling up to maxHold
// while probes confirm it.
type laneTiming struct{ window, settle, hold, maxHold time.Duration }

var laneTimes = laneTiming{window: 250 * time.Millisecond, settle: 100 * time.Millisecond, hold: time.Second, maxHold: 16 * time.Second}

// laneGain is how much faster another choice must measure to be taken.
const laneGain = 1.03

// run adapts the choice among choices, the first to start with, until
// done is closed: after each hold it measures the current choice, then the
// next other one in turn. A choice that rests threads is held at most 4
// holds.
func (c *laneControl) run(done <-chan struct{}, choices []laneChoice, tm laneTiming) {
	wait := func(d time.Duration) bool {
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-done:
			return false
		case <-t.C:
			return true
		}
	}
	rate := func() (float64, bool) {
		m, t := c.moves.Load(), time.Now()
		if !wait(tm.window) {
			return 0, false
		}
		return float64(c.moves.Load()-m) / time.Since(t).Seconds(), true
	}
	cur, next, hold := 0, 0, tm.hold
	c.set(choices[cur])
	for len(choices) > 1 && wait(hold) {
		now, ok := rate()
		if !ok {
			return
		}
		if next = (next + 1) % len(choices); next == cur {
			next = (next + 1) % len(choices)
		}
		c.set(choices[next])
		if !wait(tm.settle) {
			return
		}
		then, ok := rate()
		if !ok {
			return
		}
		cur, hold = pickLanes(cur, next, now, then, hold, tm)
		if choices[cur].threads < choices[0].threads {
			// Resting threads costs more when the machine speeds up
			// again than keeping them costs while it is slow: look
			// again sooner.
			hold = min(hold, 4*tm.hold)
		}
		c.set(choices[cur])
	}
}

// pickLanes is run's choice between the current choice, which made now
// moves per second, and another, alt, which made then: the other if
// it was laneGain faster (held from tm.hold again), else the current, held
// twice as long as before.
func pickLanes(cur, alt int, now, then float64, hold time.Duration, tm laneTiming) (int, time.Duration) {
	if then > now*laneGain {
		return alt, tm.hold
	}
	return cur, min(2*hold, tm.maxHold)
}
