package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/td2048/td2048/internal/evalresult"
	"github.com/td2048/td2048/internal/evalrun"
)

// stopShard runs eval args (a shard with --out out) in a process of its
// own, stops it with sig once it has recorded its first finished game,
// and returns its stderr and the record it left. It fails the test if the
// shard finished first.
func stopShard(t *testing.T, out string, sig syscall.Signal, args ...string) (string, evalresult.Progress) {
	t.Helper()
	cmd, stdout, errb := startMain(t, "seed = ", args...)
	waitUntil(t, 60*time.Second, "the shard's first record", func() bool {
		_, err := os.Stat(evalrun.ProgressName(out))
		return err == nil
	})
	cmd.Process.Signal(sig)
	code := waitExit(t, cmd, 20*time.Second)
	if _, err := os.Stat(out); err == nil {
		t.Fatalf("the shard finished before it was stopped (it is too short for this machine):\n%s%s", stdout, errb)
	}
	if want := map[syscall.Signal]int{syscall.SIGTERM: 1, syscall.SIGKILL: -1}[sig]; code != want {
		t.Fatalf("stopped by %v: exit %d, want %d\n%s%s", sig, code, want, stdout, errb)
	}
	p, err := evalresult.ReadProgress(evalrun.ProgressName(out))
	if err != nil || p.Done.Count == 0 {
		t.Fatalf("the record of the stopped shard: %d games, %v", p.Done.Count, err)
	}
	return errb.String(), p
}

