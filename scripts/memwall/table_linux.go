package main

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// table returns n words of anonymous memory on transparent huge pages, as
// td2048 holds its weights (ntuple's allocWeights), each written once.
func table(n int) []uint32 {
	mem, err := unix.Mmap(-1, 0, 4*n, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_ANON|unix.MAP_PRIVATE)
	if err != nil {
		return fill(make([]uint32, n))
	}
	_ = unix.Madvise(mem, unix.MADV_HUGEPAGE)
	return fill(unsafe.Slice((*uint32)(unsafe.Pointer(&mem[0])), n))
}
