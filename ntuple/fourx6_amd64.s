#include "textflag.h"

// The 4x6 network read straight from a board, images computed in
// registers (see fourx6_amd64.go). Register use:
//   DI  weights of the stage (pattern p's table at byte offset p<<26)
//   SI  the board, then its transpose
//   R8  the image being read
//   R9  0x0f0f0f0f0f0f0f0f, R10 0x00ff00ff00ff00ff  (nibble and byte masks)
//   R11, R12 scratch of INDICES
//   AX, BX, CX, DX  scratch; an image's four indices (INDICES)
//   R13 the boards (INDEXN) or the values (SUMN), R14 the indices (INDEXN)
//   X0..X3 the sums of patterns 0..3, X4 the step (add4x6)

#include "symmetry_amd64.h"

// PM(y, p, r, t): pattern p's storage index (layout.go) of image y to r,
// PEXT(y, pm4x6[2p+1]) << 4 | PEXT(y, pm4x6[2p]), t scratch.
#define PM(y, p, r, t) \
	PEXTQ ·pm4x6+(16*p+8)(SB), y, r; \
	SHLQ $4, r; \
	PEXTQ ·pm4x6+(16*p)(SB), y, t; \
	ORQ t, r

// INDICES(y): the storage indices of image y in patterns 0..3 to AX, BX,
// CX, DX (without the pattern's table offset, which the loads add), R11
// and R12 scratch.
#define INDICES(y) \
	PM(y, 0, AX, R11); \
	PM(y, 1, BX, R12); \
	PM(y, 2, CX, R11); \
	PM(y, 3, DX, R12)

// EST(y): X_p += w[p][index_p(y)] for the four patterns.
#define EST(y) \
	INDICES(y); \
	ADDSS (DI)(AX*4), X0; \
	ADDSS 0x4000000(DI)(BX*4), X1; \
	ADDSS 0x8000000(DI)(CX*4), X2; \
	ADDSS 0xc000000(DI)(DX*4), X3

// UPD1(off, i, x): w = w[p][i] + X4 stored back, and X_p += w.
#define UPD1(off, i, x) \
	MOVSS off(DI)(i*4), X5; \
	ADDSS X4, X5; \
	MOVSS X5, off(DI)(i*4); \
	ADDSS X5, x

// UPD(y): each of image y's four weights stepped by X4, X_p += the new weight.
#define UPD(y) \
	INDICES(y); \
	UPD1(0, AX, X0); \
	UPD1(0x4000000, BX, X1); \
	UPD1(0x8000000, CX, X2); \
	UPD1(0xc000000, DX, X3)

#define SETUP \
	MOVQ $0x0f0f0f0f0f0f0f0f, R9; \
	MOVQ $0x00ff00ff00ff00ff, R10; \
	XORPS X0, X0; \
	XORPS X1, X1; \
	XORPS X2, X2; \
	XORPS X3, X3

// EIGHT(OP) applies OP to the eight images in board.Images order:
// b, mirror, flip, half turn, then the same of the transpose.
#define EIGHT(OP) \
	OP(SI); \
	MOVQ SI, R8; MIRROR(R8); OP(R8); \
	MOVQ SI, R8; FLIP(R8); OP(R8); \
	MOVQ SI, R8; HALFTURN(R8); OP(R8); \
	TRANSPOSE(SI); \
	OP(SI); \
	MOVQ SI, R8; MIRROR(R8); OP(R8); \
	MOVQ SI, R8; FLIP(R8); OP(R8); \
	MOVQ SI, R8; HALFTURN(R8); OP(R8)

#define TOTAL \
	ADDSS X1, X0; \
	ADDSS X2, X0; \
	ADDSS X3, X0

// func est4x6(w *float32, b uint64) float32
TEXT ·est4x6(SB), NOSPLIT, $0-20
	MOVQ w+0(FP), DI
	MOVQ b+8(FP), SI
	SETUP
	EIGHT(EST)
	TOTAL
	MOVSS X0, ret+16(FP)
	RET

// func add4x6(w *float32, b uint64, d float32) float32
TEXT ·add4x6(SB), NOSPLIT, $0-28
	MOVQ w+0(FP), DI
	MOVQ b+8(FP), SI
	MOVSS d+16(FP), X4
	SETUP
	EIGHT(UPD)
	TOTAL
	MOVSS X0, ret+24(FP)
	RET

