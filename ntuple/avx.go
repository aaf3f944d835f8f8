package ntuple

import (
	"math/bits"

	"github.com/td2048/td2048/board"
)

// Indices by AVX-512 (with VBMI's byte permutation), where the processor
// has it (avx_amd64.s): each (image, pattern) pair of a board is a 64-bit
// lane, eight to a register. One VPERMB gathers each lane's tiles from the
// board's 16 cells (the image is in the permutation, so no image is
// computed), a second gathers the tiles whose low bits pick a weight
// within its cache line (layout.go), and two multiply-adds (VPMADDUBSW,
// VPMADDWD) by powers of two sum the tiles' bits into the storage index.
// The indices are those of the PEXT assembly, bit for bit, in less time
// (docs/speed.md, "Measurements behind the code"). index4x6avx serves the
// 4x6 network's Fetch and EstimateMany (image-major, lanes by image then
// pattern); indexAVX the
// other networks of ascending patterns of up to 6 cells, and the 4x6
// network's IndexStage (pattern-major, a group of lanes a pattern).
// Updates keep their scalar code: for one board, loading the tables costs
// more than the images save.
//
// GODEBUG=cpu.avx512f=off turns it off (golang.org/x/sys/cpu).

// An avxGroup is eight lanes of the tables: lane l's bytes are 8l..8l+7
// of each [64]byte and its words 4l..4l+3 of each [32]uint16. A lane's
// hi part is its pattern's tiles in order (permHi: the board cell of
// each), each with the bits the layout moves to the bottom cleared
// (maskHi); its lo part is the tiles that have such bits, in order, with
// only those bits kept (maskLo). Each part's bytes are multiplied by byteX
// and summed in pairs to words, the words multiplied by wordX and summed
// in pairs to dwords; the hi part's bytes 4 and 5 go to the lane's high
// dword with their exponents less 16, which the assembly adds back when
// it folds the two dwords.
type avxGroup struct {
	permHi, permLo [64]byte // VPERMB indices
	maskHi, maskLo [64]byte
	byteHi, byteLo [64]byte   // VPMADDUBSW factors, powers of two up to 64
	wordHi, wordLo [32]uint16 // VPMADDWD factors, powers of two up to 1<<14
}

// avxTables are index4x6avx's: group g's lane l is image 2g+l/4 of
// board.Images, pattern l%4. The masks and factors of all groups are
// group 0's.
type avxTables [4]avxGroup

// avxImages are the cell maps of board.Images: cell c of image i is the
// board's cell avxImages[i][c].
var avxImages = func() (src [8][16]byte) {
	for i, y := range board.Board(0xfedcba9876543210).Images() {
		for c := range 16 {
			src[i][c] = byte(uint64(y) >> (4 * c) & 0xf)
		}
	}
	return src
}()

// buildAVX computes the 4x6 network's tables for its patterns' line bits
// low; nil if a lane does not fit (see lane).
func buildAVX(low [4]uint32) *avxTables {
	t := new(avxTables)
	for g := range t {
		for l := range 8 {
			if !t[g].lane(l, cells4x6[l%4], low[l%4], &avxImages[2*g+l/4]) {
				return nil
			}
		}
	}
	return t
}

// buildPatternAVX computes the tables of a network's ascending patterns
// for indexAVX, a group a pattern (lane i: image i), their line bits by
// lowOf; nil if a lane does not fit.
func buildPatternAVX(pats [][]int) []avxGroup {
	t := make([]avxGroup, len(pats))
	for p, cells := range pats {
		for i := range 8 {
			if !t[p].lane(i, cells, lowOf(cells), &avxImages[i]) {
				return nil
			}
		}
	}
	return t
}

// lane fills lane l with the pattern of the given ascending cells, its
// line bits low (lowBits; 0xf: canonical order), read on an image whose
// cell c is the board's cell src[c]. It reports false for what the
// assembly cannot compute: more than 6 cells, a line bit that is not
// among the lowest of its tile, a factor too large.
//
// The storage index (layout.go) of tiles t_0..t_5, with the n_k lowest
// bits of t_k chosen (mask m_k), is the sum over k of (t_k & m_k) << lp_k,
// lp_k the chosen bits before k's, and (t_k &^ m_k) << (hp_k - n_k), hp_k
// = 4 + the other bits before k's; in canonical order, t_k << 4k.
func (t *avxGroup) lane(l int, cells []int, low uint32, src *[16]byte) bool {
	if len(cells) > 6 {
		return false
	}
	eh := [8]int{-1, -1, -1, -1, -1, -1, -1, -1} // exponent of each byte, -1 none
	el := eh
	sl, sh, q := 0, 4, 0
	if low == 0xf { // canonical order: no line bits
		low, sh = 0, 0
	}
	for k, c := range cells {
		m := byte(low >> (4 * k) & 0xf)
		if m&(m+1) != 0 {
			return false
		}
		n := bits.OnesCount8(m)
		t.permHi[8*l+k] = src[c]
		t.maskHi[8*l+k] = 0xf &^ m
		eh[k] = sh - n
		if k >= 4 {
			if eh[k] -= 16; eh[k] < 0 {
				return false
			}
		}
		if m != 0 {
			if q == 4 {
				return false
			}
			t.permLo[8*l+q] = src[c]
			t.maskLo[8*l+q] = m
			el[q] = sl
			q++
		}
		sl += n
		sh += 4 - n
	}
	return avxFactors(eh, t.byteHi[8*l:8*l+8], t.wordHi[4*l:4*l+4]) &&
		avxFactors(el, t.byteLo[8*l:8*l+8], t.wordLo[4*l:4*l+4])
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

// IndexCode names the code that computes the networks' indices on this
// processor: "AVX-512", "PEXT" (BMI2) or "Go". Benchmarks say which ran.
func IndexCode() string {
	switch {
	case haveAVX && havePEXT:
		return "AVX-512"
	case havePEXT:
		return "PEXT"
	}
	return "Go"
}

// Vendor is the processor's vendor as CPUID names it, like "GenuineIntel"
// or "AuthenticAMD"; "" off amd64. How well a core overlaps the cache
// misses of a network's lookups depends on it (episode.InterleaveHelps).
func Vendor() string { return vendor }
