package sweep

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	flag "github.com/spf13/pflag"

	"github.com/td2048/td2048/internal/train"
)

func parse(t *testing.T, s string) *Plan {
	t.Helper()
	p, err := Parse(strings.NewReader(s), "dir/rates.toml")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestGridAndList(t *testing.T) {
	p := parse(t, `
[train]
network = "4x6"
episodes = 5000
[grid]
seed = [1, 2]
alpha = [0.1, 0.05, 1]
[[task]]
update = "backward"
[[task]]
update = "online"
init = 320000
[eval]
games = 100
depth = 2
`)
	if p.Out != "rates" {
		t.Errorf("Out = %q, want the plan's name", p.Out)
	}
	// 2 list entries x 3 alphas x 2 seeds; alpha before seed (Keys order), seed fastest.
	if len(p.Tasks) != 12 {
		t.Fatalf("%d tasks, want 12", len(p.Tasks))
	}
	want := []string{
		"update=backward alpha=0.1 seed=1", "update=backward alpha=0.1 seed=2",
		"update=backward alpha=0.05 seed=1", "update=backward alpha=0.05 seed=2",
		"update=backward alpha=1 seed=1", "update=backward alpha=1 seed=2",
		"update=online init=320000 alpha=0.1 seed=1",
	}
	for i, w := range want {
		if p.Tasks[i].Label != w || p.Tasks[i].Index != i {
			t.Errorf("task %d: %q, want %q", i, p.Tasks[i].Label, w)
		}
	}
	t7 := p.Tasks[7]
	if tr := t7.Train; t7.Name != "task-007" || *tr.Seed != 2 || tr.Alpha != 0.1 || tr.Init != 320000 || tr.Update != "online" || tr.Episodes != 5000 ||
		tr.Network != "4x6" || tr.Save != "weights.td2048" || tr.Plot != "curve.png" {
		t.Errorf("task 7: %+v", t7)
	}
	for _, k := range []string{"network", "episodes", "seed", "alpha", "update", "init"} {
		if !t7.Given[k] {
			t.Errorf("task 7 does not name %s given: %v", k, t7.Given)
		}
	}
	if t7.Given["every"] || t7.Train.Every != 1000 {
		t.Errorf("task 7: every %d, given %v: want train's default", t7.Train.Every, t7.Given["every"])
	}
	if t7.Eval != (Eval{Games: 100, Depth: 2, Seed: 1}) {
		t.Errorf("eval: %+v", t7.Eval)
	}
	if a := t7.EvalArgs("d"); !slices.Equal(a, []string{"eval", "--load", "d/weights.td2048", "--out", "d/eval.json", "--games", "100", "--depth", "2", "--seed", "1"}) {
		t.Errorf("eval args %q", a)
	}
	if d := p.Dir("dir/rates.toml"); d != "dir/rates" {
		t.Errorf("Dir = %q", d)
	}
}

func TestOneTaskAndDefaults(t *testing.T) {
	p := parse(t, `out = "/abs/x"`)
	if len(p.Tasks) != 1 || p.Tasks[0].Label != "base" || *p.Tasks[0].Train.Seed != 1 || p.Tasks[0].Eval.Games != 1000 || p.Dir("a/b.toml") != "/abs/x" {
		t.Errorf("%+v", p)
	}
	// A task repeats exactly unless its plan says otherwise: one thread,
	// and threads = 0 is all cores.
	if p.Tasks[0].Train.Threads != 1 {
		t.Errorf("a plan without threads trains on %d threads, want 1", p.Tasks[0].Train.Threads)
	}
	if p := parse(t, "[train]\nthreads = 0"); p.Tasks[0].Train.Threads != 0 {
		t.Errorf("threads = 0 gave %d", p.Tasks[0].Train.Threads)
	}
}

// TestBadPlans: a plan that cannot work is refused when it is read,
// naming the table or the task and the key, before anything runs.
func TestBadPlans(t *testing.T) {
	for _, c := range []struct{ plan, want string }{
		{"[train]\nalpah = 0.1", "alpah is not a training key"},
		{"[grid]\nalpha = []", "empty list"},
		{"[grid]\nspeed = [1]", "speed is not a training key"},
		{"[train]\nepisodes = \"many\"", "episodes: want an integer, not many"},
		{"[train]\nepisodes = -1", "task 0 (base): episodes -1: want 1 or more episodes to train"},
		{"[train]\nnetwork = 4", "network: want a string"},
		{"[train]\nalpha = -1.0", "task 0 (base): alpha: learning rate -1"},
		{"[train]\nalpha = 5", "task 0 (base): alpha: learning rate 5"},
		{"[train]\nnetwork = \"zzz\"", "task 0 (base): network: network \"zzz\""},
		{"[train]\nseed = -1", "seed: want an integer from 0, not -1"},
		{"[train]\nsave = \"x.td2048\"", "save: a task's files are its folder's"},
		{"[[task]]\n[[task]]\nplot = \"x.png\"", "[[task]] 2 plot: a task's files are its folder's"},
		{"[train]\nalpha_schedule = \"0:0.1,0:0.05\"", "task 0 (base): alpha_schedule: alpha schedule \"0:0.1,0:0.05\": episode 0 twice"},
		{"[train]\ncheckpoint_gap = \"soon\"", "checkpoint_gap: want a duration"},
		{"[grid]\nalpha = [0.1, 2]\nseed = [1, 2]", "task 2 (alpha=2 seed=1): alpha: learning rate 2"},
		{"[train]\nlearner = \"state\"\n[[task]]\n[[task]]\nupdate = \"online\"", "task 1 (update=online): update online is for after-state learning"},
		{"[train]\ngame = \"threes\"\ninterleave = 2", "task 0 (base): interleave 2: threes training plays one episode at a time"},
		{"[eval]\ndepth = 13", "depth 1 to 12"},
		{"[eval]\nthreads = 100000", "[eval] wants games 1 and up, depth 1 to 12, threads 0 (all cores) to"},
		{"[eval]\nseed = -3", "[eval] seed: want an integer from 0, not -3"},
		{"[eval]\ngmaes = 1", "unknown key eval.gmaes"},
		{`outt = "x"`, "unknown key outt"},
		{"[grid]\nseed = [1,2,3,4,5,6,7,8,9,10]\nalpha = [" + strings.Repeat("0.1,", 10001) + "0.1]", "more than 100000 tasks"},
		{`[train`, "plan: "},
	} {
		t.Run(c.want, func(t *testing.T) {
			_, err := Parse(strings.NewReader(c.plan), "p.toml")
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("plan %.60q: error %v, want %q", c.plan, err, c.want)
			}
		})
	}
}

