package ntuple

import (
	"math/rand/v2"
	"testing"

	"github.com/td2048/td2048/board"
)

// emulateAVX computes lane l of group g as index4x6avx does, in Go: the
// tables' arithmetic checked on any processor.
func emulateAVX(t *avxTables, b uint64, g, l int) uint32 {
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
	h := part(&t.permHi[g], &t.maskHi, &t.byteHi, &t.wordHi)
	o := part(&t.permLo[g], &t.maskLo, &t.byteLo, &t.wordLo)
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
				if got := emulateAVX(tab, b, i/2, 4*(i%2)+p); got != want {
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

// TestIndex4x6AVX: the assembly writes index4x6asm's indices, bit for bit.
func TestIndex4x6AVX(t *testing.T) {
	if avx4x6 == nil {
		t.Skip("no AVX-512 VBMI")
	}
	r := rand.New(rand.NewPCG(1, 2))
	var bs [4]uint64
	for i := range 50000 {
		for j := range bs {
			bs[j] = r.Uint64()
		}
		k := 1 + i%4
		var want, got [128]uint32
		index4x6asm(nil, &bs[0], k, &want[0])
		index4x6avx(nil, &bs[0], k, &got[0], avx4x6)
		if want != got {
			for j := range want {
				if want[j] != got[j] {
					t.Fatalf("board %#x: index %d is %#x, want %#x", bs[j/32], j%32, got[j], want[j])
				}
			}
		}
	}
}

// TestEstimateN4x6: the AVX-512 indices sum to estimateN4x6asm's values.
func TestEstimateN4x6(t *testing.T) {
	if avx4x6 == nil {
		t.Skip("no AVX-512 VBMI")
	}
	n := MustNew("4x6")
	r := rand.New(rand.NewPCG(3, 4))
	for i := range n.w {
		if i%97 == 0 {
			n.w[i] = r.Float32()
		}
	}
	var bs [4]uint64
	for i := range 20000 {
		for j := range bs {
			bs[j] = r.Uint64() & 0x3333333333333333
		}
		k := 1 + i%4
		var want, got [4]float32
		estimateN4x6asm(&n.w[0], &bs[0], k, &want[0])
		estimateN4x6(&n.w[0], &bs[0], k, &got[0])
		if want != got {
			t.Fatalf("boards %x: %v, want %v", bs[:k], got, want)
		}
	}
}

// BenchmarkIndex4x6: three after-states' indices, their weights in the
// cache (tiles 0 and 1 only), by the scalar assembly and by AVX-512.
func BenchmarkIndex4x6(b *testing.B) {
	n := MustNew("4x6")
	r := rand.New(rand.NewPCG(5, 6))
	bs := make([]uint64, 1024)
	for i := range bs {
		bs[i] = r.Uint64() & 0x1111111111111111
	}
	var dst [128]uint32
	b.Run("asm", func(b *testing.B) {
		for i := range b.N {
			index4x6asm(&n.w[0], &bs[i&1020], 3, &dst[0])
		}
	})
	if avx4x6 == nil {
		return
	}
	b.Run("avx512", func(b *testing.B) {
		for i := range b.N {
			index4x6avx(&n.w[0], &bs[i&1020], 3, &dst[0], avx4x6)
		}
	})
}
