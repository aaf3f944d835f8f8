#include "textflag.h"

// The networks' indices by AVX-512 (avx.go, avx_amd64.go). Register use:
// Z0 the board's cells as bytes, Z2 and Z3 scratch, X30 the nibble mask;
// DI the weights, R14 the indices written, AX, BX, CX, DX, R8 the
// indices being prefetched. index4x6avx: Z22-Z25 and Z26-Z29 the hi and
// lo permutations of groups 0-3, Z16-Z21 group 0's masks and factors
// (avxGroup's order; every group's are the same), R13 the boards, R8 the
// boards left. indexAVX and its prefetching forms: R11 the pattern's
// avxGroup, Z4 and Z5 its permutations, R12 its offset, CX the patterns
// left.

// CELLS: the board in X0 as 16 bytes, cell c in byte c, to X0 (X1
// scratch, X30 the nibble mask): even cells from the low nibbles, odd
// ones from the high, interleaved.
#define CELLS \
	VPSRLQ $4, X0, X1; \
	VPANDQ X30, X0, X0; \
	VPANDQ X30, X1, X1; \
	VPUNPCKLBW X1, X0, X0

// LANES(ph, pl, mh, ml, bh, bl, wh, wl): the storage indices of eight
// lanes (avxGroup) to Y2, from the board's cells in Z0: the hi and lo
// parts gathered by the permutations ph and pl, masked by mh and ml,
// multiplied and summed in pairs by the byte factors bh, bl and the word
// factors wh, wl, added, and each lane's two dwords folded (the high one
// 16 bits up; the VPMOVQD to dwords drops what the fold leaves above
// bit 31). Z3 scratch; the operands are registers or memory.
#define LANES(ph, pl, mh, ml, bh, bl, wh, wl) \
	VPERMB Z0, ph, Z2; \
	VPERMB Z0, pl, Z3; \
	VPANDQ mh, Z2, Z2; \
	VPANDQ ml, Z3, Z3; \
	VPMADDUBSW bh, Z2, Z2; \
	VPMADDUBSW bl, Z3, Z3; \
	VPMADDWD wh, Z2, Z2; \
	VPMADDWD wl, Z3, Z3; \
	VPADDD Z3, Z2, Z2; \
	VPSRLQ $32, Z2, Z3; \
	VPSLLQ $16, Z3, Z3; \
	VPADDQ Z3, Z2, Z2; \
	VPMOVQD Z2, Y2

// GROUPP(g, ph, pl, PF): the 8 indices of group g (images 2g and 2g+1,
// each pattern in order) to 32g(R14), each weight prefetched by PF(o, r,
// p) (r the index at o(R14), p its pattern).
#define GROUPP(g, ph, pl, PF) \
	LANES(ph, pl, Z16, Z17, Z18, Z19, Z20, Z21); \
	VMOVDQU Y2, (32*g)(R14); \
	MOVL (32*g)(R14), AX; \
	MOVL (32*g+4)(R14), BX; \
	MOVL (32*g+8)(R14), CX; \
	MOVL (32*g+12)(R14), DX; \
	PF(AX, 0); \
	PF(BX, 1); \
	PF(CX, 2); \
	PF(DX, 3); \
	MOVL (32*g+16)(R14), AX; \
	MOVL (32*g+20)(R14), BX; \
	MOVL (32*g+24)(R14), CX; \
	MOVL (32*g+28)(R14), DX; \
	PF(AX, 0); \
	PF(BX, 1); \
	PF(CX, 2); \
	PF(DX, 3)

// PFW(r, p): the float32 weight at index r of pattern p's table (at byte
// offset p<<26 from DI) prefetched; PFH(r, p) the 16-bit one (p<<25).
#define PFW(r, p) PREFETCHT0 (p<<26)(DI)(r*4)
#define PFH(r, p) PREFETCHT0 (p<<25)(DI)(r*2)

// PATTERN: the 8 indices of the pattern whose avxGroup is at R11, plus
// its offset at R12, to R14 (Z0 the cells; Z2-Z5 scratch).
#define PATTERN \
	VMOVDQU64 0(R11), Z4; \
	VMOVDQU64 64(R11), Z5; \
	LANES(Z4, Z5, 128(R11), 192(R11), 256(R11), 320(R11), 384(R11), 448(R11)); \
	VPBROADCASTD (R12), Y3; \
	VPADDD Y3, Y2, Y2; \
	VMOVDQU Y2, (R14)

// PF4(o): the weights at DI of the 4 indices at o(R14) prefetched.
#define PF4(o) \
	MOVL (o)(R14), AX; \
	MOVL (o+4)(R14), BX; \
	MOVL (o+8)(R14), DX; \
	MOVL (o+12)(R14), R8; \
	PREFETCHT0 (DI)(AX*4); \
	PREFETCHT0 (DI)(BX*4); \
	PREFETCHT0 (DI)(DX*4); \
	PREFETCHT0 (DI)(R8*4)

