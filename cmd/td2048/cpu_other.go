//go:build !linux

package main

// cpuModel is "" where td2048 does not know how to ask for the
// processor's name.
func cpuModel() string { return "" }
