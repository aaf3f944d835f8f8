package learn

import "fmt"

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
func interleave(lanes []stepper, take func(wait bool) (int, float32, bool), finish func(int, Episode, float32)) {
	type slot struct {
		i     int
		alpha float32
		live  bool
	}
	slots := make([]slot, len(lanes))
	live, draining := 0, false
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
		if live == 0 {
			draining = false
			if !fill(0, true) {
				return
			}
			for j := 1; j < len(lanes) && fill(j, false); j++ {
			}
		}
		for j := range slots {
			s := &slots[j]
			if !s.live {
				continue
			}
			if lanes[j].advance() {
				lanes[j].fetch()
				continue
			}
			finish(s.i, lanes[j].finish(), s.alpha)
			s.live = false
			live--
			fill(j, false)
		}
	}
}
