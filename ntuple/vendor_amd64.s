#include "textflag.h"

// func cpuid0() (b, c, d uint32)
// The vendor words of CPUID leaf 0.
TEXT ·cpuid0(SB), NOSPLIT, $0-12
	XORL AX, AX
	XORL CX, CX
	CPUID
	MOVL BX, b+0(FP)
	MOVL CX, c+4(FP)
	MOVL DX, d+8(FP)
	RET
