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

// TestWheel builds the package's wheel as a user without network access
// would (pip wheel --no-build-isolation, with Debian's setuptools and
// wheel), installs it into a folder of its own and plays a step from
// there: the wheel holds the native library it built. Without pip,
// setuptools or wheel it skips, except under CI.
func TestWheel(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the native library again")
	}
	py, _ := python(t)
	if py == "" || exec.Command(py, "-c", "import setuptools, wheel, pip").Run() != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("python3 with pip, setuptools and wheel not found (apt-get install python3-pip python3-setuptools python3-wheel)")
		}
		t.Skip("no python3 with pip, setuptools and wheel")
	}
	dir := t.TempDir()
	wheels, site, src := filepath.Join(dir, "wheels"), filepath.Join(dir, "site"), filepath.Join(dir, "src")
	// A copy of the package's folder, so that the build leaves nothing in
	// the repository; TD2048_SOURCE tells setup.py where the Go source is.
	root, _ := filepath.Abs("..")
	files, _ := filepath.Glob("td2048/*.py")
	for _, f := range append(files, "setup.py", "pyproject.toml", "README.md") {
		b, err := os.ReadFile(f)
		if err == nil {
			os.MkdirAll(filepath.Dir(filepath.Join(src, f)), 0o755)
			err = os.WriteFile(filepath.Join(src, f), b, 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	pip := func(args ...string) {
		c := exec.Command(py, append([]string{"-m", "pip"}, args...)...)
		c.Dir = src
		c.Env = append(os.Environ(), "PIP_NO_INDEX=1", "PIP_DISABLE_PIP_VERSION_CHECK=1", "TD2048_SOURCE="+root)
		if out, err := c.CombinedOutput(); err != nil {
			t.Fatalf("pip %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	pip("wheel", "--no-build-isolation", "--no-deps", "-w", wheels, ".")
	whl, _ := filepath.Glob(filepath.Join(wheels, "td2048-*.whl"))
	if len(whl) != 1 || !strings.Contains(filepath.Base(whl[0]), "linux") {
		t.Fatalf("wheels built: %v, want one for Linux", whl)
	}
	pip("install", "--no-deps", "--target", site, whl[0])
	c := exec.Command(py, "-c", "import td2048, sys; e = td2048.Env(seed=1); e.reset(); e.step(0); print(td2048.__file__)")
	c.Dir = dir // not the source folder, whose td2048 would be imported instead
	c.Env = append(os.Environ(), "PYTHONPATH="+site, "TD2048_LIB=")
	out, err := c.CombinedOutput()
	if err != nil || !strings.HasPrefix(string(out), site) {
		t.Fatalf("the installed wheel: %v\n%s", err, out)
	}
}
