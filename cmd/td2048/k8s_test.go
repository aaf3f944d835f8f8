package main

// deploy/k8s: the manifests decoded strictly into Kubernetes' own API
// types and checked for what a managed cluster needs (an image the user
// names, a pull policy, a Pod that is not root, resources, a volume the
// default storage class provides); their Pods' commands run here as an
// Indexed Job would run them (one shell per index with
// JOB_COMPLETION_INDEX set, /data a temporary folder); wait-job.sh against
// a stand-in kubectl; and the image's build context and build line.

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/moby/patternmatcher"
	"github.com/moby/patternmatcher/ignorefile"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8slabels "k8s.io/apimachinery/pkg/labels"
	"sigs.k8s.io/yaml"
)

// k8sImage is the image reference of every manifest, which the user's
// sed line replaces with the pushed image's.
const k8sImage = "REGISTRY/td2048:VERSION"

// k8sDir is deploy/k8s.
var k8sDir = filepath.Join("..", "..", "deploy", "k8s")

// decodeManifest decodes deploy/k8s/name strictly into T: an unknown or
// repeated field is an error, as kubectl apply's strict validation makes
// it.
func decodeManifest[T any](t *testing.T, name string) *T {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(k8sDir, name))
	if err != nil {
		t.Fatal(err)
	}
	var v T
	if err := yaml.UnmarshalStrict(data, &v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return &v
}

// k8sManifests are deploy/k8s's manifests by kind.
type k8sManifests struct {
	jobs map[string]*batchv1.Job // by file name
	pods map[string]*corev1.Pod
	pvc  *corev1.PersistentVolumeClaim
}

func readK8s(t *testing.T) *k8sManifests {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(k8sDir, "*.yaml"))
	if err != nil || len(names) == 0 {
		t.Fatalf("no manifests in %s: %v", k8sDir, err)
	}
	m := &k8sManifests{jobs: map[string]*batchv1.Job{}, pods: map[string]*corev1.Pod{}}
	for _, path := range names {
		name := filepath.Base(path)
		var tm metav1.TypeMeta
		data, _ := os.ReadFile(path)
		if err := yaml.Unmarshal(data, &tm); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		switch tm.APIVersion + " " + tm.Kind {
		case "batch/v1 Job":
			m.jobs[name] = decodeManifest[batchv1.Job](t, name)
		case "v1 Pod":
			m.pods[name] = decodeManifest[corev1.Pod](t, name)
		case "v1 PersistentVolumeClaim":
			if m.pvc != nil {
				t.Fatalf("%s: a second volume claim", name)
			}
			m.pvc = decodeManifest[corev1.PersistentVolumeClaim](t, name)
		default:
			t.Fatalf("%s: %s %s is not a kind this test knows", name, tm.APIVersion, tm.Kind)
		}
	}
	if m.pvc == nil {
		t.Fatal("no PersistentVolumeClaim")
	}
	return m
}

func TestK8sManifestsDecodeStrictly(t *testing.T) {
	m := readK8s(t)
	for _, want := range []string{"eval-job.yaml", "merge-job.yaml", "sweep-job.yaml", "report-job.yaml"} {
		if m.jobs[want] == nil {
			t.Errorf("%s: no such Job", want)
		}
	}
	if m.pods["data-pod.yaml"] == nil {
		t.Error("data-pod.yaml: no such Pod")
	}
	// Strict: a misspelt field is refused, not dropped.
	data, _ := os.ReadFile(filepath.Join(k8sDir, "eval-job.yaml"))
	bad := strings.Replace(string(data), "imagePullPolicy:", "imagePullPolicyy:", 1)
	var j batchv1.Job
	if err := yaml.UnmarshalStrict([]byte(bad), &j); err == nil || !strings.Contains(err.Error(), "imagePullPolicyy") {
		t.Errorf("a misspelt field decoded: %v", err)
	}
}

