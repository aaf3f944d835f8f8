//go:build cgo

package main

import (
	"encoding/binary"
	"testing"

	"github.com/td2048/td2048/board"
	"github.com/td2048/td2048/games"
)

func TestPack(t *testing.T) {
	g2048, gThrees := games.MustLookup("2048"), games.MustLookup("threes")
	row := func(a ...int64) []int64 { return append(a, make([]int64, 16-len(a))...) }
	cases := []struct {
		name  string
		g     *games.Game
		cells []int64
		exps  bool
		want  board.Board
		bad   bool
	}{
		{"values", g2048, row(2, 4, 0, 32768), false, board.FromCells([16]int{1, 2, 0, 15}), false},
		{"exponents", g2048, row(1, 2, 0, 15), true, board.FromCells([16]int{1, 2, 0, 15}), false},
		{"not a power of two", g2048, row(3), false, 0, true},
		{"past 32768", g2048, row(65536), false, 0, true},
		{"negative", g2048, row(-2), false, 0, true},
		{"exponent 16", g2048, row(16), true, 0, true},
		{"threes values", gThrees, row(1, 2, 3, 6), false, board.FromCells([16]int{1, 2, 3, 4}), false},
		{"threes 4", gThrees, row(4), false, 0, true},
		{"huge", g2048, row(1 << 40), false, 0, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out [1]board.Board
			err := pack(c.g, c.cells, c.exps, out[:])
			if (err != nil) != c.bad || !c.bad && out[0] != c.want {
				t.Fatalf("pack = %s, %v; want %s, bad %v", out[0].Hex(), err, c.want.Hex(), c.bad)
			}
		})
	}
}

// FuzzPack: any cells are packed or refused, never a panic, and a board
// packed from values unpacks to them.
func FuzzPack(f *testing.F) {
	f.Add(make([]byte, 128), false, false)
	f.Add([]byte{2, 0, 0, 0, 0, 0, 0, 0, 4}, false, true)
	f.Fuzz(func(t *testing.T, data []byte, exps, threes bool) {
		g := games.MustLookup("2048")
		if threes {
			g = games.MustLookup("threes")
		}
		var cells [16]int64
		for i := range cells {
			if len(data) >= 8*(i+1) {
				cells[i] = int64(binary.LittleEndian.Uint64(data[8*i:]))
			}
		}
		var out [1]board.Board
		if pack(g, cells[:], exps, out[:]) != nil {
			return
		}
		for i, v := range cells {
			got := int64(out[0].At(i))
			if !exps {
				got = int64(max(g.Code.Value(out[0].At(i)), 0))
			}
			if got != v {
				t.Fatalf("cell %d: %d packed as %d", i, v, got)
			}
		}
	})
}

func TestPackStep(t *testing.T) {
	// info: reward, score, over, legal moves, next, legal, moves
	cases := []struct {
		info []int64
		want int64
	}{
		{[]int64{0, 0, 0, 15, 0, 1, 1}, 1<<24 | 15<<26},
		{[]int64{1<<24 - 1, 1<<30 - 1, 1, 0, 3, 0, 9}, 1<<24 - 1 | 1<<25 | 3<<30 | (1<<30-1)<<32},
		{[]int64{36, 1200, 0, 5, 2, 1, 40}, 36 | 1<<24 | 5<<26 | 2<<30 | 1200<<32},
		{[]int64{1 << 24, 7, 0, 1, 0, 1, 2}, 1<<24 | 1<<26 | 1<<62},
		{[]int64{4, 1 << 30, 0, 1, 0, 1, 2}, 1<<24 | 1<<26 | 1<<62},
	}
	for _, c := range cases {
		if got := packStep(c.info); got != c.want {
			t.Errorf("packStep(%v) = %#x, want %#x", c.info, got, c.want)
		}
	}
}
