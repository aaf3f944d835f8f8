// Package sweep reads a sweep plan: a TOML file naming a grid or a list
// of training runs, each trained and then evaluated as one task of a job
// array (td2048 sweep run plan.toml --task K).
//
//	out = "rates"            # the sweep's folder (relative to the plan's), default: the plan's name
//
//	[train]                  # every task's settings, unless the grid or a task sets them
//	network = "4x6"
//	episodes = 100000
//	seed = 1
//
//	[grid]                   # every combination of these, the keys in the order of Keys (seed last, fastest)
//	alpha = [0.1, 0.05]
//	seed = [1, 2]
//
//	[[task]]                 # or a list of runs (each then crossed with the grid)
//	update = "online"
//
//	[eval]                   # the evaluation of each task's weights
//	games = 1000
//	depth = 2
//	seed = 1
//
// The training keys are the fields of train.Spec, each named as td2048
// train's flag of that name with _ for - (alpha_schedule, coherence_from,
// checkpoint_every, ...): every setting a train flag has, a 0 given being
// that value (a "" given is refused). A task's files are its folder's, so save, resume,
// log, plot and force are not keys; load names weights relative to the
// plan's folder. The seed is 1 unless given. The evaluation keys are the
// fields of evalrun.Spec, named as td2048 eval's flags with _ for -
// (games, depth, seed, move_time, cache, ...; seed 1 unless given) but
// for the task's own evaluation files and its shard (EvalTaskKeys). Task
// K's files are in OUT/task-K (K with at least three digits). Every
// task's settings are checked (train.Spec.Validate, evalrun.Spec.Validate)
// when the plan is read, before anything runs.
package sweep

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/td2048/td2048/internal/evalrun"
	"github.com/td2048/td2048/internal/train"
)

// MaxTasks bounds the tasks of a plan.
const MaxTasks = 100000

// EvalDefault is the evaluation of a task that the plan's [eval] table
// does not change: td2048 eval's, with seed 1.
func EvalDefault() evalrun.Spec {
	s := evalrun.Default()
	s.Seed = new(uint64(1))
	return s
}

// EvalTaskKeys are the evaluation settings a task decides, which a plan
// may not give: its weights and result files, and its evaluation is
// whole.
var EvalTaskKeys = []string{"load", "out", "force", "shard", "shards"}

// A Task is one run of a plan.
type Task struct {
	Index int
	Name  string // task-007
	Label string // the settings that the grid and the task list set, like "alpha=0.05 seed=2"
	// Train is the run's settings, completed (train.Spec.Complete) and
	// valid, with Given naming those the plan gives; its files are
	// weights.td2048 and curve.png (relative to the task's folder), and
	// Load is relative to the plan's folder.
	Train train.Spec
	Given train.Given
	// Eval is the evaluation of the task's weights, EvalGiven naming the
	// settings the plan gives; its Load and Out are the task's to set.
	Eval      evalrun.Spec
	EvalGiven train.Given
}

// A Plan is a parsed plan file.
type Plan struct {
	Out   string // the sweep's folder, as the file names it (or the plan's name)
	Tasks []Task
}

// Keys are the training keys, in the order the grid combines them and
// labels name them: those plans had first in the order they had, then the
// rest in train.Spec's order, the seed last.
var Keys = func() []string {
	keys := []string{"game", "network", "update", "learner", "coherence", "init", "alpha", "alpha_schedule", "episodes",
		"every", "checkpoint_every", "threads"}
	for _, k := range train.Keys() {
		if !slices.Contains(keys, k) && !slices.Contains(TaskKeys, k) && k != "seed" {
			keys = append(keys, k)
		}
	}
	return append(keys, "seed")
}()

// TaskKeys are the settings a task's folder decides, which a plan may not
// give.
var TaskKeys = []string{"save", "resume", "log", "plot", "force"}

type table = map[string]toml.Primitive

type file struct {
	Out   string                      `toml:"out"`
	Train table                       `toml:"train"`
	Grid  map[string][]toml.Primitive `toml:"grid"`
	Task  []table                     `toml:"task"`
	Eval  table                       `toml:"eval"`
}

