package train

import (
	"errors"
	"reflect"
	"testing"
	"time"
)

// sample is a spec with every field set.
func sample() Spec {
	seed := uint64(9)
	return Spec{Recipe: "otd", Game: "2048", Network: "2x4", Episodes: 500, Alpha: 0.05, AlphaSchedule: "0:0.05,100:0.01", Plateau: "0.5:3",
		Seed: &seed, Save: "a.td2048", Load: "l.td2048", Resume: "r.td2048", Interleave: 2, Duration: Duration(time.Hour), Every: 50,
		Learner: "after", Coherence: true, CoherenceFrom: "400", CoherenceAlpha: 0.5, Shaping: "carousel", Init: 5, Update: "online",
		Promote: true, Threads: 2, CheckpointEvery: 100, CheckpointGap: Duration(time.Second), Log: "a.jsonl", Plot: "a.png", Force: true}
}

// other sets field f of s to a value other than its own.
func other(s *Spec, f field) {
	v := s.value(f)
	switch x := v.Addr().Interface().(type) {
	case *string:
		*x += "x"
	case *Episode:
		*x += "1"
	case *int:
		*x++
	case *float64:
		*x += 0.5
	case *bool:
		*x = !*x
	case *Duration:
		*x += Duration(time.Second)
	case **uint64:
		n := **x + 1
		*x = &n
	default:
		panic("no other value for " + f.Key)
	}
}

// TestResumeRules: one subtest per field of Spec, each checking what a
// resumed run does with it as its rule says: a field not given is the
// checkpoint's (Keep, Override, Refuse) or the invocation's (Fresh); a
// value given is refused (Refuse; Keep when it differs) or taken
// (Override, Fresh).
func TestResumeRules(t *testing.T) {
	saved := sample()
	for _, f := range fields {
		t.Run(f.Key+"="+f.Rule.String(), func(t *testing.T) {
			s := sample()
			other(&s, f)
			got, err := s.Resumed(saved, Given{})
			want := saved.value(f).Interface()
			if f.Rule == Fresh {
				want = s.value(f).Interface()
			}
			if err != nil || !reflect.DeepEqual(got.value(f).Interface(), want) {
				t.Errorf("not given: %v (%v), want %v", got.value(f), err, want)
			}
			got, err = s.Resumed(saved, Given{f.Key: true})
			var fe *FieldError
			switch f.Rule {
			case Keep, Refuse:
				if !errors.As(err, &fe) || fe.Field != f.Key {
					t.Errorf("given another value: %v, want it refused", err)
				}
			default:
				if err != nil || !reflect.DeepEqual(got.value(f).Interface(), s.value(f).Interface()) {
					t.Errorf("given another value: %v (%v), want it taken", got.value(f), err)
				}
			}
			same := sample()
			_, err = same.Resumed(saved, Given{f.Key: true})
			if (err != nil) != (f.Rule == Refuse) {
				t.Errorf("given the same value: %v", err)
			}
		})
	}
	// What makes a run the same run is kept; the rates, which its
	// schedule holds, refused; how far it goes and where it saves, free.
	for key, rule := range map[string]Rule{"seed": Keep, "network": Keep, "threads": Keep, "interleave": Keep, "every": Keep,
		"alpha": Refuse, "update": Refuse, "init": Refuse, "episodes": Override, "checkpoint_every": Override, "log": Override,
		"save": Fresh, "duration": Fresh} {
		t.Run(key, func(t *testing.T) {
			if RuleOf(key) != rule {
				t.Errorf("%s: %v, want %v", key, RuleOf(key), rule)
			}
		})
	}
	// Equal settings written differently are the same.
	a, b := sample(), sample()
	a.Interleave, b.Interleave, a.Network, b.Network, a.Shaping = 0, 1, "2x4", "0123,4567", "carousel,block=2048"
	if _, err := a.Resumed(b, Given{"interleave": true, "network": true, "shaping": true}); err != nil {
		t.Error(err)
	}
}
