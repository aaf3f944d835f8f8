package ntuple

import "unsafe"

// prefetch asks the processor to start loading the weights at base+4*i,
// i in idx, into the cache without waiting for them. A weight lookup misses
// the cache; a load that misses holds its place in the processor's window
// until the data comes, so a batch of lookups otherwise overlaps only as
// far as that window reaches, while prefetches retire at once and every
// miss of a batch is in flight together.
//
//go:noescape
func prefetch(base unsafe.Pointer, idx []uint32)

// prefetch3 is prefetch for a packed array: base+12*i.
//
//go:noescape
func prefetch3(base unsafe.Pointer, idx []uint32)

// prefetch2 is prefetch for 16-bit weights: base+2*i.
//
//go:noescape
func prefetch2(base unsafe.Pointer, idx []uint32)
