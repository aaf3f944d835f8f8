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
	if in, all := resident(t, w); in == all {
		t.Fatalf("all %d pages resident before Prefault", all)
	}
	n.Prefault()
	if in, all := resident(t, w); in != all {
		t.Fatalf("%d of %d pages resident after Prefault", in, all)
	}
	for i := 0; i < len(w); i += 1 << 16 {
		if w[i] != 0 {
			t.Fatalf("weight %d is %v after Prefault", i, w[i])
		}
	}
}

// resident counts the pages of w in memory.
func resident(t *testing.T, w []float32) (in, all int) {
	mem := unsafe.Slice((*byte)(unsafe.Pointer(&w[0])), 4*len(w))
	page := unix.Getpagesize()
	vec := make([]byte, (len(mem)+page-1)/page)
	if err := mincore(mem, vec); err != nil {
		t.Skip("mincore:", err)
	}
	for _, v := range vec {
		in += int(v & 1)
	}
	return in, len(vec)
}

// TestPackReleases: a packed network holds only its packed array (the
// dense weights and accumulators go back to the system as Pack copies
// them), saving it does not bring them back, and Prefault faults in only
// the packed array; Unpack gives them their values again.
func TestPackReleases(t *testing.T) {
	n := MustNew("012456,0123")
	defer n.Free()
	n.Optimistic(1000)
	n.EnableCoherence()
	want := n.Estimate(0x1234)
	if in, all := resident(t, n.w); in != all {
		t.Fatalf("%d of %d weight pages resident before Pack", in, all)
	}
	n.Pack()
	n.Prefault()
	_ = canonical(t, n, false)
	_ = canonical(t, n, true)
	_ = n.FirstNonFinite()
	if in, all := resident(t, n.w); in > all/100 {
		t.Fatalf("%d of %d dense weight pages resident while packed", in, all)
	}
	if in, all := resident(t, n.ea); in > all/100 {
		t.Fatalf("%d of %d accumulator pages resident while packed", in, all)
	}
	if in, all := resident(t, n.p); in != all {
		t.Fatalf("%d of %d packed pages resident", in, all)
	}
	if got := n.Estimate(0x1234); got != want {
		t.Fatalf("packed estimate %v, want %v", got, want)
	}
	n.Unpack()
	if got := n.Estimate(0x1234); got != want || n.w[0] != 1000/16. || n.ea[1] != tcStart {
		t.Fatalf("after Unpack: estimate %v (want %v), w[0] %v, A[0] %v", got, want, n.w[0], n.ea[1])
	}
}

func mincore(mem, vec []byte) error {
	_, _, e := unix.Syscall(unix.SYS_MINCORE, uintptr(unsafe.Pointer(&mem[0])), uintptr(len(mem)), uintptr(unsafe.Pointer(&vec[0])))
	if e != 0 {
		return e
	}
	return nil
}
