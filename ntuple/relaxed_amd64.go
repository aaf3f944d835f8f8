package ntuple

// addRelaxed is Add's shared path: each weight read, stepped and written
// back with plain aligned 32-bit moves, atomic on amd64 (as Go's runtime
// uses them for release stores) but without the locked exchange that
// sync/atomic's Store compiles to, which stalls the processor until every
// earlier load is done. Several trainers may lose a step to each other now
// and then (Hogwild); no weight is ever torn.
//
//go:noescape
func addRelaxed(w *float32, x []uint32, per int, d float32) float32

const haveRelaxed = true

// addPackedRelaxed is addRelaxed for a packed TC network (packed.go): the
// weight and its accumulators read, stepped by the TC rule and written
// back with plain aligned moves.
//
//go:noescape
func addPackedRelaxed(p *float32, x []uint32, per int, d float32) float32
