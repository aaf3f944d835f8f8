package board

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// TestDowngradeVectors: docs/methods.md §7's vectors, run on TDL2048+.
func TestDowngradeVectors(t *testing.T) {
	for _, c := range []struct {
		in   Wide
		n    int
		want Wide
	}{
		{Wide{Low: 0x1abdef}, 1, Wide{Low: 0x1abcde}},
		{Wide{Low: 0x1abdef}, 2, Wide{Low: 0x19abcd}},
		{Wide{Low: 0x1cef0, Ext: 1}, 1, Wide{Low: 0x1cdef}},
		{Wide{Low: 0x1abdef}, 0, Wide{Low: 0x1abdef}},
		{Wide{Low: 0x1abdef}, 99, Wide{Low: 0x123456}}, // every gap taken
		{Wide{Low: 0x4321}, 3, Wide{Low: 0x4321}},      // no gap
		{Wide{}, 1, Wide{}},
	} {
		t.Run(fmt.Sprint(c.in.Hex(), " by ", c.n), func(t *testing.T) {
			if got := c.in.Downgrade(c.n); got != c.want {
				t.Errorf("%s by %d = %s, want %s", c.in.Hex(), c.n, got.Hex(), c.want.Hex())
			}
		})
	}
}

// TestDowngradeKeepsOrder: on random boards, downgrading keeps tiles
// distinct and ordered, lowers each by the number of taken gaps below it,
// and never raises one.
func TestDowngradeKeepsOrder(t *testing.T) {
	x := uint64(12345)
	for range 20000 {
		var c [16]int
		for i := range c {
			x = x*6364136223846793005 + 1442695040888963407
			c[i] = int(x>>59) % 20
		}
		w := WideFromCells(c)
		for n := range 4 {
			d := w.Downgrade(n).Cells()
			for i := range c {
				if d[i] > c[i] || (c[i] == 0) != (d[i] == 0) {
					t.Fatalf("%v by %d: cell %d %d -> %d", c, n, i, c[i], d[i])
				}
				for j := range c {
					if (c[i] < c[j]) != (d[i] < d[j]) || (c[i] == c[j]) != (d[i] == d[j]) {
						t.Fatalf("%v by %d: order of cells %d, %d lost: %v", c, n, i, j, d)
					}
				}
			}
			lowered := 0
			for i := range c {
				lowered = max(lowered, c[i]-d[i])
			}
			if lowered > n {
				t.Fatalf("%v by %d lowered a tile by %d", c, n, lowered)
			}
		}
	}
}

func TestWideCells(t *testing.T) {
	c := [16]int{16, 17, 31, 15, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}
	w := WideFromCells(c)
	if w.Cells() != c || w.MaxTile() != 31 || w.Ext != 0b111 || w.Low.At(0) != 0 || w.Low.At(1) != 1 {
		t.Fatalf("%v -> %s %v", c, w.Hex(), w.Cells())
	}
	if w.Empty() != 1 || w.emptyMask() != 1<<16 {
		t.Fatalf("empty cells of %s: %d %x", w.Hex(), w.Empty(), w.emptyMask())
	}
	if got := w.Tiles(); got[0] != 65536 || got[1] != 131072 || got[2] != 1<<31 || got[4] != 0 {
		t.Fatalf("tiles %v", got)
	}
	tr := w.Transpose()
	for r := range 4 {
		for col := range 4 {
			if tr.At(4*col+r) != w.At(4*r+col) {
				t.Fatalf("transpose of %s: %s", w.Hex(), tr.Hex())
			}
		}
	}
	if !strings.Contains(w.String(), "131072") {
		t.Fatalf("String:\n%s", w)
	}
}

func TestView(t *testing.T) {
	// 65536 with 32768 and a gap below: seen one lower.
	w := WideFromCells([16]int{16, 15, 1})
	if v, ok := w.View(0); !ok || v != FromCells([16]int{15, 14, 1}) {
		t.Fatalf("view of %s: %s %v", w.Hex(), v.Hex(), ok)
	}
	// A 4-bit board is its own view; n asks for more.
	b := FromCells([16]int{15, 13, 1})
	if v, ok := (Wide{Low: b}).View(0); !ok || v != b {
		t.Fatal("4-bit board not its own view")
	}
	if v, _ := (Wide{Low: b}).View(1); v != FromCells([16]int{14, 13, 1}) {
		t.Fatalf("view by 1: %s", v.Hex())
	}
	// Sixteen distinct tiles 2..65536: no gap, 65536 stays 32768 as seen.
	var c [16]int
	for i := range c {
		c[i] = i + 1
	}
	if v, ok := WideFromCells(c).View(0); ok || v.At(15) != 15 || v.At(14) != 15 {
		t.Fatalf("full board view %s %v", v.Hex(), ok)
	}
}

func TestParseWide(t *testing.T) {
	w, err := ParseWide("65536,131072,0,0, 0,0,0,0, 0,0,0,0, 0,0,0,2147483648")
	if err != nil || w.At(0) != 16 || w.At(1) != 17 || w.At(15) != 31 {
		t.Fatalf("%s %v", w.Hex(), err)
	}
	if w2, err := ParseWide(w.Hex()); err != nil || w2 != w {
		t.Fatalf("hex round trip %s: %s %v", w.Hex(), w2.Hex(), err)
	}
	if w2, err := ParseWide("0x1abdef"); err != nil || w2 != (Wide{Low: 0x1abdef}) {
		t.Fatalf("4-bit hex: %s %v", w2.Hex(), err)
	}
	for _, bad := range []string{"", "0x", "0x12:34", "0xzzzz:1", "4294967296,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0", "3,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0", "1,2"} {
		t.Run(bad, func(t *testing.T) {
			if _, err := ParseWide(bad); err == nil || strings.Contains(err.Error(), "\n") {
				t.Errorf("%q: error %v", bad, err)
			}
		})
	}
}

func FuzzParseWide(f *testing.F) {
	for _, s := range []string{"0x0001:1cef0", "0x1abdef", "65536,2,0,0,0,0,0,0,0,0,0,0,0,0,0,0", "0x:", "1,2,3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		w, err := ParseWide(s)
		if err != nil {
			return
		}
		if w2, err := ParseWide(w.Hex()); err != nil || w2 != w {
			t.Fatalf("%q -> %s -> %s %v", s, w.Hex(), w2.Hex(), err)
		}
		tiles := w.Tiles()
		var parts []string
		for _, v := range tiles {
			parts = append(parts, strconv.Itoa(v))
		}
		if w2, err := ParseWide(strings.Join(parts, ",")); err != nil || w2 != w {
			t.Fatalf("%q -> tiles %v -> %s %v", s, tiles, w2.Hex(), err)
		}
	})
}
