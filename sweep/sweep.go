// Package sweep reads a sweep plan: a TOML file naming a grid or a list
// of training configurations, each trained and then evaluated as one task
// of a job array (td2048 sweep run plan.toml --task K).
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
//	[[task]]                 # or a list of configurations (each then crossed with the grid)
//	update = "online"
//
//	[eval]                   # the evaluation of each task's weights
//	games = 1000
//	depth = 1
//	seed = 1
//
// The training keys are game, network, episodes, alpha, alpha_schedule,
// update, learner, init, coherence, seed, every, checkpoint_every and
// threads (td2048 train's flags of those names); the evaluation keys
// games, depth, seed and threads. Task K's files are in OUT/task-K
// (K with at least three digits).
package sweep

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
)

// MaxTasks bounds the tasks of a plan.
const MaxTasks = 100000

// Train is one training configuration; a zero field is train's default
// (Seed 0 is seed 0: the plan's default seed is 1).
type Train struct {
	Game            string
	Network         string
	Episodes        int
	Alpha           float64
	AlphaSchedule   string
	Update          string
	Learner         string
	Init            float64
	Coherence       bool
	Seed            uint64
	Every           int
	CheckpointEvery int
	Threads         int
}

// Eval is the evaluation of every task.
type Eval struct {
	Games   int    `toml:"games"`
	Depth   int    `toml:"depth"`
	Seed    uint64 `toml:"seed"`
	Threads int    `toml:"threads"`
}

// A Task is one configuration of a plan.
type Task struct {
	Index int
	Name  string // task-007
	Label string // the settings that the grid and the task list set, like "alpha=0.05 seed=2"
	Train Train
	Eval  Eval
}

// A Plan is a parsed plan file.
type Plan struct {
	Out   string // the sweep's folder, as the file names it (or the plan's name)
	Tasks []Task
}

// Keys are the training keys, in the order the grid combines them and
// labels name them.
var Keys = []string{"game", "network", "update", "learner", "coherence", "init", "alpha", "alpha_schedule", "episodes",
	"every", "checkpoint_every", "threads", "seed"}

type file struct {
	Out   string           `toml:"out"`
	Train map[string]any   `toml:"train"`
	Grid  map[string][]any `toml:"grid"`
	Task  []map[string]any `toml:"task"`
	Eval  *Eval            `toml:"eval"`
}

