package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/td2048/td2048/internal/train"
	"github.com/td2048/td2048/netfile"
)

// TestRecipeOverride: a recipe sets its flags, a flag given overrides
// its setting, and the rest of the recipe stays.
func TestRecipeOverride(t *testing.T) {
	dir := t.TempDir()
	save := filepath.Join(dir, "r.td2048")
	code, out, errs := runCmd(t, "train", "--recipe", "otd-tc", "--network", "2x4", "--alpha", "0.05", "--coherence-alpha", "0.5",
		"--episodes", "200", "--every", "100", "--threads", "1", "--seed", "1", "--save", save, "--log", "none")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"network = 2x4 ", "learner = after-state TD(0), online updates", "alpha = 0:0.05,180:0.5",
		"init = every board valued at 320000", "recipe = otd-tc (Guei, Chen and Wu", "coherence = temporal coherence from episode 180"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	h, err := netfile.ReadHeader(save)
	if err != nil || !h.Coherence {
		t.Fatalf("saved without coherence: %+v %v", h, err)
	}
	st, _, err := train.ReadState(h)
	if err != nil || st.CoherenceFrom != "180" {
		t.Fatalf("run state %+v: %v", st.Spec, err)
	}
	// The recipe's update mode overridden; its network and shaping kept.
	code, out, errs = runCmd(t, "train", "--recipe", "ms", "--update", "backward", "--episodes", "3", "--threads", "1",
		"--save", filepath.Join(dir, "m.td2048"), "--log", "none", "--network", "2x4@0,256")
	if code != 0 || !strings.Contains(out, "backward episode updates") || !strings.Contains(out, "shaping = carousel") ||
		!strings.Contains(out, "alpha = 0.05") || !strings.Contains(out, "2 stages from scale 0,256") {
		t.Fatalf("ms: exit %d: %s%s", code, out, errs)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--recipe", "nope"}, "unknown recipe \"nope\""},
		{[]string{"--recipe", "otd", "--resume", save}, "a resumed run keeps its settings"},
		{[]string{"--coherence-from", "100%"}, "share like 90%"},
		{[]string{"--coherence-from", "7", "--coherence"}, "give one"},
		{[]string{"--coherence-from", "70", "--episodes", "50"}, "not within"},
		{[]string{"--shaping", "restart", "--network", "4x6@2"}, "single-stage"},
		{[]string{"--shaping", "twirl"}, "--shaping"},
		{[]string{"--shaping", "carousel", "--learner", "state"}, "after-state"},
		{[]string{"--resume", save, "--shaping", "restart"}, "keeps its settings"},
	} {
		t.Run(c.want, func(t *testing.T) {
			args := append([]string{"train", "--episodes", "10", "--save", filepath.Join(dir, "x.td2048")}, c.args...)
			if code, _, errs := runCmd(t, args...); code != 2 || !strings.Contains(errs, c.want) {
				t.Errorf("%v: exit %d: %s", c.args, code, errs)
			}
		})
	}
	if code, out, _ := runCmd(t, "train", "--recipe", "list"); code != 0 || !strings.Contains(out, "jaskowski2018:") || !strings.Contains(out, "--shaping restart") {
		t.Fatalf("recipe list: exit %d: %s", code, out)
	}
	if code, out, _ := runCmd(t, "help", "recipes"); code != 0 || !strings.Contains(strings.Join(strings.Fields(out), " "), "Multistage temporal difference learning for 2048-like games") {
		t.Fatalf("help recipes: %s", out)
	}
}

// TestShapingResume: a restart run through the command resumes with its
// shaping, and says so.
func TestShapingResume(t *testing.T) {
	dir := t.TempDir()
	save := filepath.Join(dir, "s.td2048")
	code, out, errs := runCmd(t, "train", "--shaping", "restart,L=20", "--network", "2x4", "--episodes", "100", "--threads", "1",
		"--seed", "2", "--save", save, "--log", "none")
	if code != 0 || !strings.Contains(out, "shaping = restart: a sub-episode of 20 moves") {
		t.Fatalf("exit %d: %s%s", code, out, errs)
	}
	code, out, errs = runCmd(t, "train", "--resume", save, "--episodes", "150")
	if code != 0 || !strings.Contains(out, "shaping = restart") {
		t.Fatalf("resume: exit %d: %s%s", code, out, errs)
	}
}
