package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	imagepng "image/png"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/td2048/td2048/internal/train"
	"github.com/td2048/td2048/netfile"
	"github.com/td2048/td2048/stats"
)

// TestMain lets the test binary act as td2048 itself, for tests that need a
// real process (to kill it).
func TestMain(m *testing.M) {
	if os.Getenv("TD2048_BE_MAIN") == "1" {
		keepOnClosedPipe()
		os.Exit(run(os.Args[1:], &env{stdout: os.Stdout, stderr: os.Stderr, stdin: os.Stdin}))
	}
	widenParallel()
	os.Exit(m.Run())
}

// widenParallel lets more parallel tests run at once than go test's
// default of one a CPU (unless -parallel is given): many of them spend
// their time waiting (on a Slurm cluster, a terminal's redraws, a child
// process's first checkpoint), not computing.
func widenParallel() {
	flag.Parse()
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if !given {
		flag.Set("test.parallel", fmt.Sprint(max(4, 2*runtime.GOMAXPROCS(0))))
	}
}

func sameWeights(t *testing.T, a, b string) {
	t.Helper()
	na, _, err := netfile.LoadAny(a)
	if err != nil {
		t.Fatal(err)
	}
	nb, _, err := netfile.LoadAny(b)
	if err != nil {
		t.Fatal(err)
	}
	wa, wb := na.Weights(), nb.Weights()
	if len(wa) != len(wb) {
		t.Fatalf("%d vs %d weights", len(wa), len(wb))
	}
	for i := range wa {
		if math.Float32bits(wa[i]) != math.Float32bits(wb[i]) {
			t.Fatalf("weight %d: %v in %s, %v in %s", i, wa[i], a, wb[i], b)
		}
	}
}

