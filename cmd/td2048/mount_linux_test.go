package main

import (
	"fmt"
	"os"
	"testing"

	"golang.org/x/sys/unix"
)

// mountTmpfs mounts a tmpfs of size bytes (read-only when ro) on a new
// folder, or skips the test where this process may not mount.
func mountTmpfs(t *testing.T, size int, ro bool) string {
	t.Helper()
	dir := t.TempDir()
	var flags uintptr
	if ro {
		flags = unix.MS_RDONLY
	}
	if err := unix.Mount("tmpfs", dir, "tmpfs", flags, fmt.Sprintf("size=%d", size)); err != nil {
		if os.Getenv("CI") != "" && os.Geteuid() == 0 {
			t.Fatalf("mount tmpfs: %v", err)
		}
		t.Skipf("cannot mount a tmpfs here (%v): needs root", err)
	}
	t.Cleanup(func() { unix.Unmount(dir, unix.MNT_DETACH) })
	return dir
}

// remount changes a tmpfs mounted by mountTmpfs.
func remount(t *testing.T, dir string, size int) {
	t.Helper()
	if err := unix.Mount("tmpfs", dir, "tmpfs", unix.MS_REMOUNT, fmt.Sprintf("size=%d", size)); err != nil {
		t.Fatalf("remount: %v", err)
	}
}
