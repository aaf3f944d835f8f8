package sweep

import (
	"slices"
	"strings"
	"testing"
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
	if t7.Name != "task-007" || t7.Train.Seed != 2 || t7.Train.Alpha != 0.1 || t7.Train.Init != 320000 || t7.Train.Update != "online" || t7.Train.Episodes != 5000 {
		t.Errorf("task 7: %+v", t7)
	}
	if t7.Eval != (Eval{Games: 100, Depth: 2, Seed: 1}) {
		t.Errorf("eval: %+v", t7.Eval)
	}
	args := t7.TrainArgs("d", false)
	wantArgs := []string{"train", "--save", "d/weights.td2048", "--plot", "d/curve.png", "--seed", "2", "--network", "4x6",
		"--episodes", "5000", "--alpha", "0.1", "--update", "online", "--init", "320000"}
	if !slices.Equal(args, wantArgs) {
		t.Errorf("train args %q\nwant %q", args, wantArgs)
	}
	if a := t7.TrainArgs("d", true); !slices.Equal(a, []string{"train", "--resume", "d/weights.td2048", "--episodes", "5000"}) {
		t.Errorf("resume args %q", a)
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
	if len(p.Tasks) != 1 || p.Tasks[0].Label != "base" || p.Tasks[0].Train.Seed != 1 || p.Tasks[0].Eval.Games != 1000 || p.Dir("a/b.toml") != "/abs/x" {
		t.Errorf("%+v", p)
	}
}

func TestBadPlans(t *testing.T) {
	for _, c := range []struct{ plan, want string }{
		{`[train]` + "\n" + `alpah = 0.1`, "alpah is not a training key"},
		{`[grid]` + "\n" + `alpha = []`, "empty list"},
		{`[grid]` + "\n" + `speed = [1]`, "speed is not a training key"},
		{`[train]` + "\n" + `episodes = "many"`, "episodes: want an integer"},
		{`[train]` + "\n" + `episodes = 0`, "episodes: want an integer from 1"},
		{`[train]` + "\n" + `network = 4`, "network: want a string"},
		{`[train]` + "\n" + `alpha = -1.0`, "alpha must not be negative"},
		{`[eval]` + "\n" + `depth = 13`, "depth 1 to 12"},
		{`[eval]` + "\n" + `gmaes = 1`, "unknown key eval.gmaes"},
		{`outt = "x"`, "unknown key outt"},
		{`[grid]` + "\n" + `seed = [1,2,3,4,5,6,7,8,9,10]` + "\n" + `alpha = [` + strings.Repeat("0.1,", 10001) + `0.1]`, "more than 100000 tasks"},
		{`[train`, "plan: "},
	} {
		_, err := Parse(strings.NewReader(c.plan), "p.toml")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("plan %.40q: error %v, want %q", c.plan, err, c.want)
		}
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
			for _, a := range task.TrainArgs("d", false) {
				if strings.ContainsAny(a, "\x00\n") {
					t.Fatalf("task %d: argument %q", i, a)
				}
			}
		}
	})
}
