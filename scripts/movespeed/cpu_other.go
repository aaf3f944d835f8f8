//go:build !unix

package main

// cpuSeconds is the CPU time of the process so far; where getrusage is
// missing (Windows) it is not measured and reads zero.
func cpuSeconds() float64 { return 0 }