// measuredMemory are the peak resident sizes measured (/usr/bin/time -v)
// of each Pod's command, for a 4x6 network (256 MB of weights): eval at 3
// plies with its 64 MB table, a sweep task training and evaluating, the
// merge, the report, and the data Pod's sleep and tar.
var measuredMemory = map[string]string{
	"eval-job.yaml":   "347M",
	"sweep-job.yaml":  "292M",
	"merge-job.yaml":  "17M",
	"report-job.yaml": "25M",
	"data-pod.yaml":   "3M",
}

// checkPod checks what every Pod needs on a managed cluster.
func checkPod(t *testing.T, name string, labels map[string]string, ps *corev1.PodSpec, pvc *corev1.PersistentVolumeClaim, user int64) {
	t.Helper()
	if len(ps.Containers) != 1 {
		t.Fatalf("%s: %d containers, want 1", name, len(ps.Containers))
	}
	c := ps.Containers[0]
	if c.Image != k8sImage {
		t.Errorf("%s: image %q, want the placeholder %s that the documented sed line replaces", name, c.Image, k8sImage)
	}
	if c.ImagePullPolicy != corev1.PullIfNotPresent {
		t.Errorf("%s: imagePullPolicy %q, want IfNotPresent (a tag per build)", name, c.ImagePullPolicy)
	}
	sc := ps.SecurityContext
	switch {
	case sc == nil:
		t.Errorf("%s: no Pod securityContext", name)
	case sc.RunAsNonRoot == nil || !*sc.RunAsNonRoot:
		t.Errorf("%s: runAsNonRoot not set", name)
	case sc.RunAsUser == nil || *sc.RunAsUser != user || sc.RunAsGroup == nil || *sc.RunAsGroup == 0:
		t.Errorf("%s: runAsUser %v runAsGroup %v, want the image's user %d and a group", name, sc.RunAsUser, sc.RunAsGroup, user)
	case sc.FSGroup == nil || *sc.FSGroup == 0:
		t.Errorf("%s: no fsGroup: the volume would not be the user's to write", name)
	case sc.SeccompProfile == nil || sc.SeccompProfile.Type != corev1.SeccompProfileTypeRuntimeDefault:
		t.Errorf("%s: seccomp profile not RuntimeDefault", name)
	}
	cs := c.SecurityContext
	switch {
	case cs == nil:
		t.Errorf("%s: no container securityContext", name)
	case cs.AllowPrivilegeEscalation == nil || *cs.AllowPrivilegeEscalation:
		t.Errorf("%s: allowPrivilegeEscalation not false", name)
	case cs.ReadOnlyRootFilesystem == nil || !*cs.ReadOnlyRootFilesystem:
		t.Errorf("%s: root filesystem not read-only (td2048 writes only to /data)", name)
	case cs.Privileged != nil && *cs.Privileged:
		t.Errorf("%s: privileged", name)
	case cs.Capabilities == nil || !slices.Contains(cs.Capabilities.Drop, "ALL"):
		t.Errorf("%s: capabilities not all dropped", name)
	}
	for _, r := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory} {
		req, okr := c.Resources.Requests[r]
		lim, okl := c.Resources.Limits[r]
		if !okr || !okl {
			t.Errorf("%s: %s request or limit not set", name, r)
		} else if req.Cmp(lim) > 0 {
			t.Errorf("%s: %s request %s above its limit %s", name, r, req.String(), lim.String())
		}
	}
	if m, ok := measuredMemory[name]; !ok {
		t.Errorf("%s: no measured memory", name)
	} else {
		peak := resource.MustParse(m)
		req, lim := c.Resources.Requests[corev1.ResourceMemory], c.Resources.Limits[corev1.ResourceMemory]
		margin := peak.DeepCopy()
		margin.Set(peak.Value() * 5 / 4)
		if req.Cmp(peak) < 0 || lim.Cmp(margin) < 0 {
			t.Errorf("%s: memory request %s and limit %s, want at least the measured %s and a quarter more", name, req.String(), lim.String(), m)
		}
	}
	if len(ps.Volumes) != 1 || ps.Volumes[0].PersistentVolumeClaim == nil || ps.Volumes[0].PersistentVolumeClaim.ClaimName != pvc.Name {
		t.Errorf("%s: want the one volume claim %s", name, pvc.Name)
	}
	if len(c.VolumeMounts) != 1 || c.VolumeMounts[0].MountPath != "/data" || len(ps.Volumes) == 1 && c.VolumeMounts[0].Name != ps.Volumes[0].Name {
		t.Errorf("%s: the volume is not mounted at /data: %+v", name, c.VolumeMounts)
	}
	// A ReadWriteOnce volume is on one node at a time: the Pods must
	// join each other there.
	if slices.Contains(pvc.Spec.AccessModes, corev1.ReadWriteOnce) {
		ok := false
		if a := ps.Affinity; a != nil && a.PodAffinity != nil {
			for _, term := range a.PodAffinity.RequiredDuringSchedulingIgnoredDuringExecution {
				sel, err := metav1.LabelSelectorAsSelector(term.LabelSelector)
				if err == nil && term.TopologyKey == "kubernetes.io/hostname" && sel.Matches(k8slabels.Set(labels)) {
					ok = true
				}
			}
		}
		if !ok {
			t.Errorf("%s: with a ReadWriteOnce volume the Pod needs a required podAffinity on kubernetes.io/hostname that its own labels match", name)
		}
	}
}

