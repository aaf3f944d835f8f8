package threes

import (
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/td2048/td2048/board"
)

// faceScore is the course's scoring formula on a face value, computed in
// floating point: 3^(log2(v/3)+1) for v >= 3, 0 for 1 and 2.
func faceScore(v int) int {
	if v < 3 {
		return 0
	}
	return int(math.Round(math.Pow(3, math.Log2(float64(v)/3)+1)))
}

// refFace is the face value of an index, written out as a table.
var refFace = []int{0, 1, 2, 3, 6, 12, 24, 48, 96, 192, 384, 768, 1536, 3072, 6144}

// refLeft is a plain left slide written independently of SlideRow: find
// the first cell c (1..3) whose tile can enter c-1 (empty, or 1+2, or two
// equal tiles 3..3072); the row is then the cells before c-1, the merged
// or moved tile, the cells after c, and an empty cell. Index 15 is a tile
// that neither merges nor exists in games; it still moves into holes.
func refLeft(row [4]int) ([4]int, int) {
	canEnter := func(dst, src int) bool {
		if src == 0 {
			return false
		}
		if dst == 0 {
			return true
		}
		if dst+src == 3 {
			return true
		}
		return dst == src && dst >= 3 && dst <= 13
	}
	for c := 1; c < 4; c++ {
		if !canEnter(row[c-1], row[c]) {
			continue
		}
		var out []int
		out = append(out, row[:c-1]...)
		merged := row[c]
		reward := 0
		if row[c-1] != 0 {
			merged = max(row[c-1], row[c]) + 1
			before := 0
			for _, x := range []int{row[c-1], row[c]} {
				if x <= 14 {
					before += faceScore(refFace[x])
				}
			}
			reward = faceScore(refFace[merged]) - before
		}
		out = append(out, merged)
		out = append(out, row[c+1:]...)
		out = append(out, 0)
		return [4]int(out), reward
	}
	return row, 0
}

func rowCells(r int) [4]int {
	return [4]int{r & 0xf, r >> 4 & 0xf, r >> 8 & 0xf, r >> 12 & 0xf}
}

// TestAllRowsAllDirections checks every one of the 65,536 rows, placed in
// each row (left, right) and each column (up, down) of a board, against
// refLeft, with the reward, and that a changed row always frees the cell
// on the edge opposite the slide.
func TestAllRowsAllDirections(t *testing.T) {
	for r := range 65536 {
		cells := rowCells(r)
		left, lrew := refLeft(cells)
		rev, rrew := refLeft([4]int{cells[3], cells[2], cells[1], cells[0]})
		right := [4]int{rev[3], rev[2], rev[1], rev[0]}
		if left != cells && left[3] != 0 || right != cells && right[0] != 0 {
			t.Fatalf("row %04x: a moved row must free its far cell: left %v right %v", r, left, right)
		}
		for line := range 4 {
			var rowB, colB board.Board
			for i, v := range cells {
				rowB = rowB.Set(4*line+i, v)
				colB = colB.Set(4*i+line, v)
			}
			after, reward := Moves(rowB)
			cafter, creward := Moves(colB)
			for i := range 4 {
				if after[Left].At(4*line+i) != left[i] || after[Right].At(4*line+i) != right[i] {
					t.Fatalf("row %04x in row %d: left %v right %v, want %v %v", r, line,
						after[Left].Hex(), after[Right].Hex(), left, right)
				}
				if cafter[Up].At(4*i+line) != left[i] || cafter[Down].At(4*i+line) != right[i] {
					t.Fatalf("row %04x in column %d: up %v down %v, want %v %v", r, line,
						cafter[Up].Hex(), cafter[Down].Hex(), left, right)
				}
			}
			if int(reward[Left]) != lrew || int(reward[Right]) != rrew || int(creward[Up]) != lrew || int(creward[Down]) != rrew {
				t.Fatalf("row %04x: rewards L%d R%d U%d D%d, want L/U %d R/D %d", r,
					reward[Left], reward[Right], creward[Up], creward[Down], lrew, rrew)
			}
			// Other rows and columns are empty and stay so; a single row
			// moves up or down only as a whole line of tiles.
			if after[Left]&^(0xffff<<(16*line)) != 0 || cafter[Up]&^(0x000f000f000f000f<<(4*line)) != 0 {
				t.Fatalf("row %04x: tiles left their line", r)
			}
		}
		if got, _ := SlideRow(cells); got != left {
			t.Fatalf("SlideRow(%v) = %v, want %v", cells, got, left)
		}
	}
}

