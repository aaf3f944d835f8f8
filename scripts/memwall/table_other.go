//go:build !linux

package main

// table returns n words, each written once.
func table(n int) []uint32 { return fill(make([]uint32, n)) }
