package stats

import (
	"strings"
	"testing"
)

func TestBlockFormat(t *testing.T) {
	var b Block
	// 1000 games: 4 end at 64, 25 at 128, the rest spread up to 2048.
	add := func(n, tile, score int) {
		for range n {
			b.Add(score, tile, 10)
		}
	}
	add(4, 6, 500)
	add(25, 7, 1000)
	add(300, 8, 3000)
	add(500, 9, 6000)
	add(165, 10, 12000)
	add(6, 11, 27040)
	var sb strings.Builder
	b.Write(&sb, 1000, Pow2)
	want := "1000\tavg = 6069.24\tmax = 27040\n" +
		"\t64\t100%\t(0.4%)\n" +
		"\t128\t99.6%\t(2.5%)\n" +
		"\t256\t97.1%\t(30%)\n" +
		"\t512\t67.1%\t(50%)\n" +
		"\t1024\t17.1%\t(16.5%)\n" +
		"\t2048\t0.6%\t(0.6%)\n"
	if sb.String() != want {
		t.Errorf("got\n%q\nwant\n%q", sb.String(), want)
	}
	if b.Reached(11) != 6 || b.Moves != 10000 {
		t.Errorf("Reached(11) = %d, moves %d", b.Reached(11), b.Moves)
	}
}

func TestGapsAndMerge(t *testing.T) {
	var a, b Block
	a.Add(100, 3, 1)
	b.Add(70000, 16, 1) // a 65536 game
	a.Merge(&b)
	var sb strings.Builder
	a.Write(&sb, 2, Pow2)
	out := sb.String()
	if !strings.HasPrefix(out, "2\tavg = 35050\tmax = 70000\n\t8\t100%\t(50%)\n\t16\t50%\t(0%)\n") {
		t.Errorf("got %q", out)
	}
	if !strings.HasSuffix(out, "\t65536\t50%\t(50%)\n") || strings.Count(out, "\n") != 15 {
		t.Errorf("got %q", out)
	}
	var empty Block
	sb.Reset()
	empty.Write(&sb, 0, Pow2)
	if sb.String() != "0\tavg = 0\tmax = 0\n" {
		t.Errorf("empty block %q", sb.String())
	}
}

func TestNum(t *testing.T) {
	for v, want := range map[float64]string{
		7848.38: "7848.38", 43669.44: "43669.4", 100: "100", 0.6: "0.6", 33.33333333: "33.3333",
		174965: "174965", 999999.7: "1000000", 1234567.8: "1234568", 0: "0",
	} {
		if got := Num(v); got != want {
			t.Errorf("Num(%v) = %q, want %q", v, got, want)
		}
	}
}
