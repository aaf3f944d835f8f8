package learn

import (
	"fmt"
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

// A stepper is a Player whose episodes can be played a move at a time.
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
// With a control (nil: all lanes, always), only lanes below ctl.want take
// episodes: a lane at or above it finishes its game and stays idle, and
// idle lanes below it take one as soon as want rises. The worker's moves
// are counted into ctl.moves.
func interleave(lanes []stepper, take func(wait bool) (int, float32, bool), finish func(int, Episode, float32), ctl *laneControl) {
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
			want = min(max(int(ctl.want.Load()), 1), len(lanes))
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

// A laneControl varies how many episodes each worker of a run of several
// threads plays in turn (Config.AdaptInterleave). Interleaving overlaps
// one game's memory waits with another's work, but threads that share a
// core (SMT siblings, or vCPUs a hypervisor places on one) share its
// outstanding misses too: on this project's 2-vCPU machine, in the periods
// when its two threads run slow, 30k episodes of 4x6 took 10-13 s one at a
// time against 15 s two in turn, while in its fast periods two in turn are
// 1-6% faster. So the run measures: it keeps the current number, tries
// the other for a short while now and then, and keeps whichever made more
// moves per second.
type laneControl struct {
	_     [64]byte
	want  atomic.Int32 // lanes each worker keeps busy
	_     [60]byte
	moves atomic.Int64 // moves made, counted by the workers in batches
	_     [56]byte
}

// Timing of laneControl.run: a window measures moves per second, a switch
// is given settle to take effect (the lanes above want finish their
// games), and the current choice is kept for hold, doubling up to maxHold
// while probes confirm it.
type laneTiming struct{ window, settle, hold, maxHold time.Duration }

var laneTimes = laneTiming{window: 400 * time.Millisecond, settle: 150 * time.Millisecond, hold: time.Second, maxHold: 16 * time.Second}

// laneGain is how much faster the other choice must measure to be taken.
const laneGain = 1.03

// run adapts c.want between 1 and most until done is closed.
func (c *laneControl) run(done <-chan struct{}, most int, tm laneTiming) {
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
	cur, hold := most, tm.hold
	c.want.Store(int32(cur))
	for wait(hold) {
		now, ok := rate()
		if !ok {
			return
		}
		alt := most
		if cur == most {
			alt = 1
		}
		c.want.Store(int32(alt))
		if !wait(tm.settle) {
			return
		}
		then, ok := rate()
		if !ok {
			return
		}
		cur, hold = pickLanes(cur, alt, now, then, hold, tm)
		c.want.Store(int32(cur))
	}
}

// pickLanes is run's choice between the current number of lanes, which
// made now moves per second, and the other, which made then: the other if
// it was laneGain faster (held from tm.hold again), else the current, held
// twice as long as before.
func pickLanes(cur, alt int, now, then float64, hold time.Duration, tm laneTiming) (int, time.Duration) {
	if then > now*laneGain {
		return alt, tm.hold
	}
	return cur, min(2*hold, tm.maxHold)
}
