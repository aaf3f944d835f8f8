package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/td2048/td2048/netfile"
	"github.com/td2048/td2048/ntuple"
)

// sweepPlan writes a one-task plan of one thread, otherwise the
// defaults, in a folder of its own, and returns its path and its task's
// folder.
func sweepPlan(t *testing.T, dir string, episodes int) (plan, task string) {
	os.MkdirAll(dir, 0o755)
	plan = filepath.Join(dir, "plan.toml")
	text := fmt.Sprintf("[train]\nnetwork = \"2x4\"\nepisodes = %d\nevery = 1000\nthreads = 1\n[eval]\ngames = 5\ndepth = 1\nthreads = 1\n", episodes)
	if err := os.WriteFile(plan, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return plan, filepath.Join(dir, "plan", "task-000")
}

// TestSweepRequeueExact: a sweep task of one thread with the default
// episodes in turn, stopped by SIGTERM between its checkpoints (a
// preemption, scancel --signal=TERM) and run again (a requeue), ends
// with the weights and the log of a task never stopped, bit for bit.
func TestSweepRequeueExact(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts processes")
	}
	dir := t.TempDir()
	const total = 20000
	plan, task := sweepPlan(t, filepath.Join(dir, "stopped"), total)
	cmd, out, errb := startMain(t, "1000\t", "sweep", "run", plan, "--task", "0")
	cmd.Process.Signal(syscall.SIGTERM)
	if code := waitExit(t, cmd, 60*time.Second); code != 1 || !strings.Contains(errb.String(), "interrupted after") {
		t.Fatalf("stopped task: exit %d\n%s%s", code, out, errb)
	}
	weights := filepath.Join(task, "weights.td2048")
	if done := runState(t, weights).Done; done >= total || done%1000 == 0 && done%10000 == 0 {
		t.Fatalf("stopped at %d episodes, not between checkpoints: the task is too short for this machine", done)
	}
	if code, o, e := runCmd(t, "sweep", "run", plan, "--task", "0"); code != 0 || !strings.Contains(o, "resuming from") {
		t.Fatalf("requeued task: exit %d\n%s%s", code, o, e)
	}
	wplan, wtask := sweepPlan(t, filepath.Join(dir, "whole"), total)
	if code, o, e := runCmd(t, "sweep", "run", wplan, "--task", "0"); code != 0 {
		t.Fatalf("whole task: exit %d\n%s%s", code, o, e)
	}
	sameWeights(t, filepath.Join(wtask, "weights.td2048"), weights)
	a, b := readLog(t, filepath.Join(wtask, "weights.jsonl")), readLog(t, filepath.Join(task, "weights.jsonl"))
	if len(a) != len(b) {
		t.Fatalf("%d blocks unbroken, %d requeued", len(a), len(b))
	}
	for i := range a {
		if a[i].Episodes != b[i].Episodes || a[i].Avg != b[i].Avg || a[i].Max != b[i].Max {
			t.Fatalf("block %d: %+v unbroken, %+v requeued", i, a[i], b[i])
		}
	}
}

// TestHangupSaves: SIGHUP (a closed terminal) stops train as SIGTERM
// does: the run is saved, and the message says how to continue.
func TestHangupSaves(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	w := filepath.Join(t.TempDir(), "w.td2048")
	cmd, out, errb := startMain(t, "1000\t", "train", "--network", "2x4", "--episodes", "100000000", "--every", "1000", "--threads", "1", "--save", w)
	cmd.Process.Signal(syscall.SIGHUP)
	if code := waitExit(t, cmd, 60*time.Second); code != 1 || !strings.Contains(errb.String(), "interrupted after") {
		t.Fatalf("after SIGHUP: exit %d\n%s%s", code, out, errb)
	}
	if done := runState(t, w).Done; done < 1000 {
		t.Fatalf("saved at %d episodes", done)
	}
}

// TestClosedStdout: a sweep task whose output goes to a pipe closed after
// its first line (td2048 sweep run ... | head -1) trains, saves and
// evaluates to the end, and its train.txt holds all of it.
func TestClosedStdout(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts processes")
	}
	plan, task := sweepPlan(t, t.TempDir(), 3000)
	cmd := exec.Command(os.Args[0], "sweep", "run", plan, "--task", "0")
	cmd.Env = append(os.Environ(), "TD2048_BE_MAIN=1")
	var errb bytes.Buffer
	cmd.Stderr = &errb
	pipe, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	bufio.NewReader(pipe).ReadString('\n')
	pipe.Close()
	if code := waitExit(t, cmd, 120*time.Second); code != 0 {
		t.Fatalf("exit %d (%v)\n%s", code, cmd.ProcessState, errb.String())
	}
	if done := runState(t, filepath.Join(task, "weights.td2048")).Done; done != 3000 {
		t.Fatalf("saved at %d episodes", done)
	}
	log := string(fileBytes(t, filepath.Join(task, "train.txt")))
	if !strings.Contains(log, "3000\tavg") || !strings.Contains(log, "saved ") {
		t.Fatalf("train.txt:\n%s", log)
	}
	if _, err := os.Stat(filepath.Join(task, "eval.json")); err != nil {
		t.Fatal(err)
	}
}

