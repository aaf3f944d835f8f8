package main

import (
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

// hint reads tiles past 32768 and values the moves of the board's view.
func TestHintPast32768(t *testing.T) {
	code, out, errs := runCmd(t, "hint", "--load", "none", "65536,32768,0,0,2,2,0,0,0,0,0,0,0,0,0,0")
	if code != 0 || !strings.Contains(out, "valued as the board's view") || !strings.Contains(out, "board 0x00000000001100ef\n") ||
		!strings.Contains(out, "* right  reward 4") {
		t.Fatalf("exit %d %s\n%s", code, errs, out)
	}
}
