package train

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// TestValidate: each setting that cannot work, alone or with the others,
// is refused by a *FieldError naming its field, in the flag's words and
// the plan key's.
func TestValidate(t *testing.T) {
	for _, c := range []struct {
		name  string
		set   func(s *Spec)
		field string
		want  string
	}{
		{"negative episodes", func(s *Spec) { s.Episodes = -1 }, "episodes", "--episodes -1: want"},
		{"blocks of none", func(s *Spec) { s.Every = 0 }, "every", "--every 0"},
		{"threads", func(s *Spec) { s.Threads = 100000 }, "threads", "--threads 100000: want 0 (all cores)"},
		{"gap", func(s *Spec) { s.CheckpointGap = Duration(-time.Second) }, "checkpoint_gap", "--checkpoint-gap -1s"},
		{"alpha", func(s *Spec) { s.Alpha = 5 }, "alpha", "--alpha: learning rate 5"},
		{"schedule twice", func(s *Spec) { s.AlphaSchedule = "0:0.1,0:0.05" }, "alpha_schedule", "episode 0 twice"},
		{"plateau", func(s *Spec) { s.Plateau = "2:1" }, "plateau", "--plateau: plateau"},
		{"init with load", func(s *Spec) { s.Init, s.Load = 5, "w.td2048" }, "init", "--init fills a new network"},
		{"load and resume", func(s *Spec) { s.Load, s.Resume = "a", "b" }, "load", "give one"},
		{"save as .w", func(s *Spec) { s.Save = "x.w" }, "save", "use td2048 convert"},
		{"update for states", func(s *Spec) { s.Learner, s.Update = "state", "online" }, "update", "after-state learning"},
		{"coherence from 100%", func(s *Spec) { s.CoherenceFrom = "100%" }, "coherence_from", "share like 90%"},
		{"coherence twice", func(s *Spec) { s.CoherenceFrom, s.Coherence = "7", true }, "coherence_from", "give one"},
		{"coherence past the end", func(s *Spec) { s.CoherenceFrom, s.Episodes = "70", 50 }, "coherence_from", "not within"},
		{"plot as gif", func(s *Spec) { s.Plot = "c.gif" }, "plot", "unknown image format"},
		{"network", func(s *Spec) { s.Network = "zzz" }, "network", `--network: network "zzz"`},
		{"hint network for 2048", func(s *Spec) { s.Network = "0123+hint" }, "network", "for Threes!"},
		{"promotion without stages", func(s *Spec) { s.Network, s.Promote = "2x4", true }, "promote", "multi-stage"},
		{"restart on stages", func(s *Spec) { s.Network, s.Shaping = "4x6@2", "restart" }, "shaping", "single-stage"},
		{"threes in turn", func(s *Spec) { s.Game, s.Network, s.Interleave = "threes", "0123+hint", 2 }, "interleave", "one episode at a time"},
		{"threes shaped", func(s *Spec) { s.Game, s.Network, s.Shaping = "threes", "0123+hint", "carousel" }, "shaping", "Threes! training plays whole episodes"},
		{"states in turn", func(s *Spec) { s.Learner, s.Interleave = "state", 2 }, "interleave", "--interleave 2: state learning"},
		{"recipe on resume", func(s *Spec) { s.Recipe, s.Resume = "otd", "w.td2048" }, "recipe", "a resumed run keeps its settings"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := Default()
			s.Network = "2x4"
			c.set(&s)
			err := s.Validate()
			var fe *FieldError
			if !errors.As(err, &fe) || fe.Field != c.field || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("%v, want a %s error with %q", err, c.field, c.want)
			}
			if !strings.HasPrefix(fe.Key(), c.field) {
				t.Errorf("as a plan names it: %q", fe.Key())
			}
		})
	}
	s := Default()
	s.Complete(Given{})
	if err := s.Validate(); err != nil {
		t.Fatalf("the default: %v", err)
	}
}

// TestComplete: the defaults that depend on other settings, for the
// fields not given.
func TestComplete(t *testing.T) {
	s, given := Default(), Given{"coherence": true, "checkpoint_every": true, "resume": true}
	s.Coherence, s.CheckpointEvery, s.Resume = true, 500, "r.td2048"
	s.Complete(given)
	if s.Network != "" || s.Alpha != 1 || s.CheckpointGap != 0 || !given["checkpoint_gap"] || s.Save != "r.td2048" {
		t.Errorf("%+v", s)
	}
	s, given = Default(), Given{"alpha": true, "network": true, "save": true}
	s.Coherence, s.Alpha, s.Resume, s.Save, s.Network = true, 0.5, "r.td2048", "s.td2048", "4x6"
	s.Complete(given)
	if s.Network != "4x6" || s.Alpha != 0.5 || s.CheckpointGap != Duration(time.Minute) || s.Save != "s.td2048" {
		t.Errorf("given: %+v", s)
	}
}

// TestAlphaFloor: the plateau cuts stop at --alpha-floor, a step of the
// schedule below it keeps its own rate, and a floor without --plateau, or
// past 1, is refused.
func TestAlphaFloor(t *testing.T) {
	s := Default()
	s.AlphaSchedule, s.Plateau, s.AlphaFloor = "0:0.1,1000:0.01", "0.5:1", 0.03
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	sched, _ := s.schedule(0)
	for range 10 {
		sched.Observe(1) // no progress: a cut each block
	}
	if a := sched.Alpha(0); a != 0.03 || sched.Alpha(1000) != 0.01 {
		t.Errorf("after ten cuts: %v, and %v from the step below the floor", a, sched.Alpha(1000))
	}
	if !strings.Contains(sched.String(), "down to 0.03") {
		t.Errorf("the schedule says %q", sched)
	}
	for _, f := range []func(s *Spec){func(s *Spec) { s.Plateau = "" }, func(s *Spec) { s.AlphaFloor = 2 }} {
		bad := s
		f(&bad)
		var fe *FieldError
		if err := bad.Validate(); !errors.As(err, &fe) || fe.Field != "alpha_floor" {
			t.Errorf("%+v: %v", bad, err)
		}
	}
}
