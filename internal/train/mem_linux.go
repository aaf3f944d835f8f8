package train

import "golang.org/x/sys/unix"

// PhysicalMemory is the machine's memory in bytes (0 when unknown).
func PhysicalMemory() int64 {
	var si unix.Sysinfo_t
	if unix.Sysinfo(&si) != nil {
		return 0
	}
	return int64(si.Totalram) * int64(si.Unit)
}
