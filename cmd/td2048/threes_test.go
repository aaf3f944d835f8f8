package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/td2048/td2048/netfile"
	"github.com/td2048/td2048/ntuple"
	"github.com/td2048/td2048/rules/threes"
)

// testEnv returns an env writing to buffers.
func testEnv() (*env, *bytes.Buffer, *bytes.Buffer) {
	var out, errb bytes.Buffer
	return &env{stdout: &out, stderr: &errb, stdin: strings.NewReader("")}, &out, &errb
}

// trainSmall trains a small hint network for Threes! and returns its path.
func trainSmall(t *testing.T, dir string) string {
	t.Helper()
	w := filepath.Join(dir, "t.td2048")
	code, o, errs := runCmd(t, "train", "--game", "threes", "--network", "0123,4567,89ab,cdef+hint", "--episodes", "400",
		"--seed", "5", "--save", w, "--every", "200")
	if code != 0 {
		t.Fatal(errs)
	}
	if !strings.Contains(o, "seed = 5\n") || !strings.Contains(o, "game = Threes!\n") || strings.Count(o, "\tavg = ") != 2 ||
		!strings.Contains(o, "\n400\tavg = ") || !strings.Contains(o, "+hint") {
		t.Fatalf("train output:\n%s", o)
	}
	return w
}

func TestThreesTrainSavesAndResumes(t *testing.T) {
	dir := t.TempDir()
	w := trainSmall(t, dir)
	h, err := netfile.ReadHeader(w)
	if err != nil || h.Game != "threes" || h.Episodes != 400 || h.Network != "0123,4567,89ab,cdef+hint" || h.Learner != "after" {
		t.Fatalf("header %+v %v", h, err)
	}
	// The log holds Threes! tiles.
	recs := readLog(t, filepath.Join(dir, "t.jsonl"))
	if len(recs) != 2 || recs[1].Game != "threes" || recs[1].Reach["3"] == 0 {
		t.Fatalf("log records %+v", recs)
	}
	// eval and hint find the game in the file; judge replays what eval wrote.
	sf := filepath.Join(dir, "stats.txt")
	if code, o, errs := runCmd(t, "eval", "--load", w, "--games", "20", "--seed", "3", "--stats", sf); code != 0 || !strings.Contains(o, "3072") && !strings.Contains(o, "avg = ") {
		t.Fatalf("eval: %d %s %s", code, o, errs)
	}
	if code, o, errs := runCmd(t, "judge", sf); code != 0 || !strings.Contains(o, "Passed") {
		t.Fatalf("judge: %d %s %s", code, o, errs)
	}
	if code, o, errs := runCmd(t, "hint", "--load", w, "--next", "2", "--json", "1,2,3,0,0,3,0,0,6,0,0,0,0,0,0,12"); code != 0 || !strings.Contains(o, `"dir":"up"`) {
		t.Fatalf("hint: %d %s %s", code, o, errs)
	}
	if code, _, _ := runCmd(t, "eval", "--game", "2048", "--load", w, "--games", "1"); code == 0 {
		t.Fatal("Threes! weights evaluated as 2048")
	}
	// Continue from the file: its game and network come with it.
	if code, _, errs := runCmd(t, "train", "--load", w, "--save", w, "--episodes", "10", "--every", "1000"); code != 0 {
		t.Fatal(errs)
	}
	if h, _ := netfile.ReadHeader(w); h.Episodes != 410 || h.Game != "threes" {
		t.Fatalf("after --load: %+v", h)
	}
	// Resume the run to more episodes: it ends where an unbroken run does.
	whole := filepath.Join(dir, "whole.td2048")
	part := filepath.Join(dir, "part.td2048")
	args := []string{"train", "--game", "threes", "--network", "0123,4567+hint", "--seed", "2", "--every", "100", "--threads", "1"}
	if code, _, errs := runCmd(t, append(args, "--episodes", "400", "--save", whole)...); code != 0 {
		t.Fatal(errs)
	}
	if code, _, errs := runCmd(t, append(args, "--episodes", "200", "--save", part)...); code != 0 {
		t.Fatal(errs)
	}
	if code, _, errs := runCmd(t, "train", "--resume", part, "--episodes", "400"); code != 0 {
		t.Fatal(errs)
	}
	sameWeights(t, whole, part)
	// A different network with --load is refused; so is overwriting it.
	code, _, errs := runCmd(t, "train", "--load", w, "--network", "0123+hint", "--save", filepath.Join(dir, "x"), "--episodes", "1")
	if code == 0 || !strings.Contains(errs, "made for network") {
		t.Fatalf("wrong network accepted: %s", errs)
	}
	code, _, errs = runCmd(t, "train", "--game", "threes", "--network", "0123+hint", "--save", w, "--episodes", "1")
	if code == 0 || !strings.Contains(errs, "holds trained Threes! weights (0123,4567,89ab,cdef+hint network") {
		t.Fatalf("overwrite accepted: %s", errs)
	}
	// A staged network without +hint, or a state learner, is a usage error.
	if code, _, errs := runCmd(t, "train", "--game", "threes", "--network", "0123@3", "--save", filepath.Join(dir, "y"), "--episodes", "1"); code != 2 {
		t.Fatalf("0123@3: %d %s", code, errs)
	}
	if code, _, _ := runCmd(t, "train", "--game", "threes", "--learner", "state", "--save", filepath.Join(dir, "y"), "--episodes", "1"); code != 2 {
		t.Fatal("state learner accepted for Threes!")
	}
	// 2048 weights are neither loaded nor overwritten.
	w2048 := filepath.Join(dir, "2048.td2048")
	net := ntuple.MustNew("0123")
	if err := netfile.Save(w2048, net, netfile.Header{}); err != nil {
		t.Fatal(err)
	}
	code, _, errs = runCmd(t, "train", "--game", "threes", "--load", w2048, "--save", filepath.Join(dir, "z"), "--episodes", "1")
	if code == 0 || !strings.Contains(errs, "weights for 2048, not threes") {
		t.Fatalf("2048 weights loaded: %s", errs)
	}
	code, _, errs = runCmd(t, "train", "--game", "threes", "--network", "0123", "--save", w2048, "--episodes", "1")
	if code == 0 || !strings.Contains(errs, "holds trained 2048 weights") {
		t.Fatalf("2048 weights overwritten: %s", errs)
	}
	if code, _, errs := runCmd(t, "eval", "--game", "threes", "--load", w2048, "--games", "1"); code == 0 || !strings.Contains(errs, "weights for 2048, not threes") {
		t.Fatalf("eval of 2048 weights: %s", errs)
	}
	if code, _, _ := runCmd(t, "train", "--game", "go"); code != 2 {
		t.Error("--game go accepted")
	}
	if code, _, _ := runCmd(t, "train", "--network", "4x6+hint", "--episodes", "1", "--save", filepath.Join(dir, "h")); code != 2 {
		t.Error("a +hint network accepted for 2048")
	}
}

