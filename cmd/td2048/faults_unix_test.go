//go:build unix

package main

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// TestSpecialFilesRefused: a named pipe or a device named as an output is
// refused at once: opening the pipe would wait for a reader, and renaming
// a file over the device (as root, /dev/null) would replace it.
func TestSpecialFilesRefused(t *testing.T) {
	w := trainedWeights(t)
	dir := t.TempDir()
	t.Chdir(dir)
	if err := unix.Mkfifo("pipe", 0o644); err != nil {
		t.Fatal(err)
	}
	oneLine(t, []string{"eval", "--load", w, "--games", "2", "--out", "pipe"}, 2, "--out: pipe is a named pipe, not a regular file")
	oneLine(t, []string{"train", "--network", "2x4", "--episodes", "10", "--log", "pipe"}, 2, "pipe is a named pipe, not a regular file")
	if err := unix.Mknod("null", unix.S_IFCHR|0o666, int(unix.Mkdev(1, 3))); err != nil {
		t.Logf("no device made (not root?): %v", err)
		return
	}
	oneLine(t, []string{"eval", "--load", w, "--games", "2", "--out", "null", "--force"}, 2, "null is a device, not a regular file")
	if fi, err := os.Stat(filepath.Join(dir, "null")); err != nil || fi.Mode()&os.ModeDevice == 0 {
		t.Fatal("the device was replaced")
	}
}
