package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestSweepCommand(t *testing.T) {
	dir := t.TempDir()
	plan := filepath.Join(dir, "rates.toml")
	os.WriteFile(plan, []byte(`[train]
network = "2x4"
episodes = 300
every = 100
threads = 1
[grid]
alpha = [0.1, 0.025]
[eval]
games = 20
seed = 4
`), 0o644)
	code, out, _ := runCmd(t, "sweep", "list", plan)
	if code != 0 || !strings.Contains(out, "task-001\talpha=0.025\n") || !strings.HasSuffix(out, "2 tasks (Slurm: sbatch --array=0-1; Kubernetes: completions: 2)\n") {
		t.Errorf("list: %q", out)
	}
	code, out, errb := runCmd(t, "sweep", "run", plan, "--task", "1")
	task := filepath.Join(dir, "rates", "task-001")
	if code != 0 || !strings.Contains(out, "task 1 done: "+filepath.Join(task, "eval.json")) {
		t.Fatalf("run: %d %s %s", code, out, errb)
	}
	for _, f := range []string{"weights.td2048", "weights.jsonl", "curve.png", "train.txt", "task.json", "eval.json"} {
		if _, err := os.Stat(filepath.Join(task, f)); err != nil {
			t.Error(err)
		}
	}
	// The task's evaluation is eval's, with the same flags.
	_, whole, _ := runCmd(t, "eval", "--load", filepath.Join(task, "weights.td2048"), "--games", "20", "--seed", "4")
	_, merged, _ := runCmd(t, "merge", filepath.Join(task, "eval.json"))
	if statsPart(t, merged) != statsPart(t, whole) {
		t.Errorf("the task's eval.json:\n%s\nwant:\n%s", merged, whole)
	}
	if code, out, _ := runCmd(t, "sweep", "run", plan, "--task", "1"); code != 0 || !strings.Contains(out, "task 1 (alpha=0.025) is done") {
		t.Errorf("rerun: %d %q", code, out)
	}
	code, out, _ = runCmd(t, "sweep", "report", filepath.Join(dir, "rates"))
	if code != 0 || !regexp.MustCompile(`task-001\s+alpha=0.025\s+done\s+300\s`).MatchString(out) || !strings.Contains(out, "1 of 1 tasks done") {
		t.Errorf("report:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(dir, "rates", "curves.png")); err != nil {
		t.Error(err)
	}
	// A task folder of another configuration is refused.
	os.WriteFile(plan, []byte("[train]\nnetwork = \"2x4\"\nepisodes = 400\n[grid]\nalpha = [0.1, 0.025]\n"), 0o644)
	oneLine(t, []string{"sweep", "run", plan, "--task", "1"}, 1, "holds another configuration than task 1")
	oneLine(t, []string{"sweep", "run", plan, "--task", "2"}, 2, "want a task from 0 to 1")
	oneLine(t, []string{"sweep", "run", plan}, 2, "needs --task")
	oneLine(t, []string{"sweep", "run", plan, "--task", "auto"}, 2, "--task auto")
	oneLine(t, []string{"sweep", "walk", plan}, 2, "want list")
	os.WriteFile(plan, []byte("[grid]\nalpah = [1]\n"), 0o644)
	oneLine(t, []string{"sweep", "list", plan}, 1, "alpah is not a training key")
}
