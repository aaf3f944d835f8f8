package main

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/td2048/td2048/internal/evalresult"
	"github.com/td2048/td2048/netfile"
)

// statsPart is the part of eval's (or merge's) output that must agree
// between one run and a merge: every line but the first (the command's
// name) and the last (the time); Threes! speeds, which depend on the
// clock, are replaced.
func statsPart(t *testing.T, out string) string {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) < 4 {
		t.Fatalf("short output:\n%s", out)
	}
	var keep []string
	for _, l := range lines[1:] {
		if strings.HasPrefix(l, "shard = ") || strings.Contains(l, " games in ") || strings.HasPrefix(l, "statistics file = ") {
			continue
		}
		keep = append(keep, l)
	}
	return normalizeOps(strings.Join(keep, "\n"))
}

// evalShards runs eval in n shards (in-process), merges them given in a
// shuffled order, and returns the merge's output.
func evalShards(t *testing.T, dir string, n int, args ...string) string {
	t.Helper()
	var parts []string
	for k := range n {
		p := filepath.Join(dir, fmt.Sprintf("part-%d-of-%d.json", k, n))
		a := append(append([]string{"eval"}, args...), "--shard", fmt.Sprintf("%d/%d", k, n), "--out", p)
		if code, _, errb := runCmd(t, a...); code != 0 {
			t.Fatalf("%v: %s", a, errb)
		}
		parts = append(parts, p)
	}
	rand.New(rand.NewPCG(uint64(n), 1)).Shuffle(n, func(i, j int) { parts[i], parts[j] = parts[j], parts[i] })
	code, out, errb := runCmd(t, append([]string{"merge"}, parts...)...)
	if code != 0 {
		t.Fatalf("merge: %s", errb)
	}
	return out
}

func TestShardedEvalMergesExactly(t *testing.T) {
	t.Parallel()
	w := trainedWeights(t)
	for _, search := range [][]string{{"--depth", "1"}, {"--depth", "2"}} {
		dir := t.TempDir() // each evaluation's results its own (another's are not replaced)
		args := append([]string{"--load", w, "--games", "40", "--seed", "11", "--threads", "2"}, search...)
		code, whole, errb := runCmd(t, append([]string{"eval"}, args...)...)
		if code != 0 {
			t.Fatal(errb)
		}
		want := statsPart(t, whole)
		for _, n := range []int{1, 3, 7, 40} {
			got := statsPart(t, evalShards(t, dir, n, args...))
			if got != want {
				t.Errorf("%v in %d shards, merged:\n%s\nwant (one run):\n%s", search, n, got, want)
			}
		}
	}
}

func TestMergeRefusesNamingFiles(t *testing.T) {
	w := trainedWeights(t)
	dir := t.TempDir()
	part := func(name string, args ...string) string {
		p := filepath.Join(dir, name)
		a := append([]string{"eval", "--load", w, "--games", "10", "--seed", "1", "--out", p}, args...)
		if code, _, errb := runCmd(t, a...); code != 0 {
			t.Fatalf("%v: %s", a, errb)
		}
		return p
	}
	a, b, c := part("a.json", "--shard", "0/3"), part("b.json", "--shard", "1/3"), part("c.json", "--shard", "2/3")
	seed := part("seed.json", "--shard", "2/3", "--seed", "2")
	depth := part("depth.json", "--shard", "2/3", "--depth", "2")
	games := part("games.json", "--shard", "2/3", "--games", "11")
	other := filepath.Join(dir, "other.td2048")
	net, h, err := netfile.LoadAny(w)
	if err != nil {
		t.Fatal(err)
	}
	net.Weights()[0] += 1 // the same network, other weights
	if err := netfile.Save(other, net, h); err != nil {
		t.Fatal(err)
	}
	ow := part("ow.json", "--shard", "2/3", "--load", other)
	for _, tc := range []struct {
		files []string
		want  string
	}{
		{[]string{a, b}, "2 of 3 shards given; missing 2/3 (games 6..9)"},
		{[]string{a, b, b, c}, "shard 1/3 given twice: " + b + " and " + b},
		{[]string{a, b, seed}, seed + " is not a shard of the evaluation of " + a + ": seed 2, not 1"},
		{[]string{a, b, depth}, depth + " is not a shard of the evaluation of " + a + `: search "2-ply expectimax`},
		{[]string{a, b, games}, "an evaluation of 11 games, not 10"},
		{[]string{a, b, ow}, ow + " is not a shard of the evaluation of " + a + ": other weights (" + other},
	} {
		oneLine(t, append([]string{"merge"}, tc.files...), 1, tc.want)
	}
	oneLine(t, []string{"merge", filepath.Join(dir, "nothing.json")}, 1, "no such file")
	os.WriteFile(filepath.Join(dir, "bad.json"), []byte(`{"format":"td2048-eval-result"}`), 0o644)
	oneLine(t, []string{"merge", filepath.Join(dir, "bad.json")}, 1, "bad.json: ")
	oneLine(t, []string{"eval", "--load", w, "--shard", "1/3"}, 2, "--shard needs --out")
	oneLine(t, []string{"eval", "--load", w, "--shard", "3/3", "--out", filepath.Join(dir, "x.json")}, 2, "0 <= K < N")
	oneLine(t, []string{"eval", "--load", w, "--shard", "auto", "--out", filepath.Join(dir, "x.json")}, 2, "neither SLURM_ARRAY_TASK_ID")
	// --out never replaces what is not an evaluation result.
	os.WriteFile(filepath.Join(dir, "keep.txt"), []byte("precious"), 0o644)
	oneLine(t, []string{"eval", "--load", w, "--games", "2", "--out", filepath.Join(dir, "keep.txt")}, 1, "not overwriting")
}

