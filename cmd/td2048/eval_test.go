package main

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/td2048/td2048/rules/threes"
)

// normalize replaces what changes from run to run (paths, times, speeds,
// thread counts) in command output, so that the rest can be compared
// with golden files.
func normalize(s, dir string) string {
	s = strings.ReplaceAll(s, dir+string(filepath.Separator), "DIR/")
	for _, r := range []struct{ re, with string }{
		{`(?m)^(\d+ (episodes|games)) in [^,]+, \S+ (moves|slides)/s`, "$1 in TIME, SPEED $3/s"},
		{`("(elapsed_s|moves_per_sec|threads|cpus)"):[0-9.e+-]+`, "$1:0"},
		{`"(goos|goarch|cpu_model|indices)":"[^"]*"`, `"$1":""`},
		{`(?m)^(threads = )\d+`, "${1}N"},
	} {
		s = regexp.MustCompile(r.re).ReplaceAllString(s, r.with)
	}
	return s
}

// normalizeOps also replaces the speeds of Threes! summaries, which
// depend on the clock (n/a where no millisecond passed).
func normalizeOps(s string) string {
	s = regexp.MustCompile(`(ops = )(\d+|n/a) \((\d+|n/a)\|(\d+|n/a)\)`).ReplaceAllString(s, "${1}OPS (OPS|OPS)")
	return regexp.MustCompile(`("(all|slider|placer)"):([0-9.e+-]+|null)`).ReplaceAllString(s, "$1:0")
}

// trainForGolden trains small networks of both games on one thread from
// fixed seeds: the same weights on every run.
func trainForGolden(t *testing.T) (dir, w2048, wThrees string) {
	t.Helper()
	dir = t.TempDir()
	w2048, wThrees = filepath.Join(dir, "w.td2048"), filepath.Join(dir, "t.td2048")
	// Blocks of 31 episodes: a tile no game of a block ended on has no
	// line, and shares print as float32 (74.1936%, not 74.1935%).
	// One episode at a time: these seeds' blocks hold the edge cases.
	code, out, errs := runCmd(t, "train", "--network", "8x4", "--episodes", "124", "--every", "31", "--seed", "3", "--threads", "1",
		"--interleave", "1", "--save", filepath.Join(dir, "blocks.td2048"), "--log", "none")
	if code != 0 {
		t.Fatal(errs)
	}
	golden(t, "train-2048.txt", normalize(out, dir))
	if code, _, errs = runCmd(t, "train", "--network", "8x4", "--episodes", "400", "--every", "200", "--seed", "5", "--threads", "1",
		"--interleave", "1", "--save", w2048); code != 0 {
		t.Fatal(errs)
	}
	code, out, errs = runCmd(t, "train", "--game", "threes", "--network", "0123,4567,89ab,cdef+hint", "--episodes", "400", "--every", "200",
		"--seed", "5", "--threads", "1", "--save", wThrees)
	if code != 0 {
		t.Fatal(errs)
	}
	golden(t, "train-threes.txt", normalizeOps(normalize(out, dir)))
	return dir, w2048, wThrees
}

