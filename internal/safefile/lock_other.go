//go:build !unix && !windows

package safefile

import "os"

// fileLocks: there are no locks here.
const fileLocks = false

// tryLock takes no lock where the system offers none td2048 knows.
func tryLock(*os.File) (held bool, err error) { return false, nil }

// unsupported: no error here says that the file system refuses locks.
func unsupported(error) bool { return false }
