package ntuple

import (
	"runtime"
	"sync"
	"unsafe"

	"golang.org/x/sys/unix"
)

// allocWeights maps n zeroed float32s from anonymous memory and asks the
// kernel for transparent huge pages: a 4x6 network is 256 MiB that every
// lookup misses the cache in, and 2 MiB pages spare most TLB misses. Where
// mmap fails it falls back to the Go heap. The memory is returned by the
// function it gives (Network.Free), never by the garbage collector.
func allocWeights(n int) ([]float32, func()) {
	size := n * 4
	if size < 1<<21 {
		return make([]float32, n), nil
	}
	mem, err := unix.Mmap(-1, 0, size, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_ANON|unix.MAP_PRIVATE)
	if err != nil {
		return make([]float32, n), nil
	}
	_ = unix.Madvise(mem, unix.MADV_HUGEPAGE)
	w := unsafe.Slice((*float32)(unsafe.Pointer(&mem[0])), n)
	var once sync.Once
	return w, func() { once.Do(func() { _ = unix.Munmap(mem) }) }
}

// prefault faults in every page of w, memory allocWeights mapped, for
// writing (MADV_POPULATE_WRITE, Linux 5.14; older kernels refuse it, and
// the pages fault on first touch as before). It splits the work among the
// machine's CPUs, which fault a VM's huge pages faster than one
// (docs/speed.md, "Measurements behind the code").
func prefault(w []float32) {
	if len(w) == 0 {
		return
	}
	mem := unsafe.Slice((*byte)(unsafe.Pointer(&w[0])), 4*len(w))
	parts := prefaultParts(len(mem), runtime.NumCPU())
	var wg sync.WaitGroup
	for _, p := range parts[1:] {
		wg.Go(func() { _ = unix.Madvise(mem[p[0]:p[1]], unix.MADV_POPULATE_WRITE) })
	}
	_ = unix.Madvise(mem[parts[0][0]:parts[0][1]], unix.MADV_POPULATE_WRITE)
	wg.Wait()
}

// release hands w's pages back to the system (MADV_DONTNEED): w, memory
// allocWeights mapped, reads as zeros afterwards, and its pages come back
// as it is written again.
func release(w []float32) {
	if len(w) > 0 {
		_ = unix.Madvise(unsafe.Slice((*byte)(unsafe.Pointer(&w[0])), 4*len(w)), unix.MADV_DONTNEED)
	}
}

// allocInt16 is allocWeights for n int16s (compact weights). Their
// memory is not faulted in up front: the fills bring in each huge page as
// they first write it, and trim then hands back the pages that hold only
// zeros.
func allocInt16(n int) ([]int16, func()) {
	if n*2 < 1<<21 {
		return make([]int16, n), nil
	}
	w, free := allocWeights((n + 1) / 2)
	return unsafe.Slice((*int16)(unsafe.Pointer(&w[0])), n), free
}

// smallPage is the size of a page of memory on amd64 and arm64.
const smallPage = 4 << 10

// allZero reports whether every byte of b, a whole number of 8-byte words
// at an 8-byte boundary, is zero.
func allZero(b []byte) bool {
	for _, x := range unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(b))), len(b)/8) {
		if x != 0 {
			return false
		}
	}
	return true
}

// trim hands back the memory of h's pages of zeros (h memory allocInt16
// mapped, and filled) in each aligned 2 MiB where they are more than half
// of its small pages: there the pages that hold weights are copied out,
// the huge page is returned whole, and they are copied back into small
// pages, which the region keeps from then on (MADV_NOHUGEPAGE). Where
// zeros are fewer the huge page stays, sparing the lookups TLB misses.
// The weights are not changed.
func trim(h []int16) {
	if len(h) == 0 {
		return
	}
	mem := unsafe.Slice((*byte)(unsafe.Pointer(&h[0])), 2*len(h))
	start := uintptr(unsafe.Pointer(&mem[0]))
	var buf []byte // the pages of one region that hold weights: at most half of it
	defer func() {
		if buf != nil {
			_ = unix.Munmap(buf)
		}
	}()
	for i := int((start+hugePage-1)&^(hugePage-1) - start); i+hugePage <= len(mem); i += hugePage {
		region := mem[i : i+hugePage]
		var held [hugePage / smallPage]bool
		n := 0
		for p := range held {
			if held[p] = !allZero(region[p*smallPage : (p+1)*smallPage]); held[p] {
				n++
			}
			if 2*n >= len(held) {
				break // dense: it keeps its huge page
			}
		}
		if 2*n >= len(held) {
			continue
		}
		if buf == nil {
			var err error
			if buf, err = unix.Mmap(-1, 0, hugePage/2, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_ANON|unix.MAP_PRIVATE); err != nil {
				return
			}
		}
		if unix.Madvise(region, unix.MADV_NOHUGEPAGE) != nil {
			continue
		}
		each := func(f func(page, saved []byte)) {
			k := 0
			for p, in := range held {
				if in {
					f(region[p*smallPage:(p+1)*smallPage], buf[k*smallPage:(k+1)*smallPage])
					k++
				}
			}
		}
		each(func(page, saved []byte) { copy(saved, page) })
		if unix.Madvise(region, unix.MADV_DONTNEED) == nil {
			each(func(page, saved []byte) { copy(page, saved) })
		}
	}
}