// TestShardStoppedContinues: a shard stopped as a time limit or a
// preemption stops it (SIGTERM, which records its finished games) or
// killed (SIGKILL: its last record stands) leaves no file that looks
// finished: no result, and no Threes! statistics file that td2048 judge
// would accept. The same command continues from the first game not
// finished, playing no finished game again, and the merge is the one
// process's evaluation, byte for byte; run once more it does nothing.
func TestShardStoppedContinues(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts processes")
	}
	for _, c := range []struct {
		name    string
		weights func(*testing.T) string
		games   int
		sig     syscall.Signal
		stats   bool
	}{
		{"2048 killed", trainedWeights, 600, syscall.SIGKILL, false},
		{"Threes! stopped", trainedThreesWeights, 2000, syscall.SIGTERM, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			args := []string{"eval", "--load", c.weights(t), "--games", fmt.Sprint(c.games), "--depth", "2", "--seed", "5", "--threads", "1"}
			wholeStats := filepath.Join(dir, "whole.txt")
			whole := args
			if c.stats {
				whole = append(whole, "--stats", wholeStats)
			}
			code, wholeOut, errb := runCmd(t, append(whole, "--threads", "2")...)
			if code != 0 {
				t.Fatal(errb)
			}
			part := func(k int) string { return filepath.Join(dir, fmt.Sprintf("part-%d.json", k)) }
			statsOf := func(k int) string { return filepath.Join(dir, fmt.Sprintf("stats-%d.txt", k)) }
			shard := func(k int) []string {
				a := append(args, "--shard", fmt.Sprintf("%d/2", k), "--out", part(k))
				if c.stats {
					a = append(a, "--stats", statsOf(k))
				}
				return a
			}
			first := c.games / 2
			errs, p := stopShard(t, part(1), c.sig, shard(1)...)
			n := p.Done.Count
			if c.sig == syscall.SIGTERM && !strings.Contains(errs, fmt.Sprintf("interrupted after %d games (recorded in %s: the same command continues at game %d)", n, evalrun.ProgressName(part(1)), first+n)) {
				t.Errorf("the stopped shard said: %s", errs)
			}
			if c.stats {
				if _, err := os.Stat(statsOf(1)); err == nil {
					t.Errorf("the stopped shard left %s", statsOf(1))
				}
				if code, _, _ := runCmd(t, "judge", statsOf(1)); code == 0 {
					t.Error("judge accepted the statistics of a stopped shard")
				}
				// Lines written after the record (a kill between two
				// records), and half a line, are cut.
				f, _ := os.OpenFile(statsOf(1)+".partial", os.O_APPEND|os.O_WRONLY, 0)
				f.WriteString("lines of games the record does not count\nhalf a li")
				f.Close()
			}
			code, out, errb := runCmd(t, shard(1)...)
			if code != 0 || strings.Contains(errb, "td2048 eval:") {
				t.Fatalf("the same command again: exit %d\n%s%s", code, out, errb)
			}
			want := fmt.Sprintf("continuing at game %d: games %d..%d finished earlier (%d of %d, recorded in %s)\n", first+n, first, first+n-1, n, first, evalrun.ProgressName(part(1)))
			if !strings.Contains(out, want) {
				t.Errorf("the continued shard's output lacks %q:\n%s", want, out)
			}
			for _, f := range []string{evalrun.ProgressName(part(1)), statsOf(1) + ".partial"} {
				if _, err := os.Stat(f); err == nil {
					t.Errorf("%s is left after the shard finished", f)
				}
			}
			// Finished: the same command does nothing, and says so.
			done := fileBytes(t, part(1))
			code, out, errb = runCmd(t, append(shard(1), "--json")...)
			var js evalJSON
			if err := json.Unmarshal([]byte(out), &js); code != 0 || err != nil || js.Games != first || js.Earlier != first {
				t.Errorf("a finished shard run again: exit %d, %v: %s%s", code, err, out, errb)
			}
			if !bytes.Equal(fileBytes(t, part(1)), done) {
				t.Error("a finished shard run again rewrote its result")
			}
			// Stopped as it finished, between its statistics file and its
			// result (its record counting every game): the same command
			// writes the result.
			res, err := evalresult.Read(part(1))
			if err != nil {
				t.Fatal(err)
			}
			last := evalresult.Progress{Done: res}
			if c.stats {
				last.StatsBytes = int64(len(fileBytes(t, statsOf(1))))
			}
			if err := evalresult.WriteProgress(evalrun.ProgressName(part(1)), last); err != nil {
				t.Fatal(err)
			}
			os.Remove(part(1))
			code, out, errb = runCmd(t, shard(1)...)
			if code != 0 || !strings.Contains(out, fmt.Sprintf("continuing at game %d: ", c.games)) {
				t.Fatalf("a shard stopped as it finished, run again: exit %d\n%s%s", code, out, errb)
			}
			if r, err := evalresult.Read(part(1)); err != nil || r.Block() != res.Block() || r.StatsSHA256 != res.StatsSHA256 {
				t.Errorf("its result: %+v, %v; want %+v", r, err, res)
			}
			if code, _, errb := runCmd(t, shard(0)...); code != 0 {
				t.Fatal(errb)
			}
			merge := []string{"merge", part(1), part(0)}
			if c.stats {
				merge = append(merge, "--stats", filepath.Join(dir, "stats.txt"))
			}
			code, merged, errb := runCmd(t, merge...)
			if code != 0 {
				t.Fatal(errb)
			}
			if statsPart(t, merged) != statsPart(t, wholeOut) {
				t.Errorf("merged:\n%s\nwant (one process):\n%s", merged, wholeOut)
			}
			if c.stats {
				if !sameGames(t, filepath.Join(dir, "stats.txt"), wholeStats) {
					t.Error("the merged statistics file holds other games than one process's")
				}
				if code, jout, _ := runCmd(t, "judge", filepath.Join(dir, "stats.txt")); code != 0 || !strings.Contains(jout, "Passed") {
					t.Errorf("judge of the merged statistics: %s", jout)
				}
			}
		})
	}
}

