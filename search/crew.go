package search

import (
	"runtime"
	"sync/atomic"
	"time"
)

// A crew runs a team's tasks on goroutines that outlive one search: a
// helper that finishes its part of one search waits awake for the next,
// for crewSpin, before it ends, since waking a parked thread costs much
// of a shallow search (docs/speed.md). A crew belongs to one team leader.
type crew struct {
	job     atomic.Pointer[crewJob]
	running []atomic.Bool // helper w (from 1) is awake, waiting or working
}

// crewSpin is how long a helper waits awake for the next search.
const crewSpin = 500 * time.Microsecond

// A crewJob is one search's tasks: do(w, i) for i from 0 to n-1, each
// task taken once, by the first worker free.
type crewJob struct {
	do     func(w, i int)
	n      int64
	next   atomic.Int64
	closed atomic.Bool  // the leader has done its part; no helper may join
	active atomic.Int64 // helpers working on it
}

// work runs the job's tasks as worker w until none is left.
func (j *crewJob) work(w int) {
	for i := j.next.Add(1) - 1; i < j.n; i = j.next.Add(1) - 1 {
		j.do(w, int(i))
	}
}

// run runs tasks 0..n-1 on the team's workers goroutines (the caller's
// the first; a team's size never changes), returning when all are done.
// Worker w calls do(w, i) for each task i it takes.
func (c *crew) run(workers, n int, do func(w, i int)) {
	if c.running == nil {
		c.running = make([]atomic.Bool, workers)
	}
	j := &crewJob{do: do, n: int64(n)}
	workers = min(workers, n)
	if workers > 1 {
		c.job.Store(j)
		for w := 1; w < workers; w++ {
			if !c.running[w].Swap(true) {
				go c.help(w)
			}
		}
	}
	j.work(0)
	// Once closed, no helper joins; one that joined before is waited for.
	j.closed.Store(true)
	for j.active.Load() > 0 {
		runtime.Gosched()
	}
}

// help is helper w: it works on each job it finds, then waits awake for
// the next one for crewSpin, and ends when none comes.
func (c *crew) help(w int) {
	var last *crewJob
	idle := time.Now()
	for {
		j := c.job.Load()
		if j != last && j != nil {
			last = j
			j.active.Add(1)
			if !j.closed.Load() {
				j.work(w)
			}
			j.active.Add(-1)
			idle = time.Now()
			continue
		}
		if time.Since(idle) > crewSpin {
			c.running[w].Store(false)
			// A job published after the check above but before the store
			// found this helper running and started none: take it.
			if j := c.job.Load(); j != last && !c.running[w].Swap(true) {
				continue
			}
			return
		}
		runtime.Gosched()
	}
}