// PF(y): the weights of image y prefetched.
#define PF(y) \
	INDICES(y); \
	PREFETCHT0 (DI)(AX*4); \
	PREFETCHT0 0x4000000(DI)(BX*4); \
	PREFETCHT0 0x8000000(DI)(CX*4); \
	PREFETCHT0 0xc000000(DI)(DX*4)

// func pf4x6(w *float32, b uint64)
TEXT ·pf4x6(SB), NOSPLIT, $0-16
	MOVQ w+0(FP), DI
	MOVQ b+8(FP), SI
	SETUP
	EIGHT(PF)
	RET

// IDX(y): the four pattern indices of image y, each prefetched and stored
// at R14, which moves on by 16 bytes.
#define IDX(y) \
	PF(y); \
	MOVL AX, 0(R14); \
	MOVL BX, 4(R14); \
	MOVL CX, 8(R14); \
	MOVL DX, 12(R14); \
	ADDQ $16, R14

// INDEXN: for each of the R8 boards at R13, its 32 indices (image-major,
// each image's four patterns in order, without pattern offsets) to R14,
// each weight prefetched. Uses the frame word at end.
#define INDEXN(end) \
	TESTQ R8, R8; \
	JEQ idxdone; \
	SHLQ $3, R8; \
	ADDQ R13, R8; \
	MOVQ R8, end; \
	SETUP; \
idxloop: \
	MOVQ (R13), SI; \
	EIGHT(IDX); \
	ADDQ $8, R13; \
	CMPQ R13, end; \
	JNE idxloop; \
idxdone:

// SUMN: for each of R8 boards' indices at SI, as INDEXN wrote them, the
// value in estimate4x6's order to R13.
#define SUMN \
	TESTQ R8, R8; \
	JEQ sumdone; \
sumloop: \
	XORPS X0, X0; \
	XORPS X1, X1; \
	XORPS X2, X2; \
	XORPS X3, X3; \
	MOVQ $8, R9; \
sumimage: \
	MOVL 0(SI), AX; \
	MOVL 4(SI), BX; \
	MOVL 8(SI), CX; \
	MOVL 12(SI), DX; \
	ADDSS (DI)(AX*4), X0; \
	ADDSS 0x4000000(DI)(BX*4), X1; \
	ADDSS 0x8000000(DI)(CX*4), X2; \
	ADDSS 0xc000000(DI)(DX*4), X3; \
	ADDQ $16, SI; \
	DECQ R9; \
	JNZ sumimage; \
	TOTAL; \
	MOVSS X0, (R13); \
	ADDQ $4, R13; \
	DECQ R8; \
	JNZ sumloop; \
sumdone:

// func index4x6asm(w *float32, bs *uint64, n int, dst *uint32)
TEXT ·index4x6asm(SB), NOSPLIT, $0-32
	MOVQ w+0(FP), DI
	MOVQ bs+8(FP), R13
	MOVQ n+16(FP), R8
	MOVQ dst+24(FP), R14
	INDEXN(n+16(FP))
	RET

// func sumIndex4x6asm(w *float32, x *uint32, n int, out *float32)
TEXT ·sumIndex4x6asm(SB), NOSPLIT, $0-32
	MOVQ w+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), R8
	MOVQ out+24(FP), R13
	SUMN
	RET

// func estimateN4x6asm(w *float32, bs *uint64, n int, out *float32)
// INDEXN then SUMN for up to 4 boards, the indices in the frame.
TEXT ·estimateN4x6asm(SB), NOSPLIT, $512-32
	MOVQ w+0(FP), DI
	MOVQ bs+8(FP), R13
	MOVQ n+16(FP), R8
	LEAQ 0(SP), R14
	INDEXN(n+16(FP))
	LEAQ 0(SP), SI
	MOVQ bs+8(FP), R8
	SUBQ R8, R13
	SHRQ $3, R13
	MOVQ R13, R8
	MOVQ out+24(FP), R13
	SUMN
	RET

