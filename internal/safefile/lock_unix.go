//go:build unix

package safefile

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// fileLocks: an output file itself is locked too (see holdFile).
const fileLocks = true

// flock is flock(2); tests replace it to be refused.
var flock = unix.Flock

// tryLock takes an exclusive flock(2) on f without waiting; held reports
// that another open file holds it.
func tryLock(f *os.File) (held bool, err error) {
	err = flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
	return errors.Is(err, unix.EWOULDBLOCK), err
}

// unsupported says that the file system refuses flock(2) itself: a Lustre
// client mounted without flock (ENOSYS), an NFS mount without its lock
// service (ENOLCK), a file system with no locks (EOPNOTSUPP).
func unsupported(err error) bool {
	return errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.ENOLCK) || errors.Is(err, unix.EOPNOTSUPP) || errors.Is(err, unix.ENOTSUP)
}
