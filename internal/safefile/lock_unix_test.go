//go:build unix

package safefile

import (
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// TestLockRefusedByFileSystem: a file system that refuses flock (a Lustre
// client mounted noflock: ENOSYS; NFS without its lock service: ENOLCK)
// gets one line naming the fix, not a bare "function not implemented".
func TestLockRefusedByFileSystem(t *testing.T) {
	for _, errno := range []unix.Errno{unix.ENOSYS, unix.ENOLCK, unix.EOPNOTSUPP} {
		t.Run(errno.Error(), func(t *testing.T) {
			defer func(f func(int, int) error) { flock = f }(flock)
			flock = func(int, int) error { return errno }
			path := filepath.Join(t.TempDir(), "out.json")
			_, err := Acquire(path)
			if err == nil {
				t.Fatal("locked")
			}
			msg := err.Error()
			for _, want := range []string{"lock " + path + ": the file system refuses file locks (" + errno.Error() + ")", "-o flock", "localflock"} {
				if !strings.Contains(msg, want) {
					t.Errorf("%q does not say %q", msg, want)
				}
			}
			if strings.Contains(msg, "\n") {
				t.Errorf("%q is not one line", msg)
			}
		})
	}
}
