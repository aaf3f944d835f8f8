package board

// Scale is the set of tile indices the board holds, as TDL2048+ computes
// it (docs/methods.md section 1): bit e is set when some cell holds index
// e, bit 0 meaning that some cell is empty. For 2048, where index e is the
// tile 2^e, the scale reads as the sum of the distinct tile values present
// (plus 1 when a cell is empty): a board holding a 16384 or a 32768 has
// scale >= 16384. Multi-stage networks compare it with their thresholds.
func (b Board) Scale() uint32 {
	var s uint32
	for x, i := uint64(b), 0; i < 16; x, i = x>>4, i+1 {
		s |= 1 << (x & 0xf)
	}
	return s
}
