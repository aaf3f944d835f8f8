package main

// Fault injection: what a user can lose, and what td2048 refuses, when runs
// are repeated, killed (also during a save), disks fill up or turn
// read-only, two writers meet, and flags are absurd. These run in CI; the
// ones that need a small or read-only filesystem mount a tmpfs, which
// needs root (CI runs as root) and skip elsewhere.

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/td2048/td2048/internal/evalresult"
	"github.com/td2048/td2048/internal/train"
	"github.com/td2048/td2048/netfile"
	"github.com/td2048/td2048/stats"
)

func mustTrain(t *testing.T, args ...string) string {
	t.Helper()
	code, out, errs := runCmd(t, append([]string{"train"}, args...)...)
	if code != 0 {
		t.Fatalf("train %v: exit %d: %s", args, code, errs)
	}
	return out
}

func fileBytes(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestSecondTrainKeepsFirstRun: a second 'train' in the same folder used to
// replace the first run's weights and empty its log; now it is refused,
// naming the resume command, and both files stay as they were.
func TestSecondTrainKeepsFirstRun(t *testing.T) {
	t.Chdir(t.TempDir())
	mustTrain(t, "--episodes", "200", "--every", "50", "--network", "2x4", "--seed", "1")
	w, l := fileBytes(t, "weights.td2048"), fileBytes(t, "weights.jsonl")
	code, out, errs := runCmd(t, "train", "--episodes", "100", "--network", "2x4")
	if code == 0 || !strings.Contains(errs, "td2048 train --resume weights.td2048") || !strings.Contains(errs, "--force") || strings.Count(errs, "\n") != 1 {
		t.Fatalf("second train: exit %d\n%s%s", code, out, errs)
	}
	if !bytes.Equal(fileBytes(t, "weights.td2048"), w) || !bytes.Equal(fileBytes(t, "weights.jsonl"), l) {
		t.Fatal("the first run's files changed")
	}
	// Another run's log is not truncated either.
	code, _, errs = runCmd(t, "train", "--episodes", "100", "--network", "2x4", "--save", "other.td2048", "--log", "weights.jsonl")
	if code == 0 || !strings.Contains(errs, "metrics log") || !bytes.Equal(fileBytes(t, "weights.jsonl"), l) {
		t.Fatalf("log of another run: exit %d: %s", code, errs)
	}
	// Training on from the file (the course demo's way) continues its log.
	mustTrain(t, "--load", "weights.td2048", "--episodes", "100", "--every", "50")
	recs := readLog(t, "weights.jsonl")
	if len(recs) != 6 || recs[3].Episodes != 200 || recs[5].Episodes != 300 {
		t.Fatalf("log after --load: %d records, episodes %v", len(recs), episodesOf(recs))
	}
	// --force replaces.
	mustTrain(t, "--episodes", "50", "--every", "50", "--network", "2x4", "--force")
	if h, _ := netfile.ReadHeader("weights.td2048"); h.Episodes != 50 {
		t.Fatalf("--force: %d episodes", h.Episodes)
	}
}

func episodesOf(recs []stats.Record) []int64 {
	var e []int64
	for _, r := range recs {
		e = append(e, r.Episodes)
	}
	return e
}

// TestEveryOutputProtected: --log, --plot and convert's output never
// replace weights or another run's files without --force.
func TestEveryOutputProtected(t *testing.T) {
	t.Chdir(t.TempDir())
	mustTrain(t, "--episodes", "20", "--every", "10", "--network", "2x4", "--save", "s.td2048", "--seed", "1")
	mustTrain(t, "--episodes", "20", "--every", "10", "--network", "0123", "--save", "z.td2048", "--seed", "1")
	s, z := fileBytes(t, "s.td2048"), fileBytes(t, "z.td2048")
	os.WriteFile("weights.png", z, 0o644) // weights under an image's name
	mustTrain(t, "--game", "threes", "--network", "0123+hint", "--episodes", "20", "--every", "10", "--save", "t.td2048")
	if code, _, errs := runCmd(t, "eval", "--load", "t.td2048", "--games", "2", "--stats", "st.txt"); code != 0 {
		t.Fatal(errs)
	}
	for _, c := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"train", "--load", "s.td2048", "--episodes", "10", "--save", "y.td2048", "--log", "s.td2048"}, 2, "--log s.td2048 is the --load file"},
		{[]string{"train", "--episodes", "10", "--network", "2x4", "--save", "y.td2048", "--log", "z.td2048"}, 1, "z.td2048 holds trained 2048 weights"},
		{[]string{"train", "--episodes", "10", "--network", "2x4", "--save", "y.td2048", "--plot", "z.td2048"}, 2, "--plot"},
		{[]string{"train", "--episodes", "10", "--network", "2x4", "--save", "y.td2048", "--plot", "s.png", "--log", "s.png"}, 2, "--log"},
		{[]string{"convert", "s.td2048", "z.td2048"}, 1, "z.td2048 holds trained 2048 weights (0123 network"},
		{[]string{"plot", "s.jsonl", "-o", "z.td2048"}, 2, "-o"},
		{[]string{"plot", "s.jsonl", "-o", "s.svg"}, 0, ""},
		{[]string{"plot", "z.jsonl", "-o", "s.svg"}, 0, ""},
		{[]string{"plot", "s.jsonl", "-o", "s.jsonl.png"}, 0, ""},
		{[]string{"plot", "s.jsonl", "-o", "weights.png"}, 1, "weights.png holds trained 2048 weights"},
		{[]string{"eval", "--load", "t.td2048", "--games", "2", "--stats", "st.txt"}, 1, "st.txt holds a Threes! statistics file"},
		{[]string{"eval", "--load", "t.td2048", "--games", "2", "--stats", "s.td2048"}, 1, "s.td2048 holds trained 2048 weights"},
	} {
		t.Run(c.msg, func(t *testing.T) {
			code, _, errs := runCmd(t, c.args...)
			if code != c.code || !strings.Contains(errs, c.msg) {
				t.Errorf("%v: exit %d: %s (want %d, %q)", c.args, code, errs, c.code, c.msg)
			}
		})
	}
	if !bytes.Equal(fileBytes(t, "s.td2048"), s) || !bytes.Equal(fileBytes(t, "z.td2048"), z) {
		t.Fatal("weights changed")
	}
	if code, _, errs := runCmd(t, "convert", "s.td2048", "z.td2048", "--force"); code != 0 {
		t.Fatalf("convert --force: %s", errs)
	}
}