func readLog(t *testing.T, path string) []stats.Record {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := stats.ReadLog(f)
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

func runState(t *testing.T, path string) train.State {
	t.Helper()
	h, err := netfile.ReadHeader(path)
	if err != nil {
		t.Fatal(err)
	}
	var r train.State
	if err := json.Unmarshal(h.Run, &r); err != nil {
		t.Fatalf("run state of %s: %v", path, err)
	}
	return r
}

func TestResumeThroughCommand(t *testing.T) {
	dir := t.TempDir()
	whole, part := filepath.Join(dir, "whole.td2048"), filepath.Join(dir, "part.td2048")
	// Two episodes in turn (the default): the whole run pauses its lanes
	// at the checkpoint where the part stops, and so learns the same.
	common := []string{"--network", "8x4", "--seed", "9", "--every", "50", "--alpha-schedule", "0:0.1,300:0.05", "--threads", "1",
		"--checkpoint-every", "300"}
	if code, _, errs := runCmd(t, append([]string{"train", "--episodes", "600", "--save", whole}, common...)...); code != 0 {
		t.Fatal(errs)
	}
	if code, _, errs := runCmd(t, append([]string{"train", "--episodes", "300", "--save", part}, common...)...); code != 0 {
		t.Fatal(errs)
	}
	code, out, errs := runCmd(t, "train", "--resume", part, "--episodes", "600")
	if code != 0 {
		t.Fatal(errs)
	}
	if !strings.Contains(out, "resumed = "+part+" (300 of 600 episodes done)") || !strings.Contains(out, "\n600\tavg = ") || strings.Contains(out, "\n300\tavg = ") {
		t.Fatalf("resume output:\n%s", out)
	}
	sameWeights(t, whole, part)
	lw, lp := readLog(t, filepath.Join(dir, "whole.jsonl")), readLog(t, filepath.Join(dir, "part.jsonl"))
	if len(lw) != 12 || len(lp) != 12 {
		t.Fatalf("logs have %d and %d records", len(lw), len(lp))
	}
	for i := range lw {
		if lw[i].Episodes != int64(50*(i+1)) || lw[i].Avg != lp[i].Avg || lw[i].Alpha != lp[i].Alpha {
			t.Fatalf("record %d: %+v vs %+v", i, lw[i], lp[i])
		}
	}
	if lw[5].Alpha != 0.1 || lw[6].Alpha != 0.05 {
		t.Fatalf("schedule not in the log: %v %v", lw[5].Alpha, lw[6].Alpha)
	}
	// A resumed run keeps its settings.
	if code, _, errs := runCmd(t, "train", "--resume", part, "--seed", "10"); code != 2 || !strings.Contains(errs, "keeps its settings") {
		t.Fatalf("changed seed on resume: %d %s", code, errs)
	}
	// Weights without a run cannot be resumed.
	plain := filepath.Join(dir, "plain.td2048")
	os.WriteFile(plain, nil, 0o644)
	if code, _, _ := runCmd(t, "train", "--resume", plain); code == 0 {
		t.Fatal("resumed an empty file")
	}
}

// TestKillAndResume kills a training process with SIGKILL after its second
// checkpoint; the file it leaves loads whole, and resuming it reaches the
// same weights and log as a run never stopped.
func TestKillAndResume(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	dir := t.TempDir()
	killed, whole := filepath.Join(dir, "killed.td2048"), filepath.Join(dir, "whole.td2048")
	common := []string{"train", "--network", "0123,4567,89ab", "--seed", "4", "--every", "100", "--checkpoint-every", "200", "--threads", "1"}
	cmd := exec.Command(os.Args[0], append(common, "--episodes", "1000000", "--save", killed)...)
	cmd.Env = append(os.Environ(), "TD2048_BE_MAIN=1")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		if h, err := netfile.ReadHeader(killed); err == nil && len(h.Run) > 0 {
			var r train.State
			json.Unmarshal(h.Run, &r)
			if r.Done >= 400 {
				break
			}
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("no second checkpoint within a minute:\n%s", out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()

	r := runState(t, killed) // loads whole: checksum and length checked
	if r.Done%200 != 0 || r.Done < 400 {
		t.Fatalf("checkpoint at %d episodes", r.Done)
	}
	total := r.Done + 200
	if code, _, errs := runCmd(t, "train", "--resume", killed, "--episodes", strconv.Itoa(total)); code != 0 {
		t.Fatal(errs)
	}
	if code, _, errs := runCmd(t, append(common, "--episodes", strconv.Itoa(total), "--save", whole)...); code != 0 {
		t.Fatal(errs)
	}
	sameWeights(t, whole, killed)
	lk, lw := readLog(t, filepath.Join(dir, "killed.jsonl")), readLog(t, filepath.Join(dir, "whole.jsonl"))
	if len(lk) != total/100 || len(lw) != total/100 {
		t.Fatalf("logs: %d and %d records, want %d", len(lk), len(lw), total/100)
	}
	for i := range lk {
		if lk[i].Episodes != lw[i].Episodes || lk[i].Avg != lw[i].Avg {
			t.Fatalf("record %d: %+v vs %+v", i, lk[i], lw[i])
		}
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp") {
			t.Errorf("temporary file left: %s", e.Name())
		}
	}
}

func TestSaveOverOtherNetworkNeedsForce(t *testing.T) {
	dir := t.TempDir()
	w := filepath.Join(dir, "w.td2048")
	if code, _, errs := runCmd(t, "train", "--network", "2x4", "--episodes", "5", "--save", w); code != 0 {
		t.Fatal(errs)
	}
	if code, _, errs := runCmd(t, "train", "--network", "8x4", "--episodes", "5", "--save", w); code != 1 || !strings.Contains(errs, "--force") {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if code, _, errs := runCmd(t, "train", "--network", "8x4", "--episodes", "5", "--save", w, "--force", "--log", "none"); code != 0 {
		t.Fatal(errs)
	}
	if _, err := os.Stat(filepath.Join(dir, "w.jsonl")); err != nil {
		t.Fatal("first run's log missing")
	}
}

func TestTrainPlotAndSaveFormat(t *testing.T) {
	dir := t.TempDir()
	w, png := filepath.Join(dir, "w.td2048"), filepath.Join(dir, "curve.png")
	if code, _, errs := runCmd(t, "train", "--network", "2x4", "--episodes", "300", "--every", "50", "--checkpoint-every", "100", "--save", w, "--plot", png); code != 0 {
		t.Fatal(errs)
	}
	f, err := os.Open(png)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := imagepng.Decode(f); err != nil {
		t.Fatalf("curve.png: %v", err)
	}
	if fi, _ := os.Stat(w); fi.Mode().Perm() != 0o644 {
		t.Errorf("weights file mode %v", fi.Mode().Perm())
	}
	if code, _, errs := runCmd(t, "train", "--episodes", "1", "--save", filepath.Join(dir, "x.w")); code != 2 || !strings.Contains(errs, "convert") {
		t.Errorf("--save x.w: exit %d %s", code, errs)
	}
	if code, _, _ := runCmd(t, "train", "--episodes", "1", "--save", w, "--plot", filepath.Join(dir, "c.gif")); code != 2 {
		t.Errorf("--plot c.gif: exit %d", code)
	}
}

// TestUpdateModesResumeExactly: every update mode trains through the
// command, records itself in the run, and a run stopped and resumed ends
// with the weights of one never stopped (one thread), in both games.
func TestUpdateModesResumeExactly(t *testing.T) {
	dir := t.TempDir()
	for i, c := range []struct{ game, network, mode, extra string }{
		{"2048", "0123,4567", "online", "--init=1000"}, {"2048", "0123,4567", "online,nstep=3", "--coherence"},
		{"2048", "0123,4567", "backward,lambda=0.5", "--coherence"}, {"threes", "0123,4567+hint", "backward,nstep=2", "--coherence"},
	} {
		t.Run(c.game+" "+c.network+" "+c.mode+" "+c.extra, func(t *testing.T) {
			whole, part := filepath.Join(dir, fmt.Sprintf("w%d.td2048", i)), filepath.Join(dir, fmt.Sprintf("p%d.td2048", i))
			// One episode at a time: a run stopped anywhere resumes exactly.
			common := []string{"train", "--game", c.game, "--network", c.network, "--update", c.mode, "--seed", "3", "--threads", "1", "--every", "50",
				"--interleave", "1", c.extra}
			out := mustTrain(t, append(common[1:], "--episodes", "200", "--save", whole)...)
			if !strings.Contains(out, "learner = after-state ") || runState(t, whole).Update != c.mode {
				t.Fatalf("%s: header or state does not name the mode:\n%s", c.mode, out)
			}
			mustTrain(t, append(common[1:], "--episodes", "100", "--save", part)...)
			mustTrain(t, "--resume", part, "--episodes", "200")
			sameWeights(t, whole, part)
			if c.extra == "--coherence" {
				a, _, _ := netfile.LoadAny(whole)
				b, _, _ := netfile.LoadAny(part)
				if !a.Coherent() || !slices.Equal(a.Accumulators(), b.Accumulators()) {
					t.Fatalf("%s: accumulators lost or differ after resume", c.mode)
				}
				a.Free()
				b.Free()
			}
		})
	}
	// TC weights go to TDL2048+'s .w whole and back; the course demo's
	// format cannot hold the accumulators, so it refuses to drop them.
	if code, _, errs := runCmd(t, "convert", filepath.Join(dir, "w1.td2048"), filepath.Join(dir, "x.bin")); code == 0 || !strings.Contains(errs, "temporal-coherence accumulators") {
		t.Fatalf("TC to .bin: %d %s", code, errs)
	}
	w1, xw, back := filepath.Join(dir, "w1.td2048"), filepath.Join(dir, "x.w"), filepath.Join(dir, "back.td2048")
	if code, _, errs := runCmd(t, "convert", w1, xw); code != 0 {
		t.Fatalf("TC to .w: %s", errs)
	}
	if code, _, errs := runCmd(t, "convert", xw, back); code != 0 {
		t.Fatalf(".w back: %s", errs)
	}
	sameWeights(t, w1, back)
	if code, _, errs := runCmd(t, "train", "--update", "online", "--learner", "state", "--save", filepath.Join(dir, "s.td2048")); code != 2 || !strings.Contains(errs, "after-state") {
		t.Fatalf("state learner with --update: %d %s", code, errs)
	}
}

// TestDurationStopsAndResumes: --duration ends a run at its time with exit
// status 0 and the run saved, resumable; an interleaved run resumes with
// its lanes (and refuses another count).
func TestDurationStopsAndResumes(t *testing.T) {
	dir := t.TempDir()
	w := filepath.Join(dir, "w.td2048")
	start := time.Now()
	code, out, errs := runCmd(t, "train", "--network", "8x4", "--episodes", "100000000", "--duration", "300ms", "--threads", "1",
		"--interleave", "2", "--save", w, "--log", "none")
	if code != 0 || !strings.Contains(out, "stopped at --duration 300ms after ") || time.Since(start) > 20*time.Second {
		t.Fatalf("exit %d after %v:\n%s\n%s", code, time.Since(start), out, errs)
	}
	st := runState(t, w)
	if st.Done <= 0 || st.Done >= st.Episodes || st.Interleave != 2 || len(st.Rands) != 2 {
		t.Fatalf("saved state: %d of %d episodes, interleave %d, %d generators", st.Done, st.Episodes, st.Interleave, len(st.Rands))
	}
	if code, _, errs := runCmd(t, "train", "--resume", w, "--interleave", "3"); code != 2 || !strings.Contains(errs, "keeps its settings") {
		t.Fatalf("resumed with other lanes: %d %s", code, errs)
	}
	if code, _, errs := runCmd(t, "train", "--resume", w, "--episodes", strconv.Itoa(st.Done+100)); code != 0 {
		t.Fatalf("resume: %s", errs)
	}
	if st2 := runState(t, w); st2.Done != st.Done+100 {
		t.Fatalf("resumed to %d, want %d", st2.Done, st.Done+100)
	}
	if code, _, errs := runCmd(t, "train", "--duration", "-1s", "--save", filepath.Join(dir, "x.td2048")); code != 2 || !strings.Contains(errs, "--duration") {
		t.Fatalf("negative duration: %d %s", code, errs)
	}
	for _, args := range [][]string{{"--game", "threes"}, {"--learner", "state"}, {"--shaping", "carousel"}} {
		args = append([]string{"train", "--interleave", "2", "--episodes", "5", "--save", filepath.Join(dir, "y.td2048")}, args...)
		if code, _, errs := runCmd(t, args...); code != 2 || !strings.Contains(errs, "one episode at a time") {
			t.Fatalf("%v: %d %s", args, code, errs)
		}
	}
}

// TestDefaultInterleave: train plays two episodes in turn on each thread by
// default where that applies (2048 after-state learning without shaping,
// networks of at most 40 weights a board), on every processor, says so and
// records it in the run; elsewhere (state learning, shaping, Threes!, 64
// weights a board) one at a time, without complaint.
func TestDefaultInterleave(t *testing.T) {
	dir := t.TempDir()
	const two = 2 // the default where two apply
	for i, c := range []struct {
		args []string
		want int
	}{
		{nil, two},
		{[]string{"--interleave", "1"}, 1},
		{[]string{"--interleave", "3"}, 3},
		{[]string{"--learner", "state"}, 1},
		{[]string{"--shaping", "restart"}, 1},
		{[]string{"--game", "threes", "--network", "0123,4567+hint"}, 1},
		{[]string{"--threads", "2"}, two},
		{[]string{"--threads", "2", "--interleave", "1"}, 1},
		// 64 weights a board (8x4's rows and columns on all images).
		{[]string{"--network", "0123,4567,89ab,cdef,048c,159d,26ae,37bf"}, 1},
		{[]string{"--threads", "2", "--network", "0123,4567,89ab,cdef,048c,159d,26ae,37bf"}, 1},
	} {
		t.Run(fmt.Sprint(c.args), func(t *testing.T) {
			w := filepath.Join(dir, fmt.Sprintf("w%d.td2048", i))
			args := append([]string{"--network", "0123,4567", "--episodes", "20", "--every", "10", "--threads", "1", "--save", w}, c.args...)
			out := mustTrain(t, args...)
			line := fmt.Sprintf("interleave = %d episodes per thread\n", c.want)
			if strings.Contains(out, line) != (c.want > 1) || c.want == 1 && strings.Contains(out, "interleave =") {
				t.Errorf("%v: header\n%s", c.args, out)
			}
			if adapt := strings.Contains(out, "adapt = threads (2 or 1)"); adapt != (slices.Contains(c.args, "--threads") && !slices.Contains(c.args, "--interleave")) {
				t.Errorf("%v: adapts %v\n%s", c.args, adapt, out)
			}
			if adapted := strings.Contains(out, "\nadapted = 2 threads "); adapted != strings.Contains(out, "adapt = ") {
				t.Errorf("%v: the closing lines say how the time went %v, the run adapts %v\n%s", c.args, adapted, !adapted, out)
			}
			if got := max(runState(t, w).Interleave, 1); got != c.want {
				t.Errorf("%v: the run records %d episodes in turn, want %d", c.args, got, c.want)
			}
		})
	}
}

// TestQuiet: --quiet prints the blocks and the closing lines, no header
// and no progress; the blocks are those of the same run without it.
func TestQuiet(t *testing.T) {
	dir := t.TempDir()
	args := []string{"train", "--network", "2x4", "--episodes", "100", "--every", "50", "--seed", "2", "--threads", "1", "--log", "none"}
	code, quiet, qerr := runCmd(t, append(args, "--quiet", "--save", filepath.Join(dir, "q.td2048"))...)
	_, loud, _ := runCmd(t, append(args, "--save", filepath.Join(dir, "l.td2048"))...)
	if code != 0 || qerr != "" || strings.Contains(quiet, "td2048 train") || !strings.HasPrefix(quiet, "50\tavg = ") {
		t.Fatalf("exit %d, stdout:\n%s\nstderr:\n%s", code, quiet, qerr)
	}
	blocks := func(s string) string { return s[strings.Index(s, "50\tavg = "):strings.Index(s, "100 episodes in")] }
	if blocks(quiet) != blocks(loud) {
		t.Errorf("quiet blocks:\n%s\nwant:\n%s", blocks(quiet), blocks(loud))
	}

	// eval --quiet: the statistics block and the closing lines of eval
	// without it, nothing before them.
	eargs := []string{"eval", "--load", filepath.Join(dir, "l.td2048"), "--games", "30", "--seed", "4", "--threads", "1"}
	code, quiet, qerr = runCmd(t, append(eargs, "--quiet")...)
	_, loud, _ = runCmd(t, eargs...)
	at := strings.Index(loud, "30\tavg = ")
	if code != 0 || qerr != "" || at < 0 || !strings.HasPrefix(quiet, "30\tavg = ") ||
		cutSpeed(quiet) != cutSpeed(loud[at:]) {
		t.Fatalf("eval --quiet: exit %d, stdout:\n%s\nstderr:\n%s\nwithout it:\n%s", code, quiet, qerr, loud)
	}
}

// cutSpeed is eval's text without its last line (the time and speed).
func cutSpeed(s string) string {
	s = strings.TrimSuffix(s, "\n")
	return s[:strings.LastIndex(s, "\n")+1]
}
