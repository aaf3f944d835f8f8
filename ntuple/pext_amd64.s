#include "textflag.h"

// Any network of ascending patterns read with PEXT (see pext_amd64.go).
// Register use: SI the board, then its transpose; R9, R10 the nibble and
// byte masks of MIRROR and FLIP while IMAGES runs; then R8 a pattern's h
// mask and R9 its l mask (imageMasks); AX, BX scratch; DI the weights;
// R13 the masks, R12 the pattern offsets, CX the patterns left, DX a
// pattern's offset, R14 the indices.

#include "symmetry_amd64.h"

// IMAGES: the eight images of the board in SI, in board.Images order, to
// the frame's 8 words.
#define IMAGES \
	MOVQ $0x0f0f0f0f0f0f0f0f, R9; \
	MOVQ $0x00ff00ff00ff00ff, R10; \
	MOVQ SI, 0(SP); \
	MOVQ SI, R8; MIRROR(R8); MOVQ R8, 8(SP); \
	MOVQ SI, R8; FLIP(R8); MOVQ R8, 16(SP); \
	MOVQ SI, R8; HALFTURN(R8); MOVQ R8, 24(SP); \
	TRANSPOSE(SI); \
	MOVQ SI, 32(SP); \
	MOVQ SI, R8; MIRROR(R8); MOVQ R8, 40(SP); \
	MOVQ SI, R8; FLIP(R8); MOVQ R8, 48(SP); \
	MOVQ SI, R8; HALFTURN(R8); MOVQ R8, 56(SP)

// ONE(i): the index of image i in the pattern whose masks are R8 (h) and
// R9 (l), stored as the pattern's i-th.
#define ONE(i) \
	MOVQ (i*8)(SP), BX; \
	PEXTQ R8, BX, AX; \
	SHLQ $4, AX; \
	PEXTQ R9, BX, BX; \
	ORQ BX, AX; \
	ADDL DX, AX; \
	MOVL AX, (i*4)(R14)

// ONEPF(i): ONE, and its weight prefetched.
#define ONEPF(i) \
	ONE(i); \
	PREFETCHT0 (DI)(AX*4)

// ONEPF3(i): ONE, and its weight prefetched from a packed array (weight
// i at 12i bytes, packed.go).
#define ONEPF3(i) \
	ONE(i); \
	LEAQ (AX)(AX*2), BX; \
	PREFETCHT0 (DI)(BX*4)

#define SETUP \
	MOVQ b+8(FP), SI; \
	IMAGES; \
	MOVQ w+0(FP), DI; \
	MOVQ masks+16(FP), R13; \
	MOVQ offs+24(FP), R12; \
	MOVQ npat+32(FP), CX; \
	MOVQ dst+40(FP), R14

// PATTERNS(OP): for each of the CX patterns (masks at R13, offsets at
// R12), OP(i) on each image i, the indices going to R14 pattern by
// pattern.
#define PATTERNS(OP) \
loop: \
	MOVQ (R13), R8; \
	MOVQ 8(R13), R9; \
	MOVL (R12), DX; \
	OP(0); OP(1); OP(2); OP(3); OP(4); OP(5); OP(6); OP(7); \
	ADDQ $16, R13; \
	ADDQ $4, R12; \
	ADDQ $32, R14; \
	DECQ CX; \
	JNZ loop

// func indexPEXT(w *float32, b uint64, masks *uint64, offs *uint32, npat int, dst *uint32)
TEXT ·indexPEXT(SB), NOSPLIT, $64-48
	SETUP
	PATTERNS(ONE)
	RET

// func indexPrefetchPEXT(w *float32, b uint64, masks *uint64, offs *uint32, npat int, dst *uint32)
TEXT ·indexPrefetchPEXT(SB), NOSPLIT, $64-48
	SETUP
	PATTERNS(ONEPF)
	RET

// func indexPrefetch3PEXT(p *float32, b uint64, masks *uint64, offs *uint32, npat int, dst *uint32)
TEXT ·indexPrefetch3PEXT(SB), NOSPLIT, $64-48
	SETUP
	PATTERNS(ONEPF3)
	RET

// NOSCALE(r) leaves index r as it is (a plain array); SCALE3(r) makes it
// 3r (a packed TC array: weight i at 3i, packed.go).
#define NOSCALE(r)
#define SCALE3(r) LEAQ (r)(r*2), r

