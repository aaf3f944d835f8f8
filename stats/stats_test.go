package stats

import (
	"fmt"
	"strings"
	"testing"
)

// block makes a block from its sums and the count of games ending on each
// tile index.
func block(games int, sum int64, maxScore int, end map[int]int) Block {
	b := Block{Games: games, Sum: sum, MaxScore: maxScore}
	for t, n := range end {
		b.End[t] = n
	}
	return b
}

func threesValue(i int) int {
	if i < 3 {
		return i
	}
	return 3 << (i - 3)
}

// The expected blocks are what a C++ program printing with the course
// demo's arithmetic (int sum, float avg = float(sum) / unit, float coef =
// 100.0 / unit, count * coef, default ostream formatting) writes for the
// same counts.
var demoBlocks = []struct {
	name  string
	label int
	b     Block
	want  string
}{
	{"README's 10000-episode block: float32 average", 10000,
		block(1000, 22382450, 74668, map[int]int{8: 10, 9: 129, 10: 461, 11: 371, 12: 29}),
		"10000\tavg = 22382.4\tmax = 74668\n" +
			"\t256\t100%\t(1%)\n" +
			"\t512\t99%\t(12.9%)\n" +
			"\t1024\t86.1%\t(46.1%)\n" +
			"\t2048\t40%\t(37.1%)\n" +
			"\t4096\t2.9%\t(2.9%)\n"},
	{"RULES' example", 1000,
		block(1000, 7848380, 27040, map[int]int{6: 4, 7: 25, 8: 300, 9: 500, 10: 165, 11: 6}),
		"1000\tavg = 7848.38\tmax = 27040\n" +
			"\t64\t100%\t(0.4%)\n" +
			"\t128\t99.6%\t(2.5%)\n" +
			"\t256\t97.1%\t(30%)\n" +
			"\t512\t67.1%\t(50%)\n" +
			"\t1024\t17.1%\t(16.5%)\n" +
			"\t2048\t0.6%\t(0.6%)\n"},
	{"37 games: float32 shares, tiles no game ended on skipped", 37,
		block(37, 123457, 9876, map[int]int{7: 1, 9: 18, 11: 18}),
		"37\tavg = 3336.68\tmax = 9876\n" +
			"\t128\t100%\t(2.7027%)\n" +
			"\t512\t97.2973%\t(48.6487%)\n" +
			"\t2048\t48.6487%\t(48.6487%)\n"},
	{"an average past a million prints in exponent form; 65536", 3,
		block(3, 3703704, 1500000, map[int]int{14: 1, 15: 1, 16: 1}),
		"3\tavg = 1.23457e+06\tmax = 1500000\n" +
			"\t16384\t100%\t(33.3333%)\n" +
			"\t32768\t66.6667%\t(33.3333%)\n" +
			"\t65536\t33.3333%\t(33.3333%)\n"},
	{"tiles past 65536 (wide boards) print on", 4,
		block(4, 4000000, 2500000, map[int]int{15: 1, 16: 1, 17: 1, 18: 1}),
		"4\tavg = 1e+06\tmax = 2500000\n" +
			"\t32768\t100%\t(25%)\n" +
			"\t65536\t75%\t(25%)\n" +
			"\t131072\t50%\t(25%)\n" +
			"\t262144\t25%\t(25%)\n"},
	{"one game", 1, block(1, 4, 4, map[int]int{2: 1}), "1\tavg = 4\tmax = 4\n\t4\t100%\t(100%)\n"},
	{"millions of games: a sum past 2^31, tiny shares", 3000000,
		block(3000000, 180000000000, 400000, map[int]int{11: 999999, 12: 1000000, 13: 999999, 14: 1, 15: 1}),
		"3000000\tavg = 60000\tmax = 400000\n" +
			"\t2048\t100%\t(33.3333%)\n" +
			"\t4096\t66.6667%\t(33.3333%)\n" +
			"\t8192\t33.3334%\t(33.3333%)\n" +
			"\t16384\t6.66667e-05%\t(3.33333e-05%)\n" +
			"\t32768\t3.33333e-05%\t(3.33333e-05%)\n"},
	{"no games", 0, Block{}, "0\tavg = 0\tmax = 0\n"},
}

