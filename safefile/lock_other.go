//go:build !unix && !windows

package safefile

import "os"

// tryLock takes no lock where the system offers none td2048 knows.
func tryLock(*os.File) (held bool, err error) { return false, nil }
