package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// eval --downgrade: from 32768 it changes nothing in games that never
// make 32768 (the statistics equal plain play's); from 4 it decides on
// downgraded boards from the first 4 on, and still plays whole games.
func TestEvalDowngrade(t *testing.T) {
	w := trainedWeights(t)
	stats := func(out string) string {
		i := strings.Index(out, "\n20\t")
		j := strings.Index(out, "2048 rate")
		if i < 0 || j < 0 {
			t.Fatalf("no statistics in %q", out)
		}
		return out[i:j]
	}
	base := []string{"eval", "--load", w, "--games", "20", "--seed", "4", "--threads", "1"}
	code, plain, errs := runCmd(t, base...)
	if code != 0 {
		t.Fatal(errs)
	}
	code, dg, errs := runCmd(t, append(base, "--downgrade", "32768")...)
	if code != 0 || !strings.Contains(dg, "search = 1-ply (greedy), tile-downgrading from 32768 (stint 1)\n") || stats(dg) != stats(plain) {
		t.Fatalf("exit %d %s\nplain:\n%s\ndowngrade 32768:\n%s", code, errs, plain, dg)
	}
	code, low, errs := runCmd(t, append(base, "--downgrade", "4", "--stint", "0", "--depth", "2")...)
	if code != 0 || !strings.Contains(low, "tile-downgrading from 4 (stint 0)") || !strings.Contains(low, "20 games in") {
		t.Fatalf("exit %d %s\n%s", code, errs, low)
	}
	oneLine(t, append(base, "--downgrade", "100"), 2, "--downgrade")
	oneLine(t, append(base, "--downgrade", "131072"), 2, "--downgrade")
	oneLine(t, append(base, "--stint", "3"), 2, "--stint needs --downgrade")
	oneLine(t, append(base, "--downgrade", "32768", "--stint", "-1"), 2, "stint")
	oneLine(t, []string{"eval", "--load", trainedThreesWeights(t), "--downgrade", "32768"}, 2, "Threes! has none")
}

// hint reads tiles past 32768 and values the moves of the board's view,
// which it names; the board, after-states and rewards it gives are the
// real board's.
func TestHintPast32768(t *testing.T) {
	code, out, errs := runCmd(t, "hint", "--load", "none", "65536,32768,0,0,2,2,0,0,0,0,0,0,0,0,0,0")
	if code != 0 || !strings.Contains(out, "valued as the board's view") || !strings.Contains(out, "board 0x0001:00000000001100f0\n") ||
		!strings.Contains(out, "valued on 0x00000000001100ef") || !strings.Contains(out, "* right  reward 4  after 0x0004:000000002000f000") {
		t.Fatalf("exit %d %s\n%s", code, errs, out)
	}
	// Two 65536s merge for 131072, not for the view's 65536.
	code, out, errs = runCmd(t, "hint", "--load", "none", "--json", "65536,65536,0,0,2,2,0,0,0,0,0,0,0,0,0,0")
	var res struct {
		Board string
		View  *string
		Moves []struct {
			Dir        string
			After      *string
			Reward     *int
			ViewReward *int `json:"view_reward"`
		}
	}
	if code != 0 || json.Unmarshal([]byte(out), &res) != nil {
		t.Fatalf("exit %d %s\n%s", code, errs, out)
	}
	right := res.Moves[1]
	if res.Board != "0x0003:0000000000110000" || res.View == nil || *res.View != "0x00000000001100ff" ||
		*right.Reward != 131076 || right.ViewReward == nil || *right.ViewReward != 65540 || *right.After != "0x0008:0000000020001000" {
		t.Fatalf("%s", out)
	}
	// A board of 4-bit tiles has no view of its own.
	code, out, _ = runCmd(t, "hint", "--load", "none", "--json", "0x1234")
	if code != 0 || strings.Contains(out, "view") {
		t.Fatalf("exit %d: %s", code, out)
	}
}

// hint --downgrade: TDL2048+'s trigger on its board 0x00000000123456ff
// with threshold 65536 (the merge of two 32768s leaves its cell empty,
// and left slides again), the board valued lowered by --downgrades, and
// the flags' errors.
func TestHintDowngrade(t *testing.T) {
	w := trainedWeights(t)
	// Left leaves . 64 32 . in TDL2048+'s board, which slides left
	// again: a trigger; right leaves . . 64 32, which does not.
	code, out, errs := runCmd(t, "hint", "--load", w, "--json", "--downgrade", "65536", "0x00000000123456ff")
	left, right := strings.Contains(out, `"best":"left"`), strings.Contains(out, `"best":"right"`)
	if code != 0 || !left && !right || left && !strings.Contains(out, `"downgrades":0,"triggers":true`) ||
		right && !strings.Contains(out, `"downgrades":0,"triggers":false`) {
		t.Fatalf("exit %d %s\n%s", code, errs, out)
	}
	code, out, errs = runCmd(t, "hint", "--load", w, "--json", "--downgrade", "4", "--downgrades", "2", "0x0000000000bca921")
	if code != 0 || !strings.Contains(out, `"view":"0x00000000009a8721"`) || !strings.Contains(out, `"downgrades":2`) {
		t.Fatalf("exit %d %s\n%s", code, errs, out)
	}
	oneLine(t, []string{"hint", "--load", w, "--downgrades", "1", "0x1"}, 2, "--downgrades needs --downgrade")
	oneLine(t, []string{"hint", "--load", w, "--downgrade", "4", "--downgrades", "16", "0x1"}, 2, "--downgrades 16")
	oneLine(t, []string{"hint", "--load", w, "--downgrade", "100", "0x1"}, 2, "--downgrade")
	oneLine(t, []string{"hint", "--load", trainedThreesWeights(t), "--downgrade", "32768", "--next", "1", "0x1"}, 2, "Threes! has none")
}
