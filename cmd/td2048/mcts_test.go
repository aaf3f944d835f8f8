package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// hint --search mcts gives each legal move its visits, which add up to
// the iterations, in both games; the same command gives the same answer.
func TestHintMCTS(t *testing.T) {
	w2048, wThrees := testWeights(t), trainSmall(t, t.TempDir())
	for _, c := range []struct {
		name string
		args []string
	}{
		{"2048", []string{"--load", w2048, "2,2,0,4,0,8,0,0,0,0,0,0,0,0,0,2"}},
		{"Threes!", []string{"--load", wThrees, "--next", "3", "1,2,3,0, 0,3,0,0, 6,0,0,0, 0,0,0,12"}},
	} {
		args := append([]string{"hint", "--search", "mcts", "--iterations", "200", "--threads", "2", "--json"}, c.args...)
		code, out, errs := runCmd(t, args...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", c.name, code, errs)
		}
		var res struct {
			Moves []struct {
				Legal  bool
				Visits *int64
				Total  *float32
			}
			Best       *string
			Iterations int64
		}
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatalf("%s: %v: %s", c.name, err, out)
		}
		sum := int64(0)
		for _, m := range res.Moves {
			if m.Legal && (m.Visits == nil || m.Total == nil) || !m.Legal && m.Visits != nil {
				t.Fatalf("%s: %s", c.name, out)
			}
			if m.Visits != nil {
				sum += *m.Visits
			}
		}
		if res.Iterations != 200 || sum != 200 || res.Best == nil {
			t.Fatalf("%s: %d iterations, visits add up to %d: %s", c.name, res.Iterations, sum, out)
		}
		if _, again, _ := runCmd(t, args...); again != out {
			t.Fatalf("%s: another answer:\n%s\n%s", c.name, out, again)
		}
	}
	_, text, _ := runCmd(t, "hint", "--search", "mcts", "--load", w2048, "2,2,0,4,0,8,0,0,0,0,0,0,0,0,0,2")
	if !strings.Contains(text, "visits") || !strings.Contains(text, "MCTS: 500 iterations") {
		t.Fatalf("text:\n%s", text)
	}
}

// eval --search mcts plays and says how; MCTS's flags need --search mcts
// and sensible values.
func TestEvalMCTS(t *testing.T) {
	w := testWeights(t)
	code, out, errs := runCmd(t, "eval", "--load", w, "--search", "mcts", "--iterations", "20", "--rollout-depth", "2", "--games", "2", "--seed", "3")
	if code != 0 || !strings.Contains(out, "search = MCTS, 20 iterations a move, exploration 1.41, rollouts of 2 moves, gamma 0.99") ||
		!strings.Contains(out, "2 games in") {
		t.Fatalf("exit %d: %s\n%s", code, errs, out)
	}
	for _, args := range [][]string{
		{"--iterations", "20"},
		{"--search", "mcst"},
		{"--search", "mcts", "--gamma", "0"},
		{"--search", "mcts", "--iterations", "0"},
		{"--search", "mcts", "--exploration", "-1"},
	} {
		code, _, errs := runCmd(t, append([]string{"eval", "--load", w, "--games", "1"}, args...)...)
		if code != 2 || strings.Count(strings.TrimSpace(errs), "\n") > 0 {
			t.Errorf("%v: exit %d %q", args, code, errs)
		}
	}
}