// TestShardRecordRefused: a record the shard cannot continue from is
// refused with one line naming it, before any game, and --force starts
// the shard over.
func TestShardRecordRefused(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts processes")
	}
	dir := t.TempDir()
	out, st := filepath.Join(dir, "part-1.json"), filepath.Join(dir, "stats-1.txt")
	prog, partial := evalrun.ProgressName(out), st+".partial"
	eval := []string{"eval", "--load", trainedThreesWeights(t), "--games", "2000", "--depth", "2", "--seed", "5", "--threads", "1", "--shard", "1/2", "--out", out}
	_, p := stopShard(t, out, syscall.SIGTERM, append(eval, "--stats", st)...)
	keep := map[string][]byte{prog: fileBytes(t, prog), partial: fileBytes(t, partial)}
	restore := func() {
		for f, b := range keep {
			os.WriteFile(f, b, 0o644)
		}
	}
	rebuilt := func(edit func(p *evalresult.Progress)) func() {
		return func() {
			q := p
			edit(&q)
			var b bytes.Buffer
			evalresult.EncodeProgress(&b, q)
			os.WriteFile(prog, b.Bytes(), 0o644)
		}
	}
	hint := "; not continuing from it (--force starts over)"
	for _, c := range []struct {
		name  string
		spoil func()
		args  []string
		want  string
	}{
		{"another evaluation", func() {}, []string{"--stats", st, "--seed", "6"}, prog + " records the games of another evaluation (this one has seed 6, not 5)" + hint},
		{"damaged", func() {
			os.WriteFile(prog, bytes.Replace(fileBytes(t, prog), []byte(`"seed": 5`), []byte(`"seed": 7`), 1), 0o644)
		}, []string{"--stats", st}, prog + ": damaged evaluation progress record: checksum does not match" + hint},
		{"another build", rebuilt(func(q *evalresult.Progress) { b := *q.Done.Build; b.Version = "v0.0.1"; q.Done.Build = &b }), []string{"--stats", st}, prog + " records games played by another build of td2048 (v0.0.1"},
		{"statistics cut", func() { os.Truncate(partial, p.StatsBytes-1) }, []string{"--stats", st}, partial + " does not begin with the statistics lines of the " + fmt.Sprint(p.Done.Count) + " games"},
		{"statistics changed", func() { b := fileBytes(t, partial); b[0] ^= 1; os.WriteFile(partial, b, 0o644) }, []string{"--stats", st}, "does not begin with the statistics lines"},
		{"statistics gone", func() { os.Remove(partial) }, []string{"--stats", st}, "but their statistics lines are gone"},
		{"statistics elsewhere", func() {}, []string{"--stats", filepath.Join(dir, "other.txt")}, `records games with statistics file "stats-1.txt", not "other.txt"`},
		{"no statistics", func() {}, nil, `records games with statistics file "stats-1.txt", not ""`},
	} {
		t.Run(c.name, func(t *testing.T) {
			restore()
			c.spoil()
			oneLine(t, append(eval, c.args...), 1, c.want)
			if _, err := os.Stat(out); err == nil {
				t.Fatal("a refused shard wrote its result")
			}
		})
	}
	// --force starts over: all the shard's games played, the record gone.
	restore()
	code, o, errb := runCmd(t, append(eval, "--stats", st, "--seed", "6", "--force")...)
	if code != 0 || strings.Contains(o, "continuing") {
		t.Fatalf("--force: exit %d\n%s%s", code, o, errb)
	}
	if r, err := evalresult.Read(out); err != nil || r.Count != 1000 || r.Seed != 6 {
		t.Errorf("after --force: %d games of seed %d, %v", r.Count, r.Seed, err)
	}
	if _, err := os.Stat(prog); err == nil {
		t.Error("the record is left after --force")
	}
}

