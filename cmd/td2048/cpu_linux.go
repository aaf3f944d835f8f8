package main

import (
	"bufio"
	"os"
	"strings"
)

// cpuModel is the processor's name as Linux reports it (/proc/cpuinfo's
// first "model name"), or "" where it does not say (arm64 kernels give
// none). bench prints it: its speeds, and how they compare with other
// programs', depend on the processor (docs/speed.md).
func cpuModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return ""
	}
	defer f.Close()
	return parseCPUModel(bufio.NewScanner(f))
}

// parseCPUModel is cpuModel's reading of cpuinfo's lines: the value of
// the first "model name" line, spaces folded.
func parseCPUModel(s *bufio.Scanner) string {
	for s.Scan() {
		k, v, ok := strings.Cut(s.Text(), ":")
		if ok && strings.TrimSpace(k) == "model name" {
			return strings.Join(strings.Fields(v), " ")
		}
	}
	return ""
}
