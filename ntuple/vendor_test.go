package ntuple

import (
	"os"
	"runtime"
	"strings"
	"testing"
)

// TestVendor: on amd64 the vendor is CPUID's, the one Linux prints as
// vendor_id in /proc/cpuinfo; elsewhere it is empty.
func TestVendor(t *testing.T) {
	v := Vendor()
	if runtime.GOARCH != "amd64" {
		if v != "" {
			t.Fatalf("Vendor() = %q off amd64", v)
		}
		return
	}
	if len(v) != 12 {
		t.Fatalf("Vendor() = %q: want 12 characters", v)
	}
	info, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		t.Skip("no /proc/cpuinfo to compare with")
	}
	for _, line := range strings.Split(string(info), "\n") {
		if k, val, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "vendor_id" {
			if strings.TrimSpace(val) != v {
				t.Fatalf("Vendor() = %q, /proc/cpuinfo says %q", v, strings.TrimSpace(val))
			}
			return
		}
	}
	t.Skip("no vendor_id in /proc/cpuinfo")
}
