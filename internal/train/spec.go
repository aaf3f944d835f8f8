// Package train owns a training run: its settings (Spec), their checks
// (Spec.Validate), what a resumed run keeps of them, the published recipes,
// and the run itself (Open, Run.Train), which opens, locks, loads or
// resumes, checkpoints, logs and plots. The train command, sweeps and
// resumes all go through it, so a setting added to Spec is everywhere at
// once: a flag, a sweep plan's key, a checkpoint's field.
package train

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"time"
)

// Spec is every setting of a training run. Each field's help tag is its
// documentation, shown as the train command's flag help, and its arg tag,
// when there is one, the word of the help that names the flag's value
// (FILE); its group tag the group of flags it is shown in (Groups); its
// toml tag is its key in a sweep plan, and (with _ as -) the name of its
// flag; its json tag its key in a checkpoint (and a sweep task's
// task.json); its resume tag what a resumed run does with it (a Rule).
//
// A zero is a value: a field a plan or a flag gives as 0 is 0. The fields
// whose default depends on others (the network on the game, a resumed
// run's settings on its checkpoint) take it in Complete, for the fields a
// Given set does not name.
type Spec struct {
	Recipe          string   `toml:"recipe" json:"recipe,omitempty" resume:"refuse" group:"research" help:"train by a published recipe (td2048 help recipes)"`
	Game            string   `toml:"game" json:"game,omitempty" resume:"keep" group:"basic" help:"2048 or threes (default: the loaded file's, else 2048)"`
	Network         string   `toml:"network" json:"network,omitempty" resume:"keep" group:"basic" help:"4x6, 8x6, ..., patterns, stages (td2048 help networks)"`
	Episodes        int      `toml:"episodes" json:"total" resume:"override" group:"basic" help:"episodes to train (--resume: the new total)"`
	Alpha           float64  `toml:"alpha" json:"alpha" resume:"refuse" group:"basic" help:"the learning rate (td2048 help rates)"`
	AlphaSchedule   string   `toml:"alpha_schedule" json:"alpha_schedule,omitempty" resume:"refuse" group:"research" help:"the rate by episode, like 0:0.1,200000:0.05"`
	Plateau         string   `toml:"plateau" json:"plateau,omitempty" resume:"refuse" group:"research" arg:"F:B" help:"F:B: cut the rate by F after B blocks of no progress"`
	AlphaFloor      float64  `toml:"alpha_floor" json:"alpha_floor,omitempty" resume:"refuse" group:"research" help:"the lowest rate --plateau cuts to (0: none)"`
	Seed            *uint64  `toml:"seed" json:"seed" resume:"keep" group:"basic" help:"random seed (random when not given; td2048 help seeds)"`
	Save            string   `toml:"save" json:"-" resume:"fresh" flag:"nonempty" group:"basic" arg:"FILE" help:"write weights and run state to FILE (default: the game's own, weights.td2048 or threes.td2048)"`
	Load            string   `toml:"load" json:"load,omitempty" resume:"refuse" group:"run" arg:"FILE" help:"start a new run from the weights in FILE"`
	Resume          string   `toml:"resume" json:"-" resume:"fresh" group:"run" arg:"FILE" help:"continue the run saved in FILE, exactly"`
	Interleave      int      `toml:"interleave" json:"interleave" resume:"keep" group:"run" help:"episodes each thread plays in turn (0: 2 where that applies)"`
	Duration        Duration `toml:"duration" json:"duration" resume:"fresh" group:"run" arg:"TIME" help:"stop after training for TIME (like 60m), and save"`
	Every           int      `toml:"every" json:"every" resume:"keep" group:"run" help:"episodes per statistics block"`
	Learner         string   `toml:"learner" json:"learner" resume:"keep" group:"research" help:"after (after-states) or state"`
	Coherence       bool     `toml:"coherence" json:"coherence" resume:"keep" group:"research" help:"temporal coherence (TC) from the start"`
	CoherenceFrom   Episode  `toml:"coherence_from" json:"coherence_from,omitempty" resume:"refuse" group:"research" help:"switch to TC at this episode or share, like 90%"`
	CoherenceAlpha  float64  `toml:"coherence_alpha" json:"coherence_alpha" resume:"refuse" group:"research" help:"the rate from --coherence-from on"`
	Shaping         string   `toml:"shaping" json:"shaping,omitempty" resume:"keep" group:"research" help:"2048: restart or carousel (td2048 help shaping)"`
	Init            float64  `toml:"init" json:"init" resume:"refuse" group:"research" help:"optimistic TD: a new network's value of every board"`
	Update          string   `toml:"update" json:"update,omitempty" resume:"refuse" group:"research" help:"backward, online, fast, forward or delayed, and ,nstep=N ,lambda=L"`
	Promote         bool     `toml:"promote" json:"promote" resume:"keep" group:"research" help:"a stage first entered starts from the weights below"`
	Threads         int      `toml:"threads" json:"threads" resume:"keep" group:"basic" help:"worker threads (0: all cores; td2048 help threads)"`
	CheckpointEvery int      `toml:"checkpoint_every" json:"checkpoint_every" resume:"override" group:"run" arg:"N" help:"save every N episodes (0: at the end)"`
	CheckpointGap   Duration `toml:"checkpoint_gap" json:"checkpoint_gap" resume:"override" group:"run" arg:"TIME" help:"no checkpoint within TIME of the last"`
	Log             string   `toml:"log" json:"-" resume:"override" flag:"nonempty" group:"run" help:"metrics log, or none (default: --save's .jsonl)"`
	Plot            string   `toml:"plot" json:"-" resume:"override" flag:"nonempty" group:"basic" arg:"FILE" help:"draw the learning curve to FILE, PNG, SVG or PDF"`
	Force           bool     `toml:"force" json:"-" resume:"fresh" group:"run" help:"replace files that train would otherwise keep"`

	empty string // the first setting given as "" (Complete), which Validate refuses
}

