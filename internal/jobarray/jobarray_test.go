package jobarray

import (
	"strings"
	"testing"
)

func env(kv ...string) func(string) string {
	m := map[string]string{}
	for i := 0; i < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return func(k string) string { return m[k] }
}

// slurm is the environment of task id of --array=min-max (count tasks).
func slurm(id, lo, hi, count string) func(string) string {
	return env(SlurmID, id, SlurmMin, lo, SlurmMax, hi, SlurmCount, count)
}

// The index is the engine's task id itself: an array resubmitting task 3
// alone (--array=3: min 3, count 1) is task 3, not the array's first.
func TestFromEnv(t *testing.T) {
	for _, c := range []struct {
		name string
		env  func(string) string
		want Task
		err  string
	}{
		{"whole array", slurm("2", "0", "3", "4"), Task{Index: 2, Engine: Slurm, Min: 0, Max: 3, Count: 4, Step: 1}, ""},
		{"lone task", slurm("3", "3", "3", "1"), Task{Index: 3, Engine: Slurm, Min: 3, Max: 3, Count: 1, Step: 1}, ""},
		{"from 1", slurm("4", "1", "4", "4"), Task{Index: 4, Engine: Slurm, Min: 1, Max: 4, Count: 4, Step: 1}, ""},
		{"stepped", env(SlurmID, "6", SlurmMin, "0", SlurmMax, "9", SlurmCount, "4", SlurmStep, "3"), Task{Index: 6, Engine: Slurm, Max: 9, Count: 4, Step: 3}, ""},
		{"id alone", env(SlurmID, "5"), Task{Index: 5, Engine: Slurm}, ""},
		{"bounds not holding the id", slurm("5", "0", "3", "4"), Task{Index: 5, Engine: Slurm}, ""},
		{"kubernetes", env(K8sIndex, "1"), Task{Index: 1, Engine: Kubernetes}, ""},
		{"slurm first", env(SlurmID, "2", K8sIndex, "1"), Task{Index: 2, Engine: Slurm}, ""},
		{"bad id", env(SlurmID, "x"), Task{}, `SLURM_ARRAY_TASK_ID="x" is not an index`},
		{"negative", env(K8sIndex, "-1"), Task{}, "not an index"},
		{"plus", env(K8sIndex, "+1"), Task{}, "not an index"},
		{"bad count", env(SlurmID, "1", SlurmCount, "many"), Task{}, "SLURM_ARRAY_TASK_COUNT"},
		{"none", env(), Task{}, "neither SLURM_ARRAY_TASK_ID"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := FromEnv(c.env)
			if c.err == "" && (err != nil || got != c.want) {
				t.Errorf("FromEnv = %+v, %v; want %+v", got, err, c.want)
			}
			if c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)) {
				t.Errorf("FromEnv error %v; want one containing %q", err, c.err)
			}
		})
	}
}

func TestIn(t *testing.T) {
	for _, c := range []struct {
		name string
		task Task
		n    int
		err  string
	}{
		{"inside", Task{Index: 3, Engine: Slurm}, 4, ""},
		{"past the plan", Task{Index: 4, Engine: Slurm}, 4, "array task 4 (SLURM_ARRAY_TASK_ID) is not a task of plan.toml, which has 4 (0 to 3): number the array from 0 (sbatch --array=0-3)"},
		{"kubernetes", Task{Index: 6, Engine: Kubernetes}, 6, "index 6 (JOB_COMPLETION_INDEX) is not a task of plan.toml, which has 6 (0 to 5)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := c.task.In(c.n, "task", "plan.toml")
			if c.err == "" && err != nil || c.err != "" && (err == nil || err.Error() != c.err) {
				t.Errorf("In = %v; want %q", err, c.err)
			}
		})
	}
}

func TestLeftOut(t *testing.T) {
	for _, c := range []struct {
		name string
		env  func(string) string
		n    int
		want string
	}{
		{"all", slurm("0", "0", "5", "6"), 6, ""},
		{"more than the plan", slurm("0", "0", "7", "8"), 6, ""},
		{"lone task", slurm("3", "3", "3", "1"), 6, "this array runs 1 of the 6 tasks; tasks 0-2,4-5 must run in another job"},
		{"from 1", slurm("1", "1", "6", "6"), 6, "this array runs 5 of the 6 tasks; task 0 must run in another job"},
		{"stepped", env(SlurmID, "0", SlurmMin, "0", SlurmMax, "4", SlurmCount, "3", SlurmStep, "2"), 6, "this array runs 3 of the 6 tasks; tasks 1,3,5 must run in another job"},
		{"a list", slurm("2", "0", "5", "3"), 6, "this array has 3 tasks, ids 0 to 5, and the plan 6: the tasks it leaves out must run in another job"},
		{"unknown", env(SlurmID, "2"), 6, ""},
		{"kubernetes", env(K8sIndex, "2"), 6, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			task, err := FromEnv(c.env)
			if err != nil {
				t.Fatal(err)
			}
			if got := task.LeftOut(c.n); got != c.want {
				t.Errorf("LeftOut = %q; want %q", got, c.want)
			}
		})
	}
}

func TestRanges(t *testing.T) {
	for in, want := range map[string]string{"": "", "0": "0", "0 1 2 5 7 8": "0-2,5,7-8", "1 3": "1,3"} {
		t.Run(in, func(t *testing.T) {
			var ids []int
			for _, f := range strings.Fields(in) {
				ids = append(ids, int(f[0]-'0'))
			}
			if got := Ranges(ids); got != want {
				t.Errorf("Ranges(%v) = %q; want %q", ids, got, want)
			}
		})
	}
}

func TestLeftOutLong(t *testing.T) {
	task, _ := FromEnv(env(SlurmID, "0", SlurmMin, "0", SlurmMax, "998", SlurmCount, "500", SlurmStep, "2"))
	got := task.LeftOut(1000)
	if want := "this array runs 500 of the 1000 tasks; tasks 1,3,5,"; !strings.HasPrefix(got, want) || !strings.HasSuffix(got, ",... must run in another job") || len(got) > 140 {
		t.Errorf("LeftOut = %q", got)
	}
}

func FuzzFromEnv(f *testing.F) {
	f.Add("3", "3", "3", "1", "", 4)
	f.Add("6", "0", "9", "4", "3", 10)
	f.Add("9223372036854775807", "0", "9223372036854775807", "9223372036854775807", "1", 1<<20)
	f.Fuzz(func(t *testing.T, id, lo, hi, count, step string, n int) {
		task, err := FromEnv(env(SlurmID, id, SlurmMin, lo, SlurmMax, hi, SlurmCount, count, SlurmStep, step))
		if err != nil {
			return
		}
		if task.Index < 0 || task.Count > 0 && (task.Index < task.Min || task.Index > task.Max || task.Step < 1) {
			t.Fatalf("FromEnv = %+v", task)
		}
		n = n%(1<<20) + 1
		if n < 1 {
			n = -n + 1
		}
		if (task.In(n, "task", "p") == nil) != (task.Index < n) {
			t.Fatalf("In(%d) of %+v", n, task)
		}
		task.LeftOut(n)
	})
}
