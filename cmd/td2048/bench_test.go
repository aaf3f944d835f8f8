package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestBenchSizes: --short sets the workload and sizes given beside it
// override it, 0 leaves a phase out, and a negative size is refused.
func TestBenchSizes(t *testing.T) {
	t.Parallel()
	code, out, errs := runCmd(t, "bench", "--short", "--games", "0", "--deep-games", "0")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "500 training episodes, 0 greedy games, 0 2-ply games") ||
		!strings.Contains(out, "train 4x6") || strings.Contains(out, "greedy (1-ply)") || strings.Contains(out, "2-ply expectimax") ||
		!strings.Contains(out, "signature ") {
		t.Fatalf("output:\n%s", out)
	}
	code, out, errs = runCmd(t, "bench", "--episodes", "0", "--games", "3", "--deep-games", "0", "--mcts-games", "0")
	if code != 0 || strings.Contains(out, "train 4x6") || !strings.Contains(out, "greedy (1-ply)") {
		t.Fatalf("exit %d: %s\n%s", code, errs, out)
	}
	code, _, errs = runCmd(t, "bench", "--games", "-1")
	if code != 2 || !strings.Contains(errs, "must not be negative") || strings.Count(strings.TrimSpace(errs), "\n") > 0 {
		t.Fatalf("exit %d: %q", code, errs)
	}
}

// bench --course times training to the course's result, on 1 thread and
// on all cores, and reports the last block a student would read.
func TestBenchCourse(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("times training twice")
	}
	code, out, errs := runCmd(t, "bench", "--episodes", "0", "--games", "0", "--deep-games", "0", "--mcts-games", "0", "--course-episodes", "1500", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var r benchJSON
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if len(r.Course) != len(courseThreads()) || r.Course[0].Threads != 1 {
		t.Fatalf("course runs: %+v", r.Course)
	}
	for _, c := range r.Course {
		// 500 episodes of 4x6 already average well over 1000 points.
		if c.Episodes != 1500 || c.Elapsed <= 0 || c.Moves < 1500*50 || c.LastAvg < 1000 {
			t.Fatalf("course run: %+v", c)
		}
	}
	if code, _, errs := runCmd(t, "bench", "--short", "--course-episodes", "0"); code != 2 {
		t.Fatalf("--course-episodes 0: exit %d %s", code, errs)
	}
}