// Default is the spec of the train command without flags: the course's
// 4x6 network (the game's default network), 100,000 episodes at alpha
// 0.1, saved to the game's own file (games.Game.File: weights.td2048 for
// 2048, threes.td2048 for Threes!).
func Default() Spec {
	return Spec{
		Episodes: 100000, Alpha: 0.1, Every: 1000, Learner: "after",
		CoherenceAlpha: 1, Update: "backward", CheckpointEvery: 10000, CheckpointGap: Duration(time.Minute),
	}
}

// Given is the set of a spec's fields (by toml key) that a user set: the
// others take defaults that depend on other fields or on the files
// (Complete, Open).
type Given map[string]bool

// Complete gives the fields not in given their defaults that depend on
// the others, and applies the recipe to the fields given does not name;
// given then names each field set. Validate checks what it leaves.
func (s *Spec) Complete(given Given) {
	s.empty = ""
	for _, f := range fields {
		if v := s.value(f); given[f.Key] && v.Kind() == reflect.String && v.Len() == 0 && s.empty == "" {
			s.empty = f.Key
		}
	}
	if r, err := LookupRecipe(s.Recipe); err == nil && s.Recipe != "" {
		r.Apply(s, given)
	}
	if !given["network"] {
		s.Network = "" // the game's, or the --load or --resume file's
	}
	if s.Coherence && !given["alpha"] {
		s.Alpha = 1 // TDL2048+'s TC rate: the first step of a weight moves V by the whole error
	}
	if given["checkpoint_every"] && !given["checkpoint_gap"] {
		s.CheckpointGap = 0 // the interval asked for, every time
		given["checkpoint_gap"] = true
	}
	if s.Resume != "" && !given["save"] {
		s.Save = s.Resume
	}
}