// dockerUser is the numeric user of deploy/k8s/Dockerfile's last USER.
func dockerUser(t *testing.T) int64 {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(k8sDir, "Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	ms := regexp.MustCompile(`(?m)^USER (\d+)(:\d+)?$`).FindAllStringSubmatch(string(data), -1)
	if len(ms) == 0 {
		t.Fatal("Dockerfile: no numeric USER: the image would run as root")
	}
	u, _ := strconv.ParseInt(ms[len(ms)-1][1], 10, 64)
	if u == 0 {
		t.Fatal("Dockerfile: USER 0")
	}
	return u
}

func TestK8sPodsRunSafely(t *testing.T) {
	m := readK8s(t)
	user := dockerUser(t)
	if !slices.Equal(m.pvc.Spec.AccessModes, []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce}) || m.pvc.Spec.StorageClassName != nil {
		t.Errorf("pvc.yaml: %v of class %v; want ReadWriteOnce of the default class, which every managed cluster provides", m.pvc.Spec.AccessModes, m.pvc.Spec.StorageClassName)
	}
	if _, ok := m.pvc.Spec.Resources.Requests[corev1.ResourceStorage]; !ok {
		t.Error("pvc.yaml: no storage request")
	}
	for name, p := range m.pods {
		checkPod(t, name, p.Labels, &p.Spec, m.pvc, user)
	}
	for name, j := range m.jobs {
		checkPod(t, name, j.Spec.Template.Labels, &j.Spec.Template.Spec, m.pvc, user)
		if j.Spec.Template.Spec.RestartPolicy != corev1.RestartPolicyNever {
			t.Errorf("%s: restartPolicy %q, want Never", name, j.Spec.Template.Spec.RestartPolicy)
		}
		if j.Spec.CompletionMode != nil && *j.Spec.CompletionMode == batchv1.IndexedCompletion {
			checkIndexed(t, name, j)
		} else if j.Spec.BackoffLimit == nil {
			t.Errorf("%s: no backoffLimit", name)
		}
		// The bounded wait: the manifest's steps wait for the Job with
		// wait-job.sh and a timeout.
		data, _ := os.ReadFile(filepath.Join(k8sDir, name))
		if !regexp.MustCompile(`deploy/k8s/wait-job\.sh ` + regexp.QuoteMeta(j.Name) + ` \d+[smh]\b`).Match(data) {
			t.Errorf("%s: its steps do not wait for job/%s with deploy/k8s/wait-job.sh and a timeout", name, j.Name)
		}
		if !strings.Contains(string(data), `sed "s|`+k8sImage+`|$IMAGE|" deploy/k8s/`+name+` | kubectl apply -f -`) {
			t.Errorf("%s: its steps do not apply it with the image set", name)
		}
	}
}