func TestShardAutoFromEnvironment(t *testing.T) {
	w := trainedWeights(t)
	dir := t.TempDir()
	args := []string{"--load", w, "--games", "30", "--seed", "4"}
	_, whole, _ := runCmd(t, append([]string{"eval"}, args...)...)
	var parts []string
	for k := range 3 {
		p := filepath.Join(dir, fmt.Sprintf("p%d.json", k))
		t.Setenv("JOB_COMPLETION_INDEX", fmt.Sprint(k))
		if code, _, errb := runCmd(t, append([]string{"eval", "--shard", "auto", "--shards", "3", "--out", p}, args...)...); code != 0 {
			t.Fatal(errb)
		}
		parts = append(parts, p)
	}
	_, merged, errb := runCmd(t, append([]string{"merge"}, parts...)...)
	if statsPart(t, merged) != statsPart(t, whole) {
		t.Errorf("merged:\n%s\nwant:\n%s\n%s", merged, whole, errb)
	}
}

func TestThreesShardsMergeForTheJudge(t *testing.T) {
	w := trainedThreesWeights(t)
	dir := t.TempDir()
	whole := filepath.Join(dir, "whole.txt")
	args := []string{"--load", w, "--games", "12", "--seed", "8"}
	code, out, errb := runCmd(t, append([]string{"eval", "--stats", whole}, args...)...)
	if code != 0 {
		t.Fatal(errb)
	}
	var parts []string
	for k := range 3 {
		p := filepath.Join(dir, fmt.Sprintf("p%d.json", k))
		st := filepath.Join(dir, fmt.Sprintf("p%d.txt", k))
		if code, _, errb := runCmd(t, append([]string{"eval", "--shard", fmt.Sprintf("%d/3", k), "--out", p, "--stats", st}, args...)...); code != 0 {
			t.Fatal(errb)
		}
		parts = append(parts, p)
	}
	merged := filepath.Join(dir, "merged.txt")
	code, mout, errb := runCmd(t, "merge", parts[2], parts[0], parts[1], "--stats", merged, "--out", filepath.Join(dir, "m.json"))
	if code != 0 {
		t.Fatal(errb)
	}
	// The same merge again replaces its own result and statistics file,
	// as eval run again does.
	if code, again, errb := runCmd(t, "merge", parts[2], parts[0], parts[1], "--stats", merged, "--out", filepath.Join(dir, "m.json")); code != 0 || statsPart(t, again) != statsPart(t, mout) {
		t.Fatalf("the same merge again: exit %d: %s\n%s", code, errb, again)
	}
	if statsPart(t, mout) != statsPart(t, out) {
		t.Errorf("merged:\n%s\nwant:\n%s", mout, out)
	}
	// The same games, action for action; only the recorded times differ.
	times := regexp.MustCompile(`\(\d+\)|@\d+`)
	a, _ := os.ReadFile(merged)
	b, _ := os.ReadFile(whole)
	if times.ReplaceAllString(string(a), "") != times.ReplaceAllString(string(b), "") {
		t.Errorf("merged statistics file differs from one run's beyond its times")
	}
	if code, jout, errb := runCmd(t, "judge", merged); code != 0 || !strings.Contains(jout, "Passed") {
		t.Errorf("judge of the merged file: %d %s %s", code, jout, errb)
	}
	// The merged result holds the checksum of the merged file.
	res, err := evalresult.Read(filepath.Join(dir, "m.json"))
	if err != nil {
		t.Fatal(err)
	}
	if sum := sha256.Sum256(a); res.StatsSHA256 != hex.EncodeToString(sum[:]) {
		t.Errorf("merged result's stats_sha256 %s is not its file's", res.StatsSHA256)
	}
	// A statistics file changed after its shard was written is refused,
	// and nothing is left of the merge.
	os.WriteFile(filepath.Join(dir, "p1.txt"), []byte("x\n"), 0o644)
	oneLine(t, []string{"merge", parts[0], parts[1], parts[2], "--stats", filepath.Join(dir, "m2.txt")}, 1, "checksum differs")
	if _, err := os.Stat(filepath.Join(dir, "m2.txt")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a refused merge left its statistics file: %v", err)
	}
}

