package main

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/td2048/td2048/netfile"
)

// TestConvertStaged: a three-stage network goes to TDL2048+'s .w and back
// bit for bit when --stages gives back the thresholds the .w cannot hold;
// 2048.bin refuses it; --stages must fit the network.
func TestConvertStaged(t *testing.T) {
	dir := t.TempDir()
	orig := convertNet(t, "0123,4567@0,8192,16384")
	src, w, end := filepath.Join(dir, "src.td2048"), filepath.Join(dir, "x.w"), filepath.Join(dir, "end.td2048")
	if err := netfile.Save(src, orig, netfile.Header{}); err != nil {
		t.Fatal(err)
	}
	if code, out, errs := runCmd(t, "convert", src, w); code != 0 || !strings.Contains(out, "do not record stage thresholds: these are 0,8192,16384") {
		t.Fatalf("to .w: exit %d: %s%s", code, out, errs)
	}
	if code, _, errs := runCmd(t, "convert", src, filepath.Join(dir, "x.bin")); code != 1 || !strings.Contains(errs, "single-stage") {
		t.Fatalf("to .bin: exit %d: %s", code, errs)
	}
	if code, _, errs := runCmd(t, "convert", w, end, "--stages", "0,8192"); code != 2 || !strings.Contains(errs, "3 stages, 2 thresholds") {
		t.Fatalf("wrong --stages: exit %d: %s", code, errs)
	}
	if code, out, errs := runCmd(t, "convert", w, end, "--stages", "0,8192,16384"); code != 0 || !strings.Contains(out, "network 2x4@0,8192,16384") {
		t.Fatalf("from .w: exit %d: %s%s", code, out, errs)
	}
	got, _, err := netfile.LoadAny(end)
	if err != nil {
		t.Fatal(err)
	}
	defer got.Free()
	if !got.Spec().Equal(orig.Spec()) {
		t.Fatalf("network %s back, %s out", got.Spec(), orig.Spec())
	}
	for i, x := range orig.Weights() {
		if math.Float32bits(x) != math.Float32bits(got.Weights()[i]) {
			t.Fatalf("weight %d: %v back, %v out", i, got.Weights()[i], x)
		}
	}
	// Without --stages the network has no thresholds, which play refuses.
	os.Remove(end)
	if code, out, _ := runCmd(t, "convert", w, end); code != 0 || !strings.Contains(out, "give them with --stages") {
		t.Fatalf("no --stages: exit %d: %s", code, out)
	}
	if code, _, errs := runCmd(t, "eval", "--load", end, "--games", "1"); code == 0 || !strings.Contains(errs, "name the stage thresholds") {
		t.Fatalf("eval of a network without thresholds: exit %d: %s", code, errs)
	}
}

// TestTrainStaged: a small multi-stage run with promotion through the
// command, its weights played by eval and hint; resume keeps --promote.
func TestTrainStaged(t *testing.T) {
	dir := t.TempDir()
	save := filepath.Join(dir, "s.td2048")
	code, out, errs := runCmd(t, "train", "--network", "0123,4567@0,256", "--promote", "--episodes", "300", "--every", "100",
		"--threads", "1", "--seed", "4", "--save", save, "--log", "none")
	if code != 0 || !strings.Contains(out, "2 stages from scale 0,256") || !strings.Contains(out, "promotion = ") {
		t.Fatalf("train: exit %d: %s%s", code, out, errs)
	}
	h, err := netfile.ReadHeader(save)
	if err != nil || h.Network != "2x4@0,256" || !strings.Contains(string(h.Run), `"promoted":[true,true]`) {
		t.Fatalf("header %+v: %v", h, err)
	}
	if code, _, errs := runCmd(t, "train", "--resume", save, "--episodes", "400", "--promote=false"); code != 2 || !strings.Contains(errs, "--promote") {
		t.Fatalf("resume without promotion: exit %d: %s", code, errs)
	}
	if code, out, errs := runCmd(t, "train", "--resume", save, "--episodes", "400"); code != 0 || !strings.Contains(out, "promotion = ") {
		t.Fatalf("resume: exit %d: %s%s", code, out, errs)
	}
	for _, args := range [][]string{{"eval", "--load", save, "--games", "20"}, {"eval", "--load", save, "--games", "5", "--depth", "2"},
		{"hint", "--load", save, "0,0,0,0,0,0,0,2,0,0,0,0,0,256,128,2"}} {
		if code, _, errs := runCmd(t, args...); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--network", "4x6@3"}, "name the stage thresholds"},
		{[]string{"--network", "4x6@0,16384", "--learner", "state"}, "after-state values only"},
		{[]string{"--network", "4x6", "--promote"}, "promotion is for multi-stage"},
		{[]string{"--network", "4x6@0,16384,8192"}, "exceed"},
	} {
		t.Run(c.want, func(t *testing.T) {
			args := append([]string{"train", "--episodes", "1", "--save", filepath.Join(dir, "x.td2048")}, c.args...)
			if code, _, errs := runCmd(t, args...); code != 2 || !strings.Contains(errs, c.want) {
				t.Errorf("%v: exit %d: %s", c.args, code, errs)
			}
		})
	}
}