// checkIndexed checks an Indexed Job's retries: per index, preemption
// not counted, a usage error not retried.
func checkIndexed(t *testing.T, name string, j *batchv1.Job) {
	t.Helper()
	if j.Spec.BackoffLimitPerIndex == nil || j.Spec.Completions == nil || j.Spec.Parallelism == nil {
		t.Errorf("%s: an Indexed Job wants completions, parallelism and backoffLimitPerIndex", name)
	}
	var ignores, failsIndex bool
	if p := j.Spec.PodFailurePolicy; p != nil {
		for _, r := range p.Rules {
			for _, c := range r.OnPodConditions {
				if r.Action == batchv1.PodFailurePolicyActionIgnore && c.Type == corev1.DisruptionTarget {
					ignores = true
				}
			}
			if e := r.OnExitCodes; e != nil && r.Action == batchv1.PodFailurePolicyActionFailIndex && e.Operator == batchv1.PodFailurePolicyOnExitCodesOpIn &&
				slices.Contains(e.Values, 2) && e.ContainerName != nil && *e.ContainerName == j.Spec.Template.Spec.Containers[0].Name {
				failsIndex = true
			}
		}
	}
	if !ignores || !failsIndex {
		t.Errorf("%s: podFailurePolicy should ignore disruptions (%v) and fail the index on a usage error, exit status 2 (%v)", name, ignores, failsIndex)
	}
}

// podRunner runs the Pods' commands with /data at data, td2048 being this
// test binary, in a working folder, HOME and TMPDIR of their own that
// must stay empty (the root filesystem is read-only).
type podRunner struct {
	data, bin, work string
}