// TestResumeKeepsItsFlags: a resumed run checkpoints at its own interval
// and redraws its plot, as it was started.
func TestResumeKeepsItsFlags(t *testing.T) {
	t.Chdir(t.TempDir())
	mustTrain(t, "--episodes", "100", "--every", "10", "--network", "2x4", "--seed", "3", "--threads", "1",
		"--checkpoint-every", "30", "--plot", "p.png")
	os.Remove("p.png")
	mustTrain(t, "--resume", "weights.td2048", "--episodes", "200")
	st := runState(t, "weights.td2048")
	// A --checkpoint-every given saves at each of its boundaries (no gap).
	if st.CheckpointEvery != 30 || st.CheckpointGap.String() != "0s" || st.Done != 200 {
		t.Fatalf("resumed state: every %d, gap %q, done %d", st.CheckpointEvery, st.CheckpointGap, st.Done)
	}
	if _, err := os.Stat("p.png"); err != nil {
		t.Fatal("the resumed run forgot its plot")
	}
	// The default interval saves at most once a minute; a gap given is kept.
	for _, c := range []struct {
		flags []string
		gap   string
	}{{nil, "1m0s"}, {[]string{"--checkpoint-every", "30", "--checkpoint-gap", "5m"}, "5m0s"}} {
		t.Run(c.gap, func(t *testing.T) {
			os.Remove("weights.td2048")
			os.Remove("weights.jsonl")
			mustTrain(t, append([]string{"--episodes", "100", "--network", "2x4", "--threads", "1"}, c.flags...)...)
			mustTrain(t, "--resume", "weights.td2048", "--episodes", "200")
			if st := runState(t, "weights.td2048"); st.CheckpointGap.String() != c.gap || st.Done != 200 {
				t.Fatalf("%v, resumed: gap %q, done %d; want %s", c.flags, st.CheckpointGap, st.Done, c.gap)
			}
		})
	}
	if code, _, errs := runCmd(t, "train", "--checkpoint-gap", "-1s", "--save", "x.td2048"); code != 2 || !strings.Contains(errs, "--checkpoint-gap -1s") {
		t.Fatalf("a negative gap: exit %d: %s", code, errs)
	}
}