// TestZeroIsAValue: a setting given as 0 is 0, never train's default.
func TestZeroIsAValue(t *testing.T) {
	p := parse(t, `
[train]
network = "2x4"
alpha = 0.05
checkpoint_every = 5000
[[task]]
alpha = 0
checkpoint_every = 0
[grid]
init = [0.0, 1.0]
`)
	for _, task := range p.Tasks {
		if task.Train.Alpha != 0 || task.Train.CheckpointEvery != 0 || !task.Given["alpha"] || !task.Given["checkpoint_every"] {
			t.Errorf("%s: alpha %v, checkpoint_every %d", task.Label, task.Train.Alpha, task.Train.CheckpointEvery)
		}
	}
	if p.Tasks[0].Train.Init != 0 || p.Tasks[1].Train.Init != 1 || p.Tasks[0].Label != "alpha=0 checkpoint_every=0 init=0" {
		t.Errorf("tasks %q %v, %q %v", p.Tasks[0].Label, p.Tasks[0].Train.Init, p.Tasks[1].Label, p.Tasks[1].Train.Init)
	}
}

// TestEverySettingIsAKey walks train.Spec: every field is a plan key (or
// one its task's folder decides, refused by name) and a train flag, and a
// value given in a plan reaches the task's spec.
func TestEverySettingIsAKey(t *testing.T) {
	fs := flag.NewFlagSet("train", flag.ContinueOnError)
	s := train.Default()
	s.AddFlags(fs)
	values := map[string]string{"string": `"x"`, "int": "7", "float64": "0.5", "bool": "true", "*uint64": "7", "train.Duration": `"7s"`, "train.Episode": `"7"`}
	for _, k := range train.Keys() {
		t.Run(k, func(t *testing.T) {
			if fs.Lookup(train.FlagOf(k)) == nil {
				t.Errorf("no flag --%s", train.FlagOf(k))
			}
			ptr, _ := s.Field(k)
			typ := reflect.TypeOf(ptr).Elem().String()
			v, ok := values[typ]
			if !ok {
				t.Fatalf("no plan value for a %s", typ)
			}
			_, err := Parse(strings.NewReader("[grid]\n"+k+" = ["+v+"]\n"), "p.toml")
			if slices.Contains(TaskKeys, k) {
				if err == nil || !strings.Contains(err.Error(), k+": a task's files are its folder's") {
					t.Errorf("a task's own file given in a plan: %v", err)
				}
				return
			}
			if !slices.Contains(Keys, k) {
				t.Fatalf("not a plan key")
			}
			if err != nil && !strings.Contains(err.Error(), "task 0 ("+k+"=") {
				t.Fatalf("%v", err) // a value Validate refuses is fine: the key reached the spec
			}
		})
	}
}

func FuzzParse(f *testing.F) {
	f.Add("[train]\nnetwork = \"4x6\"\n[grid]\nalpha = [0.1, 0.05]\n[[task]]\nseed = 3\n[eval]\ngames = 10\n")
	f.Add("out = \"x\"\n[grid]\nseed = [1, 2]\ncoherence = [true, false]\n")
	f.Add("[[task]]\n[[task]]\nupdate = \"online\"\n")
	f.Fuzz(func(t *testing.T, s string) {
		p, err := Parse(strings.NewReader(s), "f.toml")
		if err != nil {
			return
		}
		if len(p.Tasks) == 0 || len(p.Tasks) > MaxTasks || p.Out == "" {
			t.Fatalf("%d tasks, out %q", len(p.Tasks), p.Out)
		}
		for i, task := range p.Tasks {
			if task.Index != i || task.Label == "" || task.Eval.Games < 1 || task.Eval.Depth < 1 || task.Eval.Depth > 12 {
				t.Fatalf("task %d: %+v", i, task)
			}
			if err := task.Train.Validate(); err != nil {
				t.Fatalf("task %d: %v", i, err)
			}
		}
	})
}
