//go:build unix

package safefile

import (
	"testing"

	"golang.org/x/sys/unix"
)

// diskUsage is the space path takes on disk.
func diskUsage(t *testing.T, path string) (int64, bool) {
	var st unix.Stat_t
	if err := unix.Stat(path, &st); err != nil {
		t.Fatal(err)
	}
	return st.Blocks * 512, true
}
