package ntuple

import "golang.org/x/sys/cpu"

// est4x6 is estimate4x6 in assembly for processors with BMI2 (PEXT): the
// eight images of b computed in registers, each pattern's index read off
// an image in one or three instructions, and every weight load issued as
// soon as its index is known. Compact code keeps more loads in the
// processor's window at once, which is where a lookup that misses the
// cache spends its time. The sums are bit for bit those of estimate4x6.
//
//go:noescape
func est4x6(w *float32, b uint64) float32

// add4x6 adds d to each of b's 32 weights and returns the sum of the new
// weights, each pattern summed over its images first, in the order and
// with the result of Network.Add on b's indices. The stores are plain
// aligned 32-bit moves, which are atomic on amd64 (see addRelaxed).
//
//go:noescape
func add4x6(w *float32, b uint64, d float32) float32

var have4x6asm = cpu.X86.HasBMI2

// pf4x6 issues PREFETCHT0 for each of b's 32 weights.
//
//go:noescape
func pf4x6(w *float32, b uint64)

// index4x6asm writes the 32 indices of each of the n boards at bs to dst
// (image-major: each image's four pattern indices, without the pattern's
// table offset) and prefetches their weights.
//
//go:noescape
func index4x6asm(w *float32, bs *uint64, n int, dst *uint32)

// sumIndex4x6asm writes the value of each of n boards whose indices
// index4x6asm wrote at x to out, bit for bit est4x6's.
//
//go:noescape
func sumIndex4x6asm(w *float32, x *uint32, n int, out *float32)

// estimateN4x6asm is index4x6asm then sumIndex4x6asm for up to 4 boards,
// the indices kept in its own frame.
//
//go:noescape
func estimateN4x6asm(w *float32, bs *uint64, n int, out *float32)

// index4x6pm writes the 32 storage indices of b (layout.go) to dst
// pattern-major, images in Images order, each plus base and its pattern's
// table offset, as index4x6 does.
//
//go:noescape
func index4x6pm(b uint64, dst *uint32, base uint32)

// index4x6pm3 is index4x6pm that also prefetches each index's weight in
// the packed array p (weight i at p[3i], packed.go).
//
//go:noescape
func index4x6pm3(p *float32, b uint64, dst *uint32, base uint32)

// sumIndex4x6h is sumIndex4x6asm for a compact 4x6 network (compact.go):
// weights at w (pattern p's table at w[p<<24]), scales s of the stage.
//
//go:noescape
func sumIndex4x6h(w *int16, x *uint32, n int, out *float32, s *float32)
