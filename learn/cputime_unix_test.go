//go:build unix

package learn

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time this process used (user and system).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
