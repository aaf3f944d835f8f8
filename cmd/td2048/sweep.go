package main

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	flag "github.com/spf13/pflag"

	"github.com/td2048/td2048/games"
	"github.com/td2048/td2048/internal/evalresult"
	"github.com/td2048/td2048/internal/evalrun"
	"github.com/td2048/td2048/internal/jobarray"
	"github.com/td2048/td2048/internal/plot"
	"github.com/td2048/td2048/internal/safefile"
	"github.com/td2048/td2048/internal/sweep"
	"github.com/td2048/td2048/internal/train"
	"github.com/td2048/td2048/netfile"
	"github.com/td2048/td2048/stats"
)

func init() {
	register(&command{
		name:  "sweep",
		args:  "list|run|report PLAN.toml|DIR",
		short: "train and evaluate a grid or list of configurations, one task of a job array each",
		long: `Train and evaluate the configurations of a plan file (TOML: a grid or a
list of training settings, then an evaluation), one task at a time, so
that a Slurm job array or a Kubernetes Indexed Job runs them all:

  td2048 sweep list PLAN.toml          the tasks, one a line, and their count
  td2048 sweep run PLAN.toml --task K  train task K, then evaluate it
  td2048 sweep report DIR|PLAN.toml    one table of all tasks, all curves on one figure

Task K works in OUT/task-00K (task-000, task-001, ...: K with at least
three digits, as sweep list prints; OUT: the plan's out, or its name,
beside the plan): weights.td2048 (checkpointed, with the run's state), weights.jsonl
(the metrics log), curve.png, train.txt (train's output), eval.json (the
evaluation's result, td2048 merge's format) and task.json (its settings).
--task auto takes K from SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX
itself, whatever the array: sbatch --array=3 runs task 3 of the plan. A
task id outside the plan is refused, and an array that runs only some of
the plan's tasks says which it leaves out.

A task is safe to run again: a finished one (its eval.json written) says
so and does nothing; one stopped by SIGTERM (Slurm's preemption, scancel,
a requeue, a Pod's deletion), or killed, resumes from its last checkpoint.
A task whose folder holds another configuration is refused. The report
shows a task that failed as failed, with the line of its train.txt that
says why, and one stopped (SIGTERM) as stopped.

The plan's keys are in docs/how-to/clusters.md (section "Sweeps") and in
the package documentation of sweep: [train] any setting of td2048 train, named as its
flag with _ for - (alpha_schedule, coherence_from, checkpoint_every, ...;
a 0 given is 0; load is relative to the plan; a task's files are its
folder's, so not save, resume, log, plot or force); [grid] lists of those;
[[task]] entries; and [eval] any setting of td2048 eval (games, depth,
seed, move_time, cache, ...; seed 1 unless given) but its files and
shard, which are the task's. Every task is
checked when the plan is read: a plan that names a setting that cannot
work is refused, naming the task and the key, before anything runs.`,
		example: `  td2048 sweep list rates.toml                  # 6 tasks: sbatch --array=0-5
  td2048 sweep run rates.toml --task 3
  td2048 sweep run rates.toml --task auto        # in a Slurm array or Indexed Job
  td2048 sweep report rates                      # the table, and rates/curves.png`,
		setup: setupSweep,
	})
}

func setupSweep(fs *flag.FlagSet, e *env) func([]string) error {
	task := fs.String("task", "", "run: the task to run, from 0, or auto (the job array's SLURM_ARRAY_TASK_ID, or JOB_COMPLETION_INDEX, itself)")
	figure := fs.String("plot", "", "report: draw all tasks' learning curves here (default DIR/curves.png; none for no figure)")
	return func(args []string) error {
		switch {
		case len(args) != 2 || !slices.Contains([]string{"list", "run", "report"}, args[0]):
			return usagef("want list PLAN.toml, run PLAN.toml --task K, or report DIR|PLAN.toml")
		case args[1] == "":
			return usagef("sweep %s: the plan's (or folder's) name is empty", args[0])
		case args[0] != "run" && *task != "":
			return usagef("--task goes with sweep run")
		case args[0] != "report" && fs.Changed("plot"):
			return usagef("--plot goes with sweep report")
		case fs.Changed("plot") && *figure == "":
			return usagef("--plot: want a file name, or none")
		}
		switch args[0] {
		case "list":
			p, err := sweep.Load(args[1])
			if err != nil {
				return err
			}
			for _, t := range p.Tasks {
				fmt.Fprintf(e.stdout, "%d\t%s\t%s\n", t.Index, filepath.Join(p.Dir(args[1]), t.Name), t.Label)
			}
			fmt.Fprintf(e.stdout, "%d tasks (Slurm: sbatch --array=0-%d; Kubernetes: completions: %d)\n", len(p.Tasks), len(p.Tasks)-1, len(p.Tasks))
			return nil
		case "run":
			return sweepRun(args[1], *task, e)
		}
		return sweepReport(args[1], *figure, e)
	}
}

