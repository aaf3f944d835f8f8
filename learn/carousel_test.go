package learn

import (
	"strconv"
	"testing"

	"github.com/td2048/td2048/board"
)

func hexBoard(t *testing.T, s string) board.Board {
	t.Helper()
	x, err := strconv.ParseUint(s, 16, 64)
	if err != nil {
		t.Fatal(err)
	}
	return board.Board(x)
}

// TestScaleTo checks docs/methods.md section 5's vectors, run on TDL2048+
// (board hex, cell 0 the last digit).
func TestScaleTo(t *testing.T) {
	for _, c := range []struct {
		from  string
		scale uint32
		want  string
	}{
		{"100000", 0x803, "b00001"},
		{"c0001b", 0x2003, "d00011"},
		{"d001bc", 0x4003, "e00111"},
		{"edcba", 0x4803, "1ebbb1"},
		{"1111", 0x1803, "11bc"},
		{"e00111", 0x2803, "d0011b"},
		{"fedcba987654", 0xf803, "1fedcb1111111"},
	} {
		t.Run(c.from, func(t *testing.T) {
			got := scaleTo(hexBoard(t, c.from), c.scale)
			if got != hexBoard(t, c.want) {
				t.Errorf("%s to %#x: %x, want %s", c.from, c.scale, uint64(got), c.want)
			}
			if got.Scale() != c.scale {
				t.Errorf("%s to %#x: scale %#x", c.from, c.scale, got.Scale())
			}
		})
	}
}
