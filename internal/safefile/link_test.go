package safefile

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := WriteAtomic(path, func(w io.Writer) error { _, err := io.WriteString(w, content); return err }); err != nil {
		t.Fatal(err)
	}
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestResolve: links are followed to the file they name, also through a
// linked folder and to a file not made yet; a loop is an error.
func TestResolve(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	os.Mkdir(filepath.Join(dir, "real"), 0o755)
	os.WriteFile(filepath.Join(dir, "real", "w"), nil, 0o644)
	for _, l := range [][2]string{
		{"real", "d"},          // a linked folder
		{"real/w", "a"},        // a link to a file
		{"a", "b"},             // a link to a link
		{"real/new", "dangle"}, // a link to a file not made yet
		{"d/w", "viad"},        // relative to the link's own folder
		{"loop1", "loop2"}, {"loop2", "loop1"},
	} {
		if err := os.Symlink(l[0], filepath.Join(dir, l[1])); err != nil {
			t.Skip("no symbolic links here:", err)
		}
	}
	for _, c := range []struct{ in, want, err string }{
		{"real/w", "real/w", ""},
		{"d/w", "real/w", ""},
		{"a", "real/w", ""},
		{"b", "real/w", ""},
		{"viad", "real/w", ""},
		{"dangle", "real/new", ""},
		{"d/nothing", "real/nothing", ""},
		{"none/x", "none/x", ""},
		{"loop1", "", "symbolic links in a row"},
	} {
		t.Run(c.in, func(t *testing.T) {
			got, err := Resolve(filepath.Join(dir, c.in))
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("Resolve = %q, %v; want error %q", got, err, c.err)
				}
				return
			}
			if want := filepath.Join(dir, c.want); err != nil || got != want {
				t.Fatalf("Resolve = %q, %v; want %q", got, err, want)
			}
		})
	}
	if !Same(filepath.Join(dir, "dangle"), filepath.Join(dir, "real", "new")) || Same(filepath.Join(dir, "a"), filepath.Join(dir, "dangle")) {
		t.Error("Same is wrong about links")
	}
	if err := Check(filepath.Join(dir, "loop1")); err == nil || !strings.Contains(err.Error(), "symbolic links") {
		t.Errorf("Check of a loop: %v", err)
	}
}