func newPodRunner(t *testing.T) *podRunner {
	t.Helper()
	bin := t.TempDir()
	script := fmt.Sprintf("#!/bin/sh\nTD2048_BE_MAIN=1 exec %s \"$@\"\n", strconv.Quote(os.Args[0]))
	if err := os.WriteFile(filepath.Join(bin, "td2048"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return &podRunner{data: t.TempDir(), bin: bin, work: t.TempDir()}
}

// run runs index k of job (-1 for a Job that is not Indexed), with the
// env values of override replacing the manifest's.
func (p *podRunner) run(job *batchv1.Job, k int, override map[string]string) (string, error) {
	c := job.Spec.Template.Spec.Containers[0]
	if len(c.Command) != 2 || c.Command[0] != "sh" || c.Command[1] != "-c" || len(c.Args) != 1 {
		return "", fmt.Errorf("%s: want command sh -c and one script, not %q %q", job.Name, c.Command, c.Args)
	}
	env := append(os.Environ(), "PATH="+p.bin+":"+os.Getenv("PATH"), "HOME="+p.work, "TMPDIR="+p.work)
	for _, e := range c.Env {
		v := e.Value
		if o, ok := override[e.Name]; ok {
			v = o
		}
		env = append(env, e.Name+"="+strings.ReplaceAll(v, "/data", p.data))
	}
	if k >= 0 {
		env = append(env, "JOB_COMPLETION_INDEX="+strconv.Itoa(k))
	}
	cmd := exec.Command("sh", "-c", strings.ReplaceAll(c.Args[0], "/data", p.data))
	cmd.Env, cmd.Dir = env, p.work
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// runAll runs every index of job (one run for a Job that is not Indexed)
// and returns the Pods' outputs.
func (p *podRunner) runAll(t *testing.T, job *batchv1.Job, override map[string]string) []string {
	t.Helper()
	ks := []int{-1}
	if job.Spec.CompletionMode != nil && *job.Spec.CompletionMode == batchv1.IndexedCompletion {
		ks = nil
		for k := range int(*job.Spec.Completions) {
			ks = append(ks, k)
		}
	}
	var outs []string
	for _, k := range ks {
		out, err := p.run(job, k, override)
		if err != nil {
			t.Fatalf("%s, index %d: %v\n%s", job.Name, k, err, out)
		}
		outs = append(outs, out)
	}
	return outs
}

func envOf(j *batchv1.Job, name string) string {
	for _, e := range j.Spec.Template.Spec.Containers[0].Env {
		if e.Name == name {
			return e.Value
		}
	}
	return ""
}

func TestK8sJobsRunAsIndexedJobs(t *testing.T) {
	t.Parallel()
	m := readK8s(t)
	p := newPodRunner(t)
	eval, merge := m.jobs["eval-job.yaml"], m.jobs["merge-job.yaml"]
	w := strings.ReplaceAll(envOf(eval, "WEIGHTS"), "/data", p.data)
	if code, _, errb := runCmd(t, "train", "--network", "2x4", "--episodes", "300", "--seed", "1", "--threads", "1", "--save", w, "--log", "none"); code != 0 {
		t.Fatal(errb)
	}
	if eval.Spec.Completions == nil || envOf(eval, "TD2048_SHARDS") != strconv.Itoa(int(*eval.Spec.Completions)) {
		t.Fatalf("eval-job.yaml: TD2048_SHARDS %q must be the completions of the Indexed Job", envOf(eval, "TD2048_SHARDS"))
	}
	if envOf(eval, "OUT") == "" || envOf(eval, "OUT") != envOf(merge, "OUT") {
		t.Fatalf("eval-job.yaml and merge-job.yaml have OUT %q and %q", envOf(eval, "OUT"), envOf(merge, "OUT"))
	}
	out := strings.ReplaceAll(envOf(eval, "OUT"), "/data", p.data)
	settings := map[string]string{"GAMES": "60", "DEPTH": "2", "SEED": "5"}
	p.runAll(t, eval, settings)
	code, whole, errb := runCmd(t, "eval", "--load", w, "--games", "60", "--depth", "2", "--seed", "5")
	if code != 0 {
		t.Fatal(errb)
	}
	got := p.runAll(t, merge, nil)[0]
	if statsPart(t, got) != statsPart(t, whole) {
		t.Errorf("merge Job printed:\n%s\nwant (one process):\n%s", got, whole)
	}
	if txt, err := os.ReadFile(filepath.Join(out, "merged.txt")); err != nil || string(txt) != got {
		t.Errorf("merged.txt is not what the merge printed: %v", err)
	}

	t.Run("a rerun plays only the missing shards", func(t *testing.T) {
		part2 := filepath.Join(out, "part-2.json")
		before, _ := os.ReadFile(filepath.Join(out, "part-1.json"))
		os.Remove(part2)
		outs := p.runAll(t, eval, settings)
		if !strings.Contains(outs[1], "done already") || strings.Contains(outs[2], "done already") {
			t.Errorf("rerun: index 1 said %q, index 2 %q", outs[1], outs[2])
		}
		after, _ := os.ReadFile(filepath.Join(out, "part-1.json"))
		if string(before) != string(after) {
			t.Error("the finished shard 1 was played again")
		}
		if _, err := os.Stat(part2); err != nil {
			t.Error(err)
		}
	})

	t.Run("another evaluation over an old folder is refused, not skipped", func(t *testing.T) {
		// New weights, games and seed into the folder of the evaluation
		// above: the Pod's shell used to skip every index whose part file
		// was there, and the merge printed the old evaluation's statistics.
		w2 := filepath.Join(p.data, "other.td2048")
		if code, _, errb := runCmd(t, "train", "--network", "2x4", "--episodes", "200", "--seed", "2", "--threads", "1", "--save", w2, "--log", "none"); code != 0 {
			t.Fatal(errb)
		}
		before, _ := os.ReadFile(filepath.Join(out, "part-0.json"))
		for k := range int(*eval.Spec.Completions) {
			o, err := p.run(eval, k, map[string]string{"WEIGHTS": w2, "GAMES": "80", "DEPTH": "2", "SEED": "6"})
			if err == nil || !strings.Contains(o, "holds the result of another evaluation") {
				t.Errorf("index %d over the old folder: %v\n%s", k, err, o)
			}
		}
		if after, _ := os.ReadFile(filepath.Join(out, "part-0.json")); string(before) != string(after) {
			t.Error("the old evaluation's part file changed")
		}
	})

	t.Run("a failed merge leaves no merged result", func(t *testing.T) {
		os.Remove(filepath.Join(out, "part-3.json"))
		if o, err := p.run(merge, -1, nil); err == nil {
			t.Fatalf("the merge of 3 shards of 4 succeeded:\n%s", o)
		}
		for _, f := range []string{"merged.json", "merged.txt", ".merged.txt.part"} {
			if _, err := os.Stat(filepath.Join(out, f)); err == nil {
				t.Errorf("%s is left from the earlier merge", f)
			}
		}
	})

	sweepJob, report := m.jobs["sweep-job.yaml"], m.jobs["report-job.yaml"]
	if envOf(sweepJob, "PLAN") == "" || envOf(sweepJob, "PLAN") != envOf(report, "PLAN") {
		t.Fatalf("sweep-job.yaml and report-job.yaml have PLAN %q and %q", envOf(sweepJob, "PLAN"), envOf(report, "PLAN"))
	}
	plan := strings.ReplaceAll(envOf(sweepJob, "PLAN"), "/data", p.data)
	os.WriteFile(plan, []byte(`out = "sweep"
[train]
network = "2x4"
episodes = 200
every = 100
threads = 1
[grid]
alpha = [0.1, 0.05]
seed = [1, 2]
[eval]
games = 10
`), 0o644)
	if code, list, _ := runCmd(t, "sweep", "list", plan); code != 0 || !strings.Contains(list, fmt.Sprintf("completions: %d)", *sweepJob.Spec.Completions)) {
		t.Fatalf("the plan's task count is not the Job's completions: %s", list)
	}
	p.runAll(t, sweepJob, nil)
	rep := p.runAll(t, report, nil)[0]
	if !strings.Contains(rep, "4 of 4 tasks done") || !strings.Contains(rep, "alpha=0.05 seed=2") {
		t.Errorf("report Job:\n%s", rep)
	}
	if _, err := os.Stat(filepath.Join(p.data, "sweep", "curves.png")); err != nil {
		t.Error(err)
	}
	// Nothing went outside /data.
	if left, _ := os.ReadDir(p.work); len(left) > 0 {
		t.Errorf("the Pods wrote outside /data (their root filesystem is read-only): %v", left)
	}
}

// fakeKubectl writes a kubectl that answers wait-job.sh as a cluster
// whose Job is in state ("complete", "failed", or "running": neither by
// the timeout).
func fakeKubectl(t *testing.T, state string) string {
	t.Helper()
	dir := t.TempDir()
	script := `#!/bin/sh
state=` + state + `
case "$*" in
wait*--for=condition=$state*) exit 0 ;;
wait*) case $state in running) echo "error: timed out waiting for the condition" >&2; exit 1 ;; esac; exec sleep 600 ;;
get*failedIndexes*) echo 1,3 ;;
*) echo "fake kubectl: $*" >&2; exit 1 ;;
esac
`
	if err := os.WriteFile(filepath.Join(dir, "kubectl"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestK8sWaitJobIsBounded(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		state, want string
		code        int
	}{
		{"complete", "job/td2048-eval is complete", 0},
		{"failed", "job/td2048-eval failed: failed indexes 1,3", 1},
		{"running", "neither complete nor failed after 24h", 2},
	} {
		t.Run(tc.state, func(t *testing.T) {
			// The Job's other condition never comes: wait-job.sh must not
			// wait for it (the deadline only catches a hang).
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, filepath.Join(k8sDir, "wait-job.sh"), "td2048-eval")
			cmd.Env = append(os.Environ(), "PATH="+fakeKubectl(t, tc.state)+":"+os.Getenv("PATH"))
			cmd.WaitDelay = time.Second
			out, err := cmd.CombinedOutput()
			if ctx.Err() != nil {
				t.Fatalf("wait-job.sh hung on a %s Job", tc.state)
			}
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if code != tc.code || !strings.Contains(string(out), tc.want) {
				t.Errorf("exit %d, %q; want %d and %q", code, out, tc.code, tc.want)
			}
		})
	}
}

// dockerContext is the build context deploy/k8s/Dockerfile gets from the
// repository's root: its files less those .dockerignore excludes.
func dockerContext(t *testing.T, root string) (files []string, pm *patternmatcher.PatternMatcher) {
	t.Helper()
	f, err := os.Open(filepath.Join(root, ".dockerignore"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	patterns, err := ignorefile.ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	pm, err = patternmatcher.New(patterns)
	if err != nil {
		t.Fatal(err)
	}
	err = filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if rel == "." {
			return nil
		}
		skip, err := pm.MatchesOrParentMatches(filepath.ToSlash(rel))
		if err != nil {
			return err
		}
		if skip {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.IsDir() {
			files = append(files, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files, pm
}

func TestK8sImageBuild(t *testing.T) {
	t.Parallel()
	root, _ := filepath.Abs(filepath.Join("..", ".."))
	files, pm := dockerContext(t, root)
	for _, p := range []string{".git", ".git/HEAD", "weights.td2048", "sweep/task-000/weights.td2048", "cmd/td2048/x.td2048",
		"runs/4x6.jsonl", "logs/td2048-eval-12_3.attempt-1.log", "curve.png", "sweep/curves.svg", "td2048", "td2048-eval-12_3.out",
		"ckpt-1/weights.td2048", "cmd/td2048/.weights.td2048.lock", "eval/.part-1.json.tmp123", "x.w", "tdl.bin", "cpu.prof"} {
		if skip, _ := pm.MatchesOrParentMatches(p); !skip {
			t.Errorf(".dockerignore lets %s into the build context", p)
		}
	}
	// Everything the build reads is in the context.
	in := map[string]bool{}
	for _, f := range files {
		in[filepath.ToSlash(f)] = true
	}
	for _, need := range []string{"go.mod", "go.sum", "cmd/td2048/default.pgo", "cmd/td2048/main.go", "internal/web/static/index.html", "ntuple/symmetry_amd64.h"} {
		if !in[need] {
			t.Errorf("%s is not in the build context", need)
		}
	}
	filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		rel, _ := filepath.Rel(root, path)
		if err != nil || d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		rel = filepath.ToSlash(rel)
		ext := filepath.Ext(rel)
		if (ext == ".go" && !strings.HasSuffix(rel, "_test.go") || ext == ".s" || ext == ".h") && !in[rel] {
			t.Errorf("%s is not in the build context", rel)
		}
		return nil
	})

	data, err := os.ReadFile(filepath.Join(k8sDir, "Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	at := func(re string) int {
		for i, l := range lines {
			if regexp.MustCompile(re).MatchString(l) {
				return i
			}
		}
		t.Errorf("Dockerfile: no line like %s", re)
		return -1
	}
	mods, download, src := at(`^COPY go\.mod go\.sum \./$`), at(`^RUN go mod download$`), at(`^COPY \. \.$`)
	build := at(`^RUN .*\bgo build -trimpath .*-o /td2048 \./cmd/td2048$`)
	arg := at(`^ARG VERSION`)
	if !(mods < download && download < src && src < build && arg < build) {
		t.Errorf("Dockerfile: want go.mod and go.sum copied and the modules downloaded before the sources, and ARG VERSION before the build")
	}
	if build < 0 || testing.Short() {
		return
	}

	// The build line, run in a copy of the context, stamps the version.
	ctxDir := t.TempDir()
	for _, f := range files {
		dst := filepath.Join(ctxDir, f)
		os.MkdirAll(filepath.Dir(dst), 0o755)
		if err := copyFile(filepath.Join(root, f), dst); err != nil {
			t.Fatal(err)
		}
	}
	bin := filepath.Join(t.TempDir(), "td2048")
	line := strings.Replace(strings.TrimPrefix(lines[build], "RUN "), "-o /td2048", "-o "+strconv.Quote(bin), 1)
	cmd := exec.Command("sh", "-c", line)
	cmd.Dir = ctxDir
	cmd.Env = append(os.Environ(), "VERSION=v0.0.0-k8s-test")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", line, err, out)
	}
	out, err := exec.Command(bin, "version").CombinedOutput()
	if err != nil || !strings.HasPrefix(string(out), "td2048 v0.0.0-k8s-test, go") {
		t.Errorf("the image's td2048 version: %q %v", out, err)
	}
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
