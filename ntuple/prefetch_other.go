//go:build !amd64

package ntuple

import "unsafe"

// prefetch does nothing where td2048 has no prefetch instruction to use.
func prefetch(base unsafe.Pointer, idx []uint32) {}

func prefetch3(base unsafe.Pointer, idx []uint32) {}

func prefetch2(base unsafe.Pointer, idx []uint32) {}
