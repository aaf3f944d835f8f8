package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/td2048/td2048/learn"
	"github.com/td2048/td2048/netfile"
	"github.com/td2048/td2048/ntuple"
)

// largeWeights saves a 4x5 network (4M weights, larger than the caches,
// so that the commands play it compact) after a few hundred episodes.
func largeWeights(t *testing.T) string {
	t.Helper()
	return largeWeightsOf(t, "4x5")
}

// largeWeightsOf is largeWeights for a network of spec.
func largeWeightsOf(t *testing.T, spec string) string {
	t.Helper()
	net := ntuple.MustNew(spec)
	defer net.Free()
	learn.Train(context.Background(), net, learn.Config{Episodes: 300, Seed: 1, Threads: 1, Every: 300})
	path := filepath.Join(t.TempDir(), "large.td2048")
	if err := netfile.Save(path, net, netfile.Header{Game: "2048", Learner: "after", Episodes: 300}); err != nil {
		t.Fatal(err)
	}
	return path
}

// evalJSONOf runs eval with args and reads its JSON.
func evalJSONOf(t *testing.T, args ...string) evalJSON {
	t.Helper()
	code, out, errs := runCmd(t, append([]string{"eval", "--json", "--threads", "1", "--seed", "3"}, args...)...)
	var r evalJSON
	if code != 0 || json.Unmarshal([]byte(out), &r) != nil {
		t.Fatalf("eval %v: exit %d %s\n%s", args, code, errs, out)
	}
	return r
}

// eval plays a large network with 16-bit weights unless told not to,
// says so, and plays the same games from its compact file (convert
// --compact, half the size); a small network plays float32.
func TestEvalCompact(t *testing.T) {
	w := largeWeights(t)
	code, out, errs := runCmd(t, "eval", "--load", w, "--games", "20", "--seed", "3", "--threads", "1")
	if code != 0 || !strings.Contains(out, "search = 1-ply (greedy), 16-bit weights\n") || !strings.Contains(out, "weights = 16-bit, a scale a table, 8 MiB (each value within") {
		t.Fatalf("exit %d %s\n%s", code, errs, out)
	}
	compact := evalJSONOf(t, "--load", w, "--games", "20")
	float := evalJSONOf(t, "--load", w, "--games", "20", "--compact=false")
	if !compact.Compact || float.Compact {
		t.Fatalf("compact %v, --compact=false %v", compact.Compact, float.Compact)
	}
	c := filepath.Join(t.TempDir(), "c.td2048")
	if code, out, errs := runCmd(t, "convert", "--compact", w, c); code != 0 || !strings.Contains(out, "weights = 16-bit") {
		t.Fatalf("convert --compact: exit %d %s\n%s", code, errs, out)
	}
	fi, _ := os.Stat(w)
	ci, _ := os.Stat(c)
	if ci.Size() > fi.Size()/2+4096 {
		t.Fatalf("compact file %d bytes, float32 %d", ci.Size(), fi.Size())
	}
	if fromFile := evalJSONOf(t, "--load", c, "--games", "20"); fromFile.Avg != compact.Avg || fromFile.Moves != compact.Moves || !fromFile.Compact {
		t.Fatalf("the compact file played %+v, the float32 file compact %+v", fromFile, compact)
	}
	if small := evalJSONOf(t, "--load", trainedWeights(t), "--games", "5"); small.Compact {
		t.Fatal("a network of 8x4 lines played compact")
	}
	oneLine(t, []string{"convert", "--compact", w, filepath.Join(t.TempDir(), "x.w")}, 2, "--compact writes td2048 files")
}

// A large staged network plays float32 unless --compact is given: 16-bit
// weights cost such networks score at 2 plies. eval says so.
func TestEvalCompactStaged(t *testing.T) {
	w := largeWeightsOf(t, "4x5@0,256")
	code, out, errs := runCmd(t, "eval", "--load", w, "--games", "5", "--seed", "3", "--threads", "1")
	if code != 0 || !strings.Contains(out, "weights = float32\n") || !strings.Contains(out, "16-bit weights cost a staged network score at 2 plies") {
		t.Fatalf("exit %d %s\n%s", code, errs, out)
	}
	if def, asked := evalJSONOf(t, "--load", w, "--games", "5"), evalJSONOf(t, "--load", w, "--games", "5", "--compact"); def.Compact || !asked.Compact {
		t.Fatalf("staged: compact by default %v, with --compact %v", def.Compact, asked.Compact)
	}
}

// eval --move-threads: each move searched by a team plays the same games
// as one thread at a fixed depth, and says how its threads are shared.
func TestEvalMoveThreads(t *testing.T) {
	w := trainedWeights(t)
	for _, depth := range []string{"2", "3"} {
		one := evalJSONOf(t, "--load", w, "--games", "4", "--depth", depth)
		team := evalJSONOf(t, "--load", w, "--games", "4", "--depth", depth, "--threads", "2", "--move-threads", "2")
		if team.Avg != one.Avg || team.Moves != one.Moves || team.MoveThreads != 2 || one.MoveThreads != 0 {
			t.Fatalf("depth %s: 2 threads a move %+v, one %+v", depth, team, one)
		}
	}
	code, out, errs := runCmd(t, "eval", "--load", w, "--games", "2", "--depth", "2", "--threads", "2", "--move-threads", "2")
	if code != 0 || !strings.Contains(out, "threads = 2 a move, 1 game(s) at once\n") {
		t.Fatalf("exit %d %s\n%s", code, errs, out)
	}
	oneLine(t, []string{"eval", "--load", w, "--move-threads", "-1"}, 2, "--move-threads")
}

// TestHugeWeights: finite weights whose sums overflow float32 (a board's
// value +Inf) are refused as a damaged network by every face that loads
// them, as 16-bit weights too, never played into +Inf values.
func TestHugeWeights(t *testing.T) {
	dir := t.TempDir()
	net := convertNet(t, "0123,4567")
	for i := range net.Weights() {
		net.Weights()[i] = 1e38
	}
	path := filepath.Join(dir, "huge.td2048")
	if err := netfile.Save(path, net, netfile.Header{}); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"hint", "--load", path, "--json", "0,0,0,0,0,0,0,2,0,0,0,0,0,256,128,2"},
		{"hint", "--load", path, "--compact", "0,0,0,0,0,0,0,2,0,0,0,0,0,256,128,2"},
		{"eval", "--load", path, "--games", "1"},
		{"convert", path, filepath.Join(dir, "x.w")},
	} {
		if code, out, errs := runCmd(t, args...); code != 1 || !strings.Contains(errs, "values overflow float32: a damaged file") || strings.Count(errs, "\n") != 1 {
			t.Errorf("%v: exit %d: %s%s", args, code, out, errs)
		}
	}
}