// TestLogOnFullDisk: a log on a full disk is a warning, training goes on,
// the log never holds a torn line, and the blocks it could not take travel
// in the checkpoint to the resumed run.
func TestLogOnFullDisk(t *testing.T) {
	dir := mountTmpfs(t, 8192, false)
	t.Chdir(t.TempDir())
	log := filepath.Join(dir, "w.jsonl")
	code, _, errs := runCmd(t, "train", "--episodes", "400", "--every", "10", "--network", "2x4", "--seed", "5", "--threads", "1", "--log", log)
	if code != 0 || !strings.Contains(errs, "warning: log") || !strings.Contains(errs, "no space") {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if strings.Count(errs, "warning") > 3 {
		t.Errorf("the warning repeats:\n%s", errs)
	}
	b := fileBytes(t, log)
	if len(b) == 0 || b[len(b)-1] != '\n' {
		t.Fatal("the log ends in a torn line")
	}
	st := runState(t, "weights.td2048")
	if len(st.LogPending) == 0 || st.LogOffset != int64(len(b)) {
		t.Fatalf("checkpoint: %d pending, offset %d, log %d bytes", len(st.LogPending), st.LogOffset, len(b))
	}
	remount(t, dir, 1<<20)
	mustTrain(t, "--resume", "weights.td2048", "--episodes", "500")
	recs := readLog(t, log)
	if len(recs) != 50 {
		t.Fatalf("log has %d blocks, want 50", len(recs))
	}
	for i, r := range recs {
		if r.Episodes != int64(10*(i+1)) {
			t.Fatalf("record %d is of %d episodes", i, r.Episodes)
		}
	}
}

// TestResumeLogMismatch: a missing, short or foreign log is refused with a
// way out, never padded; the log is found relative to the checkpoint from
// any folder; a copied checkpoint does not write into the original's log.
func TestResumeLogMismatch(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	mustTrain(t, "--episodes", "100", "--every", "10", "--network", "2x4", "--seed", "7", "--threads", "1")
	log := fileBytes(t, "weights.jsonl")
	os.Remove("weights.jsonl")
	code, _, errs := runCmd(t, "train", "--resume", "weights.td2048", "--episodes", "150")
	if code == 0 || !strings.Contains(errs, "weights.jsonl is missing") || !strings.Contains(errs, "--log none") {
		t.Fatalf("missing log: exit %d: %s", code, errs)
	}
	if _, err := os.Stat("weights.jsonl"); err == nil {
		t.Fatal("a log was made up")
	}
	os.WriteFile("weights.jsonl", log[:len(log)/2], 0o644)
	if code, _, errs := runCmd(t, "train", "--resume", "weights.td2048", "--episodes", "150"); code == 0 || !strings.Contains(errs, "does not match") {
		t.Fatalf("short log: exit %d: %s", code, errs)
	}
	if b := fileBytes(t, "weights.jsonl"); bytes.IndexByte(b, 0) >= 0 || len(b) != len(log)/2 {
		t.Fatal("the short log was padded or cut")
	}
	os.WriteFile("weights.jsonl", log, 0o644)
	// From another folder, the log beside the checkpoint goes on.
	sub := filepath.Join(dir, "elsewhere")
	os.Mkdir(sub, 0o755)
	t.Chdir(sub)
	mustTrain(t, "--resume", filepath.Join("..", "weights.td2048"), "--episodes", "150")
	if entries, _ := os.ReadDir(sub); len(entries) != 0 {
		t.Fatalf("files written in the working folder: %v", entries)
	}
	t.Chdir(dir)
	if recs := readLog(t, "weights.jsonl"); len(recs) != 15 {
		t.Fatalf("log has %d blocks after resuming from elsewhere", len(recs))
	}
	// A copied checkpoint looks for its own log.
	os.WriteFile("copy.td2048", fileBytes(t, "weights.td2048"), 0o644)
	before := fileBytes(t, "weights.jsonl")
	if code, _, errs := runCmd(t, "train", "--resume", "copy.td2048", "--episodes", "200"); code == 0 || !strings.Contains(errs, "copy.jsonl is missing") {
		t.Fatalf("copied checkpoint: exit %d: %s", code, errs)
	}
	if !bytes.Equal(before, fileBytes(t, "weights.jsonl")) {
		t.Fatal("the copied checkpoint wrote into the original run's log")
	}
	mustTrain(t, "--resume", "copy.td2048", "--episodes", "200", "--log", "copy.jsonl")
}

// TestUnusableOutputsFoundFirst: every unusable output path is refused
// before the first episode, and nothing is left behind.
func TestUnusableOutputsFoundFirst(t *testing.T) {
	ro := mountTmpfs(t, 1<<20, true)
	dir := t.TempDir()
	t.Chdir(dir)
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"train", "--save", filepath.Join(ro, "w.td2048")}, "read-only"},
		{[]string{"train", "--save", ""}, "--save"},
		{[]string{"train", "--save", dir, "--force"}, "is a folder"},
		{[]string{"train", "--save", filepath.Join(dir, "no", "w.td2048")}, "does not exist"},
		{[]string{"train", "--log", filepath.Join(ro, "w.jsonl")}, "read-only"},
		{[]string{"train", "--plot", filepath.Join(ro, "p.png")}, "read-only"},
	} {
		t.Run(c.msg, func(t *testing.T) {
			start := time.Now()
			code, out, errs := runCmd(t, append(c.args, "--network", "2x4", "--episodes", "100000")...)
			if code == 0 || !strings.Contains(errs, c.msg) || strings.Contains(out, "avg =") || time.Since(start) > 5*time.Second {
				t.Errorf("%v: exit %d after %v: %s%s", c.args, code, time.Since(start), out, errs)
			}
		})
	}
	// Resuming a run kept in a read-only place is refused at once.
	mustTrain(t, "--episodes", "20", "--every", "10", "--network", "2x4", "--save", "r.td2048")
	if code, _, errs := runCmd(t, "train", "--resume", "r.td2048", "--save", filepath.Join(ro, "r.td2048"), "--episodes", "100000"); code == 0 || !strings.Contains(errs, "read-only") {
		t.Errorf("resume to a read-only place: exit %d: %s", code, errs)
	}
	// eval --stats to a folder is refused before any game, with no file
	// made in its parent.
	mustTrain(t, "--game", "threes", "--network", "0123+hint", "--episodes", "20", "--every", "10", "--save", "t.td2048")
	code, out, errs := runCmd(t, "eval", "--load", "t.td2048", "--games", "100000", "--stats", dir)
	if code == 0 || !strings.Contains(errs, "is a folder") || strings.Contains(out, "avg =") {
		t.Errorf("eval --stats DIR: exit %d: %s%s", code, out, errs)
	}
	entries, _ := os.ReadDir(filepath.Dir(dir))
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp") {
			t.Errorf("temporary file left in the parent folder: %s", e.Name())
		}
	}
}

// TestAbsurdFlagsRefused: values that cannot work are usage errors, one
// line each, before anything is allocated.
func TestAbsurdFlagsRefused(t *testing.T) {
	t.Chdir(t.TempDir())
	for _, args := range [][]string{
		{"train", "--alpha", "Inf"}, {"train", "--alpha", "NaN"}, {"train", "--alpha", "3"}, {"train", "--alpha", "1e300"},
		{"train", "--alpha", "-0.1"}, {"train", "--alpha-schedule", "0:0.1,100:5"}, {"train", "--threads", "100000"},
		{"eval", "--cache", "1000G"}, {"eval", "--threads", "100000"}, {"train", "--init", "Inf"}, {"train", "--init", "1e12"}, {"bench", "--threads", "100000"}, {"hint", "--cache", "1000G", "0x1"}, {"train", "--network", "6x5"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			code, out, errs := runCmd(t, args...)
			if code != 2 || strings.Count(errs, "\n") != 1 || out != "" {
				t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, errs)
			}
		})
	}
	if _, err := os.Stat("weights.td2048"); err == nil {
		t.Error("a refused run left weights")
	}
}

