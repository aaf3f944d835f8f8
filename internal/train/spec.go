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
// documentation, shown as the train command's flag help; its toml tag is
// its key in a sweep plan, and (with _ as -) the name of its flag; its
// json tag its key in a checkpoint (and a sweep task's task.json); its
// resume tag what a resumed run does with it (a Rule).
//
// A zero is a value: a field a plan or a flag gives as 0 is 0. The fields
// whose default depends on others (the network on the game, a resumed
// run's settings on its checkpoint) take it in Complete, for the fields a
// Given set does not name.
type Spec struct {
	Recipe          string   `toml:"recipe" json:"recipe,omitempty" resume:"refuse" help:"train by a published recipe (see above; list prints each with its flags): td, online, otd, otd-tc, tc, ms, guei2022, jaskowski2018, matsuzaki2017; flags given override it"`
	Game            string   `toml:"game" json:"game,omitempty" resume:"keep" help:"2048 or threes (default: the game of the --load or --resume file, else 2048)"`
	Network         string   `toml:"network" json:"network,omitempty" resume:"keep" help:"network: 4x6, 5x6, 6x6, 7x6, 8x6, 4x5, 5x4, 2x4, 8x4, 9x4 (or TDL2048+'s 4x6patt ...), or hex patterns like 012345,456789 (add /noiso for no isomorphisms; @T0,T1,... for 2048 stages, one table set per threshold on the board's scale, the sum of its distinct tiles, as TDL2048+'s -@, so 4x6@0,16384 or 4x6patt@2 switches tables at the first 16384; +hint for Threes! tables per hint; Threes! default 4x6+hint)"`
	Episodes        int      `toml:"episodes" json:"total" resume:"override" help:"episodes to train (with --resume: the run's new total)"`
	Alpha           float64  `toml:"alpha" json:"alpha" resume:"refuse" help:"learning rate for the whole value (each of the patterns x images weights moves by alpha*error/(patterns x images))"`
	AlphaSchedule   string   `toml:"alpha_schedule" json:"alpha_schedule,omitempty" resume:"refuse" help:"learning rate by episode, like 0:0.1,200000:0.05,400000:0.025 (overrides --alpha from the first step)"`
	Plateau         string   `toml:"plateau" json:"plateau,omitempty" resume:"refuse" help:"cut the rate by FACTOR when the mean of BLOCKS block averages has not improved for BLOCKS blocks, like 0.5:10"`
	AlphaFloor      float64  `toml:"alpha_floor" json:"alpha_floor,omitempty" resume:"refuse" help:"the lowest rate --plateau cuts to, like 0.0025 (0: no floor); a schedule's own steps below it stand"`
	Seed            *uint64  `toml:"seed" json:"seed" resume:"keep" help:"random seed (printed at start; random when not given)"`
	Save            string   `toml:"save" json:"-" resume:"fresh" flag:"nonempty" help:"write the weights (and the run's state, for --resume) to this file"`
	Load            string   `toml:"load" json:"load,omitempty" resume:"refuse" help:"start from the weights in this file (td2048, 2048.bin or TDL2048+ .w)"`
	Resume          string   `toml:"resume" json:"-" resume:"fresh" help:"continue the interrupted or finished run saved in this file, exactly where it stopped"`
	Interleave      int      `toml:"interleave" json:"interleave" resume:"keep" help:"episodes each thread plays in turn, so that one's memory waits overlap another's work; after-state learning without shaping (0: the fastest measured on this processor: 2 on AMD processors for networks of at most 40 weights a board, like 4x6 and 5x6, else 1; on several threads the run then plays that many or one at a time, whichever it measures faster as it goes: see --threads). With --threads 1 any value repeats a run from its seed (give it to repeat a run on another vendor's processor); a run stopped and resumed learns as one never stopped at 1 from any stop, above 1 from a checkpoint (a kill -9's) or with checkpoints at the same episodes"`
	Duration        Duration `toml:"duration" json:"duration" resume:"fresh" help:"stop after this much training (like 60m), save, and exit 0: equal-compute comparisons; --resume continues the run (0: no limit)"`
	Every           int      `toml:"every" json:"every" resume:"keep" help:"episodes per statistics block"`
	Learner         string   `toml:"learner" json:"learner" resume:"keep" help:"what the network values: after (after-states, the default) or state (states before the move, seed 004)"`
	Coherence       bool     `toml:"coherence" json:"coherence" resume:"keep" help:"temporal coherence (TC): each weight's step scaled by |E|/A of its past updates (alpha defaults to 1.0); a --load'ed network keeps its weights and starts its accumulators, as TDL2048+ does for OTD then TC"`
	CoherenceFrom   Episode  `toml:"coherence_from" json:"coherence_from,omitempty" resume:"refuse" help:"switch to temporal coherence at this episode, or this share of --episodes (like 90%): OTD then TC in one run; the rate becomes --coherence-alpha unless --alpha-schedule is given"`
	CoherenceAlpha  float64  `toml:"coherence_alpha" json:"coherence_alpha" resume:"refuse" help:"the rate from --coherence-from on (TDL2048+'s TC rate 1.0)"`
	Shaping         string   `toml:"shaping" json:"shaping,omitempty" resume:"keep" help:"2048 sub-episodes: restart[,L=10][,at=0.5] (replay the late part of games from a chosen after-state, TDL2048+'s restart) or carousel[,block=2048][,limit=65536] (start from boards of ever larger tiles, TDL2048+'s -b); see docs/methods.md"`
	Init            float64  `toml:"init" json:"init" resume:"refuse" help:"optimistic initialisation: a new network values every board at this (like 320000; TDL2048+'s 4x6patt=320000/norm)"`
	Update          string   `toml:"update" json:"update,omitempty" resume:"refuse" help:"how after-states learn: backward (after the episode, the course's rule), online (as the next move is chosen, TDL2048+'s default: each after-state from its value at the choice for plain TD(0), valued again with --coherence, stages or --shaping), fast or forward (online, always from the value at the choice or always valued again: TDL2048+'s -tt fast and forward) or delayed (online lambda on the values of the choices, after Jaskowski 2018), optionally with ,nstep=N (n-step TD) and ,lambda=L (TD(lambda): backward untruncated unless nstep is given, online truncated at nstep, default 5, like backward,lambda=0.5,nstep=5 or delayed,lambda=0.5); see docs/methods.md"`
	Promote         bool     `toml:"promote" json:"promote" resume:"keep" help:"weight promotion for a multi-stage network: a stage first entered starts from the weights of the stage below"`
	Threads         int      `toml:"threads" json:"threads" resume:"keep" help:"worker threads sharing the weights without locks (0: all cores); only 1 repeats a run exactly for a seed. Unless --interleave is given, a run of several measures as it goes whether all its threads or half of them, and (where --interleave defaults to 2) two games in turn or one, train faster, and keeps the faster"`
	CheckpointEvery int      `toml:"checkpoint_every" json:"checkpoint_every" resume:"override" help:"save weights and run state every this many episodes (0: only at the end and on interrupt); by default at most once per --checkpoint-gap"`
	CheckpointGap   Duration `toml:"checkpoint_gap" json:"checkpoint_gap" resume:"override" help:"skip the checkpoints that come sooner than this after the last one, so that a short run learns instead of writing weights (0: save at every --checkpoint-every; the default when --checkpoint-every is given)"`
	Log             string   `toml:"log" json:"-" resume:"override" flag:"nonempty" help:"metrics log, one JSON line per block (default: the --save file with .jsonl; none to turn it off)"`
	Plot            string   `toml:"plot" json:"-" resume:"override" flag:"nonempty" help:"draw the learning curve to this PNG, SVG or PDF at every checkpoint and at the end"`
	Force           bool     `toml:"force" json:"-" resume:"fresh" help:"replace existing files: a --save file with trained weights, another run's --log, a --plot that is not an image"`
}