// slurmTask sets the environment of task id of a Slurm job array of
// --array=lo-hi, as Slurm sets it.
func slurmTask(t *testing.T, id, lo, hi int) {
	t.Helper()
	t.Setenv("SLURM_ARRAY_TASK_ID", fmt.Sprint(id))
	t.Setenv("SLURM_ARRAY_TASK_MIN", fmt.Sprint(lo))
	t.Setenv("SLURM_ARRAY_TASK_MAX", fmt.Sprint(hi))
	t.Setenv("SLURM_ARRAY_TASK_COUNT", fmt.Sprint(hi-lo+1))
}

// TestTaskIdentityFromArray: --shard auto and --task auto take the job
// array's task id itself, whatever the array: a shard or task resubmitted
// alone (sbatch --array=2) is shard or task 2 of the whole plan, not the
// first of a plan of one, and the shard count comes from --shards or
// TD2048_SHARDS, never the array's size. An id outside the plan is
// refused; an array running part of the plan says which tasks it leaves.
func TestTaskIdentityFromArray(t *testing.T) {
	w := trainedWeights(t)
	dir := t.TempDir()
	t.Run("shard", func(t *testing.T) {
		slurmTask(t, 2, 2, 2)
		p := filepath.Join(dir, "part-2.json")
		eval := []string{"eval", "--load", w, "--games", "40", "--seed", "3", "--shard", "auto", "--out", p}
		oneLine(t, eval, 2, "give the evaluation's shard count with --shards N or TD2048_SHARDS=N")
		t.Setenv("TD2048_SHARDS", "4")
		code, out, errb := runCmd(t, eval...)
		if code != 0 || !strings.Contains(out, "shard = 2/4: games 20..29 of 40") {
			t.Fatalf("exit %d: %s%s", code, out, errb)
		}
		if !strings.Contains(errb, "this array runs 1 of the 4 tasks; tasks 0-1,3 must run in another job") {
			t.Errorf("no word of the shards the array leaves out: %q", errb)
		}
		r, err := evalresult.Read(p)
		if err != nil || r.Shard() != (evalresult.Shard{K: 2, N: 4}) || r.First != 20 || r.Count != 10 {
			t.Errorf("part-2.json: shard %v, games %d.. (%d), %v", r.Shard(), r.First, r.Count, err)
		}
		// --shards overrides TD2048_SHARDS; an id outside is refused.
		oneLine(t, append(eval, "--shards", "2"), 2, "array task 2 (SLURM_ARRAY_TASK_ID) is not a shard of the evaluation, which has 2 (0 to 1)")
		slurmTask(t, 4, 1, 4) // --array=1-4 for 4 shards
		oneLine(t, eval, 2, "number the array from 0 (sbatch --array=0-3)")
	})
	t.Run("sweep task", func(t *testing.T) {
		plan := filepath.Join(dir, "plan.toml")
		os.WriteFile(plan, []byte("[train]\nnetwork = \"2x4\"\nepisodes = 100\nevery = 50\nthreads = 1\n[grid]\nseed = [1, 2, 3, 4]\n[eval]\ngames = 5\n"), 0o644)
		slurmTask(t, 3, 3, 3)
		code, out, errb := runCmd(t, "sweep", "run", plan, "--task", "auto")
		if code != 0 || !strings.Contains(out, "task 3 of 4 (seed=4)") || !strings.Contains(out, "task 3 done") {
			t.Fatalf("exit %d: %s%s", code, out, errb)
		}
		if !strings.Contains(errb, "this array runs 1 of the 4 tasks; tasks 0-2 must run in another job") {
			t.Errorf("no word of the tasks the array leaves out: %q", errb)
		}
		if _, err := os.Stat(filepath.Join(dir, "plan", "task-000")); err == nil {
			t.Error("task 0 ran")
		}
		slurmTask(t, 4, 1, 4)
		oneLine(t, []string{"sweep", "run", plan, "--task", "auto"}, 2, "array task 4 (SLURM_ARRAY_TASK_ID) is not a task of "+plan+", which has 4 (0 to 3)")
	})
}