// TestTwoWritersRefused: a second training on the same files is refused
// while the first runs, naming its process; after the first is killed
// the files are free again and its stale temporaries are removed.
func TestTwoWritersRefused(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	dir := t.TempDir()
	w := filepath.Join(dir, "w.td2048")
	cmd := exec.Command(os.Args[0], "train", "--network", "2x4", "--episodes", "100000000", "--save", w, "--checkpoint-every", "1000")
	cmd.Env = append(os.Environ(), "TD2048_BE_MAIN=1")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	waitFor(t, func() bool { _, err := os.Stat(w); return err == nil }, &out)
	code, _, errs := runCmd(t, "train", "--network", "2x4", "--episodes", "10", "--save", w, "--force")
	want := fmt.Sprintf("is being written by process %d", cmd.Process.Pid)
	if code == 0 || !strings.Contains(errs, want) {
		t.Fatalf("second writer: exit %d: %s (want %q)", code, errs, want)
	}
	// The log alone is locked too.
	if code, _, errs := runCmd(t, "train", "--network", "2x4", "--episodes", "10", "--save", filepath.Join(dir, "x.td2048"), "--log", filepath.Join(dir, "w.jsonl"), "--force"); code == 0 || !strings.Contains(errs, "being written") {
		t.Fatalf("second writer of the log: exit %d: %s", code, errs)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	stale := filepath.Join(dir, ".w.td2048.tmp123")
	os.WriteFile(stale, []byte("half a save"), 0o644)
	mustTrain(t, "--resume", w, "--episodes", "2000")
	if _, err := os.Stat(stale); err == nil {
		t.Fatal("a stale temporary file was left")
	}
}

func waitFor(t *testing.T, cond func() bool, out *bytes.Buffer) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out:\n%s", out.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestKillAnywhere kills training at random moments, many during saves of
// a 64 MiB network: the weight file always loads whole or is absent, the
// run always resumes, and no temporary file outlives the next start.
func TestKillAnywhere(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	dir := t.TempDir()
	w := filepath.Join(dir, "w.td2048")
	rng := rand.New(rand.NewPCG(1, 2))
	args := []string{"train", "--network", "01234,45678,01245,56789", "--episodes", "100000000", "--save", w, "--every", "20", "--checkpoint-every", "20", "--threads", "1", "--seed", "1"}
	for i := range 6 {
		a := args
		if _, err := os.Stat(w); err == nil {
			a = []string{"train", "--resume", w}
		}
		cmd := exec.Command(os.Args[0], a...)
		cmd.Env = append(os.Environ(), "TD2048_BE_MAIN=1")
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(300+rng.IntN(1500)) * time.Millisecond)
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		if _, err := os.Stat(w); err != nil {
			if i > 0 {
				t.Fatalf("kill %d: the weights are gone", i)
			}
			continue
		}
		net, h, err := netfile.LoadAny(w)
		if err != nil {
			t.Fatalf("kill %d: %v\n%s", i, err, out.String())
		}
		net.Free()
		if st, ok, err := train.ReadState(h); !ok || err != nil || st.Done%20 != 0 {
			t.Fatalf("kill %d: run state %+v %v", i, st, err)
		}
	}
	mustTrain(t, "--resume", w, "--episodes", fmt.Sprint(runState(t, w).Done+20))
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp") || strings.HasSuffix(e.Name(), ".lock") {
			t.Errorf("left behind: %s", e.Name())
		}
	}
	if recs := readLog(t, filepath.Join(dir, "w.jsonl")); len(recs) == 0 || recs[len(recs)-1].Episodes != int64(runState(t, w).Done) {
		t.Errorf("log does not end at the checkpoint")
	}
}

// TestForkKeepsItsOwnLog: a run resumed under another name (a fork)
// writes its own log, a copy of its parent's up to the checkpoint, and
// leaves the parent's log as it was, so that both resume; its parent's
// plot is not redrawn from the fork's log.
func TestForkKeepsItsOwnLog(t *testing.T) {
	t.Chdir(t.TempDir())
	mustTrain(t, "--episodes", "100", "--every", "10", "--network", "2x4", "--seed", "3", "--threads", "1", "--save", "c.td2048", "--plot", "c.png")
	parent, png := fileBytes(t, "c.jsonl"), fileBytes(t, "c.png")
	out := mustTrain(t, "--resume", "c.td2048", "--episodes", "150", "--save", "d.td2048")
	if !strings.Contains(out, "log = d.jsonl") || strings.Contains(out, "plot =") {
		t.Fatalf("the fork's header:\n%s", out)
	}
	if !bytes.Equal(fileBytes(t, "c.jsonl"), parent) || !bytes.Equal(fileBytes(t, "c.png"), png) {
		t.Fatal("the fork wrote into its parent's log or plot")
	}
	if recs := readLog(t, "d.jsonl"); len(recs) != 15 || recs[9].Episodes != 100 || recs[14].Episodes != 150 {
		t.Fatalf("the fork's log: %v", episodesOf(recs))
	}
	mustTrain(t, "--resume", "c.td2048", "--episodes", "120")
	mustTrain(t, "--resume", "d.td2048", "--episodes", "170")
	if recs := readLog(t, "c.jsonl"); len(recs) != 12 {
		t.Fatalf("the parent's log after it resumed: %v", episodesOf(recs))
	}
	if recs := readLog(t, "d.jsonl"); len(recs) != 17 {
		t.Fatalf("the fork's log after it resumed: %v", episodesOf(recs))
	}
	// A fork over a file of its own name is refused without --force.
	if code, _, errs := runCmd(t, "train", "--resume", "c.td2048", "--episodes", "130", "--save", "e.td2048", "--log", "d.jsonl"); code != 1 || !strings.Contains(errs, "metrics log") {
		t.Fatalf("a fork's --log over another run's: exit %d: %s", code, errs)
	}
}

