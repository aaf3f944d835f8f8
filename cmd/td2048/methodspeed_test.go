package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestMethodSpeedScript runs scripts/methodspeed.sh with td2048 (this
// test binary) and a stand-in for TDL2048+ that records its arguments and
// prints one block line: the script passes each recipe's flags to both
// programs, reads td2048's last line and TDL2048+'s blocks, and prints the
// medians and the ratios.
func TestMethodSpeedScript(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("trains twice")
	}
	for _, tool := range []string{"bash", "awk", "sed"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s", tool)
		}
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	td, tdl, args := filepath.Join(dir, "td2048"), filepath.Join(dir, "tdl"), filepath.Join(dir, "args")
	script := func(path, body string) {
		if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	script(td, "TD2048_BE_MAIN=1 exec '"+self+"' \"$@\"\n")
	script(tdl, "printf '%s\\n' \"$*\" >> '"+args+"'\necho '001/001 500ms 2000000.00ops'\necho 'local:  avg=1 max=1 tile=2 win=0%'\n")
	cmd := exec.Command("bash", filepath.Join("..", "..", "scripts", "methodspeed.sh"), tdl, filepath.Join(dir, "out"))
	cmd.Env = append(os.Environ(), "EPISODES=1000", "ROUNDS=1", "METHODS=td0-online otd", "TD2048="+td)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("methodspeed.sh: %v\n%s", err, out)
	}
	got, _ := os.ReadFile(args)
	if want := "-n 4x6patt -t 1 -s 1\n-n 4x6patt=320000/norm -t 1 -s 1\n"; string(got) != want {
		t.Errorf("TDL2048+ was run with\n%swant\n%s", got, want)
	}
	for _, m := range []string{"td0-online", "otd"} {
		run := regexp.MustCompile(`(?m)^round 1 ` + m + ` td2048 [1-9][0-9]* [0-9]+\.[0-9]{3}$`)
		if !run.Match(out) {
			t.Errorf("no td2048 run of %s in\n%s", m, out)
		}
		if !strings.Contains(string(out), "round 1 "+m+" tdl 2000000 0.500\n") {
			t.Errorf("no TDL2048+ run of %s (2M moves/s over 0.5 s) in\n%s", m, out)
		}
		row := regexp.MustCompile(`(?m)^` + m + ` +[0-9.]+M +2\.00M +[0-9.]+x +[0-9.]+ +0\.50 +[0-9.]+x$`)
		if !row.Match(out) {
			t.Errorf("no table row for %s in\n%s", m, out)
		}
	}
}