// The outputs of train's blocks, eval (text and JSON, greedy and deeper)
// and judge, for both games, against golden files (go test -update
// rewrites them).
func TestEvalAndJudgeGolden(t *testing.T) {
	dir, w, wt := trainForGolden(t)
	run := func(name string, args ...string) string {
		t.Helper()
		code, out, errs := runCmd(t, args...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", name, code, errs)
		}
		out = normalize(out, dir)
		golden(t, name, out)
		return out
	}
	run("eval-2048.txt", "eval", "--load", w, "--games", "45", "--seed", "1") // 64.4445%, not 64.4444%
	// Greedy games played one at a time, or five in turn on each thread:
	// the same output.
	for _, k := range []string{"1", "5"} {
		run("eval-2048.txt", "eval", "--load", w, "--games", "45", "--seed", "1", "--interleave", k, "--threads", "2")
	}
	oneLine(t, []string{"eval", "--load", w, "--interleave", "-1"}, 2, "--interleave -1: want 0 (the default) to 64")
	oneLine(t, []string{"eval", "--load", w, "--interleave", "2", "--depth", "2"}, 2, "only greedy play of 2048")
	oneLine(t, []string{"eval", "--load", wt, "--interleave", "2"}, 2, "only greedy play of 2048")
	ws := filepath.Join(dir, "state.td2048") // state values: no search.Greedy, so no games in turn
	if code, _, errs := runCmd(t, "train", "--learner", "state", "--network", "0123,4567", "--episodes", "10", "--every", "10", "--seed", "1", "--save", ws, "--log", "none"); code != 0 {
		t.Fatal(errs)
	}
	oneLine(t, []string{"eval", "--load", ws, "--interleave", "2"}, 2, "only greedy play of 2048")
	run("eval-2048-depth2.json", "eval", "--load", w, "--games", "10", "--seed", "1", "--depth", "2", "--cache", "1M", "--json")
	run("eval-2048.json", "eval", "--load", w, "--games", "50", "--seed", "1", "--json")
	sf := filepath.Join(dir, "stats.txt")
	for _, c := range []struct{ name, flag string }{{"eval-threes.txt", "--json=false"}, {"eval-threes.json", "--json"}} {
		t.Run(c.name, func(t *testing.T) {
			code, out, errs := runCmd(t, "eval", "--load", wt, "--games", "30", "--seed", "3", "--stats", sf, "--force", c.flag)
			if code != 0 {
				t.Fatalf("%s: exit %d: %s", c.name, code, errs)
			}
			golden(t, c.name, normalizeOps(normalize(out, dir)))
		})
	}

	// The statistics file with its times cleared is the same on every
	// run: the judge's output on it is golden, passed and failed.
	data, err := os.ReadFile(sf)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		r, err := threes.ParseRecord(line)
		if err != nil {
			t.Fatal(err)
		}
		r.Open, r.Close = 0, 0
		for i := range r.Steps {
			r.Steps[i].Time = 0
		}
		lines = append(lines, r.String())
	}
	untimed := filepath.Join(dir, "untimed.txt")
	os.WriteFile(untimed, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	out := run("judge.txt", "judge", untimed)
	if !strings.Contains(out, "ops = n/a (n/a|n/a)") {
		t.Errorf("a file of no times gives speeds:\n%s", out)
	}
	run("judge.json", "judge", untimed, "--json")

	// Game 2 with a 1 placed where the hint said another tile, at its
	// 11th action (the placement after the first slide): the summary
	// counts its first 10 actions.
	r, _ := threes.ParseRecord(lines[1])
	a := r.Steps[10].Action
	if a.IsSlide() {
		t.Fatal("action 11 is a slide")
	}
	r.Steps[10].Action = threes.PlaceAction(a.Pos(), a.Tile()%3+1, a.Hint())
	bad := append([]string(nil), lines...)
	bad[1] = r.String()
	failed := filepath.Join(dir, "failed.txt")
	os.WriteFile(failed, []byte(strings.Join(bad, "\n")+"\n"), 0o644)
	for _, c := range []struct{ name, flag string }{{"judge-failed.txt", ""}, {"judge-failed.json", "--json"}} {
		t.Run(c.name, func(t *testing.T) {
			args := []string{"judge", failed}
			if c.flag != "" {
				args = append(args, c.flag)
			}
			code, out, errs := runCmd(t, args...)
			if code != 1 || strings.Count(errs, "\n") != 1 {
				t.Fatalf("%s: exit %d, stderr %q", c.name, code, errs)
			}
			golden(t, c.name, normalize(out+"stderr: "+errs, dir))
		})
	}
	sum, fault, err := judge(strings.NewReader(strings.Join(bad, "\n")))
	if err != nil || fault == nil || *fault.Game != 2 || *fault.Action != 11 || fault.Course != "at 1 #10" || sum.Games != 30 {
		t.Fatalf("judge: %v, fault %+v, %d games", err, fault, sum.Games)
	}
	if rp, _ := r.Replay(); rp.Placements != 9 || rp.Slides != 1 {
		t.Fatalf("the first 10 actions of game 2: %+v", rp.GameStats)
	}
}

func TestBenchJSONGolden(t *testing.T) {
	t.Parallel()
	if runtime.GOARCH != "amd64" {
		t.Skip("the signature is pinned on amd64")
	}
	code, out, errs := runCmd(t, "bench", "--short", "--json")
	if code != 0 {
		t.Fatal(errs)
	}
	golden(t, "bench-short.json", normalize(out, ""))
}

// startMain runs td2048 with args in a process of its own and returns it
// once its standard output holds a line starting with ready.
func startMain(t *testing.T, ready string, args ...string) (*exec.Cmd, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	return startMainIn(t, "", ready, args...)
}