// TestTrainRefusesAtOnce: settings that cannot work are refused in one
// line before any work, naming what is wrong and what to do, and leave
// every file as it was.
func TestTrainRefusesAtOnce(t *testing.T) {
	t.Chdir(t.TempDir())
	if err := netfile.Save("other.td2048", ntuple.MustNew("0123"), netfile.Header{Game: "threez", Learner: "after"}); err != nil {
		t.Fatal(err)
	}
	mustTrain(t, "--network", "2x4", "--episodes", "200", "--every", "100", "--threads", "1", "--save", "p.td2048")
	parentLog := fileBytes(t, "p.jsonl")
	os.WriteFile("notes.txt", []byte("a thesis"), 0o644)
	os.Mkdir("adir", 0o755)
	for _, c := range []struct {
		args []string
		want string // the whole message, or a part of it
		not  string
	}{
		{[]string{"train", "--episodes", "0", "--save", "z.td2048"}, "td2048 train: --episodes 0: want 1 or more episodes to train\n", ""},
		{[]string{"train", "--alpha", "abc"}, `td2048 train: invalid argument "abc" for "--alpha": not a number (see 'td2048 train --help')` + "\n", ""},
		{[]string{"train", "--episodes", "1e5"}, `invalid argument "1e5" for "--episodes": not a whole number`, "strconv"},
		{[]string{"eval", "--games", "zz"}, `invalid argument "zz" for "--games": not a whole number`, "strconv"},
		{[]string{"train", "--duration", "5q"}, `invalid argument "5q" for "--duration": want a time like 90s or 1h30m`, ""},
		{[]string{"train", "--load", "other.td2048", "--save", "z.td2048"}, `--load other.td2048: unknown game "threez"`, "--game"},
		{[]string{"train", "--resume", "x.w"}, "--resume x.w is a TDL2048+ .w file, not a td2048 run checkpoint: start a new run from its weights with --load x.w", "--save"},
		{[]string{"train", "--coherence-alpha", "NaN", "--save", "z.td2048"}, "--coherence-alpha: learning rate NaN", ""},
		{[]string{"train", "--network", "", "--save", "z.td2048"}, "--network: an empty value", ""},
		{[]string{"train", "--load", "adir", "--save", "z.td2048"}, "--load adir: is a directory\n", "read "},
		{[]string{"eval", "--load=", "--games", "3"}, "--load: an empty value", "not found"},
		{[]string{"eval", "--load", "p.td2048", "--game=", "--games", "3"}, "--game: an empty value", ""},
		{[]string{"hint", "--load=", "2,2,0,0,0,0,0,0,0,0,0,0,0,0,0,0"}, "--load: an empty value", ""},
		{[]string{"train", "--resume", "p.td2048", "--episodes", "300", "--save", "k.td2048", "--log", "p.jsonl", "--force"}, "--log p.jsonl is the log of the run in p.td2048", ""},
	} {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			code, _, errs := runCmd(t, c.args...)
			if code != 2 || !strings.Contains(errs, c.want) || strings.Count(errs, "\n") != 1 || c.not != "" && strings.Contains(errs, c.not) {
				t.Errorf("exit %d: %q, want exit 2 with %q", code, errs, c.want)
			}
			for _, f := range []string{"z.td2048", "k.td2048", "k.jsonl"} {
				if _, err := os.Stat(f); err == nil {
					t.Errorf("%s written", f)
				}
			}
			if !bytes.Equal(fileBytes(t, "p.jsonl"), parentLog) {
				t.Fatal("the parent's log changed")
			}
		})
	}
	// A plan's settings are checked when it is read: sweep list refuses it.
	for _, c := range []struct{ train, want string }{
		{`coherence_alpha = nan`, "coherence_alpha: learning rate NaN"},
		{`network = ""`, "network: an empty value"},
		{`load = "gone.td2048"`, "load gone.td2048: not found"},
		{`load = "notes.txt"`, "load notes.txt is not a weight file"},
		{"load = \"p.td2048\"\ngame = \"threes\"", "load p.td2048 holds weights for 2048, not threes"},
	} {
		t.Run(c.train, func(t *testing.T) {
			os.WriteFile("plan.toml", []byte("[train]\n"+c.train+"\n"), 0o644)
			if code, _, errs := runCmd(t, "sweep", "list", "plan.toml"); code == 0 || !strings.Contains(errs, c.want) {
				t.Errorf("exit %d: %q, want %q", code, errs, c.want)
			}
		})
	}
}