// Default is the spec of the train command without flags: the course's
// 4x6 network (the game's default network), 100,000 episodes at alpha
// 0.1, saved to the game's own file (games.Game.File: weights.td2048 for
// 2048, threes.td2048 for Threes!).
func Default() Spec {
	return Spec{
		Network: "4x6", Episodes: 100000, Alpha: 0.1, Every: 1000, Learner: "after",
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

// A field is one setting of Spec, as its tags describe it.
type field struct {
	Key, Flag, Help string
	Rule            Rule
	NonEmpty        bool
	index           int
}

// fields lists Spec's fields in order.
var fields = func() []field {
	t := reflect.TypeFor[Spec]()
	fs := make([]field, t.NumField())
	for i := range fs {
		f := t.Field(i)
		key := f.Tag.Get("toml")
		rule, ok := rules[f.Tag.Get("resume")]
		if key == "" || !ok || f.Tag.Get("help") == "" {
			panic("train: Spec." + f.Name + " lacks its toml, resume or help tag")
		}
		fs[i] = field{Key: key, Flag: strings.ReplaceAll(key, "_", "-"), Help: f.Tag.Get("help"), Rule: rule,
			NonEmpty: f.Tag.Get("flag") == "nonempty", index: i}
	}
	return fs
}()

// lookup returns the field of that toml key.
func lookup(key string) (field, bool) {
	for _, f := range fields {
		if f.Key == key {
			return f, true
		}
	}
	return field{}, false
}

// Keys lists the toml keys of Spec's fields, in order.
func Keys() []string {
	k := make([]string, len(fields))
	for i, f := range fields {
		k[i] = f.Key
	}
	return k
}

// FlagOf is the train flag of the field of that toml key.
func FlagOf(key string) string { return strings.ReplaceAll(key, "_", "-") }

// value is the field f of s, addressable when s is.
func (s *Spec) value(f field) reflect.Value { return reflect.ValueOf(s).Elem().Field(f.index) }

// Field is the address of the field of that toml key, for decoders to
// set (false when Spec has no such field).
func (s *Spec) Field(key string) (any, bool) {
	f, ok := lookup(key)
	if !ok {
		return nil, false
	}
	return s.value(f).Addr().Interface(), true
}

// Text is the value of the field of that key as a flag takes it ("" for
// an unset seed).
func (s *Spec) Text(key string) string {
	f, ok := lookup(key)
	if !ok {
		return ""
	}
	switch v := s.value(f).Interface().(type) {
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64)
	case *uint64:
		if v == nil {
			return ""
		}
		return strconv.FormatUint(*v, 10)
	default:
		return fmt.Sprint(v)
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