// TestEmptyNamesRefused: an empty output name is refused at once, never
// taken for the default or for none.
func TestEmptyNamesRefused(t *testing.T) {
	t.Chdir(t.TempDir())
	for _, args := range [][]string{
		{"train", "--log", "", "--episodes", "10"}, {"train", "--plot", "", "--episodes", "10"}, {"train", "--save", "", "--episodes", "10"},
		{"sweep", "report", ".", "--plot", ""},
		{"train", "--alpha-schedule", "0:0.1,0:0.05", "--episodes", "10"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			code, out, errs := runCmd(t, args...)
			if code != 2 || strings.Count(errs, "\n") != 1 || out != "" {
				t.Errorf("%q: exit %d, stdout %q, stderr %q", args, code, out, errs)
			}
		})
	}
	if entries, _ := os.ReadDir("."); len(entries) != 0 {
		t.Errorf("files made: %v", entries)
	}
}

// TestCheckpointOnFullDisk: a checkpoint that cannot be written stops the
// run with an error that says the last checkpoint is intact and names the
// command that continues it; it does.
func TestCheckpointOnFullDisk(t *testing.T) {
	dir := mountTmpfs(t, 900<<10, false) // one 2x4 checkpoint (512 KiB), not a second beside it
	t.Chdir(t.TempDir())
	w := filepath.Join(dir, "w.td2048")
	code, _, errs := runCmd(t, "train", "--episodes", "300", "--every", "50", "--network", "2x4", "--seed", "5", "--threads", "1",
		"--checkpoint-every", "100", "--save", w, "--log", "w.jsonl", "--init", "1000") // every weight not 0: no holes
	want := fmt.Sprintf("%s keeps the last checkpoint (100 episodes), intact: continue the run with td2048 train --resume %s", w, w)
	if code != 1 || !strings.Contains(errs, "no space") || !strings.Contains(errs, want) {
		t.Fatalf("exit %d: %s", code, errs)
	}
	remount(t, dir, 4<<20)
	mustTrain(t, "--resume", w)
	if st := runState(t, w); st.Done != 300 {
		t.Fatalf("resumed to %d episodes", st.Done)
	}
}

// TestLinksToARunningRun: the one-writer lock is the file's, not the
// name's: a symbolic or a hard link to a running run's log, or a symbolic
// link to its weights, is refused naming the run, even with --force, and
// the run's log is not cut. Once the run has stopped, a save to a symbolic
// link writes the file it points to and leaves the link a link.
func TestLinksToARunningRun(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	t.Chdir(t.TempDir())
	cmd := exec.Command(os.Args[0], "train", "--network", "2x4", "--episodes", "100000000", "--save", "w.td2048", "--checkpoint-every", "1000", "--threads", "1")
	cmd.Env = append(os.Environ(), "TD2048_BE_MAIN=1")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	waitFor(t, func() bool { _, err := os.Stat("w.td2048"); return err == nil }, &out)
	if err := os.Symlink("w.jsonl", "alias.jsonl"); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	os.Link("w.jsonl", "hard.jsonl")
	os.Symlink("w.td2048", "alias.td2048")
	running := fmt.Sprintf("is being written by process %d", cmd.Process.Pid)
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--save", "y.td2048", "--log", "alias.jsonl"}, "alias.jsonl (a link to w.jsonl) " + running},
		{[]string{"--save", "y.td2048", "--log", "hard.jsonl"}, "hard.jsonl " + running},
		{[]string{"--save", "alias.td2048", "--log", "none"}, "alias.td2048 (a link to w.td2048) " + running},
	} {
		t.Run(c.msg, func(t *testing.T) {
			before, _ := os.Stat("w.jsonl")
			code, _, errs := runCmd(t, append([]string{"train", "--network", "2x4", "--episodes", "10", "--force"}, c.args...)...)
			if code == 0 || !strings.Contains(errs, c.msg) || strings.Count(errs, "\n") != 1 {
				t.Errorf("%v: exit %d: %s(want %q)", c.args, code, errs, c.msg)
			}
			if after, _ := os.Stat("w.jsonl"); after.Size() < before.Size() {
				t.Fatalf("%v cut the running run's log from %d to %d bytes", c.args, before.Size(), after.Size())
			}
		})
	}
	if fi, err := os.Lstat("alias.td2048"); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatal("the link to the running run's weights was replaced")
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	if bytes.IndexByte(fileBytes(t, "w.jsonl"), 0) >= 0 {
		t.Fatal("the run's log holds NUL bytes")
	}
	mustTrain(t, "--network", "2x4", "--episodes", "10", "--save", "alias.td2048", "--log", "none", "--force")
	if fi, err := os.Lstat("alias.td2048"); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatal("a save through a link replaced the link")
	}
	if h, err := netfile.ReadHeader("w.td2048"); err != nil || h.Episodes != 10 {
		t.Fatalf("the link's target after a save through it: %d episodes, %v", h.Episodes, err)
	}
}