// TestSweepTaskEvalContinues: a sweep task stopped during its evaluation
// continues the evaluation where it stopped when run again.
func TestSweepTaskEvalContinues(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts processes")
	}
	dir := t.TempDir()
	plan := filepath.Join(dir, "plan.toml")
	os.WriteFile(plan, []byte("[train]\nnetwork = \"2x4\"\nepisodes = 100\nevery = 50\nthreads = 1\n[eval]\ngames = 400\ndepth = 2\nthreads = 1\n"), 0o644)
	task := filepath.Join(dir, "plan", "task-000")
	_, p := stopShard(t, filepath.Join(task, "eval.json"), syscall.SIGTERM, "sweep", "run", plan, "--task", "0")
	if code, out, _ := runCmd(t, "sweep", "report", plan, "--plot", "none"); code != 0 || !strings.Contains(out, fmt.Sprintf("evaluating (%d of 400 games)", p.Done.Count)) {
		t.Errorf("the report of a task stopped during its evaluation:\n%s", out)
	}
	code, out, errb := runCmd(t, "sweep", "run", plan, "--task", "0")
	if code != 0 || !strings.Contains(out, fmt.Sprintf("continuing at game %d:", p.Done.Count)) || !strings.Contains(out, "task 0 done") {
		t.Fatalf("the task run again: exit %d\n%s%s", code, out, errb)
	}
	_, whole, _ := runCmd(t, "eval", "--load", filepath.Join(task, "weights.td2048"), "--games", "400", "--depth", "2", "--seed", "1")
	_, merged, _ := runCmd(t, "merge", filepath.Join(task, "eval.json"))
	if statsPart(t, merged) != statsPart(t, whole) {
		t.Errorf("the continued task's evaluation:\n%s\nwant:\n%s", merged, whole)
	}
}

// TestShardOnFullDisk: a shard whose statistics file fills the disk stops
// with an error that names the record it keeps; with room again, the same
// command continues from it (the lines written after the record cut off)
// to one process's statistics.
func TestShardOnFullDisk(t *testing.T) {
	t.Parallel()
	dir := mountTmpfs(t, 600<<10, false) // less than the statistics of the shard's 2000 games (1.4 MB)
	w := trainedThreesWeights(t)
	args := []string{"eval", "--load", w, "--games", "4000", "--seed", "3", "--threads", "1"}
	wholeStats := filepath.Join(t.TempDir(), "whole.txt")
	code, whole, errb := runCmd(t, append(args, "--stats", wholeStats)...)
	if code != 0 {
		t.Fatal(errb)
	}
	part := func(k int) []string {
		return append(args, "--shard", fmt.Sprintf("%d/2", k), "--out", filepath.Join(dir, fmt.Sprintf("part-%d.json", k)), "--stats", filepath.Join(dir, fmt.Sprintf("stats-%d.txt", k)))
	}
	prog := evalrun.ProgressName(filepath.Join(dir, "part-0.json"))
	code, _, errb = runCmd(t, part(0)...)
	if code != 1 || !strings.Contains(errb, "no space") || !strings.Contains(errb, prog+" keeps 1 finished game: the same command continues at game 1") || strings.Count(errb, "td2048 eval:") != 1 {
		t.Fatalf("a shard on a full disk: exit %d: %s", code, errb)
	}
	p, err := evalresult.ReadProgress(prog)
	if err != nil || p.Done.Count == 0 {
		t.Fatalf("its record: %d games, %v", p.Done.Count, err)
	}
	remount(t, dir, 16<<20)
	code, out, errb := runCmd(t, part(0)...)
	if code != 0 || !strings.Contains(out, fmt.Sprintf("continuing at game %d:", p.Done.Count)) {
		t.Fatalf("with room again: exit %d\n%s%s", code, out, errb)
	}
	if code, _, errb := runCmd(t, part(1)...); code != 0 {
		t.Fatal(errb)
	}
	merged := filepath.Join(dir, "stats.txt")
	code, mout, errb := runCmd(t, "merge", filepath.Join(dir, "part-0.json"), filepath.Join(dir, "part-1.json"), "--stats", merged)
	if code != 0 || statsPart(t, mout) != statsPart(t, whole) || !sameGames(t, merged, wholeStats) {
		t.Errorf("merged: exit %d\n%s%s\nwant:\n%s", code, mout, errb, whole)
	}
}
