package ntuple

import (
	"math/rand/v2"
	"testing"

	"github.com/td2048/td2048/board"
)

// emulateLane computes lane l of t as the assembly does, in Go: the
// tables' arithmetic checked on any processor.
func emulateLane(t *avxGroup, b uint64, l int) uint32 {
	part := func(perm *[64]byte, mask, bf *[64]byte, wf *[32]uint16) (d [2]int32) {
		for j := range 4 {
			var w int32
			for k := 2 * j; k < 2*j+2; k++ {
				tile := byte(b >> (4 * perm[8*l+k]) & 0xf)
				w += int32(tile&mask[8*l+k]) * int32(int8(bf[8*l+k]))
			}
			d[j/2] += w * int32(int16(wf[4*l+j]))
		}
		return d
	}
	h := part(&t.permHi, &t.maskHi, &t.byteHi, &t.wordHi)
	o := part(&t.permLo, &t.maskLo, &t.byteLo, &t.wordLo)
	return uint32(h[0]+o[0]) + uint32(h[1]+o[1])<<16
}

// TestAVXTables: the tables give every (image, pattern) its storage index,
// on any processor.
func TestAVXTables(t *testing.T) {
	tab := buildAVX(lay4x6)
	if tab == nil {
		t.Fatal("the 4x6 layout's tables do not fit")
	}
	n := &Network{lay: newLayout(lay4x6[:])}
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		b := r.Uint64()
		for i, y := range board.Board(b).Images() {
			c := [4]uint32{}
			c[0], c[1], c[2], c[3] = idx4x6(uint64(y))
			for p := range 4 {
				want := n.StorageIndex(p, c[p]&0xffffff)
				if got := emulateLane(&tab[i/2], b, 4*(i%2)+p); got != want {
					t.Fatalf("board %#x image %d pattern %d: %#x, want %#x", b, i, p, got, want)
				}
			}
		}
	}
}

func TestBuildAVXRefuses(t *testing.T) {
	for _, low := range [][4]uint32{
		{0x311000, 0x003300, 0x311000, 0x110120}, // a tile's bit 1 without bit 0
		{0x311000, 0x003300, 0x311000, 0x111110}, // five line bits: five tiles in the lo part
	} {
		if buildAVX(low) != nil {
			t.Errorf("buildAVX(%x) built tables", low)
		}
	}
}

// TestPatternAVXTables: buildPatternAVX's tables give each image of each
// pattern of td2048's networks its storage index, on any processor.
func TestPatternAVXTables(t *testing.T) {
	for _, name := range []string{"4x6", "5x6", "6x6", "7x6", "8x6", "8x4", "2x4"} {
		spec, err := ParseSpec(name)
		if err != nil {
			t.Fatal(err)
		}
		tab := buildPatternAVX(spec.Patterns)
		if tab == nil {
			t.Fatalf("%s: tables do not fit", name)
		}
		var low []uint32
		for _, cells := range spec.Patterns {
			low = append(low, lowOf(cells))
		}
		n := &Network{lay: newLayout(low)}
		r := rand.New(rand.NewPCG(7, 8))
		for range 2000 {
			b := r.Uint64()
			for i, y := range board.Board(b).Images() {
				for p, cells := range spec.Patterns {
					var c uint32
					for k, cell := range cells {
						c |= uint32(uint64(y)>>(4*cell)&0xf) << (4 * k)
					}
					want := n.StorageIndex(p, c)
					if got := emulateLane(&tab[p], b, i); got != want {
						t.Fatalf("%s: board %#x image %d pattern %d: %#x, want %#x", name, b, i, p, got, want)
					}
				}
			}
		}
	}
	if buildPatternAVX([][]int{{0, 1, 2, 3, 4, 5, 6}}) != nil {
		t.Error("tables for a pattern of 7 cells")
	}
}
