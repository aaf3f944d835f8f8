package evalrun

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/td2048/td2048/internal/train"
	"github.com/td2048/td2048/learn"
	"github.com/td2048/td2048/netfile"
	"github.com/td2048/td2048/ntuple"
)

// weights saves a small 2048 network after a few episodes.
func weights(t *testing.T) string {
	t.Helper()
	net := ntuple.MustNew("8x4")
	learn.Train(context.Background(), net, learn.Config{Episodes: 50, Seed: 1, Threads: 1, Every: 50})
	path := filepath.Join(t.TempDir(), "w.td2048")
	if err := netfile.Save(path, net, netfile.Header{Game: "2048", Learner: "after", Episodes: 50}); err != nil {
		t.Fatal(err)
	}
	return path
}

// spec is an evaluation of w's weights recorded to out, and the settings
// it gives.
func spec(w, out string) (Spec, train.Given) {
	s := Default()
	s.Load, s.Out, s.Games, s.Threads = w, out, 4, 1
	return s, train.Given{"load": true, "out": true, "games": true, "threads": true}
}

// TestRerunRules: an evaluation finished, run again with a setting
// changed, is done when its rule is Free or Own (how fast, how shown),
// and refused when it is Same (which games, and how played).
func TestRerunRules(t *testing.T) {
	w := weights(t)
	out := filepath.Join(t.TempDir(), "r.json")
	s, given := spec(w, out)
	r, err := Open(s, given, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, complete, err := r.Evaluate(context.Background(), nil); err != nil || !complete {
		t.Fatalf("complete %v: %v", complete, err)
	}
	r.Close()
	type change struct {
		key string
		set func(*Spec)
	}
	cases := []change{
		{"threads", func(s *Spec) { s.Threads = 2 }},
		{"interleave", func(s *Spec) { s.Interleave = 2 }},
		{"move_threads", func(s *Spec) { s.MoveThreads = 2 }},
		{"json", func(s *Spec) { s.JSON = true }},
		{"quiet", func(s *Spec) { s.Quiet = true }},
		{"games", func(s *Spec) { s.Games = 5 }},
		{"seed", func(s *Spec) { x := uint64(2); s.Seed = &x }},
		{"depth", func(s *Spec) { s.Depth = 2 }},
		{"move_time", func(s *Spec) { s.MoveTime = train.Duration(1e6) }},
		{"downgrade", func(s *Spec) { s.Downgrade = 256 }},
		{"shard", func(s *Spec) { s.Shard = "0/2" }},
		{"search", func(s *Spec) { s.Method, s.Iterations = "mcts", 20 }},
		{"iterations", func(s *Spec) { s.Method, s.Iterations = "mcts", 21 }},
		{"exploration", func(s *Spec) { s.Method, s.Iterations, s.Exploration = "mcts", 20, 0.5 }},
		{"rollout_depth", func(s *Spec) { s.Method, s.Iterations, s.RolloutDepth = "mcts", 20, 0 }},
		{"gamma", func(s *Spec) { s.Method, s.Iterations, s.Gamma = "mcts", 20, 1 }},
	}
	// The settings a small 2048 network's greedy evaluation cannot show
	// changed: another file (load, out, stats, game), one that needs
	// another (stint, shards), or one without effect on it (cache at one
	// ply, compact on a small network), and force, which starts over.
	untested := []string{"load", "out", "stats", "game", "stint", "shards", "cache", "compact", "force"}
	for _, k := range Keys() {
		if !slices.ContainsFunc(cases, func(c change) bool { return c.key == k }) && !slices.Contains(untested, k) {
			t.Errorf("setting %s: no case shows what a run again does with it", k)
		}
	}
	for _, c := range cases {
		t.Run(c.key, func(t *testing.T) {
			s, given := spec(w, out)
			c.set(&s)
			given[c.key] = true
			r, err := Open(s, given, Options{})
			if r != nil {
				defer r.Close()
			}
			switch RuleOf(c.key) {
			case Same:
				if err == nil || !strings.Contains(err.Error(), "holds the result of another evaluation") {
					t.Errorf("changed, a setting of rule same: %v", err)
				}
			default:
				if err != nil || !r.Done {
					t.Errorf("changed, a setting of rule free or own: not done: %v", err)
				}
			}
		})
	}
}

// TestWeightsChangedWhileLoaded: an evaluation whose weights file is
// replaced (a training run's checkpoint) between its checksum and its load
// is refused: its result would name weights it did not play.
func TestWeightsChangedWhileLoaded(t *testing.T) {
	w := weights(t)
	s, given := spec(w, filepath.Join(t.TempDir(), "r.json"))
	r, err := Open(s, given, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	data, _ := os.ReadFile(w)
	os.WriteFile(w+".new", data, 0o644)
	os.Rename(w+".new", w)
	if err := r.checkRerun(Options{}); err == nil || !strings.Contains(err.Error(), "changed while it was loaded") {
		t.Fatalf("weights replaced: %v", err)
	}
}

// TestStoppedSaysHowToContinue: an interrupted evaluation says where its
// games are and what continues them, whatever it recorded.
func TestStoppedSaysHowToContinue(t *testing.T) {
	for _, c := range []struct {
		out, stats string
		n          int
		want       string
	}{
		{"p.json", "", 5, "(recorded in p.json.progress: the same command continues at game 15)"},
		{"p.json", "", 0, "(none to record: the same command starts them again)"},
		{"", "s.txt", 5, "(their statistics lines in s.txt.partial; eval --out FILE records the games finished, so that the same command continues)"},
		{"", "", 5, "(not recorded: with --out FILE the games finished are recorded as they go, and the same command continues)"},
		{"", "", 0, "(not recorded: with --out FILE"},
	} {
		r := &Run{Spec: Spec{Out: c.out, Stats: c.stats}, Progress: ProgressName(c.out), statsReal: c.stats}
		r.First = 10
		if got := r.Stopped(c.n); !strings.Contains(got, c.want) {
			t.Errorf("out %q stats %q, %d games: %q, want %q", c.out, c.stats, c.n, got, c.want)
		}
	}
}

// TestValidateCompiles: the values Validate makes are those the run
// uses, the seed fixed when the games are recorded.
func TestValidateCompiles(t *testing.T) {
	s := Default()
	s.Out, s.Shard, s.Games, s.Depth, s.MoveTime = "x.json", "1/3", 10, 3, train.Duration(5e6)
	given := train.Given{"out": true, "shard": true, "games": true, "depth": true, "move_time": true}
	s.Complete(given)
	c, err := s.Validate(given, nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.Seed != SeedWhenRecorded || c.First != 3 || c.Count != 3 || c.Search.Depth != 3 || s.Cache != 64<<20 || c.Weights != netfile.CompactUnstaged {
		t.Errorf("%+v, cache %v", c, s.Cache)
	}
}
