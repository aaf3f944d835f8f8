package train

import (
	"reflect"

	"github.com/td2048/td2048/learn"
	"github.com/td2048/td2048/ntuple"
)

// A Rule says what a resumed run does with a setting: each Spec field
// names its rule in its resume tag, so the fields are the table.
type Rule int

const (
	// Keep: the run keeps the checkpoint's value; a value given must be
	// the same (the seed, the network, the threads: what makes the run
	// the same run).
	Keep Rule = iota
	// Override: the checkpoint's value unless one is given (the episodes,
	// the checkpoints' interval, the log and the plot).
	Override
	// Refuse: the run keeps the checkpoint's value, and giving one is
	// refused even when it is the same (the rates, the update mode: what
	// the checkpoint holds in another form, such as the schedule).
	Refuse
	// Fresh: the value of this invocation; a checkpoint does not hold it
	// (the files to resume and save, --force, --duration).
	Fresh
)

var rules = map[string]Rule{"keep": Keep, "override": Override, "refuse": Refuse, "fresh": Fresh}

func (r Rule) String() string {
	for k, v := range rules {
		if v == r {
			return k
		}
	}
	return "?"
}

// RuleOf is the resume rule of the field of that toml key.
func RuleOf(key string) Rule {
	f, _ := fields.Lookup(key)
	return f.Rule
}

// Resumed is the spec of the run saved as saved, resumed by s: each field
// by its Rule, given naming the fields s sets. A field given against its
// rule is a *FieldError.
func (s Spec) Resumed(saved Spec, given Given) (Spec, error) {
	out := s
	for _, f := range fields {
		switch {
		case f.Rule == Fresh || f.Rule == Override && given[f.Key]:
			continue
		case f.Rule == Refuse && given[f.Key],
			f.Rule == Keep && given[f.Key] && !reflect.DeepEqual(canonical(&s, f), canonical(&saved, f)):
			return s, bad(f.Key, ": a resumed run keeps its settings (start a new run with --load to change them)")
		}
		out.value(f).Set(saved.value(f))
	}
	return out, nil
}

// canonical is the field f of s in the form two equal settings share.
func canonical(s *Spec, f field) any {
	switch f.Key {
	case "interleave":
		return max(s.Interleave, 1)
	case "network":
		if n, err := ntuple.ParseSpec(s.Network); err == nil {
			return n.String()
		}
	case "shaping":
		if sh, err := learn.ParseShaping(s.Shaping); err == nil {
			return sh
		}
	case "learner":
		if k, err := learn.ParseKind(s.Learner); err == nil {
			return k
		}
	}
	return s.value(f).Interface()
}
