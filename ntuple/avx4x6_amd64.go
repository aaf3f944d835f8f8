package ntuple

import (
	"math/bits"

	"github.com/td2048/td2048/board"
	"golang.org/x/sys/cpu"
)

// The 4x6 network's indices by AVX-512 (with VBMI's byte permutation):
// each of a board's 32 (image, pattern) pairs is a 64-bit lane. One
// VPERMB per eight lanes gathers each lane's six tiles from the board's
// 16 cells (the image is in the permutation, so no image is computed), a
// second gathers the tiles whose low bits pick a weight within its cache
// line (layout.go), and two multiply-adds (VPMADDUBSW, VPMADDWD) by
// powers of two sum the tiles' bits into the storage index. The indices
// are index4x6asm's, bit for bit (TestIndex4x6AVX), in half its time on
// this project's machine (BenchmarkIndex4x6: 3 boards in 60 against 125
// ns), which is where a move's computing went: greedy play and training
// run 6-10% faster. Updates keep add4x6: for one board, loading the
// tables costs more than the images save (23.5 against 17 ns).
//
// GODEBUG=cpu.avx512vbmi=off turns it off (golang.org/x/sys/cpu).

// avxTables are index4x6avx's constants. Lane l of group g (l = 0..7,
// g = 0..3) is image 2g+l/4 of board.Images, pattern l%4, and its bytes
// are 8l..8l+7 of each [64]byte. A lane's hi part is its pattern's six
// tiles in order, each with the bits the layout moves to the bottom
// cleared (maskHi); its lo part is the tiles that have such bits, in
// order, with only those bits kept (maskLo). Each part's bytes are
// multiplied by byteX and summed in pairs to words, the words multiplied
// by wordX and summed in pairs to dwords; the hi part's bytes 4 and 5 go
// to the lane's high dword with their exponents less 16, which the
// assembly adds back when it folds the two dwords.
type avxTables struct {
	permHi, permLo [4][64]byte // VPERMB indices: each byte's cell of the board
	maskHi, maskLo [64]byte
	byteHi, byteLo [64]byte   // VPMADDUBSW factors, powers of two up to 64
	wordHi, wordLo [32]uint16 // VPMADDWD factors, powers of two up to 1<<14
}

// index4x6avx is index4x6asm by AVX-512, with the tables t.
//
//go:noescape
func index4x6avx(w *float32, bs *uint64, n int, dst *uint32, t *avxTables)

// avx4x6 are the tables of the 4x6 network's layout; nil where the
// processor lacks AVX-512 F, BW or VBMI.
var avx4x6 = func() *avxTables {
	if !have4x6asm || !cpu.X86.HasAVX512F || !cpu.X86.HasAVX512BW || !cpu.X86.HasAVX512VBMI {
		return nil
	}
	return buildAVX(lay4x6)
}()

// indexN4x6 is index4x6asm, by AVX-512 where it runs.
func indexN4x6(w *float32, bs *uint64, n int, dst *uint32) {
	if avx4x6 != nil {
		index4x6avx(w, bs, n, dst, avx4x6)
		return
	}
	index4x6asm(w, bs, n, dst)
}

// estimateN4x6 is estimateN4x6asm (up to 4 boards), its indices by
// AVX-512 where it runs.
func estimateN4x6(w *float32, bs *uint64, n int, out *float32) {
	if avx4x6 != nil {
		var x [4 * 32]uint32
		index4x6avx(w, bs, n, &x[0], avx4x6)
		sumIndex4x6asm(w, &x[0], n, out)
		return
	}
	estimateN4x6asm(w, bs, n, out)
}

// avxCells are the 4x6 network's patterns.
var avxCells = [4][]int{{0, 1, 2, 3, 4, 5}, {4, 5, 6, 7, 8, 9}, {0, 1, 2, 4, 5, 6}, {4, 5, 6, 8, 9, 10}}

// buildAVX computes the tables of the 4x6 patterns whose line bits are
// low (lowBits: only the lowest bits of a tile, at most four in all); nil
// if a factor would not fit.
//
// Storage index (layout.go) of tiles t_0..t_5 with n_k low bits of t_k
// chosen (mask m_k): PEXT(i, low) | PEXT(i, ^low)<<4 is the sum over k of
// (t_k & m_k) << lp_k, lp_k the chosen bits before k's, and
// (t_k &^ m_k) << (hp_k - n_k), hp_k = 4 + the other bits before k's.
func buildAVX(low [4]uint32) *avxTables {
	t := new(avxTables)
	var src [8][16]byte // src[i][c]: the cell of the board that is cell c of image i
	for i, y := range board.Board(0xfedcba9876543210).Images() {
		for c := range 16 {
			src[i][c] = byte(uint64(y) >> (4 * c) & 0xf)
		}
	}
	for p := range 4 {
		var n, lp, hp [6]int
		sl, sh := 0, 4
		for k := range 6 {
			m := low[p] >> (4 * k) & 0xf
			if m&(m+1) != 0 { // not the lowest bits of the tile
				return nil
			}
			n[k] = bits.OnesCount32(m)
			lp[k], hp[k] = sl, sh
			sl += n[k]
			sh += 4 - n[k]
		}
		for half := range 2 {
			l := 4*half + p
			eh := [8]int{-1, -1, -1, -1, -1, -1, -1, -1} // exponent of each byte, -1 none
			el := eh
			q := 0
			for k, c := range avxCells[p] {
				m := byte(low[p] >> (4 * k) & 0xf)
				t.maskHi[8*l+k] = 0xf &^ m
				eh[k] = hp[k] - n[k]
				if k >= 4 {
					eh[k] -= 16
				}
				for g := range 4 {
					t.permHi[g][8*l+k] = src[2*g+half][c]
				}
				if m == 0 {
					continue
				}
				if q == 4 {
					return nil
				}
				t.maskLo[8*l+q] = m
				el[q] = lp[k]
				for g := range 4 {
					t.permLo[g][8*l+q] = src[2*g+half][c]
				}
				q++
			}
			if !avxFactors(eh, t.byteHi[8*l:8*l+8], t.wordHi[4*l:4*l+4]) ||
				!avxFactors(el, t.byteLo[8*l:8*l+8], t.wordLo[4*l:4*l+4]) {
				return nil
			}
		}
	}
	return t
}

// avxFactors splits each byte's exponent e[b] (-1: no byte) into a byte
// factor bf[b] = 2^(e[b]-s) and a word factor wf[b/2] = 2^s, s the smaller
// exponent of the pair; false if one is too large for VPMADDUBSW's signed
// bytes or VPMADDWD's signed words.
func avxFactors(e [8]int, bf []byte, wf []uint16) bool {
	for j := range 4 {
		a, b := e[2*j], e[2*j+1]
		if a < 0 && b < 0 {
			continue
		}
		s := a
		if s < 0 || b >= 0 && b < s {
			s = b
		}
		if s > 14 {
			return false
		}
		wf[j] = 1 << s
		for k, x := range [2]int{a, b} {
			if x < 0 {
				continue
			}
			if x-s > 6 {
				return false
			}
			bf[2*j+k] = 1 << (x - s)
		}
	}
	return true
}