func TestMergeRules(t *testing.T) {
	for a := 0; a <= 15; a++ {
		for b := 0; b <= 15; b++ {
			want := a != 0 && b != 0 && (a == 1 && b == 2 || a == 2 && b == 1 || a == b && a >= 3 && a <= 13)
			if canMerge(a, b) != want {
				t.Errorf("canMerge(%d, %d) = %v", a, b, !want)
			}
		}
	}
	// Vectors in face values, slid left.
	for _, v := range []struct{ in, out [4]int }{
		{[4]int{1, 1, 0, 0}, [4]int{1, 1, 0, 0}},             // 1+1 does not merge
		{[4]int{2, 2, 2, 0}, [4]int{2, 2, 2, 0}},             // nor 2+2
		{[4]int{1, 2, 1, 2}, [4]int{3, 1, 2, 0}},             // one merge, then a shift
		{[4]int{2, 1, 0, 0}, [4]int{3, 0, 0, 0}},             // 2+1 too
		{[4]int{3, 3, 3, 3}, [4]int{6, 3, 3, 0}},             // one merge per row
		{[4]int{0, 6, 0, 6}, [4]int{6, 0, 6, 0}},             // one cell at most
		{[4]int{3, 6, 6, 0}, [4]int{3, 12, 0, 0}},            // the first mover decides
		{[4]int{6144, 6144, 3, 0}, [4]int{6144, 6144, 3, 0}}, // 6144 is the top
		{[4]int{3072, 3072, 0, 1}, [4]int{6144, 0, 1, 0}},
	} {
		t.Run(fmt.Sprint(v.in), func(t *testing.T) {
			var in [4]int
			for i, f := range v.in {
				in[i], _ = index(f)
			}
			got, _ := SlideRow(in)
			var face [4]int
			for i := range got {
				face[i] = Value(got[i])
			}
			if face != v.out {
				t.Errorf("%v left: %v, want %v", v.in, face, v.out)
			}
		})
	}
}

func TestScoreFormula(t *testing.T) {
	for i := 0; i <= MaxIndex; i++ {
		if Value(i) != refFace[i] {
			t.Errorf("Value(%d) = %d, want %d", i, Value(i), refFace[i])
		}
		if Score(i) != faceScore(refFace[i]) {
			t.Errorf("Score(%d) = %d, want %d", i, Score(i), faceScore(refFace[i]))
		}
		if j, ok := index(refFace[i]); !ok || j != i {
			t.Errorf("Index(%d) = %d %v", refFace[i], j, ok)
		}
	}
	if Score(3) != 3 || Score(4) != 9 || Score(MaxIndex) != 531441 {
		t.Errorf("scores of 3, 6, 6144: %d %d %d", Score(3), Score(4), Score(MaxIndex))
	}
	if Value(15) >= 0 {
		t.Error("index 15 is a tile")
	}
	for _, v := range []int{-3, 4, 5, 9, 18, 7, 12288, 1 << 20} {
		if _, ok := index(v); ok {
			t.Errorf("Index(%d) accepted", v)
		}
	}
	// The reward of 1+2 is 3, and of 3+3 is 3.
	if _, r := SlideRow([4]int{1, 2}); r != 3 {
		t.Errorf("1+2 reward %d", r)
	}
	if _, r := SlideRow([4]int{3, 3}); r != 3 {
		t.Errorf("3+3 reward %d", r)
	}
	rng := rand.New(rand.NewPCG(1, 1))
	for range 1000 {
		var b board.Board
		sum := 0
		for i := range 16 {
			x := rng.IntN(15)
			b = b.Set(i, x)
			sum += faceScore(refFace[x])
		}
		if BoardScore(b) != sum {
			t.Fatalf("%v: BoardScore %d, want %d", b.Hex(), BoardScore(b), sum)
		}
	}
}

func TestCodeParsesAndFormats(t *testing.T) {
	b, err := Parse("1,2,3,6, 0,0,12,24, 48,96,192,384, 768,1536,3072,6144")
	if err != nil {
		t.Fatal(err)
	}
	for i := range 16 {
		want := []int{1, 2, 3, 4, 0, 0, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14}[i]
		if b.At(i) != want {
			t.Fatalf("cell %d: %d, want %d", i, b.At(i), want)
		}
	}
	want := "     1     2     3     6\n     .     .    12    24\n    48    96   192   384\n   768  1536  3072  6144\n"
	if got := b.Format(Code); got != want {
		t.Errorf("Format:\n%s\nwant\n%s", got, want)
	}
	if c, err := Parse(b.Hex()); err != nil || c != b {
		t.Errorf("hex round trip: %v %v", c.Hex(), err)
	}
	for _, bad := range []string{"4,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0", "12288,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0", "0xf", "1,2"} {
		t.Run(bad, func(t *testing.T) {
			if _, err := Parse(bad); err == nil {
				t.Errorf("Parse(%q) accepted", bad)
			}
		})
	}
}

// TestBagPermutations: from a full bag, every three draws are a
// permutation of 1, 2, 3, and each order comes up about equally often.
func TestBagPermutations(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 3))
	orders := map[[3]int]int{}
	g := FullBag
	for range 60000 {
		var p [3]int
		for k := range p {
			if g.count() != 3-k {
				t.Fatalf("bag %v before draw %d", g, k)
			}
			p[k], g = g.draw(rng)
		}
		if g != FullBag {
			t.Fatalf("bag %v after three draws", g)
		}
		s := p
		slices.Sort(s[:])
		if s != [3]int{1, 2, 3} {
			t.Fatalf("draws %v", p)
		}
		orders[p]++
	}
	if len(orders) != 6 {
		t.Fatalf("orders %v", orders)
	}
	for p, n := range orders {
		if n < 9500 || n > 10500 {
			t.Errorf("order %v drawn %d times of 60000", p, n)
		}
	}
	if FullBag.Take(1).Take(3).Take(2) != FullBag || FullBag.Take(2) != 5 {
		t.Error("Take")
	}
}

