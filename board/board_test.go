package board

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// cellMap applies a cell permutation the plain way: out[dst(i)] = b[i].
func cellMap(b Board, dst func(r, c int) (int, int)) Board {
	var out Board
	for i := range 16 {
		r, c := dst(i/4, i%4)
		out = out.Set(4*r+c, b.At(i))
	}
	return out
}

func TestSymmetriesMatchCellMaps(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 10000 {
		b := Board(rng.Uint64())
		if got, want := b.Transpose(), cellMap(b, func(r, c int) (int, int) { return c, r }); got != want {
			t.Fatalf("Transpose(%v) = %v, want %v", b.Hex(), got.Hex(), want.Hex())
		}
		if got, want := b.Mirror(), cellMap(b, func(r, c int) (int, int) { return r, 3 - c }); got != want {
			t.Fatalf("Mirror(%v) = %v, want %v", b.Hex(), got.Hex(), want.Hex())
		}
		if got, want := b.Flip(), cellMap(b, func(r, c int) (int, int) { return 3 - r, c }); got != want {
			t.Fatalf("Flip(%v) = %v, want %v", b.Hex(), got.Hex(), want.Hex())
		}
	}
}

func TestImagesAreTheEightSymmetries(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	maps := []func(r, c int) (int, int){
		func(r, c int) (int, int) { return r, c },
		func(r, c int) (int, int) { return c, 3 - r },
		func(r, c int) (int, int) { return 3 - r, 3 - c },
		func(r, c int) (int, int) { return 3 - c, r },
		func(r, c int) (int, int) { return r, 3 - c },
		func(r, c int) (int, int) { return c, r },
		func(r, c int) (int, int) { return 3 - r, c },
		func(r, c int) (int, int) { return 3 - c, 3 - r },
	}
	for range 1000 {
		b := Board(rng.Uint64())
		want := map[Board]int{}
		for _, m := range maps {
			want[cellMap(b, m)]++
		}
		got := map[Board]int{}
		for _, im := range b.Images() {
			got[im]++
		}
		if len(got) != len(want) {
			t.Fatalf("%v: images %v, want %v", b.Hex(), got, want)
		}
		for k, v := range want {
			if got[k] != v {
				t.Fatalf("%v: images %v, want %v", b.Hex(), got, want)
			}
		}
		c := b.Canonical()
		for _, im := range b.Images() {
			if im.Canonical() != c || im < c {
				t.Fatalf("canonical of %v not shared by its image %v", b.Hex(), im.Hex())
			}
		}
	}
}

func TestEmptyAndMax(t *testing.T) {
	b := FromCells([16]int{0, 1, 0, 2, 15, 0, 0, 0, 3, 3, 3, 3, 0, 0, 0, 1})
	if got := b.Empty(); got != 8 {
		t.Errorf("Empty = %d, want 8", got)
	}
	if got := b.MaxTile(); got != 15 {
		t.Errorf("MaxTile = %d, want 15", got)
	}
	if b.cells() != [16]int{0, 1, 0, 2, 15, 0, 0, 0, 3, 3, 3, 3, 0, 0, 0, 1} {
		t.Errorf("Cells round trip failed: %v", b.cells())
	}
	if Board(0).Empty() != 16 {
		t.Errorf("empty board has %d empty cells", Board(0).Empty())
	}
}