// Groups are the groups of train's flags, in the order help shows them:
// the few a first run needs, the research methods, and the control of a
// run (its files, checkpoints and speed).
var Groups = []string{"basic", "research", "run"}

// fields lists Spec's fields in order.
var fields = NewTable(reflect.TypeFor[Spec](), "resume", rules, Groups)

// field is one of them.
type field = Field[Rule]

// Keys lists the toml keys of Spec's fields, in order.
func Keys() []string { return fields.Keys() }

// FlagOf is the train flag of the field of that toml key.
func FlagOf(key string) string { return strings.ReplaceAll(key, "_", "-") }

// value is the field f of s, addressable when s is.
func (s *Spec) value(f field) reflect.Value { return f.Of(s) }

// Field is the address of the field of that toml key, for decoders to
// set (false when Spec has no such field).
func (s *Spec) Field(key string) (any, bool) { return fields.Addr(s, key) }

// Text is the value of the field of that key as a flag takes it ("" for
// an unset seed).
func (s *Spec) Text(key string) string {
	f, ok := fields.Lookup(key)
	if !ok {
		return ""
	}
	switch v := s.value(f).Interface().(type) {
	case *uint64:
		if v == nil {
			return ""
		}
		return strconv.FormatUint(*v, 10)
	default:
		return fmt.Sprint(v) // a float64 as strconv.FormatFloat's shortest 'g'
	}
}

// Duration is a time.Duration that reads and writes itself as text
// ("1m0s"), in a plan as in a checkpoint.
type Duration time.Duration

func (d Duration) String() string { return time.Duration(d).String() }

// MarshalText writes d as time.Duration.String does.
func (d Duration) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// UnmarshalText reads a duration like 90s or 1h30m.
func (d *Duration) UnmarshalText(b []byte) error {
	x, err := time.ParseDuration(string(b))
	if err != nil {
		return fmt.Errorf("want a duration like 90s or 1h30m, not %q", b)
	}
	*d = Duration(x)
	return nil
}

// Episode is an episode of the run, or a share of its episodes like 90%
// (Spec.CoherenceFrom); "" for none. Episode.Of resolves it.
type Episode string

// UnmarshalJSON reads a string, or the number a checkpoint records.
func (e *Episode) UnmarshalJSON(b []byte) error {
	var n int
	if json.Unmarshal(b, &n) == nil {
		*e = Episode(strconv.Itoa(n))
		if n == 0 {
			*e = ""
		}
		return nil
	}
	var s string
	err := json.Unmarshal(b, &s)
	*e = Episode(s)
	return err
}

// MarshalJSON writes an episode as a number, a share as a string.
func (e Episode) MarshalJSON() ([]byte, error) {
	if n, err := strconv.Atoi(string(e)); err == nil {
		return json.Marshal(n)
	}
	return json.Marshal(string(e))
}

// UnmarshalTOML reads an episode as a plan gives it: a number, or a
// string like "90%".
func (e *Episode) UnmarshalTOML(v any) error {
	switch x := v.(type) {
	case int64:
		*e = Episode(strconv.FormatInt(x, 10))
	case string:
		*e = Episode(x)
	default:
		return fmt.Errorf("want an episode or a share like \"90%%\", not %v", v)
	}
	return nil
}

// Of is the episode e names in a run of total episodes (0 for none): a
// number, or a share like 90% of total, rounded.
func (e Episode) Of(total int) (int, error) {
	if e == "" {
		return 0, nil
	}
	bad := fmt.Errorf("want an episode or a share like 90%%")
	if p, ok := strings.CutSuffix(string(e), "%"); ok {
		v, err := strconv.ParseFloat(p, 64)
		if err != nil || !(v > 0 && v < 100) {
			return 0, bad
		}
		return int(math.Round(v / 100 * float64(total))), nil
	}
	v, err := strconv.Atoi(string(e))
	if err != nil || v <= 0 {
		return 0, bad
	}
	return v, nil
}