// summaryBlock cuts the course summary out of command output: from the
// line starting with the game count to the blank line.
func summaryBlock(t *testing.T, out, games string) string {
	t.Helper()
	i := strings.Index(out, games+"\tavg = ")
	j := strings.Index(out[max(i, 0):], "\n\n")
	if i < 0 || j < 0 {
		t.Fatalf("no summary block in:\n%s", out)
	}
	return out[i : i+j+2]
}

func TestThreesEvalStatsFileAndJudge(t *testing.T) {
	dir := t.TempDir()
	w := trainSmall(t, dir)
	stats := filepath.Join(dir, "stats.txt")
	code, evalOut, errs := runCmd(t, "eval", "--load", w, "--games", "40", "--seed", "3", "--threads", "2", "--stats", stats)
	if code != 0 {
		t.Fatal(errs)
	}
	if !strings.Contains(evalOut, "3072 rate = ") || !strings.Contains(evalOut, "statistics file = "+stats) {
		t.Fatalf("eval output:\n%s", evalOut)
	}
	data, err := os.ReadFile(stats)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if len(lines) != 40 || !strings.HasPrefix(lines[0], "td2048:random@") {
		t.Fatalf("%d lines, first %.60q", len(lines), lines[0])
	}
	code, jout, jerr := runCmd(t, "judge", stats)
	if code != 0 {
		t.Fatalf("judge: exit %d: %s", code, jerr)
	}
	if !strings.HasSuffix(jout, "\nJudging the actions... Passed\n") {
		t.Fatalf("judge output:\n%s", jout)
	}
	// The judge's summary of the file is the summary eval printed.
	if a, b := summaryBlock(t, evalOut, "40"), summaryBlock(t, jout, "40"); a != b {
		t.Fatalf("eval summary\n%s\njudge summary\n%s", a, b)
	}

	// Hand-corrupted files: the judge names the game and the action.
	rec, err := threes.ParseRecord(lines[1])
	if err != nil {
		t.Fatal(err)
	}
	k := threes.OpeningTiles + 2*5 // the sixth slide of game 2
	firstSlide := threes.OpeningTiles
	if len(rec.Steps) < k+2 {
		t.Fatalf("game 2 has %d steps", len(rec.Steps))
	}
	corrupt := func(name string, line int, text string, want ...string) {
		t.Helper()
		bad := append([]string(nil), lines...)
		bad[line-1] = text
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(strings.Join(bad, "\n")+"\n"), 0o644)
		code, sout, serr := runCmd(t, "judge", p)
		// The summary of the games, then the verdict, as the course
		// judge prints them; the fault on stderr.
		if code != 1 || !strings.HasSuffix(sout, "\nJudging the actions... Failed\n") || strings.Count(serr, "\n") != 1 {
			t.Errorf("%s: exit %d, stdout %q, stderr %q", name, code, sout, serr)
			return
		}
		if !strings.HasPrefix(sout, "40\tavg = ") && !strings.HasPrefix(sout, "39\tavg = ") {
			t.Errorf("%s: no summary of the file's games: %q", name, sout)
		}
		for _, w := range want {
			if !strings.Contains(serr, w) {
				t.Errorf("%s: %q does not say %q", name, serr, w)
			}
		}
	}
	edit := func(f func(r *threes.Record)) string {
		r, _ := threes.ParseRecord(lines[1])
		f(&r)
		return r.String()
	}
	pl := rec.Steps[k+1].Action
	corrupt("tile", 2, edit(func(r *threes.Record) {
		r.Steps[k+1].Action = threes.PlaceAction(pl.Pos(), pl.Tile()%3+1, pl.Hint())
	}), "game 2, action 21 (", "next tile was")
	g := threes.New()
	for _, s := range rec.Steps[:firstSlide+1] {
		if s.Action.IsSlide() {
			g.Slide(s.Action.Dir())
		} else {
			g.Place(s.Action.Pos(), s.Action.Tile(), s.Action.Hint())
		}
	}
	occupied := 0
	for g.Board.At(occupied) == 0 {
		occupied++
	}
	corrupt("occupied", 2, edit(func(r *threes.Record) {
		a := r.Steps[firstSlide+1].Action
		r.Steps[firstSlide+1].Action = threes.PlaceAction(occupied, a.Tile(), a.Hint())
	}), "game 2, action 11 (", "not empty")
	corrupt("reward", 2, edit(func(r *threes.Record) { r.Steps[k].Reward += 3 }), "game 2, action 20 (", "recorded reward")
	corrupt("short", 2, edit(func(r *threes.Record) { r.Steps = r.Steps[:k+2] }), "game 2: the game stops after action 21 while sliding", "still legal")
	corrupt("syntax", 3, strings.Replace(lines[2], "#", "#X", 1), "game 3: cannot read action 10 ")
	corrupt("winner", 1, strings.Replace(lines[0], "|random@", "|td2048@", 1), "game 1: winner")
	corrupt("blank", 5, "", "line 5 is blank")

	// A depth-2 search plays legal games too.
	code, out, errs := runCmd(t, "eval", "--load", w, "--games", "3", "--seed", "1", "--depth", "2", "--cache", "1M", "--stats", stats, "--force")
	if code != 0 {
		t.Fatal(errs)
	}
	if !strings.Contains(out, "2-ply expectimax, table 1M") {
		t.Fatalf("eval output:\n%s", out)
	}
	if code, _, jerr := runCmd(t, "judge", stats); code != 0 {
		t.Fatalf("judge of a depth-2 file: %s", jerr)
	}
	if code, _, _ := runCmd(t, "judge"); code != 2 {
		t.Fatalf("judge without a file: exit %d", code)
	}
	empty := filepath.Join(dir, "empty")
	os.WriteFile(empty, nil, 0o644)
	if code, _, jerr := runCmd(t, "judge", empty); code != 1 || !strings.Contains(jerr, "no games") {
		t.Fatalf("empty file: exit %d %q", code, jerr)
	}
}

