package safefile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCheck(t *testing.T) {
	dir := t.TempDir()
	for path, want := range map[string]string{
		"":                                     "empty file name",
		dir:                                    "is a folder",
		dir + "/":                              "is a folder",
		filepath.Join(dir, "no", "x"):          "does not exist",
		filepath.Join(dir, "f", "x"):           "is not a folder",
		filepath.Join(dir, "fine.td2048"):      "",
		filepath.Join(dir, "f"):                "",
		filepath.Join(dir, "sp ace[1]*.w"):     "",
		filepath.Join(dir, ".w.td2048.lock"):   "is td2048's own lock file of w.td2048",
		filepath.Join(dir, ".w.td2048.tmp123"): "is td2048's own temporary file of w.td2048",
		filepath.Join(dir, ".lock"):            "",
		filepath.Join(dir, ".w.tmp"):           "",
	} {
		t.Run(path, func(t *testing.T) {
			if want == "is not a folder" {
				os.WriteFile(filepath.Join(dir, "f"), nil, 0o644)
			}
			err := Check(path)
			if (want == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), want) {
				t.Errorf("Check(%q) = %v, want %q", path, err, want)
			}
		})
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
	if !errors.As(err, &le) || le.PID != os.Getpid() || !strings.Contains(err.Error(), "is named twice among this command's outputs") {
		t.Fatalf("second lock: %v", err)
	}
	// Another process is named with its command line.
	le.PID, le.Cmd = le.PID+1, "td2048 train"
	if want := fmt.Sprintf("is being written by process %d (td2048 train); wait", le.PID); !strings.Contains(le.Error(), want) {
		t.Fatalf("%v, want %q", le, want)
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

// TestWriteAtomicHoles: what WriteAtomic writes reads back byte for byte,
// whatever the writes' sizes and wherever the zeros fall (a block of zeros
// astride two writes, zeros short of a block, zeros at the start and at
// the end), and the aligned blocks of zeros become holes.
func TestWriteAtomicHoles(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(1, 2))
	for c := range 200 {
		var want []byte
		for range 1 + rng.IntN(12) {
			n := rng.IntN(3 * holeBlock)
			if rng.IntN(3) == 0 {
				n = holeBlock * rng.IntN(5)
			}
			b := make([]byte, n)
			if rng.IntN(2) == 0 { // data, with a few zero bytes
				for i := range b {
					if rng.IntN(8) != 0 {
						b[i] = byte(1 + rng.IntN(255))
					}
				}
			}
			want = append(want, b...)
		}
		path := filepath.Join(dir, fmt.Sprint(c))
		err := WriteAtomic(path, func(w io.Writer) error {
			for rest := want; len(rest) > 0; { // in pieces of random sizes
				n := min(len(rest), 1+rng.IntN(2*holeBlock+2))
				if k, err := w.Write(rest[:n]); k != n || err != nil {
					return fmt.Errorf("wrote %d of %d: %v", k, n, err)
				}
				rest = rest[n:]
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := os.ReadFile(path); !bytes.Equal(got, want) {
			t.Fatalf("case %d: read back %d bytes differing from the %d written", c, len(got), len(want))
		}
	}

	// A file of one data block between zeros takes one block on disk.
	want := make([]byte, 64*holeBlock)
	want[20*holeBlock+7] = 1
	path := filepath.Join(dir, "sparse")
	if err := WriteAtomic(path, func(w io.Writer) error { _, err := w.Write(want); return err }); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, want) {
		t.Fatal("the sparse file reads back different")
	}
	if used, ok := diskUsage(t, path); ok && used > 4*holeBlock {
		t.Errorf("a file of one data block uses %d bytes on disk, want at most %d", used, 4*holeBlock)
	}
}
