// Package python holds the test that runs the Python package's tests
// (python/tests, standard unittest) against a freshly built native library
// and command, with the machine's python3.
package python

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// pythons are the interpreters tried, those with numpy first: the tests
// run numpy's paths where it is present, and the plain ones always.
func python(t *testing.T) (string, bool) {
	var found string
	for _, p := range []string{os.Getenv("TD2048_PYTHON"), "/usr/bin/python3", "python3"} {
		if p == "" {
			continue
		}
		path, err := exec.LookPath(p)
		if err != nil {
			continue
		}
		if exec.Command(path, "-c", "import numpy").Run() == nil {
			return path, true
		}
		if found == "" {
			found = path
		}
	}
	return found, false
}

// TestPython builds the shared library (go build -buildmode=c-shared
// ./capi) and the command, then runs python/tests with python3. Without
// python3 it skips, except under CI (CI set), where it fails.
func TestPython(t *testing.T) {
	py, numpy := python(t)
	if py == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("python3 not found: install it (apt-get install python3 python3-numpy)")
		}
		t.Skip("python3 not found")
	}
	if out, _ := exec.Command("go", "env", "CGO_ENABLED").Output(); strings.TrimSpace(string(out)) != "1" {
		if os.Getenv("CI") != "" {
			t.Fatal("cgo is off (no C compiler?): the shared library needs it (apt-get install gcc)")
		}
		t.Skip("cgo is off: the shared library needs a C compiler")
	}
	dir := t.TempDir()
	lib := filepath.Join(dir, "libtd2048.so")
	cmd := filepath.Join(dir, "td2048")
	for _, args := range [][]string{
		{"build", "-buildmode=c-shared", "-o", lib, "./capi"},
		{"build", "-o", cmd, "./cmd/td2048"},
	} {
		c := exec.Command("go", args...)
		c.Dir = ".."
		if out, err := c.CombinedOutput(); err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	run := func(t *testing.T, nonumpy bool) {
		args := []string{"-m", "unittest", "discover", "-s", "tests"}
		if testing.Verbose() {
			args = append(args, "-v")
		}
		c := exec.Command(py, args...)
		c.Env = append(os.Environ(), "TD2048_LIB="+lib, "TD2048_CMD="+cmd, "PYTHONPATH=.", "TD2048_TMP="+t.TempDir())
		if nonumpy {
			c.Env = append(c.Env, "TD2048_NO_NUMPY=1")
		}
		out, err := c.CombinedOutput()
		if err != nil || testing.Verbose() {
			t.Logf("%s\n%s", py, out)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	t.Run("numpy", func(t *testing.T) {
		if !numpy {
			t.Skip("no python3 with numpy")
		}
		run(t, false)
	})
	t.Run("plain", func(t *testing.T) { run(t, true) })
}