func TestThreesHint(t *testing.T) {
	dir := t.TempDir()
	w := trainSmall(t, dir)
	board := "1,2,3,0, 0,3,0,0, 6,0,0,0, 0,0,0,12"
	code, out, errs := runCmd(t, "hint", "--load", w, "--json", "--depth", "2", "--next", "3", board)
	if code != 0 {
		t.Fatal(errs)
	}
	var res struct {
		Board string
		Next  int
		Moves []struct {
			Dir    string
			Legal  bool
			After  *string
			Reward *int
			Cells  []int
			Value  *float32
			Total  *float32
		}
		Best *string
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	b, _ := threes.Parse(board)
	if res.Board != b.Hex() || res.Next != 3 || len(res.Moves) != 4 || res.Best == nil {
		t.Fatalf("%+v", res)
	}
	for d, m := range res.Moves {
		after, r, ok := threes.Move(b, d)
		if m.Legal != ok || m.Dir != threes.DirNames[d] {
			t.Fatalf("move %d: %+v", d, m)
		}
		if !ok {
			if m.After != nil || m.Reward != nil || m.Value != nil {
				t.Fatalf("illegal move %d has values: %+v", d, m)
			}
			continue
		}
		if *m.After != after.Hex() || *m.Reward != r || m.Value == nil || *m.Total != float32(r)+*m.Value {
			t.Fatalf("move %d: %+v", d, m)
		}
		for _, c := range m.Cells {
			if after.At(c) != 0 || threes.Edge(d)>>(4*c)&1 == 0 {
				t.Fatalf("move %d: cell %d is not a free edge cell", d, c)
			}
		}
	}
	// Sliding left merges 1+2 in row 0 for a reward of 3, the only
	// reward on this board.
	if *res.Moves[threes.Left].Reward != 3 {
		t.Fatalf("left reward %d", *res.Moves[threes.Left].Reward)
	}
	code, out, errs = runCmd(t, "hint", "--game", "threes", "--load", "none", "--next", "1", board)
	if code != 0 {
		t.Fatal(errs)
	}
	if !strings.Contains(out, "best by reward alone (no --load): left") || !strings.Contains(out, "next tile 1") {
		t.Fatalf("text hint:\n%s", out)
	}
	for _, c := range []struct{ board, next, depth string }{
		{"4,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0", "1", "1"},
		{board, "0", "1"},
		{board, "4", "1"},
		{board, "1", "0"},
	} {
		t.Run(c.board+" next "+c.next+" depth "+c.depth, func(t *testing.T) {
			if code, _, errs := runCmd(t, "hint", "--game", "threes", "--load", "none", "--next", c.next, "--depth", c.depth, c.board); code != 2 {
				t.Errorf("%+v: exit %d %s", c, code, errs)
			}
		})
	}
}

func FuzzJudge(f *testing.F) {
	f.Add([]byte("a:b@1|C23A31[3]|b@2\n"))
	f.Add([]byte("\n\nx"))
	f.Fuzz(func(t *testing.T, data []byte) {
		sum, fault, err := judge(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err) // a reader of bytes does not fail
		}
		if fault == nil && sum.Games == 0 {
			t.Fatal("no games, no fault")
		}
		if fault != nil && strings.Contains(fault.Message, "\n") {
			t.Fatalf("fault of more than one line: %q", fault.Message)
		}
	})
}

