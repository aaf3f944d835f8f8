#include "textflag.h"

// func addRelaxed(w *float32, x []uint32, per int, d float32) float32
// For each group of per indices in x: w[i] += d, and the group's sum of the
// new weights; returns the sum of the group sums. Plain aligned 32-bit
// loads and stores, which are atomic on amd64.
TEXT ·addRelaxed(SB), NOSPLIT, $0-52
	MOVQ w+0(FP), DI
	MOVQ x_base+8(FP), SI
	MOVQ x_len+16(FP), CX
	MOVQ per+32(FP), R8
	MOVSS d+40(FP), X1
	XORPS X0, X0
	TESTQ R8, R8
	JEQ done
outer:
	CMPQ CX, R8
	JLT done
	XORPS X2, X2
	MOVQ R8, R9
inner:
	MOVL (SI), AX
	MOVSS (DI)(AX*4), X3
	ADDSS X1, X3
	MOVSS X3, (DI)(AX*4)
	ADDSS X3, X2
	ADDQ $4, SI
	DECQ R9
	JNZ inner
	ADDSS X2, X0
	SUBQ R8, CX
	JMP outer
done:
	MOVSS X0, ret+48(FP)
	RET

// func addPackedRelaxed(p *float32, x []uint32, per int, d float32) float32
// addRelaxed for a packed TC array (weight i at p[3i], E and A after it):
// w += d*min(|E|/A, 1), E += d, A += |d|, and the sums of the new weights, in
// the order and with the roundings of Network.addPacked.
TEXT ·addPackedRelaxed(SB), NOSPLIT, $0-52
	MOVQ p+0(FP), DI
	MOVQ x_base+8(FP), SI
	MOVQ x_len+16(FP), CX
	MOVQ per+32(FP), R8
	MOVSS d+40(FP), X1
	MOVL $0x3f800000, AX
	MOVQ AX, X9
	MOVL $0x7fffffff, AX
	MOVQ AX, X5
	MOVSS X1, X4
	ANDPS X5, X4
	XORPS X0, X0
	TESTQ R8, R8
	JEQ pdone
pouter:
	CMPQ CX, R8
	JLT pdone
	XORPS X2, X2
	MOVQ R8, R9
pinner:
	MOVL (SI), AX
	LEAQ (AX)(AX*2), AX
	MOVSS 4(DI)(AX*4), X6
	MOVSS 8(DI)(AX*4), X7
	MOVSS X6, X8
	ANDPS X5, X8
	DIVSS X7, X8
	MINSS X9, X8
	MULSS X1, X8
	MOVSS (DI)(AX*4), X3
	ADDSS X8, X3
	MOVSS X3, (DI)(AX*4)
	ADDSS X1, X6
	MOVSS X6, 4(DI)(AX*4)
	ADDSS X4, X7
	MOVSS X7, 8(DI)(AX*4)
	ADDSS X3, X2
	ADDQ $4, SI
	DECQ R9
	JNZ pinner
	ADDSS X2, X0
	SUBQ R8, CX
	JMP pouter
pdone:
	MOVSS X0, ret+48(FP)
	RET