func TestBlockIsTheDemos(t *testing.T) {
	for _, c := range demoBlocks {
		t.Run(c.name, func(t *testing.T) {
			var sb strings.Builder
			if err := c.b.Write(&sb, c.label, Pow2); err != nil {
				t.Fatal(err)
			}
			if sb.String() != c.want {
				t.Errorf("%s: got\n%s\nwant\n%s", c.name, sb.String(), c.want)
			}
		})
	}
}

func TestAddMergeAndRates(t *testing.T) {
	var a, b Block
	a.Add(100, 3, 1)
	b.Add(70000, 16, 1) // a 65536 game
	a.Merge(&b)
	var sb strings.Builder
	a.Write(&sb, 2, Pow2)
	if want := "2\tavg = 35050\tmax = 70000\n\t8\t100%\t(50%)\n\t65536\t50%\t(50%)\n"; sb.String() != want {
		t.Errorf("got %q, want %q", sb.String(), want)
	}
	if a.Reached(4) != 1 || a.Reach(3) != 1 || a.endRate(16) != 0.5 || a.Moves != 2 || a.Avg() != 35050 {
		t.Errorf("%+v", a)
	}
}

// The expected summaries are what a C++ program printing as the Threes!
// framework's statistic does (fixed, no decimals, for the first line;
// count * 100.0 / games as doubles for the tiles) writes, except that a
// rate over 0 ms prints n/a where the framework prints inf.
func TestWriteThreesIsTheFrameworks(t *testing.T) {
	for _, c := range []struct {
		name  string
		label int
		b     Block
		sp    Speed
		want  string
	}{
		{"1000 games", 1000,
			block(1000, 174965000, 561159, map[int]int{6: 3, 7: 10, 8: 30, 9: 100, 10: 200, 11: 325, 12: 326, 13: 6}),
			Speed{Slides: 2000000, Placements: 2009000, Time: 4963, SlideTime: 4290, PlaceTime: 471},
			"1000\tavg = 174965, max = 561159, ops = 807778 (466200|4265393)\n" +
				"\t24\t100%\t(0.3%)\n" +
				"\t48\t99.7%\t(1%)\n" +
				"\t96\t98.7%\t(3%)\n" +
				"\t192\t95.7%\t(10%)\n" +
				"\t384\t85.7%\t(20%)\n" +
				"\t768\t65.7%\t(32.5%)\n" +
				"\t1536\t33.2%\t(32.6%)\n" +
				"\t3072\t0.6%\t(0.6%)\n\n"},
		{"37 games, shares in double, no times recorded", 37,
			block(37, 123457, 9876, map[int]int{7: 1, 9: 18, 11: 18}),
			Speed{Slides: 100, Placements: 137},
			"37\tavg = 3336, max = 9876, ops = n/a (n/a|n/a)\n" +
				"\t48\t100%\t(2.7027%)\n" +
				"\t192\t97.2973%\t(48.6486%)\n" +
				"\t768\t48.6486%\t(48.6486%)\n\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var sb strings.Builder
			if err := c.b.WriteThrees(&sb, c.label, threesValue, c.sp); err != nil {
				t.Fatal(err)
			}
			if sb.String() != c.want {
				t.Errorf("%s: got\n%s\nwant\n%s", c.name, sb.String(), c.want)
			}
		})
	}
}

func TestNum(t *testing.T) {
	for v, want := range map[float64]string{
		7848.38: "7848.38", 43669.44: "43669.4", 100: "100", 0.6: "0.6", 33.33333333: "33.3333",
		174965: "174965", 999999.7: "1e+06", 1234567.8: "1.23457e+06", 0: "0", 0.0001: "0.0001", 0.00001: "1e-05",
		float64(float32(22382.45)): "22382.4", 22382.45: "22382.5",
	} {
		t.Run(fmt.Sprint(v), func(t *testing.T) {
			if got := Num(v); got != want {
				t.Errorf("Num(%v) = %q, want %q", v, got, want)
			}
		})
	}
}