// TestLockFollowsLinks: the lock is the file's, whatever name reaches it:
// a symbolic link to a locked file and a hard link to it are refused,
// also when the file was made, or replaced, after the lock was taken.
func TestLockFollowsLinks(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	log, weights := "w.jsonl", "w.td2048"
	if err := os.Symlink(log, "alias.jsonl"); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	os.Symlink(weights, "alias.td2048")
	locks, err := AcquireAll(weights, log)
	if err != nil {
		t.Fatal(err)
	}
	// Through a symbolic link, whether the file exists or not yet.
	for _, name := range []string{"alias.jsonl", "alias.td2048"} {
		_, err := Acquire(name)
		var le *LockError
		if !errors.As(err, &le) || !strings.Contains(err.Error(), name+" (a link to ") {
			t.Fatalf("%s: %v", name, err)
		}
	}
	// The log is made after the lock, in place; the weights replaced.
	f, err := OpenFile(log, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintln(f, "block 1")
	write(t, weights, "first weights")
	os.Link(log, "hard.jsonl")
	os.Link(weights, "hard.td2048")
	write(t, weights, "second weights")
	os.Link(weights, "hard2.td2048")
	// hard.td2048 is the first weights, replaced since: nobody's file.
	want := map[string]bool{"hard.jsonl": true, "hard2.td2048": true, "hard.td2048": false}
	if !fileLocks {
		want = map[string]bool{"hard.jsonl": false, "hard2.td2048": false, "hard.td2048": false}
	}
	for name, refused := range want {
		t.Run(name, func(t *testing.T) {
			l, err := Acquire(name)
			var le *LockError
			if refused != (err != nil) || refused && (!errors.As(err, &le) || le.PID != os.Getpid()) {
				t.Errorf("%s: lock %v, want refused %v", name, err, refused)
			}
			if runtime.GOOS == "linux" && refused && err != nil && !strings.Contains(err.Error(), name+" is named twice") {
				t.Errorf("%s: %v", name, err)
			}
			l.Release()
		})
	}
	fmt.Fprintln(f, "block 2")
	f.Close()
	locks.Release()
	if got := read(t, log); got != "block 1\nblock 2\n" {
		t.Fatalf("log %q", got)
	}
	// Released, the same names are free.
	for _, name := range []string{"alias.jsonl", "hard.jsonl", "hard2.td2048"} {
		l, err := Acquire(name)
		if err != nil {
			t.Fatalf("%s after release: %v", name, err)
		}
		l.Release()
	}
	if entries, _ := filepath.Glob(".*.lock"); len(entries) != 0 {
		t.Fatalf("lock files left: %v", entries)
	}
}

// TestWriteAtomicThroughLink: a save to a symbolic link replaces the file
// it points to, in its folder, and leaves the link a link.
func TestWriteAtomicThroughLink(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	os.Mkdir("runs", 0o755)
	write(t, "runs/w.td2048", "old")
	if err := os.Symlink("runs/w.td2048", "latest.td2048"); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	os.Symlink("runs/new.td2048", "dangling.td2048")
	l, err := Acquire("latest.td2048")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat("runs/.w.td2048.lock"); err != nil {
		t.Errorf("the lock is not beside the file: %v", err)
	}
	// The link pointed elsewhere while the lock is held: the save still
	// goes to the file locked, not to another run's.
	write(t, "runs/other.td2048", "another run's")
	os.Remove("latest.td2048")
	os.Symlink("runs/other.td2048", "latest.td2048")
	write(t, "latest.td2048", "new")
	f, err := OpenFile("latest.td2048", os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("er")
	f.Close()
	if got := read(t, "runs/other.td2048"); got != "another run's" {
		t.Fatalf("a save through a link pointed elsewhere wrote %q into its new target", got)
	}
	os.Remove("latest.td2048")
	os.Symlink("runs/w.td2048", "latest.td2048")
	l.Release()
	write(t, "dangling.td2048", "made")
	for name, want := range map[string]string{"latest.td2048": "runs/w.td2048", "dangling.td2048": "runs/new.td2048"} {
		t.Run(name, func(t *testing.T) {
			if fi, err := os.Lstat(name); err != nil || fi.Mode()&os.ModeSymlink == 0 {
				t.Errorf("%s is no longer a link", name)
			}
			if got := read(t, name); got != read(t, want) {
				t.Errorf("%s reads %q, %s %q", name, got, want, read(t, want))
			}
		})
	}
	if read(t, "runs/w.td2048") != "newer" || read(t, "runs/new.td2048") != "made" {
		t.Error("the targets were not written")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 3 {
		t.Errorf("files beside the links: %v", entries)
	}
}

// TestStaleTemporariesExact: the holder of a lock removes its own file's
// temporaries and no other's, also not those of a file whose name starts
// with its own.
func TestStaleTemporariesExact(t *testing.T) {
	dir := t.TempDir()
	names := map[string]bool{ // removed?
		".w.td2048.tmp123":              true,
		".w.td2048.tmp0":                true,
		".w.td2048.tmpX.td2048.tmp4567": false, // w.td2048.tmpX.td2048's save under way
		".w.td2048.tmp":                 false,
		".w.td2048.tmp12.bak":           false,
		".w.td2048.tmp12x":              false,
		".v.td2048.tmp42":               false,
		"w.td2048.tmp42":                false,
	}
	for n := range names {
		os.WriteFile(filepath.Join(dir, n), []byte("x"), 0o644)
	}
	l, err := Acquire(filepath.Join(dir, "w.td2048"))
	if err != nil {
		t.Fatal(err)
	}
	l.Release()
	for n, removed := range names {
		t.Run(n, func(t *testing.T) {
			if _, err := os.Stat(filepath.Join(dir, n)); removed != (err != nil) {
				t.Errorf("%s: removed %v, want %v", n, err != nil, removed)
			}
		})
	}
}
