package safefile

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCheck(t *testing.T) {
	dir := t.TempDir()
	for path, want := range map[string]string{
		"":                                 "empty file name",
		dir:                                "is a folder",
		dir + "/":                          "is a folder",
		filepath.Join(dir, "no", "x"):      "does not exist",
		filepath.Join(dir, "f", "x"):       "is not a folder",
		filepath.Join(dir, "fine.td2048"):  "",
		filepath.Join(dir, "f"):            "",
		filepath.Join(dir, "sp ace[1]*.w"): "",
	} {
		if want == "is not a folder" {
			os.WriteFile(filepath.Join(dir, "f"), nil, 0o644)
		}
		err := Check(path)
		if (want == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), want) {
			t.Errorf("Check(%q) = %v, want %q", path, err, want)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("Check left files: %v", entries)
	}
}

func TestLockRefusesSecondWriter(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "w.td2048")
	stale := filepath.Join(dir, ".w.td2048.tmp42")
	os.WriteFile(stale, []byte("x"), 0o644)
	other := filepath.Join(dir, ".v.td2048.tmp42")
	os.WriteFile(other, []byte("x"), 0o644)
	l, err := Acquire(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); err == nil {
		t.Error("stale temporary file kept")
	}
	if _, err := os.Stat(other); err != nil {
		t.Error("another target's temporary file removed")
	}
	_, err = Acquire(path)
	var le *LockError
	if !errors.As(err, &le) || le.PID != os.Getpid() || !strings.Contains(err.Error(), "is being written by process") {
		t.Fatalf("second lock: %v", err)
	}
	// AcquireAll releases what it took when one lock fails.
	if _, err := AcquireAll(filepath.Join(dir, "a"), path); err == nil {
		t.Fatal("AcquireAll took a held lock")
	}
	if l2, err := Acquire(filepath.Join(dir, "a")); err != nil {
		t.Fatalf("AcquireAll kept a lock after failing: %v", err)
	} else {
		l2.Release()
	}
	l.Release()
	if _, err := os.Stat(filepath.Join(dir, ".w.td2048.lock")); err == nil {
		t.Error("lock file left")
	}
	l, err = Acquire(path)
	if err != nil {
		t.Fatalf("after release: %v", err)
	}
	l.Release()
}

func TestWriteAtomicKeepsOldOnError(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "x")
	if err := WriteAtomic(path, func(w io.Writer) error { _, err := w.Write([]byte("old")); return err }); err != nil {
		t.Fatal(err)
	}
	err := WriteAtomic(path, func(w io.Writer) error {
		w.Write([]byte("half"))
		return errors.New("disk on fire")
	})
	if err == nil || !strings.Contains(err.Error(), "disk on fire") {
		t.Fatalf("error %v", err)
	}
	if b, _ := os.ReadFile(path); !bytes.Equal(b, []byte("old")) {
		t.Fatalf("content %q", b)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Fatalf("left: %v", entries)
	}
	if err := WriteAtomic(dir, func(io.Writer) error { return nil }); err == nil || !strings.Contains(err.Error(), "is a folder") {
		t.Fatalf("write over a folder: %v", err)
	}
}