// hint --depth 12 with a move time answers within it, from the deepest
// search finished, and says how deep that was.
func TestThreesHintMoveTime(t *testing.T) {
	w := trainSmall(t, t.TempDir())
	board := "1,2,3,0, 0,3,0,0, 6,0,0,0, 0,0,0,12"
	for _, asJSON := range []bool{false, true} {
		e, out, _ := testEnv()
		done := make(chan error, 1)
		go func() {
			args := []string{"hint", "--load", w, "--depth", "12", "--next", "3", "--move-time", "100ms", board}
			if asJSON {
				args = append(args, "--json")
			}
			if code := run(args, e); code != 0 {
				done <- fmt.Errorf("exit %d", code)
			}
			done <- nil
		}()
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
		case <-time.After(30 * time.Second):
			t.Fatal("hint --depth 12 ran 30 s past a 100ms move time")
		}
		if asJSON {
			var res struct{ Depth int }
			if err := json.Unmarshal(out.Bytes(), &res); err != nil || res.Depth < 1 || res.Depth >= 12 {
				t.Fatalf("%v: %s", err, out)
			}
		} else if !regexp.MustCompile(`searched \d+ plies deep within 100ms\n$`).MatchString(out.String()) {
			t.Fatalf("text hint:\n%s", out)
		}
	}
}

