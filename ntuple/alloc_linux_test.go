package ntuple

import (
	"os"
	"strings"
	"sync"
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

// TestCompactTrim: each way of filling a compact network (ToCompact,
// SetCanonicalCompact from several goroutines, FillCanonicalQ) leaves in
// memory, in each 2 MiB where fewer than half the pages hold a weight,
// just those pages, and keeps every page of the other regions; the
// weights are the same whichever way.
func TestCompactTrim(t *testing.T) {
	f := MustNew("012345")
	defer f.Free()
	w := f.Weights() // storage order, as the compact network's
	c, err := f.ToCompact()
	if err != nil {
		t.Fatal(err)
	}
	first := int(-uintptr(unsafe.Pointer(&c.h[0]))%hugePage) / 2 // the first whole region's first weight
	c.Free()
	perPage, pages := smallPage/2, hugePage/smallPage
	// Pages of each region that hold a weight: all, a quarter, exactly
	// half (kept whole), one short of half (trimmed), none.
	plans := []func(p int) bool{
		func(int) bool { return true },
		func(p int) bool { return p%4 == 1 },
		func(p int) bool { return p%2 == 0 },
		func(p int) bool { return p < pages/2-1 },
		func(int) bool { return false },
	}
	for r, plan := range plans {
		for p := range pages {
			if plan(p) {
				w[first+(r*pages+p)*perPage+p%perPage] = float32(r*1000 + p + 1)
			}
		}
	}
	thp, _ := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	huge := !strings.Contains(string(thp), "[never]")
	check := func(t *testing.T, c *Network) {
		t.Helper()
		vec := make([]byte, pages)
		for r, plan := range plans {
			region := c.h[first+r*pages*perPage:][:pages*perPage]
			if err := mincore(unsafe.Slice((*byte)(unsafe.Pointer(&region[0])), hugePage), vec); err != nil {
				t.Skip("mincore:", err)
			}
			held, in, stray := 0, 0, 0
			for p, v := range vec {
				if plan(p) {
					held++
				}
				if v&1 != 0 {
					in++
					if !plan(p) {
						stray++
					}
				}
			}
			switch {
			case 2*held < pages && (in != held || stray > 0):
				t.Errorf("region %d: %d pages in memory (%d of them zeros), want the %d that hold weights", r, in, stray, held)
			case 2*held >= pages && huge && in != pages:
				t.Errorf("region %d: %d of %d pages in memory, want its huge page whole", r, in, pages)
			}
		}
	}
	want, err := f.ToCompact()
	if err != nil {
		t.Fatal(err)
	}
	defer want.Free()
	t.Run("ToCompact", func(t *testing.T) { check(t, want) })
	var canon []float32
	f.EachCanonical(false, func(w []float32) error {
		canon = append(canon, w...)
		return nil
	})
	same := func(t *testing.T, got *Network) {
		t.Helper()
		for i := range want.h {
			if got.h[i] != want.h[i] {
				t.Fatalf("storage weight %d: %d, want %d", i, got.h[i], want.h[i])
			}
		}
	}
	t.Run("SetCanonicalCompact", func(t *testing.T) {
		got, err := NewCompact(f.Spec(), want.Scales())
		if err != nil {
			t.Fatal(err)
		}
		defer got.Free()
		var wg sync.WaitGroup
		for g := range 2 {
			wg.Go(func() {
				for at := g << 16; at < len(canon); at += 2 << 16 {
					got.SetCanonicalCompact(0, at, canon[at:at+1<<16])
				}
			})
		}
		wg.Wait()
		check(t, got)
		same(t, got)
	})
	t.Run("FillCanonicalQ", func(t *testing.T) {
		got, err := NewCompact(f.Spec(), want.Scales())
		if err != nil {
			t.Fatal(err)
		}
		defer got.Free()
		q := canonicalQ(t, want)[0]
		if err := got.FillCanonicalQ(func(_ int, c []int16) error {
			q = q[copy(c, q):]
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		check(t, got)
		same(t, got)
	})
}
