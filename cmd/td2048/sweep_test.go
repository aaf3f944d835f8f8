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
	// An empty name is refused; report read it as the working folder.
	for _, sub := range []string{"list", "run", "report"} {
		oneLine(t, []string{"sweep", sub, ""}, 2, "sweep "+sub+": the plan's (or folder's) name is empty")
	}
	os.WriteFile(plan, []byte("[grid]\nalpah = [1]\n"), 0o644)
	oneLine(t, []string{"sweep", "list", plan}, 1, "alpah is not a training key")
}

// TestSweepTaskAnywhere: a task trains its settings as the plan gives
// them, zeros included; it is the same task from another working folder
// or through an absolute path (its task.json names its files relative to
// its folder); a bad plan is refused by sweep list, naming the task and
// the key; and sweep report counts a task whose task.json does not parse.
func TestSweepTaskAnywhere(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	os.WriteFile("zero.toml", []byte(`[train]
network = "2x4"
episodes = 100
every = 50
threads = 1
alpha = 0.05
checkpoint_every = 5000
[[task]]
alpha = 0
checkpoint_every = 0
[eval]
games = 5
`), 0o644)
	if code, out, errb := runCmd(t, "sweep", "run", "zero.toml", "--task", "0"); code != 0 {
		t.Fatalf("run: %d %s %s", code, out, errb)
	}
	task := filepath.Join(dir, "zero", "task-000")
	for _, r := range readLog(t, filepath.Join(task, "weights.jsonl")) {
		if r.Alpha != 0 {
			t.Fatalf("the task trained at alpha %v, not 0", r.Alpha)
		}
	}
	if st := runState(t, filepath.Join(task, "weights.td2048")); st.CheckpointEvery != 0 {
		t.Fatalf("checkpoint_every %d, not 0", st.CheckpointEvery)
	}
	// From elsewhere, through an absolute path: the same task, done; with
	// its evaluation gone it resumes (nothing left to train) and evaluates.
	os.Mkdir("elsewhere", 0o755)
	t.Chdir(filepath.Join(dir, "elsewhere"))
	abs := filepath.Join(dir, "zero.toml")
	if code, out, errb := runCmd(t, "sweep", "run", abs, "--task", "0"); code != 0 || !strings.Contains(out, "is done") {
		t.Fatalf("from elsewhere: %d %s %s", code, out, errb)
	}
	// A damaged evaluation is refused with what to do, not replaced.
	os.WriteFile(filepath.Join(task, "eval.json"), []byte("{half"), 0o644)
	oneLine(t, []string{"sweep", "run", abs, "--task", "0"}, 1, "eval.json does not read")
	if _, _, errb := runCmd(t, "sweep", "run", abs, "--task", "0"); !strings.Contains(errb, "remove it to evaluate the task again") || strings.Contains(errb, "--force") {
		t.Fatalf("a damaged eval.json: %s", errb)
	}
	os.Remove(filepath.Join(task, "eval.json"))
	if code, out, errb := runCmd(t, "sweep", "run", abs, "--task", "0"); code != 0 || !strings.Contains(out, "resuming from") || !strings.Contains(out, "task 0 done") {
		t.Fatalf("resumed from elsewhere: %d %s %s", code, out, errb)
	}
	for _, c := range []struct{ plan, want string }{
		{"[train]\nnetwork = \"zzz\"\n", "task 0 (base): network: network \"zzz\""},
		{"[grid]\nalpha = [0.1, 5]\n", "task 1 (alpha=5): alpha: learning rate 5"},
		{"[eval]\nthreads = 100000\n", "[eval] threads 100000: want 0 (all cores)"},
		{"[eval]\nseed = -3\n", "[eval] seed: want an integer from 0, not -3"},
	} {
		os.WriteFile(abs, []byte(c.plan), 0o644)
		oneLine(t, []string{"sweep", "list", abs}, 1, c.want)
	}
	os.WriteFile(filepath.Join(task, "task.json"), []byte("{half"), 0o644)
	code, out, _ := runCmd(t, "sweep", "report", filepath.Join(dir, "zero"), "--plot", "none")
	if code != 0 || !strings.Contains(out, "task.json does not parse") || !strings.Contains(out, "1 of 1 tasks done") || !strings.Contains(out, "1 task folders hold a task.json or eval.json that does not read") {
		t.Errorf("report of a task with a damaged task.json:\n%s", out)
	}
	// A damaged evaluation is said, not taken for a task still training.
	os.WriteFile(filepath.Join(task, "eval.json"), []byte("{half"), 0o644)
	code, out, _ = runCmd(t, "sweep", "report", filepath.Join(dir, "zero"), "--plot", "none")
	if code != 0 || strings.Contains(out, "training") || !strings.Contains(out, "eval.json does not read: remove it to evaluate again") || !strings.Contains(out, "0 of 1 tasks done") {
		t.Errorf("report of a task with a damaged eval.json:\n%s", out)
	}
}

