package main

// deploy/k8s's manifests, parsed, and their Pods' commands run here as an
// Indexed Job would run them: one shell per index with
// JOB_COMPLETION_INDEX set, /data a temporary folder.

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// k8sObject is the part of a Job or PersistentVolumeClaim the test reads.
type k8sObject struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Metadata   struct {
		Name string `json:"name"`
	} `json:"metadata"`
	Spec struct {
		AccessModes    []string `json:"accessModes"`
		CompletionMode string   `json:"completionMode"`
		Completions    *int     `json:"completions"`
		Parallelism    *int     `json:"parallelism"`
		Template       struct {
			Spec struct {
				RestartPolicy string `json:"restartPolicy"`
				Containers    []struct {
					Name    string   `json:"name"`
					Image   string   `json:"image"`
					Command []string `json:"command"`
					Args    []string `json:"args"`
					Env     []struct {
						Name  string `json:"name"`
						Value string `json:"value"`
					} `json:"env"`
					VolumeMounts []struct {
						Name      string `json:"name"`
						MountPath string `json:"mountPath"`
					} `json:"volumeMounts"`
				} `json:"containers"`
				Volumes []struct {
					Name                  string `json:"name"`
					PersistentVolumeClaim *struct {
						ClaimName string `json:"claimName"`
					} `json:"persistentVolumeClaim"`
				} `json:"volumes"`
			} `json:"spec"`
		} `json:"template"`
	} `json:"spec"`
}

func readManifest(t *testing.T, name string) *k8sObject {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "deploy", "k8s", name))
	if err != nil {
		t.Fatal(err)
	}
	var o k8sObject
	if err := yaml.Unmarshal(data, &o); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return &o
}

// podRunner runs the Job's container command with /data at data, td2048
// being this test binary.
type podRunner struct {
	data, bin string
	claim     string
}

func newPodRunner(t *testing.T) *podRunner {
	t.Helper()
	bin := t.TempDir()
	script := fmt.Sprintf("#!/bin/sh\nTD2048_BE_MAIN=1 exec %s \"$@\"\n", strconv.Quote(os.Args[0]))
	if err := os.WriteFile(filepath.Join(bin, "td2048"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	pvc := readManifest(t, "pvc.yaml")
	if pvc.Kind != "PersistentVolumeClaim" || pvc.Metadata.Name == "" || len(pvc.Spec.AccessModes) == 0 || pvc.Spec.AccessModes[0] != "ReadWriteMany" {
		t.Fatalf("pvc.yaml: %+v", pvc)
	}
	return &podRunner{data: t.TempDir(), bin: bin, claim: pvc.Metadata.Name}
}

// run runs every index of job (one for a Job that is not Indexed), with
// the env values of override replacing the manifest's, and returns the
// Pods' outputs.
func (p *podRunner) run(t *testing.T, job *k8sObject, override map[string]string) []string {
	t.Helper()
	if job.APIVersion != "batch/v1" || job.Kind != "Job" {
		t.Fatalf("%s: %s %s, not a batch/v1 Job", job.Metadata.Name, job.APIVersion, job.Kind)
	}
	ps := &job.Spec.Template.Spec
	if ps.RestartPolicy != "Never" && ps.RestartPolicy != "OnFailure" || len(ps.Containers) != 1 || len(ps.Volumes) != 1 ||
		ps.Volumes[0].PersistentVolumeClaim == nil || ps.Volumes[0].PersistentVolumeClaim.ClaimName != p.claim {
		t.Fatalf("%s: want one container and the volume claim %s: %+v", job.Metadata.Name, p.claim, ps)
	}
	c := ps.Containers[0]
	if len(c.VolumeMounts) != 1 || c.VolumeMounts[0].MountPath != "/data" || c.VolumeMounts[0].Name != ps.Volumes[0].Name {
		t.Fatalf("%s: the volume is not mounted at /data: %+v", job.Metadata.Name, c.VolumeMounts)
	}
	if len(c.Command) != 2 || c.Command[0] != "sh" || c.Command[1] != "-c" || len(c.Args) != 1 {
		t.Fatalf("%s: want command sh -c and one script, not %q %q", job.Metadata.Name, c.Command, c.Args)
	}
	env := append(os.Environ(), "PATH="+p.bin+":"+os.Getenv("PATH"))
	for _, e := range c.Env {
		v := e.Value
		if o, ok := override[e.Name]; ok {
			v = o
		}
		env = append(env, e.Name+"="+v)
	}
	n := 1
	if job.Spec.CompletionMode == "Indexed" {
		if job.Spec.Completions == nil {
			t.Fatalf("%s: an Indexed Job without completions", job.Metadata.Name)
		}
		n = *job.Spec.Completions
	}
	script := strings.ReplaceAll(c.Args[0], "/data", p.data)
	var outs []string
	for k := range n {
		cmd := exec.Command("sh", "-c", script)
		cmd.Env = env
		if job.Spec.CompletionMode == "Indexed" {
			cmd.Env = append(cmd.Env, "JOB_COMPLETION_INDEX="+strconv.Itoa(k))
		}
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s, index %d: %v\n%s", job.Metadata.Name, k, err, out)
		}
		outs = append(outs, string(out))
	}
	return outs
}

func TestKubernetesManifests(t *testing.T) {
	p := newPodRunner(t)
	w := filepath.Join(p.data, "weights.td2048")
	if code, _, errb := runCmd(t, "train", "--network", "2x4", "--episodes", "300", "--seed", "1", "--threads", "1", "--save", w, "--log", "none"); code != 0 {
		t.Fatal(errb)
	}

	eval := readManifest(t, "eval-job.yaml")
	shards := ""
	for _, e := range eval.Spec.Template.Spec.Containers[0].Env {
		if e.Name == "TD2048_SHARDS" {
			shards = e.Value
		}
	}
	if eval.Spec.CompletionMode != "Indexed" || eval.Spec.Completions == nil || shards != strconv.Itoa(*eval.Spec.Completions) {
		t.Fatalf("eval-job.yaml: TD2048_SHARDS %q must be the completions of an Indexed Job", shards)
	}
	p.run(t, eval, map[string]string{"GAMES": "60", "DEPTH": "2", "SEED": "5"})
	code, whole, errb := runCmd(t, "eval", "--load", w, "--games", "60", "--depth", "2", "--seed", "5")
	if code != 0 {
		t.Fatal(errb)
	}
	merge := readManifest(t, "merge-job.yaml")
	out := p.run(t, merge, nil)[0]
	if statsPart(t, out) != statsPart(t, whole) {
		t.Errorf("merge Job printed:\n%s\nwant (one process):\n%s", out, whole)
	}
	if _, err := os.Stat(filepath.Join(p.data, "eval", "merged.json")); err != nil {
		t.Error(err)
	}

	sweepJob := readManifest(t, "sweep-job.yaml")
	if sweepJob.Spec.CompletionMode != "Indexed" || sweepJob.Spec.Completions == nil {
		t.Fatal("sweep-job.yaml: not an Indexed Job with completions")
	}
	plan := filepath.Join(p.data, "plan.toml")
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
	p.run(t, sweepJob, nil)
	code, report, errb := runCmd(t, "sweep", "report", plan)
	if code != 0 || !strings.Contains(report, "4 of 4 tasks done") || !strings.Contains(report, "alpha=0.05 seed=2") {
		t.Errorf("sweep report: %d\n%s%s", code, report, errb)
	}
}