func TestParse(t *testing.T) {
	b, err := Parse("2,0,0,4, 0,0,0,0, 0,0,0,0, 0,0,0,32768")
	if err != nil {
		t.Fatal(err)
	}
	if b.At(0) != 1 || b.At(3) != 2 || b.At(15) != 15 || b.Empty() != 13 {
		t.Fatalf("parsed %v", b.Hex())
	}
	if b.Hex() != "0xf000000000002001" {
		t.Fatalf("hex %s", b.Hex())
	}
	h, err := Parse(b.Hex())
	if err != nil || h != b {
		t.Fatalf("hex round trip: %v %v", h.Hex(), err)
	}
	for _, bad := range []string{
		"", "0x", "0xg", "0x12345678901234567", "1,2,3",
		"2,0,0,4,0,0,0,0,0,0,0,0,0,0,0,3",
		"2,0,0,4,0,0,0,0,0,0,0,0,0,0,0,65536",
		"2,0,0,4,0,0,0,0,0,0,0,0,0,0,0,-2",
		"2,0,0,4,0,0,0,0,0,0,0,0,0,0,0,1",
		"2,0,0,4,0,0,0,0,0,0,0,0,0,0,0,x",
		"2,0,0,4,0,0,0,0,0,0,0,0,0,0,0,0,0",
	} {
		t.Run(bad, func(t *testing.T) {
			if _, err := Parse(bad); err == nil {
				t.Errorf("Parse(%q) accepted", bad)
			} else if strings.Contains(err.Error(), "\n") {
				t.Errorf("Parse(%q): error is not one line: %q", bad, err)
			}
		})
	}
}

func TestFormat(t *testing.T) {
	b, _ := Parse("2,0,0,4,0,0,0,0,0,0,0,0,0,0,1024,32768")
	want := "     2     .     .     4\n" +
		"     .     .     .     .\n" +
		"     .     .     .     .\n" +
		"     .     .  1024 32768\n"
	if got := b.String(); got != want {
		t.Errorf("String =\n%s\nwant\n%s", got, want)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"0x0123456789abcdef", "2,0,0,4,0,0,0,0,0,0,0,0,0,0,0,0", "0x", ",,,", "1,2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		b, err := Parse(s)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("multi-line error %q", err)
			}
			return
		}
		// Whatever parses must print back to itself in both forms.
		if h, err := Parse(b.Hex()); err != nil || h != b {
			t.Fatalf("hex round trip of %q: %v %v", s, h.Hex(), err)
		}
		var parts []string
		for _, c := range b.cells() {
			parts = append(parts, strconv.Itoa(Pow2.Value(c)))
		}
		if l, err := Parse(strings.Join(parts, ",")); err != nil || l != b {
			t.Fatalf("list round trip of %q: %v %v", s, l.Hex(), err)
		}
	})
}

// TestParseErrorShort: an error quotes at most a short prefix of a huge input.
func TestParseErrorShort(t *testing.T) {
	for _, in := range []string{strings.Repeat("2,", 50000), "0x" + strings.Repeat("z", 100000), strings.Repeat("x", 100000) + ",0,0,0,0,0,0,0,0,0,0,0,0,0,0,0"} {
		_, err := Parse(in)
		if err == nil || len(err.Error()) > 200 {
			t.Errorf("Parse of %d bytes: error of %d bytes", len(in), len(err.Error()))
		}
	}
}

// TestParseNamesBothForms: a board in neither form (hex digits without
// their 0x, too few tiles) gets an error that names both forms.
func TestParseNamesBothForms(t *testing.T) {
	for _, in := range []string{"0123456789abcdef", "2,2,4"} {
		_, err := Parse(in)
		if err == nil || !strings.Contains(err.Error(), "comma-separated") || !strings.Contains(err.Error(), "0x") {
			t.Errorf("Parse(%q): %v", in, err)
		}
		_, err = ParseWide(in)
		if err == nil || !strings.Contains(err.Error(), "0x") {
			t.Errorf("ParseWide(%q): %v", in, err)
		}
	}
}

// TestScale checks docs/methods.md section 1's vectors: every tile and an
// empty cell is 0xffff; a board of 32768, 2s and empty cells is 0x8003.
func TestScale(t *testing.T) {
	for _, c := range []struct {
		b    Board
		want uint32
	}{
		{0x0123456789abcdef, 0xffff},
		{0x000000000000f111, 0x8003},
		{0, 1},
		{0x1111111111111111, 2},
		{0xe00000000000000d, 0x6001},
	} {
		t.Run(c.b.Hex(), func(t *testing.T) {
			if got := c.b.Scale(); got != c.want {
				t.Errorf("scale of %016x = %#x, want %#x", uint64(c.b), got, c.want)
			}
		})
	}
}

// cells returns the sixteen tile indices.
func (b Board) cells() [16]int {
	var c [16]int
	for i := range c {
		c[i] = b.At(i)
	}
	return c
}
