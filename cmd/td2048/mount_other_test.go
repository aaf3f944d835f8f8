//go:build !linux

package main

import "testing"

// mountTmpfs skips: td2048's small and read-only filesystems are Linux
// tmpfs mounts.
func mountTmpfs(t *testing.T, size int, ro bool) string {
	t.Skip("needs a Linux tmpfs")
	return ""
}

func remount(t *testing.T, dir string, size int) { t.Skip("needs a Linux tmpfs") }