// TestMergeTimeLine: the merge's last line gives both of its times for
// what they are: the shards' play added up, and the longest shard's run
// from start to end.
func TestMergeTimeLine(t *testing.T) {
	w := trainedWeights(t)
	dir := t.TempDir()
	out := evalShards(t, dir, 3, "--load", w, "--games", "30", "--seed", "2", "--threads", "1")
	var sum, longest int64
	for k := range 3 {
		r, err := evalresult.Read(filepath.Join(dir, fmt.Sprintf("part-%d-of-3.json", k)))
		if err != nil {
			t.Fatal(err)
		}
		sum, longest = sum+r.ElapsedMS, max(longest, r.WallMS)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	want := fmt.Sprintf("30 games in 3 shards: %v of play summed over the shards, %v for the longest shard from start to end; ",
		time.Duration(sum)*time.Millisecond, time.Duration(longest)*time.Millisecond)
	if last := lines[len(lines)-1]; !strings.HasPrefix(last, want) || !strings.HasSuffix(last, " moves/s per shard") && !strings.HasSuffix(last, "(under a millisecond in all)") {
		t.Errorf("merge's last line:\n%s\nwant it to start %q", last, want)
	}
}

// TestStatsNamedFromTheResult: a result names its statistics file
// relative to its own folder whichever of --out and --stats is absolute
// and wherever eval ran, so that merge, run from there too, finds the
// files.
func TestStatsNamedFromTheResult(t *testing.T) {
	w, _ := filepath.Abs(trainedThreesWeights(t))
	dir := t.TempDir()
	work, res := filepath.Join(dir, "work"), filepath.Join(dir, "res")
	for _, d := range []string{work, res} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(work)
	for k, out := range []string{filepath.Join(res, "p0.json"), filepath.Join("..", "res", "p1.json")} {
		args := []string{"eval", "--load", w, "--games", "6", "--seed", "3", "--shard", fmt.Sprintf("%d/2", k), "--out", out, "--stats", fmt.Sprintf("p%d.txt", k)}
		if code, _, errb := runCmd(t, args...); code != 0 {
			t.Fatal(errb)
		}
	}
	if code, _, errb := runCmd(t, "merge", filepath.Join(res, "p0.json"), filepath.Join(res, "p1.json"), "--stats", "m.txt"); code != 0 {
		t.Fatalf("merge: %s", errb)
	}
	if code, jout, errb := runCmd(t, "judge", "m.txt"); code != 0 || !strings.Contains(jout, "Passed") {
		t.Errorf("judge of the merged file: %d %s %s", code, jout, errb)
	}
	// A shard's statistics file gone: the message names the shard and the
	// file, not only the file being written.
	os.Remove("p1.txt")
	oneLine(t, []string{"merge", filepath.Join(res, "p0.json"), filepath.Join(res, "p1.json"), "--stats", "m2.txt"}, 1,
		"save m2.txt: statistics file of "+filepath.Join(res, "p1.json")+": cannot open "+filepath.Join(work, "p1.txt")+": no such file")
}

// TestShardsOfTheHelpsExampleMerge: the shards of one command line
// without --seed (as the help's example gives them) are one evaluation:
// they play under one fixed seed, merge, and a shard run again is done,
// not played under another seed. A shard of no games says so in words.
func TestShardsOfTheHelpsExampleMerge(t *testing.T) {
	t.Parallel()
	w, dir := trainedWeights(t), t.TempDir()
	var parts []string
	for k := range 4 {
		p := filepath.Join(dir, fmt.Sprintf("part-%d.json", k))
		code, out, errb := runCmd(t, "eval", "--load", w, "--games", "3", "--threads", "1", "--shard", fmt.Sprintf("%d/4", k), "--out", p)
		if code != 0 {
			t.Fatalf("shard %d: %s", k, errb)
		}
		if !strings.Contains(out, fmt.Sprintf("seed = %d\n", 1)) {
			t.Errorf("shard %d does not play under the fixed seed:\n%s", k, out)
		}
		if k == 0 && (!strings.Contains(out, "shard = 0/4: no games (4 shards share 3 games; this one plays none)") || strings.Contains(out, "..-1")) {
			t.Errorf("an empty shard's header:\n%s", out)
		}
		parts = append(parts, p)
	}
	if code, _, errb := runCmd(t, append([]string{"merge"}, parts...)...); code != 0 {
		t.Fatalf("merge of the shards of one command line: %s", errb)
	}
	code, out, errb := runCmd(t, "eval", "--load", w, "--games", "3", "--threads", "1", "--shard", "2/4", "--out", parts[2])
	if code != 0 || !strings.Contains(out, "done already") {
		t.Errorf("a shard run again: exit %d\n%s%s", code, out, errb)
	}
	// Without --out nothing is recorded: the seed is drawn, and said.
	_, out, _ = runCmd(t, "eval", "--load", w, "--games", "1", "--threads", "1")
	if strings.Contains(out, "seed = 1\n") {
		_, out2, _ := runCmd(t, "eval", "--load", w, "--games", "1", "--threads", "1")
		if strings.Contains(out2, "seed = 1\n") {
			t.Errorf("an evaluation that records nothing plays under a fixed seed:\n%s", out)
		}
	}
}
