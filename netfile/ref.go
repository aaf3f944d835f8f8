package netfile

// Weight files of the two reference C++ programs:
//
// The course demo (TDL2048-Demo) writes 2048.bin, little-endian, no padding:
//
//	u64 feature count
//	per feature: i32 name length L, L bytes of name ("6-tuple pattern 012345",
//	             the cells in hex, no NUL), u64 weight count (16^n), that many f32
//
// The research framework TDL2048+ writes .w files, little-endian:
//
//	u8 0, u32 table count
//	per table: u8 4, u32 sign (the pattern as hex digits: 0x012345),
//	           u16 width (digits of the sign, 6; 0 in old files), u16 0,
//	           u16 element size (4), u64 length, length elements,
//	           then extra fields (u16 element size, u64 count, data),
//	           ended by u16 0
//
// The width keeps a leading cell 0: pattern 012345 is sign 0x12345 with
// width 6. TDL2048+ writes a 'w' byte before the 0 when the file name does
// not end in .w; TC learning adds a field of two more tables per table
// (the coherence accumulators), which a reader skips.
//
// Neither format records whether a pattern is read on the 8 symmetric
// images of the board, nor the game or the learner. Both programs read
// their patterns on the 8 images (TDL2048+ unless told otherwise), so a
// reference file is taken to hold an isomorphic after-state network for
// 2048, with one exception: the eight straight lines 0123 4567 89ab cdef
// 048c 159d 26ae 37bf are td2048's 8x4 and TDL2048+'s 8x4patt network, which
// both read without isomorphisms, and are read so. Writers refuse what the
// formats cannot say: other networks without isomorphisms, Threes!
// networks, and staged networks in 2048.bin. A .w file holds the stages of
// a multi-stage network (TDL2048+'s NET@K) as tables whose sign carries a
// stage tag (staged.go), but not their thresholds.
//
// The formats have no checksum. Readers check every count and length
// against the size of the file before anything is allocated, and refuse a
// file that is short, long or inconsistent, whole.

import (
	"fmt"
	"slices"

	"github.com/td2048/td2048/ntuple"
)

// checkIso reports why the patterns of a network cannot be written in the
// reference formats, which cannot say whether they are read on the eight
// images.
func checkIso(spec ntuple.Spec) error {
	if isLines(spec.Patterns) != !spec.Iso {
		if spec.Iso {
			return fmt.Errorf("network %s reads the 8 lines on all 8 images of the board; the reference formats cannot record that and are read as the 8x4 network without isomorphisms", spec)
		}
		return fmt.Errorf("network %s reads its patterns without isomorphisms; the reference formats cannot record that (their readers assume the 8 images), only for the 8x4 lines", spec)
	}
	return nil
}

// lines is the 8x4 network of straight lines, the one network the
// references read without isomorphisms.
var lines = [][]int{{0, 1, 2, 3}, {4, 5, 6, 7}, {8, 9, 10, 11}, {12, 13, 14, 15},
	{0, 4, 8, 12}, {1, 5, 9, 13}, {2, 6, 10, 14}, {3, 7, 11, 15}}

func isLines(ps [][]int) bool { return slices.EqualFunc(ps, lines, slices.Equal) }

// refSpec makes the spec of patterns read from a reference file.
func refSpec(ps [][]int) ntuple.Spec {
	return ntuple.Spec{Patterns: ps, Iso: !isLines(ps)}
}

// damaged wraps a structural error of a reference file.
func damaged(k Format, format string, a ...any) error {
	return fmt.Errorf("damaged %s file: %s", k.Describe(), fmt.Sprintf(format, a...))
}
