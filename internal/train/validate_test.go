package train

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/td2048/td2048/netfile"
	"github.com/td2048/td2048/ntuple"
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
			_, err := s.Validate()
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
	if _, err := s.Validate(); err != nil {
		t.Fatalf("the default: %v", err)
	}
}

// TestValidateCompiles: Validate returns what Open uses as it is: the
// learning, the network (the game's when none is named) and a new run's
// schedule with its coherence step; a resumed run keeps its checkpoint's.
func TestValidateCompiles(t *testing.T) {
	s := Default()
	s.Episodes, s.CoherenceFrom, s.CoherenceAlpha = 100, "90%", 0.5
	s.Complete(Given{})
	c, err := s.Validate()
	if err != nil {
		t.Fatal(err)
	}
	if c.CoherenceFrom != 90 || c.Network == nil || c.Network.String() != "4x6" || c.Schedule.Alpha(89) != 0.1 || c.Schedule.Alpha(90) != 0.5 {
		t.Errorf("%+v: network %v, schedule %v", c.Learning, c.Network, c.Schedule)
	}
	s, given := Default(), Given{"resume": true}
	s.Resume = "r.td2048"
	s.Complete(given)
	if c, err := s.Validate(); err != nil || c.Schedule != nil || c.Network != nil {
		t.Errorf("resumed: %+v, %v", c, err)
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
	c, err := s.Validate()
	if err != nil {
		t.Fatal(err)
	}
	sched := c.Schedule
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
		if _, err := bad.Validate(); !errors.As(err, &fe) || fe.Field != "alpha_floor" {
			t.Errorf("%+v: %v", bad, err)
		}
	}
}

// TestValidateEverySetting: the checks that hold whatever the other
// settings: the coherence rate without --coherence-from, NaN and the
// infinities in every number, a setting given empty, no episodes, a .w to
// resume, and a --load file that is missing, not weights, or of another
// (or an unknown) game.
func TestValidateEverySetting(t *testing.T) {
	dir := t.TempDir()
	file := func(name string, h netfile.Header) string {
		p := filepath.Join(dir, name)
		if err := netfile.Save(p, ntuple.MustNew("0123"), h); err != nil {
			t.Fatal(err)
		}
		return p
	}
	threes := file("threes.td2048", netfile.Header{Game: "threes", Learner: "after"})
	unknown := file("other.td2048", netfile.Header{Game: "threez", Learner: "after"})
	text := filepath.Join(dir, "notes.td2048")
	os.WriteFile(text, []byte("a thesis"), 0o644)
	type check struct {
		name, field, want string
		set               func(s *Spec, g Given)
	}
	checks := []check{
		{"no episodes", "episodes", "--episodes 0: want 1 or more", func(s *Spec, _ Given) { s.Episodes = 0 }},
		{"resume a .w", "resume", "--resume x.w is a TDL2048+ .w file, not a td2048 run checkpoint: start a new run from its weights with --load x.w",
			func(s *Spec, g Given) { s.Resume, g["resume"] = "x.w", true }},
		{"load missing", "load", "gone.td2048: not found", func(s *Spec, _ Given) { s.Load = filepath.Join(dir, "gone.td2048") }},
		{"load not weights", "load", "notes.td2048 is not a weight file", func(s *Spec, _ Given) { s.Load = text }},
		{"load of another game", "load", "holds weights for threes, not 2048", func(s *Spec, _ Given) { s.Load, s.Game = threes, "2048" }},
		{"load of an unknown game", "load", `other.td2048: unknown game "threez"`, func(s *Spec, _ Given) { s.Load = unknown }},
	}
	for _, v := range []float64{math.NaN(), math.Inf(1), math.Inf(-1), -1, 2, 1e300} {
		checks = append(checks, check{fmt.Sprint("coherence rate ", v), "coherence_alpha", "--coherence-alpha: learning rate", func(s *Spec, _ Given) { s.CoherenceAlpha = v }})
	}
	for _, v := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		checks = append(checks,
			check{fmt.Sprint("alpha ", v), "alpha", "--alpha: learning rate", func(s *Spec, _ Given) { s.Alpha = v }},
			check{fmt.Sprint("alpha floor ", v), "alpha_floor", "--alpha-floor", func(s *Spec, _ Given) { s.AlphaFloor, s.Plateau = v, "0.5:3" }},
			check{fmt.Sprint("init ", v), "init", "--init", func(s *Spec, _ Given) { s.Init = v }},
			check{fmt.Sprint("schedule ", v), "alpha_schedule", "--alpha-schedule", func(s *Spec, _ Given) { s.AlphaSchedule = fmt.Sprint("0:", v) }},
			check{fmt.Sprint("plateau ", v), "plateau", "--plateau", func(s *Spec, _ Given) { s.Plateau = fmt.Sprint(v, ":3") }},
			check{fmt.Sprint("lambda ", v), "update", "--update", func(s *Spec, _ Given) { s.Update = fmt.Sprint("online,lambda=", v) }},
			check{fmt.Sprint("share ", v), "coherence_from", "--coherence-from", func(s *Spec, _ Given) { s.CoherenceFrom = Episode(fmt.Sprint(v, "%")) }})
	}
	for _, f := range fields {
		if k := reflect.TypeFor[Spec]().FieldByIndex(f.index).Type.Kind(); k == reflect.String {
			checks = append(checks, check{"empty " + f.Key, f.Key, "--" + f.Flag + ": an empty value; leave the setting out", func(s *Spec, g Given) {
				s.value(f).SetString("")
				g[f.Key] = true
			}})
		}
	}
	for _, c := range checks {
		t.Run(c.name, func(t *testing.T) {
			s, g := Default(), Given{}
			c.set(&s, g)
			s.Complete(g)
			_, err := s.Validate()
			var fe *FieldError
			if !errors.As(err, &fe) || fe.Field != c.field || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("%v, want a %s error with %q", err, c.field, c.want)
			}
		})
	}
}
