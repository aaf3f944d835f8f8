package train

import "golang.org/x/sys/unix"

// PhysicalMemory is the machine's memory in bytes (0 when unknown).
func PhysicalMemory() int64 {
	n, err := unix.SysctlUint64("hw.memsize")
	if err != nil {
		return 0
	}
	return int64(n)
}
