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
	"strings"
	"testing"
	"time"

	"github.com/td2048/td2048/evalresult"
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
NodeName=localhost CPUs=2 State=UNKNOWN
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
				outs, _ := filepath.Glob(filepath.Join(c.dir, "*.out"))
				var logs string
				for _, o := range outs {
					b, _ := os.ReadFile(o)
					logs += o + ":\n" + tail(string(b), 1500) + "\n"
				}
				t.Fatalf("job %s: %s\n%s\n%s", id, m[1], out, logs)
			}
		}
		return done
	})
}

func TestSlurmCluster(t *testing.T) {
	needSlurm(t)
	c := startSlurm(t)
	deploy, err := filepath.Abs(filepath.Join("..", "..", "deploy", "slurm"))
	if err != nil {
		t.Fatal(err)
	}

	t.Run("sharded eval", func(t *testing.T) {
		w := filepath.Join(c.dir, "tiny.td2048")
		if code, _, errb := runCmd(t, "train", "--network", "2x4", "--episodes", "300", "--seed", "1", "--threads", "1", "--save", w, "--log", "none"); code != 0 {
			t.Fatal(errb)
		}
		code, whole, errb := runCmd(t, "eval", "--load", w, "--games", "200", "--depth", "2", "--seed", "9", "--threads", "2")
		if code != 0 {
			t.Fatal(errb)
		}
		out := filepath.Join(c.dir, "eval-out")
		ids := strings.Fields(c.must(t, []string{"SHARDS=4", "WEIGHTS=" + w, "GAMES=200", "DEPTH=2", "SEED=9", "OUT=" + out},
			filepath.Join(deploy, "submit-eval.sh")))
		if len(ids) != 2 {
			t.Fatalf("submit-eval.sh printed %q", ids)
		}
		c.wait(t, ids[0], 60*time.Second)
		c.wait(t, ids[1], 30*time.Second)
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
			if err != nil || r.ShardK != k || r.ShardN != 4 || r.Count != 50 {
				t.Errorf("part %d: %+v %v", k, r, err)
			}
		}
	})

	t.Run("sweep with a requeue", func(t *testing.T) {
		plan := filepath.Join(c.dir, "plan.toml")
		// Tasks 0-2 are quick; task 3 trains long enough to be requeued
		// after its first checkpoint.
		os.WriteFile(plan, []byte(`out = "sweep"
[train]
network = "2x4"
episodes = 1000
every = 500
threads = 1
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
		ids := strings.Fields(c.must(t, []string{"PLAN=" + plan}, filepath.Join(deploy, "submit-sweep.sh")))
		if len(ids) != 2 {
			t.Fatalf("submit-sweep.sh printed %q", ids)
		}
		long := filepath.Join(c.dir, "sweep", "task-003")
		waitUntil(t, 60*time.Second, "task 3's first checkpoint", func() bool {
			h, err := netfile.ReadHeader(filepath.Join(long, "weights.td2048"))
			return err == nil && h.Episodes > 0
		})
		task := ids[0] + "_3"
		c.must(t, nil, "scontrol", "requeue", task)
		// A requeued job may start again once its credential has expired
		// (cred_expire=5 above; Slurm's default is two minutes): starting
		// it sooner (scontrol update StartTime=now) kills it at launch.
		c.wait(t, ids[0], 90*time.Second)
		c.wait(t, ids[1], 30*time.Second)
		log, _ := os.ReadFile(filepath.Join(long, "train.txt"))
		if !regexp.MustCompile(`resuming from .*weights.td2048 \([1-9]\d* episodes done\)`).Match(log) {
			t.Errorf("task 3 did not resume after its requeue:\n%s", tail(string(log), 2000))
		}
		if _, err := evalresult.Read(filepath.Join(long, "eval.json")); err != nil {
			t.Error(err)
		}
		h, err := netfile.ReadHeader(filepath.Join(long, "weights.td2048"))
		if err != nil || h.Episodes != 30000 {
			t.Errorf("task 3 ended at %d episodes (%v), want 30000", h.Episodes, err)
		}
		reports, _ := filepath.Glob(filepath.Join(c.dir, "td2048-report-*.out"))
		if len(reports) != 1 {
			t.Fatalf("report outputs: %v", reports)
		}
		report, _ := os.ReadFile(reports[0])
		if !strings.Contains(string(report), "4 of 4 tasks done") {
			t.Errorf("report:\n%s", report)
		}
		// A finished task run again does nothing.
		t.Setenv("SLURM_ARRAY_TASK_ID", "3")
		t.Setenv("SLURM_ARRAY_TASK_COUNT", "4")
		code, out, errb := runCmd(t, "sweep", "run", plan, "--task", "auto")
		if code != 0 || !strings.Contains(out, "task 3 (episodes=30000 ") || !strings.Contains(out, "is done") {
			t.Errorf("rerun of a finished task: %d %q %q", code, out, errb)
		}
	})
}
