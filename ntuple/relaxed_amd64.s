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