// Parse reads a plan; name is the plan file's name (its base, without
// extension, is the default Out).
func Parse(r io.Reader, name string) (*Plan, error) {
	var f file
	md, err := toml.NewDecoder(io.LimitReader(r, 1<<20)).Decode(&f)
	if err != nil {
		return nil, fmt.Errorf("plan: %v", err)
	}
	if u := md.Undecoded(); len(u) > 0 {
		return nil, fmt.Errorf("plan: unknown key %s (the tables are train, grid, task and eval, and the key out)", u[0])
	}
	base := Train{Seed: 1}
	if err := apply(&base, f.Train, "[train]"); err != nil {
		return nil, err
	}
	ev := Eval{Games: 1000, Depth: 1, Seed: 1}
	if f.Eval != nil {
		if f.Eval.Games != 0 {
			ev.Games = f.Eval.Games
		}
		if f.Eval.Depth != 0 {
			ev.Depth = f.Eval.Depth
		}
		if md.IsDefined("eval", "seed") {
			ev.Seed = f.Eval.Seed
		}
		ev.Threads = f.Eval.Threads
	}
	if ev.Games < 1 || ev.Games > 1e9 || ev.Depth < 1 || ev.Depth > 12 || ev.Threads < 0 {
		return nil, errors.New("plan: [eval] wants games 1 and up, depth 1 to 12, threads 0 and up")
	}
	var gridKeys []string
	for _, k := range Keys {
		if vs, ok := f.Grid[k]; ok {
			if len(vs) == 0 {
				return nil, fmt.Errorf("plan: [grid] %s is an empty list", k)
			}
			gridKeys = append(gridKeys, k)
		}
	}
	for k := range f.Grid {
		if !slices.Contains(Keys, k) {
			return nil, fmt.Errorf("plan: [grid] %s is not a training key (%s)", k, strings.Join(Keys, ", "))
		}
	}
	list := f.Task
	if len(list) == 0 {
		list = []map[string]any{nil}
	}
	n := len(list)
	for _, k := range gridKeys {
		n *= len(f.Grid[k])
		if n > MaxTasks {
			return nil, fmt.Errorf("plan: more than %d tasks", MaxTasks)
		}
	}
	p := &Plan{Out: f.Out}
	if p.Out == "" {
		p.Out = strings.TrimSuffix(filepath.Base(name), filepath.Ext(name))
	}
	width := max(3, len(strconv.Itoa(n-1)))
	for li, entry := range list {
		t := base
		if err := apply(&t, entry, fmt.Sprintf("[[task]] %d", li+1)); err != nil {
			return nil, err
		}
		var entryLabel []string
		for _, k := range Keys {
			if v, ok := entry[k]; ok {
				entryLabel = append(entryLabel, label(k, v))
			}
		}
		// The grid's combinations, the last key fastest.
		combos := 1
		for _, k := range gridKeys {
			combos *= len(f.Grid[k])
		}
		for c := range combos {
			tc := t
			lab := slices.Clone(entryLabel)
			rest := c
			idx := make([]int, len(gridKeys))
			for i := len(gridKeys) - 1; i >= 0; i-- {
				vs := f.Grid[gridKeys[i]]
				idx[i] = rest % len(vs)
				rest /= len(vs)
			}
			for i, k := range gridKeys {
				v := f.Grid[k][idx[i]]
				if err := set(&tc, k, v); err != nil {
					return nil, fmt.Errorf("plan: [grid] %v", err)
				}
				lab = append(lab, label(k, v))
			}
			if err := tc.check(); err != nil {
				return nil, fmt.Errorf("plan: task %d (%s): %v", len(p.Tasks), strings.Join(lab, " "), err)
			}
			i := len(p.Tasks)
			l := strings.Join(lab, " ")
			if l == "" {
				l = "base"
			}
			p.Tasks = append(p.Tasks, Task{Index: i, Name: fmt.Sprintf("task-%0*d", width, i), Label: l, Train: tc, Eval: ev})
		}
	}
	return p, nil
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
		return nil, fmt.Errorf("%s: %v", path, err)
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

func apply(t *Train, m map[string]any, where string) error {
	for _, k := range Keys {
		if v, ok := m[k]; ok {
			if err := set(t, k, v); err != nil {
				return fmt.Errorf("plan: %s %v", where, err)
			}
		}
	}
	for k := range m {
		if !slices.Contains(Keys, k) {
			return fmt.Errorf("plan: %s: %s is not a training key (%s)", where, k, strings.Join(Keys, ", "))
		}
	}
	return nil
}

// set sets key k of t to the TOML value v.
func set(t *Train, k string, v any) error {
	str := func(p *string) error {
		s, ok := v.(string)
		if !ok || strings.ContainsAny(s, "\x00\n") || len(s) > 1000 {
			return fmt.Errorf("%s: want a string, not %v", k, v)
		}
		*p = s
		return nil
	}
	num := func() (float64, error) {
		switch x := v.(type) {
		case int64:
			return float64(x), nil
		case float64:
			if math.IsNaN(x) || math.IsInf(x, 0) {
				break
			}
			return x, nil
		}
		return 0, fmt.Errorf("%s: want a number, not %v", k, v)
	}
	integer := func(lo, hi int64) (int64, error) {
		x, ok := v.(int64)
		if !ok || x < lo || x > hi {
			return 0, fmt.Errorf("%s: want an integer from %d to %d, not %v", k, lo, hi, v)
		}
		return x, nil
	}
	var err error
	var x int64
	switch k {
	case "game":
		return str(&t.Game)
	case "network":
		return str(&t.Network)
	case "update":
		return str(&t.Update)
	case "learner":
		return str(&t.Learner)
	case "alpha_schedule":
		return str(&t.AlphaSchedule)
	case "coherence":
		b, ok := v.(bool)
		if !ok {
			return fmt.Errorf("coherence: want true or false, not %v", v)
		}
		t.Coherence = b
	case "alpha":
		t.Alpha, err = num()
	case "init":
		t.Init, err = num()
	case "episodes":
		x, err = integer(1, 1e12)
		t.Episodes = int(x)
	case "every":
		x, err = integer(1, 1e9)
		t.Every = int(x)
	case "checkpoint_every":
		x, err = integer(0, 1e12)
		t.CheckpointEvery = int(x)
	case "threads":
		x, err = integer(0, 1024)
		t.Threads = int(x)
	case "seed":
		x, err = integer(0, math.MaxInt64)
		t.Seed = uint64(x)
	}
	return err
}

func (t *Train) check() error {
	if t.Alpha < 0 {
		return errors.New("alpha must not be negative")
	}
	return nil
}

// TrainArgs are the td2048 train arguments of the task, saving into dir;
// resume continues the run saved there.
func (t *Task) TrainArgs(dir string, resume bool) []string {
	c := &t.Train
	save := filepath.Join(dir, "weights.td2048")
	if resume {
		a := []string{"train", "--resume", save}
		if c.Episodes > 0 {
			a = append(a, "--episodes", strconv.Itoa(c.Episodes))
		}
		if c.Threads > 0 {
			a = append(a, "--threads", strconv.Itoa(c.Threads))
		}
		return a
	}
	a := []string{"train", "--save", save, "--plot", filepath.Join(dir, "curve.png"), "--seed", strconv.FormatUint(c.Seed, 10)}
	add := func(flag, v string) {
		if v != "" && v != "0" {
			a = append(a, "--"+flag, v)
		}
	}
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	add("game", c.Game)
	add("network", c.Network)
	add("episodes", strconv.Itoa(c.Episodes))
	add("alpha", f(c.Alpha))
	add("alpha-schedule", c.AlphaSchedule)
	add("update", c.Update)
	add("learner", c.Learner)
	add("init", f(c.Init))
	if c.Coherence {
		a = append(a, "--coherence")
	}
	add("every", strconv.Itoa(c.Every))
	add("checkpoint-every", strconv.Itoa(c.CheckpointEvery))
	add("threads", strconv.Itoa(c.Threads))
	return a
}

// EvalArgs are the td2048 eval arguments of the task's evaluation.
func (t *Task) EvalArgs(dir string) []string {
	e := &t.Eval
	a := []string{"eval", "--load", filepath.Join(dir, "weights.td2048"), "--out", filepath.Join(dir, "eval.json"),
		"--games", strconv.Itoa(e.Games), "--depth", strconv.Itoa(e.Depth), "--seed", strconv.FormatUint(e.Seed, 10)}
	if e.Threads > 0 {
		a = append(a, "--threads", strconv.Itoa(e.Threads))
	}
	return a
}
