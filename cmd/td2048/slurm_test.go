package main

// A real Slurm cluster of one node (Debian's slurm-wlm and munge) running
// the job files of deploy/slurm: a sharded evaluation merged by a
// dependent job, and a sweep with one task requeued while it trains.

import (
	"bytes"
	"crypto/rand"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/td2048/td2048/internal/evalresult"
	"github.com/td2048/td2048/internal/evalrun"
	"github.com/td2048/td2048/netfile"
)

// slurmCluster is a running single-node cluster.
type slurmCluster struct {
	dir string
	env []string // SLURM_CONF and the td2048 of the job scripts
}

// needSlurm skips the test without Slurm's daemons, or fails it under CI.
func needSlurm(t *testing.T) {
	t.Helper()
	var missing []string
	for _, p := range []string{"munged", "slurmctld", "slurmd", "sbatch", "scontrol", "squeue"} {
		if _, err := exec.LookPath(p); err != nil {
			missing = append(missing, p)
		}
	}
	if os.Getuid() != 0 {
		missing = append(missing, "root (slurmd runs jobs as any user)")
	}
	if len(missing) == 0 {
		return
	}
	msg := "Slurm test needs " + strings.Join(missing, ", ") + " (apt-get install slurm-wlm munge, as root)"
	if os.Getenv("CI") != "" {
		t.Fatal(msg)
	}
	t.Skip(msg)
}

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// startSlurm starts munged (with a key of its own), slurmctld and slurmd
// on the loopback host, with their state in a temporary folder, and stops
// them when the test ends.
func startSlurm(t *testing.T) *slurmCluster {
	t.Helper()
	dir, err := os.MkdirTemp("", "td2048-slurm-")
	if err != nil {
		t.Fatal(err)
	}
	os.Chmod(dir, 0o755) // slurmd's jobs and munge's clients reach into it
	c := &slurmCluster{dir: dir}
	for _, d := range []string{"munge", "state", "spool", "log"} {
		os.MkdirAll(filepath.Join(dir, d), 0o755)
	}
	os.Chmod(filepath.Join(dir, "munge"), 0o700)
	key := make([]byte, 1024)
	rand.Read(key)
	if err := os.WriteFile(filepath.Join(dir, "munge", "key"), key, 0o400); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "munge", "sock")
	conf := fmt.Sprintf(`ClusterName=td2048test
SlurmctldHost=localhost
SlurmctldPort=%d
SlurmdPort=%d
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=%[3]s,cred_expire=5
StateSaveLocation=%[4]s/state
SlurmdSpoolDir=%[4]s/spool
SlurmctldPidFile=%[4]s/slurmctld.pid
SlurmdPidFile=%[4]s/slurmd.pid
SlurmctldLogFile=%[4]s/log/slurmctld.log
SlurmdLogFile=%[4]s/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/builtin
SchedulerParameters=sched_min_interval=100000,batch_sched_delay=0
MpiDefault=none
SwitchType=switch/none
ReturnToService=2
KillWait=10
MinJobAge=600
NodeName=localhost CPUs=2 RealMemory=2048 State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP
`, freePort(t), freePort(t), sock, dir)
	confPath := filepath.Join(dir, "slurm.conf")
	if err := os.WriteFile(confPath, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	c.env = append(os.Environ(), "SLURM_CONF="+confPath, "TD2048="+os.Args[0], "TD2048_BE_MAIN=1")
	var daemons []*exec.Cmd
	start := func(name string, args ...string) {
		cmd := exec.Command(name, args...)
		cmd.Env = c.env
		out, _ := os.Create(filepath.Join(dir, "log", name+".out"))
		cmd.Stdout, cmd.Stderr = out, out
		if err := cmd.Start(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		daemons = append(daemons, cmd)
	}
	t.Cleanup(func() {
		c.try("scancel", "--user=root")
		for i := len(daemons) - 1; i >= 0; i-- {
			daemons[i].Process.Kill()
			daemons[i].Wait()
		}
		if t.Failed() {
			for _, l := range []string{"slurmctld.log", "slurmd.log"} {
				b, _ := os.ReadFile(filepath.Join(dir, "log", l))
				t.Logf("%s (end):\n%s", l, tail(string(b), 3000))
			}
		}
		os.RemoveAll(dir)
	})
	start("munged", "--foreground", "--force", "--key-file="+filepath.Join(dir, "munge", "key"), "--socket="+sock,
		"--pid-file="+filepath.Join(dir, "munge", "pid"), "--log-file="+filepath.Join(dir, "log", "munged.log"),
		"--seed-file="+filepath.Join(dir, "munge", "seed"))
	waitUntil(t, 10*time.Second, "munged's socket", func() bool { _, err := os.Stat(sock); return err == nil })
	start("slurmctld", "-D", "-i")
	start("slurmd", "-D", "-N", "localhost")
	waitUntil(t, 30*time.Second, "the node to be idle", func() bool {
		out, err := c.try("sinfo", "-h", "-o", "%t")
		return err == nil && strings.TrimSpace(out) == "idle"
	})
	return c
}

func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}

