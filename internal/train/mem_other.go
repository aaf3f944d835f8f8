//go:build !linux && !darwin

package train

// PhysicalMemory is the machine's memory in bytes: 0, unknown, where
// td2048 does not ask the system (checkMemory then checks nothing).
func PhysicalMemory() int64 { return 0 }
