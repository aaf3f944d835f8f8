#include "textflag.h"

// func prefetch(base unsafe.Pointer, idx []uint32)
// Issues PREFETCHT0 for base + 4*i for each i in idx.
TEXT ·prefetch(SB), NOSPLIT, $0-32
	MOVQ base+0(FP), AX
	MOVQ idx_base+8(FP), BX
	MOVQ idx_len+16(FP), CX
	TESTQ CX, CX
	JEQ done
loop:
	MOVL (BX), DX
	PREFETCHT0 (AX)(DX*4)
	ADDQ $4, BX
	DECQ CX
	JNZ loop
done:
	RET

// func prefetch3(base unsafe.Pointer, idx []uint32)
// Issues PREFETCHT0 for base + 12*i for each i in idx (a packed array).
TEXT ·prefetch3(SB), NOSPLIT, $0-32
	MOVQ base+0(FP), AX
	MOVQ idx_base+8(FP), BX
	MOVQ idx_len+16(FP), CX
	TESTQ CX, CX
	JEQ done3
loop3:
	MOVL (BX), DX
	LEAQ (DX)(DX*2), DX
	PREFETCHT0 (AX)(DX*4)
	ADDQ $4, BX
	DECQ CX
	JNZ loop3
done3:
	RET

// func prefetch2(base unsafe.Pointer, idx []uint32)
// Issues PREFETCHT0 for base + 2*i for each i in idx (16-bit weights).
TEXT ·prefetch2(SB), NOSPLIT, $0-32
	MOVQ base+0(FP), AX
	MOVQ idx_base+8(FP), BX
	MOVQ idx_len+16(FP), CX
	TESTQ CX, CX
	JEQ done2
loop2:
	MOVL (BX), DX
	PREFETCHT0 (AX)(DX*2)
	ADDQ $4, BX
	DECQ CX
	JNZ loop2
done2:
	RET