// PF4X3(o): PF4 on a packed array (packed.go): weight i at DI+12i.
#define PF4X3(o) \
	MOVL (o)(R14), AX; \
	MOVL (o+4)(R14), BX; \
	MOVL (o+8)(R14), DX; \
	MOVL (o+12)(R14), R8; \
	LEAQ (AX)(AX*2), AX; \
	LEAQ (BX)(BX*2), BX; \
	LEAQ (DX)(DX*2), DX; \
	LEAQ (R8)(R8*2), R8; \
	PREFETCHT0 (DI)(AX*4); \
	PREFETCHT0 (DI)(BX*4); \
	PREFETCHT0 (DI)(DX*4); \
	PREFETCHT0 (DI)(R8*4)

// PF8 and PF8X3: the 8 indices at R14, each half by PF4 or PF4X3.
#define PF8 PF4(0); PF4(16)
#define PF8X3 PF4X3(0); PF4X3(16)

#define NOPF

// PATTERNS(after): for each of the CX patterns, PATTERN then after.
#define PATTERNS(after) \
	MOVQ $0x0f0f0f0f0f0f0f0f, AX; \
	VMOVQ AX, X30; \
	VMOVQ b+8(FP), X0; \
	CELLS; \
	MOVQ w+0(FP), DI; \
	MOVQ t+16(FP), R11; \
	MOVQ offs+24(FP), R12; \
	MOVQ npat+32(FP), CX; \
	MOVQ dst+40(FP), R14; \
patloop: \
	PATTERN; \
	after; \
	ADDQ $512, R11; \
	ADDQ $4, R12; \
	ADDQ $32, R14; \
	DECQ CX; \
	JNZ patloop; \
	VZEROUPPER

// INDEX4X6(PF): index4x6avx's body, each weight prefetched by PF.
#define INDEX4X6(PF) \
	MOVQ n+16(FP), R8; \
	TESTQ R8, R8; \
	JEQ done; \
	MOVQ t+32(FP), AX; \
	VMOVDQU64 0(AX), Z22; \
	VMOVDQU64 512(AX), Z23; \
	VMOVDQU64 1024(AX), Z24; \
	VMOVDQU64 1536(AX), Z25; \
	VMOVDQU64 64(AX), Z26; \
	VMOVDQU64 576(AX), Z27; \
	VMOVDQU64 1088(AX), Z28; \
	VMOVDQU64 1600(AX), Z29; \
	VMOVDQU64 128(AX), Z16; \
	VMOVDQU64 192(AX), Z17; \
	VMOVDQU64 256(AX), Z18; \
	VMOVDQU64 320(AX), Z19; \
	VMOVDQU64 384(AX), Z20; \
	VMOVDQU64 448(AX), Z21; \
	MOVQ $0x0f0f0f0f0f0f0f0f, AX; \
	VMOVQ AX, X30; \
	MOVQ w+0(FP), DI; \
	MOVQ bs+8(FP), R13; \
	MOVQ dst+24(FP), R14; \
loop: \
	VMOVQ (R13), X0; \
	CELLS; \
	GROUPP(0, Z22, Z26, PF); \
	GROUPP(1, Z23, Z27, PF); \
	GROUPP(2, Z24, Z28, PF); \
	GROUPP(3, Z25, Z29, PF); \
	ADDQ $128, R14; \
	ADDQ $8, R13; \
	DECQ R8; \
	JNZ loop; \
	VZEROUPPER; \
done:

// func index4x6avx(w *float32, bs *uint64, n int, dst *uint32, t *avxTables)
TEXT ·index4x6avx(SB), NOSPLIT, $0-40
	INDEX4X6(PFW)
	RET

// func index4x6avxh(w *int16, bs *uint64, n int, dst *uint32, t *avxTables)
TEXT ·index4x6avxh(SB), NOSPLIT, $0-40
	INDEX4X6(PFH)
	RET

// func indexAVX(w *float32, b uint64, t *avxGroup, offs *uint32, npat int, dst *uint32)
TEXT ·indexAVX(SB), NOSPLIT, $0-48
	PATTERNS(NOPF)
	RET

// func indexPrefetchAVX(w *float32, b uint64, t *avxGroup, offs *uint32, npat int, dst *uint32)
TEXT ·indexPrefetchAVX(SB), NOSPLIT, $0-48
	PATTERNS(PF8)
	RET

// func indexPrefetch3AVX(w *float32, b uint64, t *avxGroup, offs *uint32, npat int, dst *uint32)
TEXT ·indexPrefetch3AVX(SB), NOSPLIT, $0-48
	PATTERNS(PF8X3)
	RET

// PF4H(o) and PF8H: PF4 and PF8 for compact weights: weight i at DI+2i.
#define PF4H(o) \
	MOVL (o)(R14), AX; \
	MOVL (o+4)(R14), BX; \
	MOVL (o+8)(R14), DX; \
	MOVL (o+12)(R14), R8; \
	PREFETCHT0 (DI)(AX*2); \
	PREFETCHT0 (DI)(BX*2); \
	PREFETCHT0 (DI)(DX*2); \
	PREFETCHT0 (DI)(R8*2)
#define PF8H PF4H(0); PF4H(16)

// func indexPrefetchAVXh(w *int16, b uint64, t *avxGroup, offs *uint32, npat int, dst *uint32)
TEXT ·indexPrefetchAVXh(SB), NOSPLIT, $0-48
	PATTERNS(PF8H)
	RET
