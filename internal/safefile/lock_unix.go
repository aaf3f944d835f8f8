//go:build unix

package safefile

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// fileLocks: an output file itself is locked too (see holdFile).
const fileLocks = true

// tryLock takes an exclusive flock(2) on f without waiting; held reports
// that another open file holds it.
func tryLock(f *os.File) (held bool, err error) {
	err = unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
	return errors.Is(err, unix.EWOULDBLOCK), err
}
