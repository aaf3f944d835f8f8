package main

import (
	"encoding/binary"
	"encoding/json"
	"hash/crc32"
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
	// Without --stages the network would have no thresholds: convert
	// refuses before writing, and eval and hint point to convert.
	os.Remove(end)
	if code, _, errs := runCmd(t, "convert", w, end); code != 2 || !strings.Contains(errs, "give them with --stages") {
		t.Fatalf("no --stages: exit %d: %s", code, errs)
	}
	if _, err := os.Stat(end); !os.IsNotExist(err) {
		t.Fatalf("convert without --stages wrote %s (%v)", end, err)
	}
	for _, cmd := range []string{"eval", "hint", "train"} {
		args := map[string][]string{"eval": {"eval", "--load", w, "--games", "1"}, "hint": {"hint", "--load", w, "0,0,0,0,0,0,0,2,0,0,0,0,0,256,128,2"},
			"train": {"train", "--load", w, "--episodes", "1", "--save", end}}[cmd]
		if code, _, errs := runCmd(t, args...); code == 0 || !strings.Contains(errs, "td2048 convert "+w+" OUT.td2048 --stages 0,16384,32768") {
			t.Errorf("%s of a .w of three stages: exit %d: %s", cmd, code, errs)
		}
	}
	// A td2048 file without thresholds (as convert wrote them before) is
	// mended by convert --stages.
	old := filepath.Join(dir, "old.td2048")
	os.WriteFile(old, withNetwork(t, src, "2x4@3"), 0o644)
	if code, _, errs := runCmd(t, "eval", "--load", old, "--games", "1"); code == 0 || !strings.Contains(errs, "--stages") {
		t.Fatalf("eval of a td2048 file without thresholds: exit %d: %s", code, errs)
	}
	if code, out, errs := runCmd(t, "convert", old, end, "--stages", "0,8192,16384"); code != 0 || !strings.Contains(out, "network 2x4@0,8192,16384") {
		t.Fatalf("mending: exit %d: %s%s", code, out, errs)
	}
}

// withNetwork is the td2048 weight file at path with its header's network
// replaced by spec, and its checksum made again.
func withNetwork(t *testing.T, path, spec string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	n := 8 + 4 + int(binary.LittleEndian.Uint32(data[8:]))
	var h map[string]any
	if err := json.Unmarshal(data[12:n], &h); err != nil {
		t.Fatal(err)
	}
	h["network"] = spec
	js, _ := json.Marshal(h)
	out := binary.LittleEndian.AppendUint32([]byte(data[:8:8]), uint32(len(js)))
	out = append(append(out, js...), data[n:len(data)-4]...)
	return binary.LittleEndian.AppendUint32(out, crc32.Checksum(out, crc32.MakeTable(crc32.Castagnoli)))
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
