package safefile

import (
	"errors"
	"os"

	"golang.org/x/sys/windows"
)

// fileLocks: an output file itself is not locked, only its lock file: a
// file held open cannot be renamed over on Windows, and hard links to
// outputs are rare there.
const fileLocks = false

// tryLock locks f's first byte exclusively without waiting (LockFileEx);
// held reports that another open file holds it. Windows' locks are
// mandatory, so the holder's process id cannot be read while it holds it.
func tryLock(f *os.File) (held bool, err error) {
	var o windows.Overlapped
	err = windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, &o)
	return errors.Is(err, windows.ERROR_LOCK_VIOLATION), err
}

// unsupported: no error here says that the file system refuses locks.
func unsupported(error) bool { return false }
