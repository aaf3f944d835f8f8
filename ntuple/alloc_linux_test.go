package ntuple

import (
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
)

// TestPrefaultResident: after Prefault every page of the tables is in
// memory (mincore), the parts of every CPU's share included, and the
// weights are still zero.
func TestPrefaultResident(t *testing.T) {
	n := MustNew("4x6")
	defer n.Free()
	w := n.Weights()
	mem := unsafe.Slice((*byte)(unsafe.Pointer(&w[0])), 4*len(w))
	page := unix.Getpagesize()
	vec := make([]byte, (len(mem)+page-1)/page)
	if err := mincore(mem, vec); err != nil {
		t.Skip("mincore:", err)
	}
	before := 0
	for _, v := range vec {
		before += int(v & 1)
	}
	if before == len(vec) {
		t.Fatalf("all %d pages resident before Prefault", len(vec))
	}
	n.Prefault()
	if err := mincore(mem, vec); err != nil {
		t.Fatal(err)
	}
	for i, v := range vec {
		if v&1 == 0 {
			t.Fatalf("page %d of %d not resident after Prefault", i, len(vec))
		}
	}
	for i := 0; i < len(w); i += 1 << 16 {
		if w[i] != 0 {
			t.Fatalf("weight %d is %v after Prefault", i, w[i])
		}
	}
}

func mincore(mem, vec []byte) error {
	_, _, e := unix.Syscall(unix.SYS_MINCORE, uintptr(unsafe.Pointer(&mem[0])), uintptr(len(mem)), uintptr(unsafe.Pointer(&vec[0])))
	if e != 0 {
		return e
	}
	return nil
}