// taskFile is task.json: what a task folder holds, its files named
// relative to the folder, so that the task is the same task from any
// working folder or mount point.
type taskFile struct {
	Task  int          `json:"task"`
	Label string       `json:"label"`
	Train train.Spec   `json:"train"`
	Eval  evalrun.Spec `json:"eval"`
}

func sweepRun(planPath, taskArg string, e *env) error {
	p, err := sweep.Load(planPath)
	if err != nil {
		return err
	}
	var k int
	switch {
	case taskArg == "":
		return usagef("sweep run needs --task K (0 to %d) or --task auto", len(p.Tasks)-1)
	case taskArg == "auto":
		task, err := jobarray.FromEnv(os.Getenv)
		if err == nil {
			err = task.In(len(p.Tasks), "task", planPath)
		}
		if err != nil {
			return usagef("--task auto: %v", err)
		}
		k = task.Index
		if left := task.LeftOut(len(p.Tasks)); left != "" {
			fmt.Fprintf(e.stderr, "td2048 sweep: %s (deploy/slurm/resubmit.sh %s submits the tasks not done)\n", left, planPath)
		}
	default:
		if _, err := fmt.Sscan(taskArg, &k); err != nil || fmt.Sprint(k) != taskArg || k < 0 || k >= len(p.Tasks) {
			return usagef("--task %q: want a task from 0 to %d (the plan has %d), or auto", taskArg, len(p.Tasks)-1, len(p.Tasks))
		}
	}
	t := p.Tasks[k]
	dir := filepath.Join(p.Dir(planPath), t.Name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	spec := t.Train
	if spec.Load != "" && !filepath.IsAbs(spec.Load) {
		spec.Load = filepath.Join(filepath.Dir(planPath), spec.Load)
	}
	if err := claimTask(dir, k, t, spec.Load, planPath); err != nil {
		return err
	}
	evalPath := filepath.Join(dir, "eval.json")
	if r, err := evalresult.Read(evalPath); err == nil {
		fmt.Fprintf(e.stdout, "task %d (%s) is done: %s, eval avg %s over %d games; nothing to do\n", k, t.Label, evalPath, stats.Num(float64(r.Sum)/float64(max(r.Count, 1))), r.Count)
		return nil
	} else if fi, serr := os.Stat(evalPath); serr == nil && fi.Mode().IsRegular() {
		// A damaged result is not this task's to replace (sweep has no
		// --force): its owner decides.
		return fmt.Errorf("task %d: %s does not read (%v): remove it to evaluate the task again", k, evalPath, err)
	}
	fmt.Fprintf(e.stdout, "task %d of %d (%s) in %s\n", k, len(p.Tasks), t.Label, dir)
	logf, err := os.OpenFile(filepath.Join(dir, "train.txt"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	defer logf.Close()
	// The task's own record first; a closed stdout (| head) stops neither it
	// nor the task.
	sub := &env{stdout: io.MultiWriter(logf, dropErrors{e.stdout}), stderr: io.MultiWriter(logf, dropErrors{e.stderr}), stdin: e.stdin}
	// A new run in the task's own folder: what a killed first attempt
	// left there (a log, a plot) is replaced.
	spec.Save, spec.Plot, spec.Force = filepath.Join(dir, "weights.td2048"), filepath.Join(dir, "curve.png"), true
	given, more := t.Given, true
	if h, err := netfile.ReadHeader(spec.Save); err == nil {
		if st, ok, _ := train.ReadState(h); ok {
			fmt.Fprintf(sub.stdout, "resuming from %s (%d episodes done)\n", spec.Save, h.Episodes)
			spec, given, more = resumeTask(t.Train, spec.Save, st)
		}
	}
	if more {
		if err := runTrain(sub, spec, given, false); err != nil {
			return taskFailed(logf, k, err)
		}
	}
	ev, given := t.Eval, maps.Clone(t.EvalGiven)
	ev.Load, ev.Out, given["load"], given["out"] = filepath.Join(dir, "weights.td2048"), evalPath, true, true
	if ev.Stats != "" && !filepath.IsAbs(ev.Stats) {
		ev.Stats = filepath.Join(dir, ev.Stats)
	}
	if err := runEval(sub, ev, given); err != nil {
		return taskFailed(logf, k, err)
	}
	fmt.Fprintf(e.stdout, "task %d done: %s\n", k, evalPath)
	return nil
}

// taskFailed records task k's error as the last line of its log (log,
// train.txt), where sweep report finds it, and returns it. A task
// interrupted (SIGTERM, Ctrl-C) is stopped, not failed: run again, it
// continues.
func taskFailed(log io.Writer, k int, err error) error {
	err = fmt.Errorf("task %d: %w", k, err)
	mark := failedMark
	if strings.HasPrefix(errors.Unwrap(err).Error(), "interrupted after ") {
		mark = stoppedMark
	}
	fmt.Fprintf(log, "%s%s\n", mark, strings.ReplaceAll(err.Error(), "\n", " "))
	return err
}

// The marks that begin the last line of the log of a task that failed or
// was stopped.
const (
	failedMark  = "td2048 sweep: failed: "
	stoppedMark = "td2048 sweep: stopped: "
)

// endLine is the last line of a task's log (train.txt) when it has one of
// the marks, and the mark: "" once an attempt after it writes.
func endLine(path string) (mark, line string) {
	f, err := os.Open(path)
	if err != nil {
		return "", ""
	}
	defer f.Close()
	buf := make([]byte, 4096)
	end, _ := f.Seek(0, io.SeekEnd)
	n, _ := f.ReadAt(buf[:min(end, int64(len(buf)))], max(0, end-int64(len(buf))))
	lines := strings.Split(strings.TrimRight(string(buf[:n]), "\n"), "\n")
	for _, m := range []string{failedMark, stoppedMark} {
		if l, ok := strings.CutPrefix(lines[len(lines)-1], m); ok {
			return m, l
		}
	}
	return "", ""
}

// dropErrors writes to w, and drops its errors.
type dropErrors struct{ w io.Writer }

func (d dropErrors) Write(p []byte) (int, error) {
	d.w.Write(p)
	return len(p), nil
}

// resumeTask is the spec that resumes task's run from its checkpoint st
// in save: to the task's episodes, on its threads, and, for a task of a
// Duration, for the time it has left; more is false when it has no time
// or episodes left.
func resumeTask(task train.Spec, save string, st train.State) (s train.Spec, given train.Given, more bool) {
	s, given = train.Default(), train.Given{"resume": true, "episodes": true}
	s.Resume, s.Episodes = save, task.Episodes
	if task.Threads > 0 {
		s.Threads, given["threads"] = task.Threads, true
	}
	if task.Duration > 0 {
		left := time.Duration(task.Duration) - time.Duration(st.Elapsed*float64(time.Second))
		s.Duration, given["duration"] = train.Duration(left), true
		return s, given, left > 0
	}
	// A run trained to its end is left as it is: saved again, its weight
	// file would differ (its run state) from the one its evaluation under
	// way was recorded with, and the evaluation would start over.
	return s, given, st.Done < task.Episodes
}

// claimTask records the task in its folder's task.json, or refuses a
// folder that holds another configuration; load is the task's --load
// file, as usable from here.
func claimTask(dir string, k int, t sweep.Task, load, planPath string) error {
	path := filepath.Join(dir, "task.json")
	rec := taskFile{Task: k, Label: t.Label, Train: t.Train, Eval: t.Eval}
	if load != "" {
		rec.Train.Load = train.Rel(path, load)
	}
	want, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	if data, err := os.ReadFile(path); err == nil {
		var got []byte
		old := taskFile{Eval: sweep.EvalDefault()} // a task.json of fewer [eval] settings holds their defaults
		if json.Unmarshal(data, &old) == nil {
			got, _ = json.Marshal(old)
		}
		if !bytes.Equal(got, want) {
			return fmt.Errorf("%s holds another configuration than task %d of %s (%s): the plan changed? give it another out", dir, k, planPath, t.Label)
		}
		return nil
	} else if !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return safefile.WriteAtomic(path, func(w io.Writer) error {
		en := json.NewEncoder(w)
		en.SetIndent("", "  ")
		return en.Encode(rec)
	})
}

// reportTasks are the folders sweep report reads for arg, a sweep's
// output folder or its plan (which lists the tasks not started too), and
// the labels of the plan's tasks by folder name.
func reportTasks(arg string) (dir string, taskDirs []string, labels map[string]string, err error) {
	dir = arg
	var planned []sweep.Task
	if fi, err := os.Stat(arg); err == nil && !fi.IsDir() {
		p, err := sweep.Load(arg)
		if err != nil {
			return "", nil, nil, err
		}
		dir, planned = p.Dir(arg), p.Tasks
	}
	labels = map[string]string{}
	for _, t := range planned {
		taskDirs = append(taskDirs, filepath.Join(dir, t.Name))
		labels[t.Name] = t.Label
	}
	if planned == nil {
		// Read, not globbed: a folder's name may hold a bracket. One that
		// cannot be read holds no tasks, as below.
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if strings.HasPrefix(e.Name(), "task-") {
				taskDirs = append(taskDirs, filepath.Join(dir, e.Name()))
			}
		}
	}
	if len(taskDirs) == 0 {
		return "", nil, nil, fmt.Errorf("%s holds no task folders (task-000, ...): run td2048 sweep run PLAN --task K first", dir)
	}
	return dir, taskDirs, labels, nil
}

func sweepReport(arg, figure string, e *env) error {
	dir, taskDirs, labels, err := reportTasks(arg)
	if err != nil {
		return err
	}
	figure = cmp.Or(figure, filepath.Join(dir, "curves.png"))
	if figure != "none" {
		if _, err := plot.Format(figure); err != nil {
			return usagef("--plot: %v", err)
		}
		if err := refuseClobber(figure, "plot", "image"); err != nil {
			return err
		}
	}
	var series []plot.Series
	damaged, done, failed := 0, 0, 0
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "task\tconfig\tstate\tepisodes\tlast block avg\teval avg\teval goal rate")
	for _, td := range taskDirs {
		name := filepath.Base(td)
		tf := struct {
			Label string `json:"label"`
		}{labels[name]}
		data, err := os.ReadFile(filepath.Join(td, "task.json"))
		unread := err == nil && json.Unmarshal(data, &tf) != nil // counted and named, never dropped
		state, episodes, blockAvg, evalAvg, goal := "not started", int64(0), "-", "-", "-"
		if s, err := plot.ReadLog(filepath.Join(td, "weights.jsonl"), name+" "+tf.Label); err == nil {
			last := s.Records[len(s.Records)-1]
			episodes, blockAvg, state = last.Episodes, stats.Num(last.Avg), "training"
			series = append(series, s)
		}
		if p, err := evalresult.ReadProgress(evalrun.ProgressName(filepath.Join(td, "eval.json"))); err == nil {
			_, n := p.Done.Shard().Games(p.Done.GamesTotal)
			state = fmt.Sprintf("evaluating (%d of %d games)", p.Done.Count, n)
		}
		res, evalErr := evalresult.Read(filepath.Join(td, "eval.json"))
		if evalErr == nil {
			b := res.Block()
			state, evalAvg = "done", stats.Num(b.Avg())
			done++
			if g, err := games.Lookup(res.Game); err == nil {
				goal = fmt.Sprintf("%s%% %d", stats.Num(100*b.Reach(g.Goal)), g.GoalValue())
			}
		} else if mark, why := endLine(filepath.Join(td, "train.txt")); mark == failedMark {
			state = "failed: " + why
			failed++
		} else if mark == stoppedMark {
			state += ", stopped"
		} else if !errors.Is(evalErr, os.ErrNotExist) {
			// The evaluation was written whole, then damaged: not a
			// task still training.
			state = "eval.json does not read: remove it to evaluate again"
			damaged++
		}
		if unread {
			state += ", task.json does not parse"
			damaged++
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\t%s\t%s\n", name, tf.Label, state, episodes, blockAvg, evalAvg, goal)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "%d of %d tasks done\n", done, len(taskDirs))
	if failed > 0 {
		fmt.Fprintf(e.stdout, "%d tasks failed, each state saying why (the last line of its train.txt): run them again once the cause is fixed\n", failed)
	}
	if damaged > 0 {
		fmt.Fprintf(e.stdout, "%d task folders hold a task.json or eval.json that does not read\n", damaged)
	}
	if figure == "none" || len(series) == 0 {
		return nil
	}
	if err := plot.Save(figure, plot.Options{Title: "Learning curves: " + filepath.Base(dir)}, series...); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "curves = %s\n", figure)
	return nil
}