func waitUntil(t *testing.T, d time.Duration, what string, cond func() bool) {
	t.Helper()
	end := time.Now().Add(d)
	for !cond() {
		if time.Now().After(end) {
			t.Fatalf("waited %v for %s", d, what)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// try runs a command with the cluster's environment in its folder.
func (c *slurmCluster) try(name string, args ...string) (string, error) {
	cmd := exec.Command(name, args...)
	cmd.Env, cmd.Dir = c.env, c.dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}

func (c *slurmCluster) must(t *testing.T, env []string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Env, cmd.Dir = append(append([]string{}, c.env...), env...), c.dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %v: %v\n%s", name, args, err, out)
	}
	return string(out)
}

var jobState = regexp.MustCompile(`JobState=(\S+)`)

// wait waits for every task of job id to complete, failing the test if
// one fails or is cancelled.
func (c *slurmCluster) wait(t *testing.T, id string, d time.Duration) {
	t.Helper()
	waitUntil(t, d, "job "+id, func() bool {
		out, err := c.try("scontrol", "show", "job", id)
		if err != nil {
			return false
		}
		done := true
		for _, m := range jobState.FindAllStringSubmatch(out, -1) {
			switch m[1] {
			case "COMPLETED":
			case "PENDING", "RUNNING", "CONFIGURING", "COMPLETING", "REQUEUED":
				done = false
			default:
				t.Fatalf("job %s: %s\n%s\n%s", id, m[1], out, c.logs())
			}
		}
		return done
	})
}

// logs are the ends of the jobs' logs.
func (c *slurmCluster) logs() string {
	outs, _ := filepath.Glob(filepath.Join(c.dir, "logs", "*"))
	var logs string
	for _, o := range outs {
		b, _ := os.ReadFile(o)
		logs += o + ":\n" + tail(string(b), 1500) + "\n"
	}
	return logs
}

var arrayTask = regexp.MustCompile(`JobId=\d+ (?:ArrayJobId=\d+ ArrayTaskId=(\S+) )?`)

// ended waits for every task of job id to end and returns their states
// by array task ("" for a job that is not an array).
func (c *slurmCluster) ended(t *testing.T, id string, d time.Duration) map[string]string {
	t.Helper()
	var states map[string]string
	waitUntil(t, d, "job "+id+" to end", func() bool {
		out, err := c.try("scontrol", "show", "job", id)
		if err != nil {
			return false
		}
		states = map[string]string{}
		for _, rec := range strings.Split(out, "\n\n") {
			m, st := arrayTask.FindStringSubmatch(rec), jobState.FindStringSubmatch(rec)
			if m == nil || st == nil {
				continue
			}
			switch st[1] {
			case "PENDING", "RUNNING", "CONFIGURING", "COMPLETING", "REQUEUED":
				return false
			}
			states[m[1]] = st[1]
		}
		return len(states) > 0
	})
	return states
}

// field is a field of scontrol show job's first record of id.
func (c *slurmCluster) field(t *testing.T, id, name string) string {
	t.Helper()
	out := c.must(t, nil, "scontrol", "show", "job", id)
	m := regexp.MustCompile(`\b` + name + `=(\S*)`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("job %s has no %s:\n%s", id, name, out)
	}
	return m[1]
}

// tryEnv runs a command with the cluster's environment and env in its
// folder.
func (c *slurmCluster) tryEnv(env []string, name string, args ...string) (string, error) {
	cmd := exec.Command(name, args...)
	cmd.Env, cmd.Dir = append(append([]string{}, c.env...), env...), c.dir
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// slurmDeploy is deploy/slurm, absolute.
func slurmDeploy(t *testing.T) string {
	t.Helper()
	d, err := filepath.Abs(filepath.Join("..", "..", "deploy", "slurm"))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// mustContain fails the test unless the file at path holds each of want.
func mustContain(t *testing.T, path string, want ...string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Error(err)
		return
	}
	for _, w := range want {
		if !strings.Contains(string(b), w) {
			t.Errorf("%s does not say %q:\n%s", path, w, tail(string(b), 1500))
		}
	}
}

// twoIDs are the two job ids a submit script prints.
func twoIDs(t *testing.T, out string) (array, final string) {
	t.Helper()
	f := strings.Fields(out)
	if len(f) != 2 {
		t.Fatalf("the submission printed %q, want two job ids", out)
	}
	return f[0], f[1]
}

// sameGames says whether two Threes! statistics files hold the same
// games, action for action: only their recorded times may differ.
func sameGames(t *testing.T, a, b string) bool {
	t.Helper()
	times := regexp.MustCompile(`\(\d+\)|@\d+`)
	x, err1 := os.ReadFile(a)
	y, err2 := os.ReadFile(b)
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	return len(x) > 0 && times.ReplaceAllString(string(x), "") == times.ReplaceAllString(string(y), "")
}

func TestSlurmCluster(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a Slurm cluster and runs jobs on it (about 40 s)")
	}
	needSlurm(t)
	// The cluster's jobs mostly wait on Slurm: the other tests run
	// meanwhile, and so do these cases, each with its own jobs and files.
	t.Parallel()
	c := startSlurm(t)
	deploy := slurmDeploy(t)
	logs := filepath.Join(c.dir, "logs")
	tiny := filepath.Join(c.dir, "tiny.td2048")
	if code, _, errb := runCmd(t, "train", "--network", "2x4", "--episodes", "300", "--seed", "1", "--threads", "1", "--save", tiny, "--log", "none"); code != 0 {
		t.Fatal(errb)
	}

	t.Run("sharded eval with a shard stopped and resubmitted", func(t *testing.T) {
		t.Parallel()
		w := tiny
		code, whole, errb := runCmd(t, "eval", "--load", w, "--games", "1200", "--depth", "2", "--seed", "9", "--threads", "2")
		if code != 0 {
			t.Fatal(errb)
		}
		out := filepath.Join(c.dir, "eval-out")
		settings := []string{"SHARDS=4", "WEIGHTS=" + w, "GAMES=1200", "DEPTH=2", "SEED=9", "OUT=" + out, "MERGE_SBATCH=--time=7"}
		// The options given go to the shards, MERGE_SBATCH to the merge.
		array, merge := twoIDs(t, c.must(t, settings, filepath.Join(deploy, "submit-eval.sh"), "--time=30"))
		if got := c.field(t, array, "TimeLimit"); got != "00:30:00" {
			t.Errorf("the shards' time limit is %s, want the submission's --time=30", got)
		}
		if got := c.field(t, merge, "TimeLimit"); got != "00:07:00" {
			t.Errorf("the merge's time limit is %s, want MERGE_SBATCH's --time=7, not the shards' options", got)
		}
		if a, m := c.field(t, array, "MinMemoryNode"), c.field(t, merge, "MinMemoryNode"); a != "512M" || m != "128M" {
			t.Errorf("memory: the shards ask %s, the merge %s; want their scripts' 512M and 128M", a, m)
		}
		// Shard 1 stopped mid-way as a time limit or a preemption stops
		// it (scancel: SIGTERM, then SIGKILL after KillWait); the merge
		// after it is cancelled.
		n := stopTask(t, c, array, 1, evalrun.ProgressName(filepath.Join(out, "part-1.json")))
		if n <= 0 || n >= 300 {
			t.Fatalf("shard 1 was stopped after %d of its 300 games: not mid-way", n)
		}
		mustContain(t, filepath.Join(logs, fmt.Sprintf("td2048-eval-%s_1.attempt-0.log", array)),
			fmt.Sprintf("interrupted after %d games (recorded in %s: the same command continues at game %d)", n, evalrun.ProgressName(filepath.Join(out, "part-1.json")), 300+n))
		if st := c.ended(t, merge, 120*time.Second)[""]; st != "CANCELLED" {
			t.Fatalf("the merge after a stopped shard: %s", st)
		}
		// resubmit.sh submits shard 1 alone (--array=1): it continues from
		// the first game it had not finished, and the merge follows.
		array2, merge2 := twoIDs(t, c.must(t, nil, filepath.Join(deploy, "resubmit.sh"), out))
		if got := c.field(t, array2, "ArrayTaskId"); got != "1" {
			t.Errorf("resubmitted tasks %s, want 1", got)
		}
		c.wait(t, array2, 120*time.Second)
		c.wait(t, merge2, 60*time.Second)
		mustContain(t, filepath.Join(logs, fmt.Sprintf("td2048-eval-%s_1.attempt-0.log", array2)),
			fmt.Sprintf("continuing at game %d: games 300..%d finished earlier (%d of 300, ", 300+n, 299+n, n))
		merged, err := os.ReadFile(filepath.Join(out, "merged.txt"))
		if err != nil {
			t.Fatal(err)
		}
		if statsPart(t, string(merged)) != statsPart(t, whole) {
			t.Errorf("merged under Slurm:\n%s\nwant (one process):\n%s", merged, whole)
		}
		if !strings.HasPrefix(string(merged), "td2048 merge (4 shards)\n") {
			t.Errorf("merged.txt: %.60q", merged)
		}
		for k := range 4 {
			r, err := evalresult.Read(filepath.Join(out, fmt.Sprintf("part-%d.json", k)))
			if err != nil || r.ShardK != k || r.ShardN != 4 || r.Count != 300 {
				t.Errorf("part %d: %+v %v", k, r, err)
			}
			if k == 1 {
				continue
			}
			// Slurm's log of the task, and td2048's of its one attempt.
			task := fmt.Sprintf("td2048-eval-%s_%d", array, k)
			mustContain(t, filepath.Join(logs, task+".out"), fmt.Sprintf("shard %d/4, attempt 0", k))
			mustContain(t, filepath.Join(logs, task+".attempt-0.log"), fmt.Sprintf("shard = %d/4: games %d..%d of 1200", k, 300*k, 300*k+299))
		}
		mustContain(t, filepath.Join(logs, "td2048-merge-"+merge2+".out"), "td2048 merge (4 shards)")
		if stray, _ := filepath.Glob(filepath.Join(c.dir, "*.out")); len(stray) > 0 {
			t.Errorf("logs outside the logs folder: %v", stray)
		}
		// A second evaluation into the same OUT is refused.
		if o, err := c.tryEnv(settings, filepath.Join(deploy, "submit-eval.sh")); err == nil || !strings.Contains(o, "holds files already") {
			t.Errorf("a second submission into %s: %v %s", out, err, o)
		}
	})

	t.Run("Threes! eval with a shard stopped and resubmitted", func(t *testing.T) {
		t.Parallel()
		w := trainedThreesWeights(t)
		wholeStats := filepath.Join(t.TempDir(), "whole.txt")
		code, whole, errb := runCmd(t, "eval", "--load", w, "--games", "80", "--depth", "3", "--seed", "4", "--stats", wholeStats)
		if code != 0 {
			t.Fatal(errb)
		}
		out := filepath.Join(c.dir, "threes-out")
		settings := []string{"SHARDS=4", "WEIGHTS=" + w, "GAMES=80", "DEPTH=3", "SEED=4", "STATS=yes", "OUT=" + out}
		array, merge := twoIDs(t, c.must(t, settings, filepath.Join(deploy, "submit-eval.sh"), "--hold"))
		if o, err := c.tryEnv(nil, filepath.Join(deploy, "resubmit.sh"), out); err == nil || !strings.Contains(o, "still queued or running") {
			t.Errorf("resubmit.sh while the evaluation is queued: %v %s", err, o)
		}
		c.must(t, nil, "scontrol", "release", array)
		// Shard 2 stopped mid-way: no statistics file that judge would
		// take for the shard's, no result; its merge never runs.
		n := stopTask(t, c, array, 2, evalrun.ProgressName(filepath.Join(out, "part-2.json")))
		if n <= 0 || n >= 20 {
			t.Fatalf("shard 2 was stopped after %d of its 20 games: not mid-way", n)
		}
		if _, err := os.Stat(filepath.Join(out, "stats-2.txt")); err == nil {
			t.Error("the stopped shard left a statistics file under its name")
		}
		if st := c.ended(t, merge, 120*time.Second)[""]; st != "CANCELLED" {
			t.Fatalf("the merge after a stopped shard: %s", st)
		}
		// resubmit.sh, with the settings submit-eval.sh kept, submits shard
		// 2 alone, as shard 2 of 4, continuing it, and the merge.
		array2, merge2 := twoIDs(t, c.must(t, nil, filepath.Join(deploy, "resubmit.sh"), out))
		if got := c.field(t, array2, "ArrayTaskId"); got != "2" {
			t.Errorf("resubmitted tasks %s, want 2", got)
		}
		c.wait(t, array2, 120*time.Second)
		c.wait(t, merge2, 60*time.Second)
		mustContain(t, filepath.Join(logs, fmt.Sprintf("td2048-eval-%s_2.attempt-0.log", array2)), "shard = 2/4: games 40..59 of 80",
			fmt.Sprintf("continuing at game %d: games 40..%d finished earlier (%d of 20, ", 40+n, 39+n, n))
		merged, err := os.ReadFile(filepath.Join(out, "merged.txt"))
		if err != nil {
			t.Fatal(err)
		}
		if statsPart(t, string(merged)) != statsPart(t, whole) {
			t.Errorf("merged under Slurm:\n%s\nwant (one process):\n%s", merged, whole)
		}
		if !sameGames(t, filepath.Join(out, "stats.txt"), wholeStats) {
			t.Error("the merged statistics file holds other games than one process's")
		}
		if code, jout, errb := runCmd(t, "judge", filepath.Join(out, "stats.txt")); code != 0 || !strings.Contains(jout, "Passed") {
			t.Errorf("judge of the merged statistics: %d %s %s", code, jout, errb)
		}
	})

	t.Run("sweep with a requeue", func(t *testing.T) {
		t.Parallel()
		plan := filepath.Join(c.dir, "plan.toml")
		// Tasks 0-2 are quick; task 3 trains long enough to be requeued
		// after its first checkpoint. No threads: the tasks train on their
		// --cpus-per-task (1).
		os.WriteFile(plan, []byte(`out = "sweep"
[train]
network = "2x4"
episodes = 1000
every = 500
[grid]
seed = [1, 2]
[[task]]
alpha = 0.1
[[task]]
episodes = 30000
checkpoint_every = 1000
every = 1000
[eval]
games = 20
`), 0o644)
		array, report := twoIDs(t, c.must(t, []string{"PLAN=" + plan}, filepath.Join(deploy, "submit-sweep.sh")))
		long := filepath.Join(c.dir, "sweep", "task-003")
		waitUntil(t, 120*time.Second, "task 3's first checkpoint", func() bool {
			h, err := netfile.ReadHeader(filepath.Join(long, "weights.td2048"))
			return err == nil && h.Episodes > 0
		})
		task := array + "_3"
		c.must(t, nil, "scontrol", "requeue", task)
		// A requeued job may start again once its credential has expired
		// (cred_expire=5 above; Slurm's default is two minutes): starting
		// it sooner (scontrol update StartTime=now) kills it at launch.
		c.wait(t, array, 150*time.Second)
		c.wait(t, report, 60*time.Second)
		log, _ := os.ReadFile(filepath.Join(long, "train.txt"))
		resumed := regexp.MustCompile(`resuming from .*weights.td2048 \([1-9]\d* episodes done\)`)
		if !resumed.Match(log) {
			t.Errorf("task 3 did not resume after its requeue:\n%s", tail(string(log), 2000))
		}
		// Each attempt has its log; Slurm's log of the task has both.
		first, _ := os.ReadFile(filepath.Join(logs, "td2048-sweep-"+task+".attempt-0.log"))
		second, _ := os.ReadFile(filepath.Join(logs, "td2048-sweep-"+task+".attempt-1.log"))
		if !strings.Contains(string(first), "task 3 of 4") || resumed.Match(first) || !resumed.Match(second) {
			t.Errorf("attempt logs of task 3:\n%s\n--\n%s", tail(string(first), 1000), tail(string(second), 1000))
		}
		mustContain(t, filepath.Join(logs, "td2048-sweep-"+task+".out"), "task 3, attempt 0", "task 3, attempt 1")
		mustContain(t, filepath.Join(c.dir, "sweep", "task-000", "train.txt"), "\nthreads = 1\n")
		if _, err := evalresult.Read(filepath.Join(long, "eval.json")); err != nil {
			t.Error(err)
		}
		h, err := netfile.ReadHeader(filepath.Join(long, "weights.td2048"))
		if err != nil || h.Episodes != 30000 {
			t.Errorf("task 3 ended at %d episodes (%v), want 30000", h.Episodes, err)
		}
		mustContain(t, filepath.Join(logs, "td2048-report-"+report+".out"), "4 of 4 tasks done")
		// A finished task run again does nothing.
		out, err := c.tryEnv([]string{"SLURM_ARRAY_TASK_ID=3", "SLURM_ARRAY_TASK_COUNT=4"}, os.Args[0], "sweep", "run", plan, "--task", "auto")
		if err != nil || !strings.Contains(out, "task 3 (episodes=30000 ") || !strings.Contains(out, "is done") {
			t.Errorf("rerun of a finished task: %v %q", err, out)
		}
	})

	t.Run("sweep with a task stopped and resubmitted", func(t *testing.T) {
		t.Parallel()
		plan := filepath.Join(c.dir, "plan2.toml")
		os.WriteFile(plan, []byte(`out = "sweep2"
[train]
network = "2x4"
episodes = 500
every = 250
threads = 1
[grid]
seed = [1, 2]
[eval]
games = 300
depth = 2
`), 0o644)
		env := []string{"PLAN=" + plan, "REPORT_SBATCH=--time=3"}
		array, report := twoIDs(t, c.must(t, env, filepath.Join(deploy, "submit-sweep.sh")))
		// Task 1 stopped during its evaluation by scancel --signal=TERM,
		// which signals the job's steps only (it used to do nothing: td2048
		// ran in the batch script itself, not as a step).
		task := filepath.Join(c.dir, "sweep2", "task-001")
		n := stopTask(t, c, array, 1, evalrun.ProgressName(filepath.Join(task, "eval.json")), "--signal=TERM")
		if n <= 0 || n >= 300 {
			t.Fatalf("task 1 was stopped after %d of its 300 games: not mid-way", n)
		}
		if st := c.ended(t, report, 120*time.Second)[""]; st != "CANCELLED" {
			t.Fatalf("the report after a stopped task: %s", st)
		}
		mustContain(t, filepath.Join(logs, fmt.Sprintf("td2048-sweep-%s_1.attempt-0.log", array)), fmt.Sprintf("interrupted after %d games", n))
		array2, report2 := twoIDs(t, c.must(t, []string{"REPORT_SBATCH=--time=3"}, filepath.Join(deploy, "resubmit.sh"), plan))
		if got := c.field(t, array2, "ArrayTaskId"); got != "1" {
			t.Errorf("resubmitted tasks %s, want 1", got)
		}
		c.wait(t, array2, 120*time.Second)
		c.wait(t, report2, 60*time.Second)
		if got := c.field(t, report2, "TimeLimit"); got != "00:03:00" {
			t.Errorf("the report's time limit is %s, want REPORT_SBATCH's", got)
		}
		mustContain(t, filepath.Join(logs, fmt.Sprintf("td2048-sweep-%s_1.attempt-0.log", array2)), "task 1 of 2 (seed=2)",
			fmt.Sprintf("continuing at game %d: games 0..%d finished earlier (%d of 300, ", n, n-1, n))
		mustContain(t, filepath.Join(logs, "td2048-report-"+report2+".out"), "2 of 2 tasks done")
		_, whole, _ := runCmd(t, "eval", "--load", filepath.Join(task, "weights.td2048"), "--games", "300", "--depth", "2", "--seed", "1")
		_, merged, _ := runCmd(t, "merge", filepath.Join(task, "eval.json"))
		if statsPart(t, merged) != statsPart(t, whole) {
			t.Errorf("task 1's evaluation, continued:\n%s\nwant (one process):\n%s", merged, whole)
		}
	})

	t.Run("sweep task stopped mid-training by scancel --signal=TERM", func(t *testing.T) {
		t.Parallel()
		// scancel --signal=TERM signals the job's steps only: td2048, run
		// as one, saves a checkpoint where it stops; the report says the
		// task stopped; resubmitted, it resumes from that checkpoint.
		plan := filepath.Join(c.dir, "plan4.toml")
		os.WriteFile(plan, []byte("out = \"sweep4\"\n[train]\nnetwork = \"2x4\"\nepisodes = 20000\nevery = 1000\ncheckpoint_every = 1000\nthreads = 1\n[eval]\ngames = 10\n"), 0o644)
		array, report := twoIDs(t, c.must(t, []string{"PLAN=" + plan}, filepath.Join(deploy, "submit-sweep.sh")))
		task := filepath.Join(c.dir, "sweep4", "task-000")
		waitUntil(t, 120*time.Second, "task 0's first checkpoint", func() bool {
			h, err := netfile.ReadHeader(filepath.Join(task, "weights.td2048"))
			return err == nil && h.Episodes > 0
		})
		c.must(t, nil, "scancel", "--signal=TERM", array+"_0")
		if st := c.ended(t, array, 120*time.Second)["0"]; st != "FAILED" {
			t.Fatalf("the task stopped by scancel --signal=TERM ended %s, not FAILED (the signal did not reach it?)\n%s", st, c.logs())
		}
		if st := c.ended(t, report, 120*time.Second)[""]; st != "CANCELLED" {
			t.Fatalf("the report after a stopped task: %s", st)
		}
		h, err := netfile.ReadHeader(filepath.Join(task, "weights.td2048"))
		if err != nil {
			t.Fatal(err)
		}
		n := h.Episodes
		mustContain(t, filepath.Join(task, "train.txt"), fmt.Sprintf("td2048 sweep: stopped: task 0: interrupted after %d episodes; the run is saved", n))
		if code, out, _ := runCmd(t, "sweep", "report", plan, "--plot", "none"); code != 0 || !regexp.MustCompile(`task-000\s+base\s+training, stopped\s`).MatchString(out) {
			t.Errorf("the report of the stopped task:\n%s", out)
		}
		array2, report2 := twoIDs(t, c.must(t, nil, filepath.Join(deploy, "resubmit.sh"), plan))
		c.wait(t, array2, 150*time.Second)
		c.wait(t, report2, 60*time.Second)
		mustContain(t, filepath.Join(task, "train.txt"), fmt.Sprintf("resuming from %s (%d episodes done)", filepath.Join(task, "weights.td2048"), n))
		if h, err := netfile.ReadHeader(filepath.Join(task, "weights.td2048")); err != nil || h.Episodes != 20000 {
			t.Errorf("the resumed task ended at %d episodes (%v), want 20000", h.Episodes, err)
		}
		mustContain(t, filepath.Join(logs, "td2048-report-"+report2+".out"), "1 of 1 tasks done")
	})

	t.Run("tasks named by the array's own index", func(t *testing.T) {
		t.Parallel()
		// --array=2 with --shard auto plays shard 2 of TD2048_SHARDS;
		// --array=3 with --task auto runs task 3 of the plan.
		w := tiny
		out := filepath.Join(c.dir, "auto-out")
		os.MkdirAll(out, 0o755)
		os.MkdirAll(logs, 0o755) // sbatch's --output below: the submit scripts make it, maybe not yet
		job := strings.TrimSpace(c.must(t, []string{"TD2048_SHARDS=4"}, "sbatch", "--parsable", "--array=2", "--output="+filepath.Join(logs, "auto-%A_%a.out"),
			"--wrap", fmt.Sprintf(`exec "$TD2048" eval --load %s --games 40 --seed 3 --threads 1 --shard auto --out %s/part-$SLURM_ARRAY_TASK_ID.json`, w, out)))
		plan := filepath.Join(c.dir, "plan3.toml")
		os.WriteFile(plan, []byte("out = \"sweep3\"\n[train]\nnetwork = \"2x4\"\nepisodes = 100\nevery = 50\nthreads = 1\n[grid]\nseed = [1, 2, 3, 4]\n[eval]\ngames = 5\n"), 0o644)
		job2 := strings.TrimSpace(c.must(t, nil, "sbatch", "--parsable", "--array=3", "--output="+filepath.Join(logs, "auto-%A_%a.out"),
			"--wrap", fmt.Sprintf(`exec "$TD2048" sweep run %s --task auto`, plan)))
		c.wait(t, job, 120*time.Second)
		c.wait(t, job2, 120*time.Second)
		r, err := evalresult.Read(filepath.Join(out, "part-2.json"))
		if err != nil || r.Shard() != (evalresult.Shard{K: 2, N: 4}) || r.First != 20 || r.Count != 10 {
			t.Errorf("--array=2 --shard auto: shard %v, games %d.. (%d), %v; want shard 2/4, games 20..29", r.Shard(), r.First, r.Count, err)
		}
		mustContain(t, filepath.Join(logs, "auto-"+job+"_2.out"), "this array runs 1 of the 4 tasks; tasks 0-1,3 must run in another job")
		if _, err := evalresult.Read(filepath.Join(c.dir, "sweep3", "task-003", "eval.json")); err != nil {
			t.Errorf("--array=3 --task auto did not run task 3: %v", err)
		}
		if _, err := os.Stat(filepath.Join(c.dir, "sweep3", "task-000")); err == nil {
			t.Error("--array=3 --task auto ran task 0")
		}
		mustContain(t, filepath.Join(logs, "auto-"+job2+"_3.out"), "task 3 of 4 (seed=4)", "tasks 0-2 must run in another job")
	})
}

// stopTask stops array task k of job array once its progress record
// exists (it has finished a game) as a time limit or a preemption stops a
// job: scancel, which sends SIGTERM, then SIGKILL after KillWait. It
// waits for the task to end cancelled and returns the games the record
// holds.
//
// With scancelArgs (--signal=TERM), scancel sends that signal alone, to
// the job's steps only: td2048 must run as one to see it, and the task
// then fails, its games recorded.
func stopTask(t *testing.T, c *slurmCluster, array string, k int, progress string, scancelArgs ...string) int {
	t.Helper()
	waitUntil(t, 120*time.Second, "task "+fmt.Sprint(k)+"'s first record", func() bool {
		_, err := os.Stat(progress)
		return err == nil
	})
	c.must(t, nil, "scancel", append(scancelArgs, fmt.Sprintf("%s_%d", array, k))...)
	states := c.ended(t, array, 120*time.Second)
	want := "CANCELLED"
	if len(scancelArgs) > 0 {
		want = "FAILED"
	}
	if st := states[fmt.Sprint(k)]; st != want {
		t.Fatalf("task %d ended %s (the tasks: %v), not %s: too short for this machine?\n%s", k, st, states, want, c.logs())
	}
	p, err := evalresult.ReadProgress(progress)
	if err != nil {
		t.Fatal(err)
	}
	if res := strings.TrimSuffix(progress, ".progress"); fileExists(res) {
		t.Fatalf("the stopped task wrote %s", res)
	}
	return p.Done.Count
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// slurmScript runs a deploy/slurm script with args outside Slurm, as a
// task would run it, with td2048 this test binary, in dir.
func slurmScript(t *testing.T, dir, script string, args []string, env ...string) (string, error) {
	t.Helper()
	cmd := exec.Command("bash", append([]string{filepath.Join(slurmDeploy(t), script)}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "TD2048="+os.Args[0], "TD2048_BE_MAIN=1", "SLURM_CPUS_PER_TASK=1"), env...)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// The job scripts run as Slurm runs them (its variables set by hand):
// the task's index is the shard's or the plan task's whatever the array
// (a lone --array=2 used to play all the games as shard 0 of 1, and the
// sweep's --array=3 to run task 0); logs per attempt; the merge's stale
// result; the sweep's --cpus-per-task.
func TestSlurmScriptsAsTasks(t *testing.T) {
	dir := t.TempDir()
	w := filepath.Join(dir, "w.td2048")
	if code, _, errb := runCmd(t, "train", "--network", "2x4", "--episodes", "300", "--seed", "1", "--threads", "1", "--save", w, "--log", "none"); code != 0 {
		t.Fatal(errb)
	}
	out := filepath.Join(dir, "out")
	eval := []string{"SHARDS=4", "WEIGHTS=" + w, "GAMES=200", "SEED=9", "OUT=" + out, "SLURM_JOB_NAME=td2048-eval", "SLURM_ARRAY_JOB_ID=77"}
	lone := func(k int) []string {
		return append(eval, fmt.Sprintf("SLURM_ARRAY_TASK_ID=%d", k), fmt.Sprintf("SLURM_ARRAY_TASK_MIN=%d", k), fmt.Sprintf("SLURM_ARRAY_TASK_MAX=%d", k), "SLURM_ARRAY_TASK_COUNT=1")
	}

	t.Run("a shard alone in its array", func(t *testing.T) {
		o, err := slurmScript(t, dir, "eval-array.sbatch", nil, lone(2)...)
		if err != nil {
			t.Fatalf("%v\n%s", err, o)
		}
		r, err := evalresult.Read(filepath.Join(out, "part-2.json"))
		if err != nil || r.ShardK != 2 || r.ShardN != 4 || r.First != 100 || r.Count != 50 {
			t.Errorf("part-2.json: shard %d/%d, games %d.. (%d), %v; want shard 2/4, games 100..149", r.ShardK, r.ShardN, r.First, r.Count, err)
		}
		if !strings.Contains(o, "shard 2/4, attempt 0") || !strings.Contains(o, "output in logs/td2048-eval-77_2.attempt-0.log") {
			t.Errorf("the task's own output: %s", o)
		}
		mustContain(t, filepath.Join(dir, "logs", "td2048-eval-77_2.attempt-0.log"), "shard = 2/4: games 100..149 of 200")
		// A requeued attempt logs apart.
		if o, err := slurmScript(t, dir, "eval-array.sbatch", nil, append(lone(2), "SLURM_RESTART_COUNT=1")...); err != nil {
			t.Fatalf("%v\n%s", err, o)
		}
		mustContain(t, filepath.Join(dir, "logs", "td2048-eval-77_2.attempt-1.log"), "shard = 2/4")
		if o, err := slurmScript(t, dir, "eval-array.sbatch", nil, slices.DeleteFunc(lone(3), func(s string) bool { return s == "SHARDS=4" })...); err == nil || !strings.Contains(o, "set SHARDS") {
			t.Errorf("a shard without SHARDS: %v %s", err, o)
		}
		// A binary or weights the node does not see: one line naming the
		// shared file system, and a usage error's status (not retried).
		for _, bad := range []string{"TD2048=/no/such/td2048", "WEIGHTS=/no/such/w.td2048"} {
			o, err := slurmScript(t, dir, "eval-array.sbatch", nil, append(lone(3), bad, "SLURM_RESTART_COUNT=7")...)
			ee, _ := err.(*exec.ExitError)
			if ee == nil || ee.ExitCode() != 2 {
				t.Errorf("%s: %v %s", bad, err, o)
			}
			mustContain(t, filepath.Join(dir, "logs", "td2048-eval-77_3.attempt-7.log"), bad+": no such ", "every node mounts")
		}
	})

	t.Run("a failed merge leaves no merged result", func(t *testing.T) {
		for _, k := range []int{0, 1, 3} {
			if o, err := slurmScript(t, dir, "eval-array.sbatch", nil, lone(k)...); err != nil {
				t.Fatalf("%v\n%s", err, o)
			}
		}
		o, err := slurmScript(t, dir, "merge.sbatch", nil, "OUT="+out)
		if err != nil {
			t.Fatalf("%v\n%s", err, o)
		}
		code, whole, errb := runCmd(t, "eval", "--load", w, "--games", "200", "--seed", "9")
		if code != 0 {
			t.Fatal(errb)
		}
		if statsPart(t, o) != statsPart(t, whole) {
			t.Errorf("merged:\n%s\nwant:\n%s", o, whole)
		}
		os.Remove(filepath.Join(out, "part-3.json"))
		if o, err := slurmScript(t, dir, "merge.sbatch", nil, "OUT="+out); err == nil || !strings.Contains(o, "missing 3/4") {
			t.Errorf("the merge of 3 shards of 4: %v\n%s", err, o)
		}
		for _, f := range []string{"merged.json", "merged.txt", ".merged.txt.part"} {
			if _, err := os.Stat(filepath.Join(out, f)); err == nil {
				t.Errorf("%s is left after a failed merge", f)
			}
		}
	})

	t.Run("a sweep task alone in its array", func(t *testing.T) {
		plan := filepath.Join(dir, "plan.toml")
		os.WriteFile(plan, []byte(`out = "sweep"
[train]
network = "2x4"
episodes = 200
every = 100
[grid]
alpha = [0.1, 0.05]
seed = [1, 2]
[eval]
games = 10
`), 0o644)
		o, err := slurmScript(t, dir, "sweep-array.sbatch", nil, "PLAN="+plan, "SLURM_JOB_NAME=td2048-sweep", "SLURM_ARRAY_JOB_ID=78",
			"SLURM_ARRAY_TASK_ID=3", "SLURM_ARRAY_TASK_MIN=3", "SLURM_ARRAY_TASK_MAX=3", "SLURM_ARRAY_TASK_COUNT=1")
		if err != nil {
			t.Fatalf("%v\n%s", err, o)
		}
		if _, err := evalresult.Read(filepath.Join(dir, "sweep", "task-003", "eval.json")); err != nil {
			t.Errorf("task 3 did not run: %v", err)
		}
		if _, err := os.Stat(filepath.Join(dir, "sweep", "task-000")); err == nil {
			t.Error("task 0 ran")
		}
		// The plan gives no threads: the task trains on its one CPU.
		mustContain(t, filepath.Join(dir, "logs", "td2048-sweep-78_3.attempt-0.log"), "task 3 of 4 (alpha=0.05 seed=2)", "\nthreads = 1\n")
	})

	t.Run("submit-eval.sh wants a new OUT", func(t *testing.T) {
		o, err := slurmScript(t, dir, "submit-eval.sh", nil, "WEIGHTS="+w, "OUT="+out)
		if err == nil || !strings.Contains(o, "holds files already") {
			t.Errorf("%v %s", err, o)
		}
	})
}

// fakeSlurm puts on PATH an sbatch that logs its arguments and prints job
// ids from 100 up, and an squeue that prints the comments in queue.
func fakeSlurm(t *testing.T, queue string) (logPath string) {
	t.Helper()
	dir := t.TempDir()
	logPath = filepath.Join(dir, "sbatch.log")
	os.WriteFile(filepath.Join(dir, "queue"), []byte(queue), 0o644)
	os.WriteFile(filepath.Join(dir, "sbatch"), []byte(`#!/bin/sh
n=$(cat `+logPath+` 2>/dev/null | wc -l)
echo "$*" >> `+logPath+`
echo "$TD2048" >> `+logPath+`.td2048
echo $((100 + n))
`), 0o755)
	os.WriteFile(filepath.Join(dir, "squeue"), []byte("#!/bin/sh\ncat "+filepath.Join(dir, "queue")+"\n"), 0o755)
	t.Setenv("PATH", dir+":"+os.Getenv("PATH"))
	return logPath
}

// resubmit.sh's choice of tasks and of options, with a stand-in sbatch.
func TestSlurmResubmitChoosesTasks(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	os.MkdirAll(out, 0o755)
	os.WriteFile(filepath.Join(out, "submit.env"), []byte("SHARDS=10\nWEIGHTS=/w.td2048\nGAMES=1000\nDEPTH=1\nSEED=1\nSTATS=no\nEVAL_ARGS=''\nMERGE_ARGS=''\n"), 0o644)
	for _, k := range []int{3, 4, 6, 9} {
		os.WriteFile(filepath.Join(out, fmt.Sprintf("part-%d.json", k)), nil, 0o644)
	}
	calls := func(log string) []string {
		b, _ := os.ReadFile(log)
		return strings.Split(strings.TrimSpace(string(b)), "\n")
	}

	log := fakeSlurm(t, "")
	t.Setenv("MERGE_SBATCH", "--time=5")
	o, err := slurmScript(t, dir, "resubmit.sh", []string{out, "--time=60", "--mem=1G"})
	if err != nil || strings.TrimSpace(o) != "100 101" {
		t.Fatalf("%v %q", err, o)
	}
	cs := calls(log)
	if len(cs) != 2 || !strings.Contains(cs[0], "--time=60 --mem=1G --array=0-2,5,7-8 ") || !strings.HasSuffix(cs[0], "eval-array.sbatch") ||
		!strings.Contains(cs[0], "--comment=td2048 eval "+out) {
		t.Errorf("the array's submission: %q", cs)
	}
	if len(cs) == 2 && (!strings.Contains(cs[1], "--dependency=afterok:100 --kill-on-invalid-dep=yes --time=5 ") || strings.Contains(cs[1], "--time=60") ||
		!strings.HasSuffix(cs[1], "merge.sbatch")) {
		t.Errorf("the merge's submission, with MERGE_SBATCH and not the array's options: %q", cs[1])
	}

	t.Setenv("MERGE_SBATCH", "")
	for _, k := range []int{0, 1, 2, 5, 7, 8} {
		os.WriteFile(filepath.Join(out, fmt.Sprintf("part-%d.json", k)), nil, 0o644)
	}
	log = fakeSlurm(t, "")
	if o, err := slurmScript(t, dir, "resubmit.sh", []string{out}); err != nil || strings.TrimSpace(o) != "none 100" {
		t.Errorf("with every shard done: %v %q", err, o)
	}
	if cs := calls(log); len(cs) != 1 || strings.Contains(cs[0], "dependency") || !strings.HasSuffix(cs[0], "merge.sbatch") {
		t.Errorf("with every shard done, the merge alone: %q", cs)
	}

	fakeSlurm(t, "td2048 eval "+out+"\n")
	if o, err := slurmScript(t, dir, "resubmit.sh", []string{out}); err == nil || !strings.Contains(o, "still queued or running") {
		t.Errorf("while its jobs are queued: %v %q", err, o)
	}

	// The binary submit.env keeps is the one the resubmitted jobs run,
	// whatever TD2048 says at the resubmission (it used to be that one,
	// and another build's shards were refused).
	os.WriteFile(filepath.Join(out, "submit.env"), []byte("SHARDS=10\nWEIGHTS=/w.td2048\nGAMES=1000\nDEPTH=1\nSEED=1\nSTATS=no\nEVAL_ARGS=''\nMERGE_ARGS=''\nTD2048="+os.Args[0]+"\n"), 0o644)
	log = fakeSlurm(t, "")
	if o, err := slurmScript(t, dir, "resubmit.sh", []string{out}, "TD2048=/elsewhere/td2048"); err != nil {
		t.Errorf("%v %q", err, o)
	} else if b, _ := os.ReadFile(log + ".td2048"); strings.TrimSpace(string(b)) != os.Args[0] {
		t.Errorf("the jobs got TD2048=%q, want submit.env's %s", b, os.Args[0])
	}

	plan := filepath.Join(dir, "plan.toml")
	os.WriteFile(plan, []byte("out = \"sw\"\n[train]\nnetwork = \"2x4\"\n[grid]\nseed = [1, 2, 3, 4, 5]\n"), 0o644)
	for _, k := range []int{1, 2} {
		os.MkdirAll(filepath.Join(dir, "sw", fmt.Sprintf("task-%03d", k)), 0o755)
		os.WriteFile(filepath.Join(dir, "sw", fmt.Sprintf("task-%03d", k), "eval.json"), nil, 0o644)
	}
	log = fakeSlurm(t, "")
	if o, err := slurmScript(t, dir, "submit-sweep.sh", nil, "PLAN=plan.toml", "MAX_RUNNING=2", "REPORT_SBATCH=--time=3"); err != nil || strings.TrimSpace(o) != "100 101" {
		t.Fatalf("%v %q", err, o)
	}
	if cs := calls(log); len(cs) != 2 || !strings.Contains(cs[0], "--array=0,3-4%2 ") || !strings.Contains(cs[0], "--comment=td2048 sweep "+plan) ||
		!strings.HasSuffix(cs[1], " --time=3 "+filepath.Join(slurmDeploy(t), "sweep-report.sbatch")) {
		t.Errorf("the sweep's submissions: %q", cs)
	}
	// A sweep resubmitted with another td2048 runs the first one's, kept
	// in the sweep's folder.
	other := filepath.Join(t.TempDir(), "td2048")
	os.Symlink(os.Args[0], other)
	log = fakeSlurm(t, "")
	if o, err := slurmScript(t, dir, "resubmit.sh", []string{"plan.toml"}, "TD2048="+other); err != nil {
		t.Fatalf("%v %q", err, o)
	}
	if b, _ := os.ReadFile(log + ".td2048"); strings.TrimSpace(strings.Split(string(b), "\n")[0]) != os.Args[0] {
		t.Errorf("the resubmitted sweep's jobs got TD2048=%q, want the first submission's %s", b, os.Args[0])
	}
}

// The scripts check the binary, the output folder and the logs folder
// before they submit anything (a wrong binary was found only when every
// shard failed with status 127), and submit-eval.sh keeps the binary's
// absolute path in submit.env.
func TestSlurmSubmitChecksFirst(t *testing.T) {
	dir := t.TempDir()
	w := filepath.Join(dir, "w.td2048")
	os.WriteFile(w, []byte("weights"), 0o644)
	notDir := filepath.Join(dir, "file")
	os.WriteFile(notDir, nil, 0o644)
	plan := filepath.Join(dir, "plan.toml")
	os.WriteFile(plan, []byte("out = \"sw\"\n[train]\nnetwork = \"2x4\"\n[grid]\nseed = [1, 2]\n"), 0o644)
	for _, tc := range []struct {
		name, script string
		env          []string
		want         string
	}{
		{"no such binary", "submit-eval.sh", []string{"TD2048=/no/such/td2048"}, "TD2048=/no/such/td2048: no such executable"},
		{"not td2048", "submit-eval.sh", []string{"TD2048=true"}, "/true is not td2048"},
		{"a binary that fails", "submit-eval.sh", []string{"TD2048=false"}, "/false does not run here"},
		{"logs not a folder", "submit-eval.sh", []string{"LOGS=" + notDir}, "LOGS=" + notDir + ": cannot make or write that folder"},
		{"OUT not a folder", "submit-eval.sh", []string{"OUT=" + notDir}, "OUT=" + notDir + " is not a folder"},
		{"sweep: no such binary", "submit-sweep.sh", []string{"TD2048=/no/such/td2048", "PLAN=" + plan}, "TD2048=/no/such/td2048: no such executable"},
		{"sweep: logs not a folder", "submit-sweep.sh", []string{"LOGS=" + notDir, "PLAN=" + plan}, "cannot make or write that folder"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			log := fakeSlurm(t, "")
			env := append([]string{"WEIGHTS=" + w, "OUT=" + out}, tc.env...)
			o, err := slurmScript(t, dir, tc.script, nil, env...)
			if err == nil || !strings.Contains(o, tc.want) {
				t.Errorf("%v %q; want %q", err, o, tc.want)
			}
			if _, err := os.Stat(log); err == nil {
				t.Error("it submitted jobs")
			}
			if _, err := os.Stat(out); err == nil {
				t.Error("it made OUT, which a corrected submission then refuses")
			}
		})
	}

	// A good submission keeps the binary's absolute path.
	out := filepath.Join(dir, "out")
	fakeSlurm(t, "")
	bin := filepath.Join(dir, "bin")
	os.MkdirAll(bin, 0o755)
	os.Symlink(os.Args[0], filepath.Join(bin, "td2048"))
	t.Setenv("PATH", bin+":"+os.Getenv("PATH"))
	if o, err := slurmScript(t, dir, "submit-eval.sh", nil, "WEIGHTS="+w, "OUT="+out, "TD2048=td2048"); err != nil {
		t.Fatalf("%v %s", err, o)
	}
	mustContain(t, filepath.Join(out, "submit.env"), "\nTD2048="+filepath.Join(bin, "td2048")+"\n")
}