// Parse reads a plan; name is the plan file's path (its base, without
// extension, is the default Out; a load is checked in its folder).
func Parse(r io.Reader, name string) (*Plan, error) {
	var f file
	md, err := toml.NewDecoder(io.LimitReader(r, 1<<20)).Decode(&f)
	if err != nil {
		return nil, fmt.Errorf("plan: %w", err)
	}
	for _, u := range md.Undecoded() { // the tables' keys are read below
		if !slices.Contains([]string{"train", "grid", "task", "eval"}, u[0]) {
			return nil, fmt.Errorf("plan: unknown key %s (the tables are train, grid, task and eval, and the key out)", u)
		}
	}
	d := decoder{md}
	ev, evGiven, err := d.eval(f.Eval)
	if err != nil {
		return nil, err
	}
	// A task repeats exactly by default: seed 1 and one thread (a run on
	// more threads shares its weights between them, and its result depends
	// on their timing); threads = 0 trains on all the task's cores.
	base, baseGiven := train.Default(), train.Given{}
	base.Seed, base.Save, base.Plot, base.Threads = new(uint64(1)), "weights.td2048", "curve.png", 1
	if _, err := d.apply(&base, baseGiven, f.Train, "[train]"); err != nil {
		return nil, err
	}
	gridKeys, err := ordered(f.Grid)
	if err != nil {
		return nil, fmt.Errorf("plan: [grid] %w", err)
	}
	for _, k := range gridKeys {
		if len(f.Grid[k]) == 0 {
			return nil, fmt.Errorf("plan: [grid] %s is an empty list", k)
		}
	}
	list := f.Task
	if len(list) == 0 {
		list = []table{nil}
	}
	combos := 1
	for _, k := range gridKeys {
		combos *= len(f.Grid[k])
		if combos*len(list) > MaxTasks {
			return nil, fmt.Errorf("plan: more than %d tasks", MaxTasks)
		}
	}
	p := &Plan{Out: cmp.Or(f.Out, strings.TrimSuffix(filepath.Base(name), filepath.Ext(name)))}
	width := max(3, len(strconv.Itoa(combos*len(list)-1)))
	for li, entry := range list {
		ts, tg := base, maps.Clone(baseGiven)
		lab, err := d.apply(&ts, tg, entry, fmt.Sprintf("[[task]] %d", li+1))
		if err != nil {
			return nil, err
		}
		for c := range combos {
			t := Task{Index: len(p.Tasks), Train: ts, Given: maps.Clone(tg), Eval: ev, EvalGiven: evGiven}
			t.Name = fmt.Sprintf("task-%0*d", width, t.Index)
			l, err := d.combo(&t, f.Grid, gridKeys, c)
			if err != nil {
				return nil, err
			}
			l = append(slices.Clone(lab), l...)
			t.Label = cmp.Or(strings.Join(l, " "), "base")
			t.Train.Complete(t.Given)
			v := t.Train // checked with its load as named from here
			if v.Load != "" && !filepath.IsAbs(v.Load) {
				v.Load = filepath.Join(filepath.Dir(name), v.Load)
			}
			if _, err := v.Validate(); err != nil {
				if fe, ok := errors.AsType[*train.FieldError](err); ok {
					err = errors.New(fe.Key())
				}
				return nil, fmt.Errorf("plan: task %d (%s): %w", t.Index, t.Label, err)
			}
			p.Tasks = append(p.Tasks, t)
		}
	}
	return p, nil
}

// combo sets combination c of the grid (the last key fastest) in t, and
// returns its labels.
func (d decoder) combo(t *Task, grid map[string][]toml.Primitive, keys []string, c int) ([]string, error) {
	m := table{}
	for i := len(keys) - 1; i >= 0; i-- {
		vs := grid[keys[i]]
		m[keys[i]] = vs[c%len(vs)]
		c /= len(vs)
	}
	return d.apply(&t.Train, t.Given, m, "[grid]")
}

