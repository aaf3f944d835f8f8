package games

import (
	"time"

	"strings"
	"testing"

	"github.com/td2048/td2048/stats"

	"github.com/td2048/td2048/learn"
	"github.com/td2048/td2048/ntuple"
	"github.com/td2048/td2048/session"
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
		s, err := session.New(g.Name, 1)
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

// A Threes! training block prints in the course's summary format: the
// actions per second of the block's wall time, the sides' own times n/a.
func TestThreesTrainBlock(t *testing.T) {
	var b stats.Block
	b.Add(600, 7, 100) // 48
	b.Add(300, 6, 60)  // 24
	var sb strings.Builder
	if err := MustLookup("threes").WriteBlock(&sb, 1000, &b, 2*time.Second); err != nil {
		t.Fatal(err)
	}
	// 160 slides and 160 + 2 x 9 placements in 2 s.
	want := "1000\tavg = 450, max = 600, ops = 169 (n/a|n/a)\n\t24\t100%\t(50%)\n\t48\t50%\t(50%)\n\n"
	if sb.String() != want {
		t.Fatalf("got %q, want %q", sb.String(), want)
	}
}
