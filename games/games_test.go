package games

import (
	"strings"
	"testing"

	"github.com/td2048/td2048/learn"
	"github.com/td2048/td2048/ntuple"
)

func TestRegistry(t *testing.T) {
	if got := strings.Join(Names(), ","); got != "2048,threes" {
		t.Fatalf("Names = %s", got)
	}
	if g, err := Lookup(""); err != nil || g.Name != "2048" {
		t.Fatalf("default: %v %v", g, err)
	}
	if _, err := Lookup("4096"); err == nil || !strings.Contains(err.Error(), "want 2048 or threes") {
		t.Fatalf("unknown game: %v", err)
	}
	for _, g := range All() {
		spec, err := ntuple.ParseSpec(g.Network)
		if err != nil || g.CheckSpec(spec) != nil {
			t.Errorf("%s: default network %s does not fit: %v %v", g.Name, g.Network, err, g.CheckSpec(spec))
		}
		if g.CheckLearner(g.Learners[0]) != nil {
			t.Errorf("%s: default learner refused", g.Name)
		}
		s, err := g.NewSession(1)
		if err != nil || s.Game() != g.Name {
			t.Errorf("%s: session %v", g.Name, err)
		}
	}
	if v := MustLookup("2048").GoalValue(); v != 2048 {
		t.Errorf("2048 goal %d", v)
	}
	if v := MustLookup("threes").GoalValue(); v != 3072 {
		t.Errorf("Threes! goal %d", v)
	}
	if MustLookup("threes").CheckLearner(learn.State) == nil {
		t.Error("Threes! accepted a state learner")
	}
	hint := ntuple.Spec{Patterns: [][]int{{0, 1}}, Iso: true, Stages: 3, Hint: true}
	if MustLookup("2048").CheckSpec(hint) == nil {
		t.Error("2048 accepted a +hint network")
	}
}
