//go:build !linux

package ntuple

func allocWeights(n int) ([]float32, func()) { return make([]float32, n), nil }

func prefault([]float32) {}

func release([]float32) {}

func allocInt16(n int) ([]int16, func()) { return make([]int16, n), nil }

func trim([]int16) {}