// Load reads the plan file at path.
func Load(path string) (*Plan, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	p, err := Parse(f, path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return p, nil
}

// Dir is the sweep's folder for a plan read from planPath.
func (p *Plan) Dir(planPath string) string {
	if filepath.IsAbs(p.Out) {
		return p.Out
	}
	return filepath.Join(filepath.Dir(planPath), p.Out)
}

func label(k string, v any) string {
	switch x := v.(type) {
	case float64:
		return k + "=" + strconv.FormatFloat(x, 'g', -1, 64)
	case string:
		if strings.ContainsAny(x, " =") || x == "" {
			return k + "=" + strconv.Quote(x)
		}
	}
	return fmt.Sprintf("%s=%v", k, v)
}

// ordered checks the keys of a table of a plan, and returns them in
// Keys' order.
func ordered[V any](m map[string]V) ([]string, error) {
	for k := range m {
		if slices.Contains(TaskKeys, k) {
			return nil, fmt.Errorf("%s: a task's files are its folder's (weights.td2048, weights.jsonl, curve.png), not the plan's", k)
		}
		if !slices.Contains(Keys, k) {
			return nil, fmt.Errorf("%s is not a training key (%s)", k, strings.Join(Keys, ", "))
		}
	}
	var keys []string
	for _, k := range Keys {
		if _, ok := m[k]; ok {
			keys = append(keys, k)
		}
	}
	return keys, nil
}

type decoder struct{ md toml.MetaData }

// apply sets the keys of a table in s and names them in given; it
// returns their labels, in Keys' order.
func (d decoder) apply(s *train.Spec, given train.Given, m table, where string) ([]string, error) {
	keys, err := ordered(m)
	if err != nil {
		return nil, fmt.Errorf("plan: %s %w", where, err)
	}
	var lab []string
	for _, k := range keys {
		ptr, _ := s.Field(k)
		v, err := d.decode(k, m[k], ptr)
		if err != nil {
			return nil, fmt.Errorf("plan: %s %w", where, err)
		}
		given[k] = true
		lab = append(lab, label(k, v))
	}
	return lab, nil
}

// decode decodes p into ptr, a field's address, and returns its value,
// refusing what does not fit (a negative number for an unsigned one, a
// string with a NUL or a newline, or over 1000 bytes) with a message
// naming k.
func (d decoder) decode(k string, p toml.Primitive, ptr any) (any, error) {
	if f := reflect.ValueOf(ptr).Elem(); f.Kind() == reflect.Pointer {
		f.SetZero() // a value of its own, not one the tasks share
	}
	var v any
	if err := d.md.PrimitiveDecode(p, &v); err != nil {
		return nil, fmt.Errorf("%s: %w", k, err)
	}
	t := reflect.TypeOf(ptr).Elem()
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	want := map[reflect.Kind]string{reflect.String: "a string", reflect.Bool: "true or false", reflect.Float64: "a number",
		reflect.Int: "an integer", reflect.Uint64: "an integer from 0"}[t.Kind()]
	switch t {
	case reflect.TypeFor[train.Duration]():
		want = `a duration like "90s" or "1h30m"`
	case reflect.TypeFor[evalrun.ByteSize]():
		want = `a size like "256M", or bytes`
	}
	switch x := v.(type) {
	case int64:
		if x < 0 && t.Kind() == reflect.Uint64 {
			return nil, fmt.Errorf("%s: want %s, not %v", k, want, v)
		}
	case string:
		if strings.ContainsAny(x, "\x00\n") || len(x) > 1000 {
			return nil, fmt.Errorf("%s: want %s, not %q", k, want, x)
		}
	}
	if err := d.md.PrimitiveDecode(p, ptr); err != nil {
		return nil, fmt.Errorf("%s: want %s, not %v", k, want, v)
	}
	return v, nil
}

// eval reads the [eval] table over its defaults (EvalDefault), and
// checks it (evalrun.Spec.Validate).
func (d decoder) eval(m table) (evalrun.Spec, train.Given, error) {
	ev, given := EvalDefault(), train.Given{}
	for k, p := range m {
		ptr, ok := ev.Field(k)
		switch {
		case slices.Contains(EvalTaskKeys, k):
			return ev, nil, fmt.Errorf("plan: [eval] %s: a task's evaluation is its folder's (weights.td2048 to eval.json, all its games), not the plan's", k)
		case !ok:
			return ev, nil, fmt.Errorf("plan: unknown key eval.%s (the [eval] keys are td2048 eval's settings: %s)", k, strings.Join(evalKeys(), ", "))
		}
		if _, err := d.decode(k, p, ptr); err != nil {
			return ev, nil, fmt.Errorf("plan: [eval] %w", err)
		}
		given[k] = true
	}
	check := ev
	check.Load, check.Out, given["load"], given["out"] = "weights.td2048", "eval.json", true, true
	check.Complete(given)
	_, err := check.Validate(given, func(string) string { return "" })
	delete(given, "load")
	delete(given, "out")
	if fe, ok := errors.AsType[*train.FieldError](err); ok {
		err = errors.New(fe.Key())
	}
	if err != nil {
		return ev, nil, fmt.Errorf("plan: [eval] %w", err)
	}
	return ev, given, nil
}

// evalKeys are the keys of a plan's [eval] table.
func evalKeys() []string {
	return slices.DeleteFunc(evalrun.Keys(), func(k string) bool { return slices.Contains(EvalTaskKeys, k) })
}