// TestStaleTemporariesOfOtherFiles: a run cleaning up after a killed save
// of w.td2048 removes only w.td2048's temporaries, not the save under way
// of a file whose name starts with w.td2048.
func TestStaleTemporariesOfOtherFiles(t *testing.T) {
	t.Chdir(t.TempDir())
	os.WriteFile(".w.td2048.tmp123", []byte("a killed save"), 0o644)
	os.WriteFile(".w.td2048.tmpX.td2048.tmp456", []byte("another file's save"), 0o644)
	mustTrain(t, "--network", "2x4", "--episodes", "10", "--save", "w.td2048")
	if _, err := os.Stat(".w.td2048.tmp123"); err == nil {
		t.Error("w.td2048's stale temporary was kept")
	}
	if _, err := os.Stat(".w.td2048.tmpX.td2048.tmp456"); err != nil {
		t.Error("the save under way of w.td2048.tmpX.td2048 was removed")
	}
}

// evalParts plays an evaluation of 20 games with seed 5 in two shards,
// p0.json and p1.json, in the working folder.
func evalParts(t *testing.T, w string) {
	t.Helper()
	for k := range 2 {
		if code, _, errs := runCmd(t, "eval", "--load", w, "--games", "20", "--seed", "5", "--threads", "1",
			"--shard", fmt.Sprintf("%d/2", k), "--out", fmt.Sprintf("p%d.json", k)); code != 0 {
			t.Fatal(errs)
		}
	}
}

// TestEvalOutReplacesOnlyReruns: eval --out and merge --out replace a
// result file only with a rerun of its evaluation (the same weights, seed,
// search, games and shard); another evaluation's result, a damaged one and
// any other file are refused, and --force, which the refusal advises,
// replaces them.
func TestEvalOutReplacesOnlyReruns(t *testing.T) {
	w := trainedWeights(t)
	t.Chdir(t.TempDir())
	evalParts(t, w)
	if code, _, errs := runCmd(t, "merge", "p0.json", "p1.json", "--out", "expensive.json"); code != 0 {
		t.Fatal(errs)
	}
	merged, p0 := fileBytes(t, "expensive.json"), fileBytes(t, "p0.json")
	hint := "; not overwriting it (choose another --out, or --force to replace it)"
	eval := []string{"eval", "--load", w, "--threads", "1"}
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--games", "3", "--seed", "99", "--out", "expensive.json"}, "expensive.json holds the result of another evaluation (this one has seed 99, not 5)" + hint},
		{[]string{"--games", "3", "--seed", "5", "--out", "expensive.json"}, "an evaluation of 3 games, not 20"},
		{[]string{"--games", "20", "--seed", "5", "--depth", "2", "--out", "expensive.json"}, `search "2-ply expectimax, no table", not "1-ply (greedy)"`},
		{[]string{"--games", "20", "--seed", "5", "--shard", "1/2", "--out", "p0.json"}, "shard 1/2, not 0/2"},
		{[]string{"--games", "20", "--seed", "5", "--shard", "0/4", "--out", "p0.json"}, "one of 4 shards, not 2"},
	} {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			code, out, errs := runCmd(t, append(eval, c.args...)...)
			if code != 1 || !strings.Contains(errs, c.msg) || strings.Count(errs, "\n") != 1 || strings.Contains(out, "avg =") {
				t.Errorf("%v: exit %d: %s%s(want %q)", c.args, code, out, errs, c.msg)
			}
		})
	}
	if !bytes.Equal(fileBytes(t, "expensive.json"), merged) || !bytes.Equal(fileBytes(t, "p0.json"), p0) {
		t.Fatal("a refused evaluation changed a result file")
	}
	// Reruns of the same evaluation are accepted: the whole in one
	// process over the merge and a shard over itself find their games
	// done already (by this build: nothing to play); a merge over itself
	// replaces.
	for _, args := range [][]string{
		append(eval, "--games", "20", "--seed", "5", "--out", "expensive.json"),
		append(eval, "--games", "20", "--seed", "5", "--shard", "0/2", "--out", "p0.json", "--threads", "2"),
		{"merge", "p0.json", "p1.json", "--out", "expensive.json"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			code, out, errs := runCmd(t, args...)
			if code != 0 || args[0] == "eval" && !strings.Contains(out, "\ndone already: ") {
				t.Errorf("rerun %v: exit %d: %s%s", args, code, out, errs)
			}
		})
	}
	// A damaged result, or a file that is no result, is refused; --force
	// replaces either.
	os.WriteFile("damaged.json", bytes.Replace(merged, []byte(`"seed": 5`), []byte(`"seed": 6`), 1), 0o644)
	os.WriteFile("notes.txt", []byte("precious"), 0o644)
	for name, msg := range map[string]string{
		"damaged.json": "damaged.json: damaged evaluation result: checksum does not match" + hint,
		"notes.txt":    "notes.txt holds other data" + hint,
	} {
		t.Run(name, func(t *testing.T) {
			oneLine(t, append(eval, "--games", "3", "--out", name), 1, msg)
			oneLine(t, []string{"merge", "p0.json", "p1.json", "--out", name}, 1, strings.Replace(msg, "(choose another --out, or --force", "(choose another --out, or --force", 1))
			if code, _, errs := runCmd(t, append(eval, "--games", "3", "--out", name, "--force")...); code != 0 {
				t.Errorf("--force over %s: %s", name, errs)
			}
		})
	}
	if code, _, errs := runCmd(t, append(eval, "--games", "3", "--seed", "99", "--out", "expensive.json", "--force")...); code != 0 {
		t.Fatalf("--force: %s", errs)
	}
	if r, err := evalresult.Read("expensive.json"); err != nil || r.GamesTotal != 3 {
		t.Fatalf("after --force: %d games, %v", r.GamesTotal, err)
	}
}