// TestGamesFollowTheRules plays random games through Game and checks the
// bag, the hint, the placement edge, the rewards and the end.
func TestGamesFollowTheRules(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 5))
	for game := range 300 {
		g := New()
		var draws []int
		sum := 0
		for !g.Over() {
			if g.SlideTurn() {
				var legal []int
				after, reward := Moves(g.Board)
				for d := range 4 {
					if after[d] != g.Board {
						legal = append(legal, d)
					}
				}
				d := legal[rng.IntN(len(legal))]
				before := BoardScore(g.Board)
				r, err := g.Slide(d)
				if err != nil || r != int(reward[d]) || BoardScore(g.Board)-before != r {
					t.Fatalf("slide %d: reward %d (%v), board value change %d", d, r, err, BoardScore(g.Board)-before)
				}
				sum += r
				if Free(g.Board, d) == 0 {
					t.Fatalf("no free edge cell after slide %d:\n%s", d, g.Board.Format(Code))
				}
				continue
			}
			prev := g
			opening := g.Actions < OpeningTiles
			pos, tile, hint := g.PlaceRandom(rng)
			if prev.Board.At(pos) != 0 || g.Board != prev.Board.Set(pos, tile) {
				t.Fatalf("placed %d on cell %d holding %d", tile, pos, prev.Board.At(pos))
			}
			if !opening && !slices.Contains(EdgeCells(prev.Last), pos) {
				t.Fatalf("placed on cell %d after slide %d (edge %v)", pos, prev.Last, EdgeCells(prev.Last))
			}
			if prev.Next != 0 && tile != prev.Next {
				t.Fatalf("placed %d, hint was %d", tile, prev.Next)
			}
			if prev.Next == 0 {
				draws = append(draws, tile)
			}
			draws = append(draws, hint)
			sum += Score(tile)
			// The same placement through Place is accepted and agrees.
			q := prev
			if r, err := q.Place(pos, tile, hint); err != nil || q != g || r != Score(tile) {
				t.Fatalf("Place(%d,%d,%d): %v, %+v vs %+v", pos, tile, hint, err, q, g)
			}
		}
		if sum != BoardScore(g.Board) {
			t.Fatalf("game %d: rewards %d, board value %d", game, sum, BoardScore(g.Board))
		}
		for k := 0; k+3 <= len(draws); k += 3 {
			s := [3]int(draws[k : k+3])
			slices.Sort(s[:])
			if s != [3]int{1, 2, 3} {
				t.Fatalf("game %d: draws %d..%d are %v", game, k, k+2, draws[k:k+3])
			}
		}
	}
}

func TestPlaceRejects(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 7))
	g := Start(rng)
	if g.Actions != OpeningTiles || g.Board.Empty() != 7 || g.Next == 0 || !g.SlideTurn() {
		t.Fatalf("opening: %+v", g)
	}
	if _, err := g.Place(bits.TrailingZeros64(g.Board.EmptyMask())/4, g.Next, 1); err == nil {
		t.Fatal("placement accepted when a slide is due")
	}
	var d int
	for d = range 4 {
		if _, _, ok := Move(g.Board, d); ok {
			break
		}
	}
	if _, err := g.Slide(d); err != nil {
		t.Fatal(err)
	}
	if _, err := g.Slide(d); err == nil {
		t.Fatal("two slides in a row")
	}
	edge := EdgeCells(d)
	for pos := range 16 {
		for tile := 1; tile <= 3; tile++ {
			for hint := 1; hint <= 3; hint++ {
				q := g
				_, err := q.Place(pos, tile, hint)
				ok := g.Board.At(pos) == 0 && slices.Contains(edge, pos) && tile == g.Next && g.Bag.Has(hint)
				if (err == nil) != ok {
					t.Fatalf("Place(%d,%d,%d) after slide %d, hint %d, bag %v: %v", pos, tile, hint, d, g.Next, g.Bag, err)
				}
			}
		}
	}
}

func TestEdges(t *testing.T) {
	want := [5][]int{{12, 13, 14, 15}, {0, 4, 8, 12}, {0, 1, 2, 3}, {3, 7, 11, 15},
		{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}}
	for d, w := range want {
		if !slices.Equal(EdgeCells(d), w) {
			t.Errorf("edge %d: %v, want %v", d, EdgeCells(d), w)
		}
	}
}

func BenchmarkMoves(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	boards := make([]board.Board, 1024)
	for i := range boards {
		boards[i] = board.Board(rng.Uint64() & 0x7777777777777777)
	}
	b.ResetTimer()
	var sink int32
	for i := 0; i < b.N; i++ {
		_, r := Moves(boards[i&1023])
		sink += r[0]
	}
	_ = sink
}