// startMainIn is startMain in the folder dir ("": this process's).
func startMainIn(t *testing.T, dir, ready string, args ...string) (*exec.Cmd, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Dir, cmd.Env = dir, append(os.Environ(), "TD2048_BE_MAIN=1")
	var out, errb bytes.Buffer
	cmd.Stderr = &errb
	pipe, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	seen := make(chan bool, 1)
	go func() {
		br := bufio.NewReader(pipe)
		found := false
		for {
			line, err := br.ReadString('\n')
			out.WriteString(line)
			if !found && strings.HasPrefix(line, ready) {
				found = true
				seen <- true
			}
			if err != nil {
				if !found {
					seen <- false
				}
				io.Copy(&out, br)
				return
			}
		}
	}()
	select {
	case ok := <-seen:
		if !ok {
			cmd.Wait()
			t.Fatalf("%v ended before %q:\n%s%s", args, ready, out.String(), errb.String())
		}
	case <-time.After(60 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("%v: no %q within a minute", args, ready)
	}
	return cmd, &out, &errb
}

// waitExit waits for cmd to end, at most within, and returns its status.
func waitExit(t *testing.T, cmd *exec.Cmd, within time.Duration) int {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
		return cmd.ProcessState.ExitCode()
	case <-time.After(within):
		cmd.Process.Kill()
		<-done
		t.Fatalf("still running %v after the signal", within)
	}
	return -1
}

// Ctrl-C or SIGTERM stops eval within moments, deep searches and long
// move times included; it prints the statistics of the games finished
// and exits with status 1. A Threes! statistics file stays NAME.partial.
func TestEvalInterrupted(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs td2048 processes")
	}
	dir := t.TempDir()
	w, wt := filepath.Join(dir, "w.td2048"), filepath.Join(dir, "t.td2048")
	if code, _, errs := runCmd(t, "train", "--network", "8x4", "--episodes", "200", "--seed", "1", "--save", w); code != 0 {
		t.Fatal(errs)
	}
	if code, _, errs := runCmd(t, "train", "--game", "threes", "--network", "0123,4567+hint", "--episodes", "200", "--seed", "1", "--save", wt); code != 0 {
		t.Fatal(errs)
	}
	sf := filepath.Join(dir, "stats.txt")
	for _, c := range []struct {
		name     string
		args     []string
		sig      syscall.Signal
		finished bool // games finish before the signal
	}{
		{"depth 6", []string{"eval", "--load", w, "--depth", "6", "--games", "1000"}, syscall.SIGINT, false},
		{"move time 30s", []string{"eval", "--load", w, "--move-time", "30s", "--games", "1000"}, syscall.SIGTERM, false},
		{"greedy", []string{"eval", "--load", w, "--games", "100000000", "--threads", "1"}, syscall.SIGINT, true},
		{"Threes! depth 6", []string{"eval", "--load", wt, "--depth", "6", "--games", "1000"}, syscall.SIGINT, false},
		{"Threes! greedy", []string{"eval", "--load", wt, "--games", "100000000", "--stats", sf}, syscall.SIGINT, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			cmd, out, errb := startMain(t, "seed = ", c.args...)
			time.Sleep(500 * time.Millisecond)
			cmd.Process.Signal(c.sig)
			if code := waitExit(t, cmd, 20*time.Second); code != 1 {
				t.Errorf("%s: exit %d\n%s%s", c.name, code, out, errb)
				return
			}
			m := regexp.MustCompile(`(?m)^(\d+) games in `).FindStringSubmatch(out.String())
			if m == nil || !strings.Contains(errb.String(), "interrupted after "+m[1]+" games") {
				t.Errorf("%s: output\n%s%s", c.name, out, errb)
				return
			}
			// Deep searches may finish a few short games before the signal
			// (how many depends on the machine); greedy ones surely do.
			if c.finished && (m[1] == "0" || !strings.Contains(out.String(), "\n"+m[1]+"\tavg = ")) {
				t.Errorf("%s: %s games finished:\n%s", c.name, m[1], out)
			}
			if c.name == "Threes! greedy" {
				// The finished games' lines are in stats.txt.partial, said so;
				// no file at --stats looks finished.
				data, _ := os.ReadFile(sf + ".partial")
				if n := strings.Count(string(data), "\n"); m[1] != strconv.Itoa(n) || !strings.Contains(errb.String(), "their statistics lines in "+sf+".partial") {
					t.Errorf("%s: %s games, %d in the statistics file under way: %s", c.name, m[1], n, errb)
				}
				if _, err := os.Stat(sf); err == nil {
					t.Errorf("%s: an interrupted evaluation left %s", c.name, sf)
				}
			}
		})
	}
}