// TestEmptyOutputNamesRefused: an empty output name is a usage error at
// once, never "none".
func TestEmptyOutputNamesRefused(t *testing.T) {
	w := trainedWeights(t)
	t.Chdir(t.TempDir())
	evalParts(t, w)
	for _, args := range [][]string{
		{"eval", "--load", w, "--games", "100000", "--out", ""},
		{"eval", "--load", w, "--games", "100000", "--stats", ""},
		{"merge", "p0.json", "p1.json", "--out", ""},
		{"merge", "p0.json", "p1.json", "--stats", ""},
		{"convert", w, ""},
		{"convert", w, "", "--to", "w"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			code, out, errs := runCmd(t, args...)
			if code != 2 || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "empty") {
				t.Errorf("%q: exit %d, stdout %q, stderr %q", args, code, out, errs)
			}
		})
	}
}

// TestMergeOutputsAreNotItsInputs: merge's --out and --stats are refused,
// with --force too, when they name one another or a file the merge reads;
// a merge whose shards took no measurable time prints no speed.
func TestMergeOutputsAreNotItsInputs(t *testing.T) {
	w := trainedThreesWeights(t)
	t.Chdir(t.TempDir())
	var inputs [][]byte
	for k := range 2 {
		if code, _, errs := runCmd(t, "eval", "--load", w, "--games", "4", "--seed", "3", "--shard", fmt.Sprintf("%d/2", k),
			"--out", fmt.Sprintf("t%d.json", k), "--stats", fmt.Sprintf("t%d.txt", k)); code != 0 {
			t.Fatal(errs)
		}
		inputs = append(inputs, fileBytes(t, fmt.Sprintf("t%d.json", k)), fileBytes(t, fmt.Sprintf("t%d.txt", k)))
	}
	merge := []string{"merge", "t0.json", "t1.json"}
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--stats", "same.txt", "--out", "same.txt"}, "--out and --stats name the same file same.txt"},
		{[]string{"--stats", "t0.txt", "--force"}, "--stats t0.txt is the statistics file of the shard t0.json being merged"},
		{[]string{"--out", "t1.json", "--force"}, "--out t1.json is the shard t1.json being merged"},
		{[]string{"--out", "t1.txt", "--force"}, "--out t1.txt is the statistics file of the shard t1.json"},
	} {
		oneLine(t, append(merge, c.args...), 2, c.msg)
	}
	for k := range 2 {
		if !bytes.Equal(fileBytes(t, fmt.Sprintf("t%d.json", k)), inputs[2*k]) || !bytes.Equal(fileBytes(t, fmt.Sprintf("t%d.txt", k)), inputs[2*k+1]) {
			t.Fatalf("shard %d's files changed", k)
		}
	}
	// Shards whose times add up to 0 ms.
	for k := range 2 {
		name := fmt.Sprintf("t%d.json", k)
		r, err := evalresult.Read(name)
		if err != nil {
			t.Fatal(err)
		}
		r.ElapsedMS, r.TimeMS, r.SlideMS, r.PlaceMS = 0, 0, 0, 0
		if err := evalresult.Write(name, r); err != nil {
			t.Fatal(err)
		}
	}
	code, out, errs := runCmd(t, merge...)
	if code != 0 || strings.Contains(out, "M moves/s") || !strings.Contains(out, "speed n/a") {
		t.Errorf("merge of 0 ms: exit %d: %s%s", code, out, errs)
	}
}

// TestOutputIsNotTheLoadFile: eval's --out and --stats are refused, with
// --force too, when they name the weights being evaluated (also through a
// link) or one another, or a lock or temporary file of td2048's own.
func TestOutputIsNotTheLoadFile(t *testing.T) {
	w := trainedWeights(t)
	t.Chdir(t.TempDir())
	oneLine(t, []string{"eval", "--load", w, "--games", "2", "--out", ".w.td2048.lock", "--force"}, 2, ".w.td2048.lock is td2048's own lock file of w.td2048")
	oneLine(t, []string{"train", "--network", "2x4", "--episodes", "10", "--save", ".w.td2048.tmp12", "--force"}, 2, "td2048's own temporary file of w.td2048")
	oneLine(t, []string{"eval", "--load", w, "--games", "2", "--out", w, "--force"}, 2, "is the --load file")
	oneLine(t, []string{"eval", "--load", w, "--games", "2", "--stats", w, "--force"}, 2, "is the --load file")
	oneLine(t, []string{"eval", "--load", w, "--games", "2", "--out", "r.json", "--stats", "r.json"}, 2, "--out and --stats name the same file r.json")
	if err := os.Symlink(w, "link.td2048"); err == nil {
		oneLine(t, []string{"eval", "--load", "link.td2048", "--games", "2", "--out", w, "--force"}, 2, "is the --load file")
	}
}

