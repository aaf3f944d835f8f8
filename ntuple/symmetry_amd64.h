// Board symmetries on a register, for the assembly of this package: each
// uses AX (and TRANSPOSE BX) as scratch, and expects R9 =
// 0x0f0f0f0f0f0f0f0f and R10 = 0x00ff00ff00ff00ff (nibble and byte masks).

// NIBSWAP swaps the two nibbles of every byte of r (AX scratch).
#define NIBSWAP(r) \
	MOVQ r, AX; \
	SHRQ $4, AX; \
	ANDQ R9, AX; \
	ANDQ R9, r; \
	SHLQ $4, r; \
	ORQ AX, r

// BYTESWAP16 swaps the two bytes of every 16-bit row of r (AX scratch).
#define BYTESWAP16(r) \
	MOVQ r, AX; \
	SHRQ $8, AX; \
	ANDQ R10, AX; \
	ANDQ R10, r; \
	SHLQ $8, r; \
	ORQ AX, r

// MIRROR: r = r with every row's cells reversed (board.Mirror).
#define MIRROR(r) BYTESWAP16(r); NIBSWAP(r)

// FLIP: r = r with its rows reversed (board.Flip): byte order reversed,
// then each row's two bytes back in place.
#define FLIP(r) BSWAPQ r; BYTESWAP16(r)

// HALFTURN: r = r turned by 180 degrees (board.Flip().Mirror()).
#define HALFTURN(r) BSWAPQ r; NIBSWAP(r)

// TRANSPOSE: r = r mirrored on its main diagonal (board.Transpose).
#define TRANSPOSE(r) \
	MOVQ r, AX; \
	SHRQ $12, AX; \
	XORQ r, AX; \
	MOVQ $0x0000f0f00000f0f0, BX; \
	ANDQ BX, AX; \
	XORQ AX, r; \
	SHLQ $12, AX; \
	XORQ AX, r; \
	MOVQ r, AX; \
	SHRQ $24, AX; \
	XORQ r, AX; \
	MOVQ $0x00000000ff00ff00, BX; \
	ANDQ BX, AX; \
	XORQ AX, r; \
	SHLQ $24, AX; \
	XORQ AX, r
