package main

import (
	"strings"
	"testing"
)

// TestBenchSizes: --short sets the workload and sizes given beside it
// override it, 0 leaves a phase out, and a negative size is refused.
func TestBenchSizes(t *testing.T) {
	code, out, errs := runCmd(t, "bench", "--short", "--games", "0", "--deep-games", "0")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "500 training episodes, 0 greedy games, 0 2-ply games") ||
		!strings.Contains(out, "train 4x6") || strings.Contains(out, "greedy (1-ply)") || strings.Contains(out, "2-ply expectimax") ||
		!strings.Contains(out, "signature ") {
		t.Fatalf("output:\n%s", out)
	}
	code, out, errs = runCmd(t, "bench", "--episodes", "0", "--games", "3", "--deep-games", "0")
	if code != 0 || strings.Contains(out, "train 4x6") || !strings.Contains(out, "greedy (1-ply)") {
		t.Fatalf("exit %d: %s\n%s", code, errs, out)
	}
	code, _, errs = runCmd(t, "bench", "--games", "-1")
	if code != 2 || !strings.Contains(errs, "must not be negative") || strings.Count(strings.TrimSpace(errs), "\n") > 0 {
		t.Fatalf("exit %d: %q", code, errs)
	}
}
