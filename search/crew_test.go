package search

import (
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

// TestCrewRunsEachTaskOnce: jobs in quick succession, as a game's moves
// come, and after pauses longer than the helpers wait: every task runs
// exactly once a job, on a worker of the team, and the helpers end once
// no job comes.
func TestCrewRunsEachTaskOnce(t *testing.T) {
	before := runtime.NumGoroutine()
	var c crew
	const workers = 3
	for job := range 400 {
		n := 1 + job%40
		var runs [40]atomic.Int32
		var bad atomic.Bool
		c.run(workers, n, func(w, i int) {
			if w < 0 || w >= workers {
				bad.Store(true)
			}
			if i%7 == 0 {
				time.Sleep(20 * time.Microsecond) // then counted: the leader must wait
			}
			runs[i].Add(1)
		})
		for i := range n {
			if got := runs[i].Load(); got != 1 {
				t.Fatalf("job %d: task %d of %d ran %d times", job, i, n, got)
			}
		}
		if bad.Load() {
			t.Fatalf("job %d: a task ran on a worker outside the team", job)
		}
		if job%100 == 99 {
			time.Sleep(2 * crewSpin) // the helpers end, and start again
		}
	}
	deadline := time.Now().Add(10 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Fatalf("%d goroutines after the crew's last job, %d before", n, before)
	}
	for w := range c.running {
		if c.running[w].Load() {
			t.Errorf("helper %d still marked running", w)
		}
	}
}
