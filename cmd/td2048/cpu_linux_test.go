package main

import (
	"bufio"
	"strings"
	"testing"
)

func TestParseCPUModel(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"processor\t: 0\nvendor_id\t: GenuineIntel\nmodel name\t: Intel(R) Xeon(R)   Processor @ 2.50GHz\nmodel name\t: other\n", "Intel(R) Xeon(R) Processor @ 2.50GHz"},
		{"processor\t: 0\nmodel name\t: AMD EPYC 9B45\n", "AMD EPYC 9B45"},
		{"processor\t: 0\nBogoMIPS\t: 50.00\nCPU implementer\t: 0x41\n", ""}, // arm64: no model name
		{"", ""},
		{"model name", ""}, // no colon: not a field
	} {
		t.Run(c.want, func(t *testing.T) {
			if got := parseCPUModel(bufio.NewScanner(strings.NewReader(c.in))); got != c.want {
				t.Errorf("parseCPUModel(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}
