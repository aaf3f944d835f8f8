//go:build unix

package safefile

import (
	"io"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// TestCheckRefusesSpecialFiles: a named pipe or a device is refused at
// once: opening a pipe would wait for a writer, and renaming a file over
// a device (as root, /dev/null) would replace it.
func TestCheckRefusesSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	pipe := filepath.Join(dir, "pipe")
	if err := unix.Mkfifo(pipe, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Check(pipe); err == nil || !strings.Contains(err.Error(), "is a named pipe, not a regular file") {
		t.Errorf("Check(pipe) = %v", err)
	}
	dev := filepath.Join(dir, "null")
	if err := unix.Mknod(dev, unix.S_IFCHR|0o666, int(unix.Mkdev(1, 3))); err != nil {
		t.Logf("no device made (not root?): %v", err)
		return
	}
	if err := Check(dev); err == nil || !strings.Contains(err.Error(), "is a device, not a regular file") {
		t.Errorf("Check(device) = %v", err)
	}
	if err := WriteAtomic(dev, func(io.Writer) error { return nil }); err == nil {
		t.Error("WriteAtomic replaced a device")
	}
}