// SUM8(SC): to X7, the value of weights DI at the CX x 8 indices at SI
// (CX patterns), each index scaled by SC,
// pattern by pattern as Network.Sum adds them (each pattern's 8 weights
// in order, then the patterns in order), four patterns' chains side by
// side.
#define SUM8(SC) \
	XORPS X7, X7; \
quad: \
	CMPQ CX, $4; \
	JLT single; \
	XORPS X0, X0; \
	XORPS X1, X1; \
	XORPS X2, X2; \
	XORPS X3, X3; \
	MOVQ $8, R9; \
img: \
	MOVL 0(SI), AX; \
	MOVL 32(SI), BX; \
	MOVL 64(SI), DX; \
	MOVL 96(SI), R8; \
	SC(AX); SC(BX); SC(DX); SC(R8); \
	ADDSS (DI)(AX*4), X0; \
	ADDSS (DI)(BX*4), X1; \
	ADDSS (DI)(DX*4), X2; \
	ADDSS (DI)(R8*4), X3; \
	ADDQ $4, SI; \
	DECQ R9; \
	JNZ img; \
	ADDSS X0, X7; \
	ADDSS X1, X7; \
	ADDSS X2, X7; \
	ADDSS X3, X7; \
	ADDQ $96, SI; \
	SUBQ $4, CX; \
	JMP quad; \
single: \
	TESTQ CX, CX; \
	JEQ done; \
	XORPS X0, X0; \
	MOVQ $8, R9; \
one: \
	MOVL 0(SI), AX; \
	SC(AX); \
	ADDSS (DI)(AX*4), X0; \
	ADDQ $4, SI; \
	DECQ R9; \
	JNZ one; \
	ADDSS X0, X7; \
	DECQ CX; \
	JMP single; \
done:

// func sum8(w *float32, x *uint32, npat int) float32
TEXT ·sum8(SB), NOSPLIT, $0-28
	MOVQ w+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ npat+16(FP), CX
	SUM8(NOSCALE)
	MOVSS X7, ret+24(FP)
	RET

// func sum8p(w *float32, x *uint32, npat int) float32
TEXT ·sum8p(SB), NOSPLIT, $0-28
	MOVQ w+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ npat+16(FP), CX
	SUM8(SCALE3)
	MOVSS X7, ret+24(FP)
	RET

// ONEPF2(i): ONE, and its compact weight (2 bytes) prefetched.
#define ONEPF2(i) \
	ONE(i); \
	PREFETCHT0 (DI)(AX*2)

// func indexPrefetchPEXTh(w *int16, b uint64, masks *uint64, offs *uint32, npat int, dst *uint32)
TEXT ·indexPrefetchPEXTh(SB), NOSPLIT, $64-48
	SETUP
	PATTERNS(ONEPF2)
	RET

// Q2(o, r1, r2): r1 and r2 = the compact weights at DI of the indices
// at o(SI) and o+4(SI), sign-extended.
#define Q2(o, r1, r2) \
	MOVL (o)(SI), r1; \
	MOVL (o+4)(SI), r2; \
	MOVWLSX (DI)(r1*2), r1; \
	MOVWLSX (DI)(r2*2), r2

// func sum8h(w *int16, x *uint32, npat int, s *float32) float32
// For each of the CX patterns, its 8 weights summed as integers (two
// chains), converted, multiplied by its scale at R10 and added to X7, the
// patterns in order.
TEXT ·sum8h(SB), NOSPLIT, $0-36
	MOVQ w+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ npat+16(FP), CX
	MOVQ s+24(FP), R10
	XORPS X7, X7
hloop:
	Q2(0, AX, DX)
	Q2(8, BX, R8)
	Q2(16, R9, R11)
	Q2(24, R12, R13)
	ADDL BX, AX
	ADDL R8, DX
	ADDL R9, AX
	ADDL R11, DX
	ADDL R12, AX
	ADDL R13, DX
	ADDL DX, AX
	XORPS X0, X0
	CVTSL2SS AX, X0
	MULSS (R10), X0
	ADDSS X0, X7
	ADDQ $32, SI
	ADDQ $4, R10
	DECQ CX
	JNZ hloop
	MOVSS X7, ret+32(FP)
	RET
