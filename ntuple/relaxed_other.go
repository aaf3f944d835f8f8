//go:build !amd64

package ntuple

func addRelaxed(w *float32, x []uint32, per int, d float32) float32 { panic("unreachable") }

const haveRelaxed = false

func addPackedRelaxed(p *float32, x []uint32, per int, d float32) float32 { panic("unreachable") }