// writeVersion1 rewrites the result file at path as td2048 wrote results
// before they recorded their build: format version 1, no build.
func writeVersion1(t *testing.T, path string) {
	t.Helper()
	r, err := evalresult.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	r.Build, r.Version, r.Checksum = nil, 1, ""
	js, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(js)
	r.Checksum = hex.EncodeToString(sum[:])
	js, _ = json.MarshalIndent(r, "", "  ")
	if err := os.WriteFile(path, append(js, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestResultsCarryTheirBuild: a result file names the td2048 that played
// it as td2048 version does, with the weights' checksum, seed, search and
// games; merge refuses shards of another build, or of a build not
// recorded (a result file of an older td2048, which still reads), unless
// --mixed-builds; and --games is bounded so that no shard's games run out
// of range.
func TestResultsCarryTheirBuild(t *testing.T) {
	w := trainedWeights(t)
	t.Chdir(t.TempDir())
	evalParts(t, w)
	var raw map[string]any
	if err := json.Unmarshal(fileBytes(t, "p1.json"), &raw); err != nil {
		t.Fatal(err)
	}
	b, _ := raw["build"].(map[string]any)
	_, vout, _ := runCmd(t, "version")
	if b == nil || b["go"] != runtime.Version() || b["platform"] == nil || b["version"] == nil ||
		!strings.Contains(vout, fmt.Sprint(b["version"])) || raw["version"] != 2.0 {
		t.Fatalf("build %v in a result (td2048 version: %s)", raw["build"], vout)
	}
	for _, k := range []string{"weights_checksum", "seed", "search", "games_total", "first_game", "games", "shard", "shards"} {
		if raw[k] == nil || raw[k] == "" {
			t.Errorf("the result has no %s", k)
		}
	}
	// Another build.
	r, err := evalresult.Read("p1.json")
	if err != nil {
		t.Fatal(err)
	}
	other := *r.Build
	other.Revision, other.Modified = "0123456789abcdef0123", false
	r.Build = &other
	evalresult.Write("other.json", r)
	oneLine(t, []string{"merge", "p0.json", "other.json"}, 1, "p0.json and other.json come from different builds of td2048")
	oneLine(t, []string{"merge", "p0.json", "other.json"}, 1, "(commit 0123456789ab)")
	code, out, errs := runCmd(t, "merge", "p0.json", "other.json", "--mixed-builds", "--out", "mixed.json")
	if code != 0 || !strings.Contains(out, "20 games in") || !strings.Contains(string(fileBytes(t, "mixed.json")), `"mixed_builds": true`) {
		t.Fatalf("--mixed-builds: exit %d: %s%s", code, out, errs)
	}
	// The printed statistics say so too, not only the merged file; so
	// does merge of that merged file.
	const mixedLine = "\nbuilds = mixed (--mixed-builds): the shards were played by different builds of td2048"
	if !strings.Contains(out, mixedLine) {
		t.Errorf("the statistics of a merge of mixed builds do not say so:\n%s", out)
	}
	if _, again, _ := runCmd(t, "merge", "mixed.json"); !strings.Contains(again, mixedLine) {
		t.Errorf("merge of the merged result of mixed builds:\n%s", again)
	}
	if _, one, _ := runCmd(t, "merge", "p0.json", "p1.json"); strings.Contains(one, "builds = ") {
		t.Errorf("a merge of one build:\n%s", one)
	}
	// An older td2048's result: read, replaced by a rerun, merged only
	// when told.
	writeVersion1(t, "p1.json")
	oneLine(t, []string{"merge", "p0.json", "p1.json"}, 1, "p1.json was written by a td2048 that did not record its build (result format version 1)")
	if code, _, errs := runCmd(t, "merge", "p0.json", "p1.json", "--mixed-builds"); code != 0 {
		t.Fatalf("version 1 with --mixed-builds: %s", errs)
	}
	if code, _, errs := runCmd(t, "eval", "--load", w, "--games", "20", "--seed", "5", "--shard", "1/2", "--out", "p1.json"); code != 0 {
		t.Fatalf("rerun over a version 1 result: %s", errs)
	}
	if code, _, errs := runCmd(t, "merge", "p0.json", "p1.json"); code != 0 {
		t.Fatalf("after the rerun: %s", errs)
	}
	// Game counts whose shard ranges would overflow are refused at once.
	for _, games := range []string{"4611686018427387904", "1099511627777"} {
		code, out, errs := runCmd(t, "eval", "--load", w, "--games", games, "--shard", "3/4", "--out", "big.json")
		if code != 2 || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "at most 1099511627776") {
			t.Errorf("--games %s: exit %d: %s%s", games, code, out, errs)
		}
	}
}

// TestWeightsChangedWhileLoaded: an evaluation whose weights file is
// replaced (a training run's checkpoint) between its checksum and its load
// is refused: its result would name weights it did not play.
func TestWeightsChangedWhileLoaded(t *testing.T) {
	w := trainedWeights(t)
	s := shardFlags{out: filepath.Join(t.TempDir(), "r.json")}
	if err := s.resolve(10, w, false); err != nil {
		t.Fatal(err)
	}
	defer s.release()
	if err := s.checkRerun(evalresult.Result{}, w, false); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(w+".new", fileBytes(t, w), 0o644)
	os.Rename(w+".new", w)
	if err := s.checkRerun(evalresult.Result{}, w, false); err == nil || !strings.Contains(err.Error(), "changed while it was loaded") {
		t.Fatalf("weights replaced: %v", err)
	}
}