// IDXPMP(y, PF): the four storage indices of image y, plus R13 and each
// pattern's table offset, stored pattern-major at R14 (pattern p at
// 32p bytes), which moves on by 4 bytes; PF(r) on each index r.
#define IDXPMP(y, PF) \
	INDICES(y); \
	ADDL R13, AX; \
	MOVL AX, 0(R14); \
	PF(AX); \
	LEAL 0x1000000(R13)(BX*1), BX; \
	MOVL BX, 32(R14); \
	PF(BX); \
	LEAL 0x2000000(R13)(CX*1), CX; \
	MOVL CX, 64(R14); \
	PF(CX); \
	LEAL 0x3000000(R13)(DX*1), DX; \
	MOVL DX, 96(R14); \
	PF(DX); \
	ADDQ $4, R14

// NOPF(r) does nothing; PF3(r) prefetches the weight at index r of a
// packed array at DI (weight i at 12i bytes, packed.go), R11 scratch.
#define NOPF(r)
#define PF3(r) \
	LEAQ (r)(r*2), R11; \
	PREFETCHT0 (DI)(R11*4)

// IDXPM(y): IDXPMP without prefetching; IDXPM3(y): each weight
// prefetched from the packed array at DI.
#define IDXPM(y) IDXPMP(y, NOPF)
#define IDXPM3(y) IDXPMP(y, PF3)

// func index4x6pm(b uint64, dst *uint32, base uint32)
TEXT ·index4x6pm(SB), NOSPLIT, $0-20
	MOVQ b+0(FP), SI
	MOVQ dst+8(FP), R14
	MOVL base+16(FP), R13
	SETUP
	EIGHT(IDXPM)
	RET

// func index4x6pm3(p *float32, b uint64, dst *uint32, base uint32)
TEXT ·index4x6pm3(SB), NOSPLIT, $0-28
	MOVQ p+0(FP), DI
	MOVQ b+8(FP), SI
	MOVQ dst+16(FP), R14
	MOVL base+24(FP), R13
	SETUP
	EIGHT(IDXPM3)
	RET

// QIMG(o): the compact weights of the image whose four pattern indices
// are at o(SI) (as INDEXN writes them) added to the integer sums R9, R11,
// R12 and R14 of patterns 0..3; pattern p's table at byte offset p<<25
// from DI.
#define QIMG(o) \
	MOVL (o)(SI), AX; \
	MOVL (o+4)(SI), BX; \
	MOVL (o+8)(SI), CX; \
	MOVL (o+12)(SI), DX; \
	MOVWLSX (DI)(AX*2), AX; \
	MOVWLSX 0x2000000(DI)(BX*2), BX; \
	MOVWLSX 0x4000000(DI)(CX*2), CX; \
	MOVWLSX 0x6000000(DI)(DX*2), DX; \
	ADDL AX, R9; \
	ADDL BX, R11; \
	ADDL CX, R12; \
	ADDL DX, R14

// func sumIndex4x6h(w *int16, x *uint32, n int, out *float32, s *float32)
// For each of n boards whose indices INDEXN wrote at x, its compact
// value (compact.go): each pattern's integer sum over the eight images,
// converted and multiplied by its scale s[p], the four added in order.
TEXT ·sumIndex4x6h(SB), NOSPLIT, $0-40
	MOVQ w+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), R8
	MOVQ out+24(FP), R13
	MOVQ s+32(FP), AX
	MOVSS 0(AX), X4
	MOVSS 4(AX), X5
	MOVSS 8(AX), X6
	MOVSS 12(AX), X7
	TESTQ R8, R8
	JEQ hdone
hloop:
	XORL R9, R9
	XORL R11, R11
	XORL R12, R12
	XORL R14, R14
	QIMG(0)
	QIMG(16)
	QIMG(32)
	QIMG(48)
	QIMG(64)
	QIMG(80)
	QIMG(96)
	QIMG(112)
	XORPS X0, X0
	XORPS X1, X1
	XORPS X2, X2
	XORPS X3, X3
	CVTSL2SS R9, X0
	CVTSL2SS R11, X1
	CVTSL2SS R12, X2
	CVTSL2SS R14, X3
	MULSS X4, X0
	MULSS X5, X1
	MULSS X6, X2
	MULSS X7, X3
	ADDSS X1, X0
	ADDSS X2, X0
	ADDSS X3, X0
	MOVSS X0, (R13)
	ADDQ $4, R13
	ADDQ $128, SI
	DECQ R8
	JNZ hloop
hdone:
	RET