// TestEachGameItsOwnFile: without --save, train writes the game's own
// file (2048: weights.td2048, Threes!: threes.td2048, logs beside them),
// so the two games' runs in one folder never collide; eval and hint
// without --load read the file of the game --game names, and a Threes!
// hint without --next asks for the next tile rather than refusing a
// "--next 0" never given.
func TestEachGameItsOwnFile(t *testing.T) {
	t.Chdir(t.TempDir())
	for _, c := range []struct{ game, network, file, log string }{
		{"2048", "2x4", "weights.td2048", "weights.jsonl"},
		{"threes", "0123,4567,89ab,cdef+hint", "threes.td2048", "threes.jsonl"},
	} {
		t.Run(c.game, func(t *testing.T) {
			code, o, errs := runCmd(t, "train", "--game", c.game, "--network", c.network, "--episodes", "20", "--every", "10", "--seed", "1")
			if code != 0 || !strings.Contains(o, "saved "+c.file+" ") {
				t.Fatalf("train: exit %d: %s\n%s", code, errs, o)
			}
			if h, err := netfile.ReadHeader(c.file); err != nil || h.Game != c.game {
				t.Fatalf("%s: %+v %v", c.file, h, err)
			}
			if _, err := os.Stat(c.log); err != nil {
				t.Fatalf("no log beside %s: %v", c.file, err)
			}
			code, o, errs = runCmd(t, "eval", "--game", c.game, "--games", "2", "--seed", "1")
			if code != 0 || !strings.Contains(o, "loaded = "+c.file+" (20 episodes") {
				t.Fatalf("eval --game %s: exit %d: %s\n%s", c.game, code, errs, o)
			}
		})
	}
	// The 2048 file was not touched by the Threes! run, and is eval's
	// default without --game.
	if h, err := netfile.ReadHeader("weights.td2048"); err != nil || h.Game != "2048" || h.Episodes != 20 {
		t.Fatalf("weights.td2048: %+v %v", h, err)
	}
	if code, o, errs := runCmd(t, "eval", "--games", "2"); code != 0 || !strings.Contains(o, "loaded = weights.td2048") {
		t.Fatalf("eval: exit %d: %s\n%s", code, errs, o)
	}
	// Training on from the Threes! file saves to it: the game comes with
	// the file, unnamed.
	if code, o, errs := runCmd(t, "train", "--load", "threes.td2048", "--episodes", "10", "--every", "10"); code != 0 || !strings.Contains(o, "saved threes.td2048 ") {
		t.Fatalf("train --load threes.td2048: exit %d: %s\n%s", code, errs, o)
	}
	const board = "1,2,3,0,0,3,0,0,6,0,0,0,0,0,0,12"
	code, _, errs := runCmd(t, "hint", "--game", "threes", board)
	if code != 2 || !strings.Contains(errs, "give it with --next") || strings.Contains(errs, "--next 0") {
		t.Fatalf("hint without --next: exit %d: %s", code, errs)
	}
	if code, o, errs := runCmd(t, "hint", "--game", "threes", "--next", "3", board); code != 0 || !strings.Contains(o, "reward+value") {
		t.Fatalf("hint --game threes: exit %d: %s\n%s", code, errs, o)
	}
	if code, _, errs := runCmd(t, "eval", "--game", "nope"); code != 2 || !strings.Contains(errs, "unknown game") {
		t.Fatalf("eval --game nope: exit %d: %s", code, errs)
	}
	// A file naming a game this td2048 does not know is the file's fault,
	// whichever command reads it, not --game's.
	net := ntuple.MustNew("0123")
	if err := netfile.Save("other.td2048", net, netfile.Header{Game: "threez", Learner: "after"}); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{"eval", "hint", "serve"} {
		args := []string{cmd, "--load", "other.td2048"}
		if cmd == "hint" {
			args = append(args, board)
		}
		if code, _, errs := runCmd(t, args...); code != 1 || !strings.Contains(errs, ": other.td2048: unknown game") || strings.Contains(errs, "--game") {
			t.Errorf("%s of a file of an unknown game: exit %d: %s", cmd, code, errs)
		}
	}
	// serve (as play) reads the game's file too, and says whose.
	_, stop := startServe(t, "--game", "threes")
	if code, out, errs := stop(); code != 0 || !strings.Contains(out, "Threes! network 0123,4567,89ab,cdef+hint") || !strings.Contains(out, "from threes.td2048") {
		t.Fatalf("serve --game threes: exit %d: %s\n%s", code, errs, out)
	}
}