// TestSweepReportFailed: a task that failed is reported as failed with
// the line that says why (it used to read "training" forever), until an
// attempt after it runs.
func TestSweepReportFailed(t *testing.T) {
	dir := t.TempDir()
	plan := filepath.Join(dir, "p.toml")
	os.WriteFile(plan, []byte("[train]\nnetwork = \"2x4\"\nepisodes = 100\nevery = 50\nthreads = 1\n[grid]\nseed = [1, 2]\n[eval]\ngames = 5\n"), 0o644)
	// Task 1's evaluation cannot write its result: the task trains, then
	// fails.
	task := filepath.Join(dir, "p", "task-001")
	os.MkdirAll(filepath.Join(task, "eval.json"), 0o755)
	if code, _, errb := runCmd(t, "sweep", "run", plan, "--task", "1"); code == 0 {
		t.Fatal("task 1 did not fail")
	} else if !strings.Contains(errb, "eval.json") {
		t.Fatalf("task 1 failed with %q", errb)
	}
	code, out, _ := runCmd(t, "sweep", "report", plan, "--plot", "none")
	if code != 0 || !regexp.MustCompile(`task-001\s+seed=2\s+failed: task 1: .*eval\.json.*\s100\s`).MatchString(out) || !strings.Contains(out, "1 tasks failed") {
		t.Errorf("report of a failed task:\n%s", out)
	}
	if !regexp.MustCompile(`task-000\s+seed=1\s+not started`).MatchString(out) {
		t.Errorf("report of a task not started:\n%s", out)
	}
	// Run again with the cause fixed, it is done.
	os.Remove(filepath.Join(task, "eval.json"))
	if code, _, errb := runCmd(t, "sweep", "run", plan, "--task", "1"); code != 0 {
		t.Fatal(errb)
	}
	if _, out, _ := runCmd(t, "sweep", "report", plan, "--plot", "none"); strings.Contains(out, "failed") || !regexp.MustCompile(`task-001\s+seed=2\s+done`).MatchString(out) {
		t.Errorf("report once the task is done:\n%s", out)
	}
}

// TestSweepReportBracketFolder: a plan or folder whose name holds a
// bracket is reported as any other; its name is not a glob pattern.
func TestSweepReportBracketFolder(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	plan := filepath.Join(dir, "r[1.toml")
	os.WriteFile(plan, []byte("[train]\nnetwork = \"2x4\"\nepisodes = 100\n[grid]\nseed = [1, 2]\n"), 0o644)
	code, out, errb := runCmd(t, "sweep", "report", plan, "--plot", "none")
	if code != 0 || !regexp.MustCompile(`task-001\s+seed=2\s+not started`).MatchString(out) {
		t.Errorf("report of a plan named r[1.toml: exit %d\n%s%s", code, out, errb)
	}
	os.MkdirAll(filepath.Join(dir, "s[1]", "task-000"), 0o755)
	code, out, errb = runCmd(t, "sweep", "report", filepath.Join(dir, "s[1]"), "--plot", "none")
	if code != 0 || !strings.Contains(out, "task-000") {
		t.Errorf("report of a folder named s[1]: exit %d\n%s%s", code, out, errb)
	}
}
