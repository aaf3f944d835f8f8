// Package jobarray tells which task of a job array this process is: a
// task of a Slurm job array (SLURM_ARRAY_TASK_ID) or a Pod of a
// Kubernetes Indexed Job (JOB_COMPLETION_INDEX).
//
// A task is named by its own index in the whole plan (the shards of an
// evaluation, the tasks of a sweep), whatever array runs it: the index is
// the engine's task id itself, never its offset in the array, and the
// plan's size comes from the plan, never from the array's. So an array
// that resubmits a few failed tasks (sbatch --array=3,5) runs tasks 3 and
// 5 of the plan. An index outside the plan is refused, and an array that
// runs only part of the plan can say which tasks it leaves to others.
package jobarray

import (
	"cmp"
	"fmt"
	"strconv"
	"strings"
)

// Environment variables read.
const (
	SlurmID    = "SLURM_ARRAY_TASK_ID"
	SlurmMin   = "SLURM_ARRAY_TASK_MIN"
	SlurmMax   = "SLURM_ARRAY_TASK_MAX"
	SlurmCount = "SLURM_ARRAY_TASK_COUNT"
	SlurmStep  = "SLURM_ARRAY_TASK_STEP"
	K8sIndex   = "JOB_COMPLETION_INDEX"
)

// Engines.
const (
	Slurm      = "Slurm"
	Kubernetes = "Kubernetes"
)

// A Task is this process's task of a job array.
type Task struct {
	// Index is the task's index: SLURM_ARRAY_TASK_ID or
	// JOB_COMPLETION_INDEX.
	Index int
	// Engine is Slurm or Kubernetes.
	Engine string
	// Min, Max, Count and Step describe the array when the engine tells
	// them (Slurm): its lowest and highest task id, its number of tasks,
	// and the step between ids (1 but for --array=0-9:3). Count is 0 when
	// they are not known (Kubernetes tells none).
	Min, Max, Count, Step int
}

// FromEnv reads the task from the engine's environment; getenv is
// os.Getenv but in tests.
func FromEnv(getenv func(string) string) (Task, error) {
	// num is the index in the variable name, -1 when it is not set.
	num := func(name string) (int, error) {
		v := getenv(name)
		if v == "" {
			return -1, nil
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || strings.HasPrefix(v, "+") {
			return 0, fmt.Errorf("%s=%q is not an index", name, v)
		}
		return n, nil
	}
	id, err := num(SlurmID)
	if err != nil {
		return Task{}, err
	}
	if id < 0 {
		switch i, err := num(K8sIndex); {
		case err != nil:
			return Task{}, err
		case i < 0:
			return Task{}, fmt.Errorf("neither %s (a Slurm job array) nor %s (a Kubernetes Indexed Job) is set", SlurmID, K8sIndex)
		default:
			return Task{Index: i, Engine: Kubernetes}, nil
		}
	}
	lo, err1 := num(SlurmMin)
	hi, err2 := num(SlurmMax)
	count, err3 := num(SlurmCount)
	step, err4 := num(SlurmStep)
	if err := cmp.Or(err1, err2, err3, err4); err != nil {
		return Task{}, err
	}
	if step < 0 {
		step = 1
	}
	t := Task{Index: id, Engine: Slurm, Min: lo, Max: hi, Count: count, Step: step}
	// Without the array's bounds (a Slurm that does not set them, or a
	// task run by hand), nothing is known of the array.
	if t.Min < 0 || t.Max < 0 || t.Count < 1 || t.Min > t.Max || id < t.Min || id > t.Max || t.Step < 1 {
		t.Min, t.Max, t.Count, t.Step = 0, 0, 0, 0
	}
	return t, nil
}

// In refuses a task that is not one of the n of the plan (0 .. n-1); what
// names the plan's tasks ("shard", "task") and plan the plan.
func (t Task) In(n int, what, plan string) error {
	if t.Index < n {
		return nil
	}
	name, env, hint := "index", K8sIndex, ""
	if t.Engine == Slurm {
		name, env, hint = "array task", SlurmID, fmt.Sprintf(": number the array from 0 (sbatch --array=0-%d)", n-1)
	}
	return fmt.Errorf("%s %d (%s) is not a %s of %s, which has %d (0 to %d)%s", name, t.Index, env, what, plan, n, n-1, hint)
}

// LeftOut says which of the n tasks of the plan this array does not run,
// "" when it runs all of them or when the engine does not tell the
// array's tasks.
func (t Task) LeftOut(n int) string {
	if t.Count == 0 || n < 1 {
		return ""
	}
	// A range (--array=0-9, or 0-9:3) holds every Step-th id from Min to
	// Max; a list (--array=0,3,7) tells only its count and bounds.
	if span := (t.Max-t.Min)/t.Step + 1; span != t.Count || (t.Max-t.Min)%t.Step != 0 {
		if t.Min == 0 && t.Max >= n-1 && t.Count >= n {
			return ""
		}
		return fmt.Sprintf("this array has %d tasks, ids %d to %d, and the plan %d: the tasks it leaves out must run in another job", t.Count, t.Min, t.Max, n)
	}
	var left []int
	for i := range n {
		if i < t.Min || i > t.Max || (i-t.Min)%t.Step != 0 {
			left = append(left, i)
		}
	}
	if len(left) == 0 {
		return ""
	}
	ids := Ranges(left)
	if len(ids) > 60 { // a long list, cut at an id
		ids = ids[:strings.LastIndexByte(ids[:60], ',')] + ",..."
	}
	word := "tasks"
	if len(left) == 1 {
		word = "task"
	}
	return fmt.Sprintf("this array runs %d of the %d tasks; %s %s must run in another job", n-len(left), n, word, ids)
}

// Ranges writes increasing numbers as Slurm's --array does: 0-2,5,7-8.
func Ranges(ids []int) string {
	var b strings.Builder
	for i := 0; i < len(ids); {
		j := i
		for j+1 < len(ids) && ids[j+1] == ids[j]+1 {
			j++
		}
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(ids[i]))
		if j > i {
			b.WriteString("-" + strconv.Itoa(ids[j]))
		}
		i = j + 1
	}
	return b.String()
}
