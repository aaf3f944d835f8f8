package game2048

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/td2048/td2048/board"
)

// refLeft is a plain slide toward cell 0, written independently of
// slideRow: compact, merge neighbours from the wall, compact again.
func refLeft(row []int) (out []int, reward int, overflow bool) {
	var tiles []int
	for _, v := range row {
		if v != 0 {
			tiles = append(tiles, v)
		}
	}
	for i := 0; i < len(tiles); i++ {
		if i+1 < len(tiles) && tiles[i] == tiles[i+1] {
			reward += 1 << (tiles[i] + 1)
			if tiles[i] == 15 {
				overflow = true
			} else {
				tiles[i]++
			}
			tiles = append(tiles[:i+1], tiles[i+2:]...)
		}
	}
	out = make([]int, 4)
	copy(out, tiles)
	return out, reward, overflow
}

func rowCells(r int) []int {
	return []int{r & 0xf, r >> 4 & 0xf, r >> 8 & 0xf, r >> 12 & 0xf}
}

// TestAllRowsAllDirections checks every one of the 65,536 rows, placed in
// each row (left, right) and each column (up, down) of a board, against
// refLeft.
func TestAllRowsAllDirections(t *testing.T) {
	for r := range 65536 {
		cells := rowCells(r)
		left, rew, ovf := refLeft(cells)
		rc := []int{cells[3], cells[2], cells[1], cells[0]}
		right, _, _ := refLeft(rc)
		right = []int{right[3], right[2], right[1], right[0]}
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
			for _, d := range []int{Left, Right} {
				if Reward(reward[d]) != rew || Overflow(reward[d]) != ovf {
					t.Fatalf("row %04x dir %d: reward %d/%v, want %d/%v", r, d, Reward(reward[d]), Overflow(reward[d]), rew, ovf)
				}
			}
			for _, d := range []int{Up, Down} {
				if Reward(creward[d]) != rew || Overflow(creward[d]) != ovf {
					t.Fatalf("column %04x dir %d: reward %d/%v, want %d/%v", r, d, Reward(creward[d]), Overflow(creward[d]), rew, ovf)
				}
			}
			// The other axis: a single row never moves up or down, a
			// single column never left or right, unless cells spread.
			if line == 0 && after[Up] != rowB {
				t.Fatalf("row %04x in top row moved up", r)
			}
		}
	}
}

func TestRulesVectors(t *testing.T) {
	cases := []struct {
		row, want [4]int
		reward    int
	}{
		{[4]int{1, 1, 1, 1}, [4]int{2, 2, 0, 0}, 8}, // 2 2 2 2 -> 4 4 . .
		{[4]int{2, 2, 3, 0}, [4]int{3, 3, 0, 0}, 8}, // 4 4 8 . -> 8 8 . .
		{[4]int{1, 0, 0, 1}, [4]int{2, 0, 0, 0}, 4}, // 2 . . 2 -> 4
		{[4]int{1, 1, 2, 0}, [4]int{2, 2, 0, 0}, 4}, // 2 2 4 -> 4 4, no chain
		{[4]int{0, 2, 1, 1}, [4]int{2, 2, 0, 0}, 4}, // . 4 2 2 -> 4 4
		{[4]int{3, 2, 1, 0}, [4]int{3, 2, 1, 0}, 0}, // illegal left
		{[4]int{14, 14, 1, 1}, [4]int{15, 2, 0, 0}, 32772},
	}
	for _, c := range cases {
		t.Run(fmt.Sprint(c.row), func(t *testing.T) {
			got, rew := slideRow(c.row)
			if got != c.want || int(rew) != c.reward {
				t.Errorf("slideRow(%v) = %v, %d; want %v, %d", c.row, got, rew, c.want, c.reward)
			}
		})
	}
}

func TestOverflowIsReported(t *testing.T) {
	b := board.FromCells([16]int{15, 15, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14})
	after, reward, legal := Move(b, Left)
	if !legal || reward != 65536+0 {
		t.Fatalf("Move left: reward %d legal %v", reward, legal)
	}
	_, r := Moves(b)
	if !Overflow(r[Left]) || !Overflow(r[Right]) || Overflow(r[Up]) {
		t.Fatalf("overflow flags %v", r)
	}
	if after.At(0) != 15 {
		t.Fatalf("merged cell holds %d", after.At(0))
	}
}

func TestMoveLegalityAndOver(t *testing.T) {
	// A full checkerboard has no legal move.
	var c [16]int
	for i := range c {
		c[i] = 1 + (i/4+i%4)%2
	}
	b := board.FromCells(c)
	if !Over(b) {
		t.Fatal("checkerboard not over")
	}
	for d := range 4 {
		if _, _, legal := Move(b, d); legal {
			t.Fatalf("move %d legal on checkerboard", d)
		}
	}
	c[0] = c[1]
	if Over(board.FromCells(c)) {
		t.Fatal("board with a merge is over")
	}
}

// TestTileSumConserved: a slide keeps the sum of tile values and adds the
// reward only through merges; the reward equals the value of created tiles.
func TestTileSumConserved(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	sum := func(b board.Board) int {
		s := 0
		for i := range 16 {
			if v := b.At(i); v > 0 {
				s += 1 << v
			}
		}
		return s
	}
	for range 20000 {
		var c [16]int
		for i := range c {
			if rng.IntN(3) > 0 {
				c[i] = 1 + rng.IntN(13)
			}
		}
		b := board.FromCells(c)
		after, reward := Moves(b)
		for d := range 4 {
			if sum(after[d]) != sum(b) {
				t.Fatalf("%v dir %d: tile sum %d -> %d", b.Hex(), d, sum(b), sum(after[d]))
			}
			if after[d].Empty() < b.Empty() || (after[d].Empty()-b.Empty() > 0) != (reward[d] > 0) {
				t.Fatalf("%v dir %d: empty %d -> %d with reward %d", b.Hex(), d, b.Empty(), after[d].Empty(), reward[d])
			}
		}
		// Up on b is left on its transpose.
		ta, _ := Moves(b.Transpose())
		if ta[Left].Transpose() != after[Up] || ta[Right].Transpose() != after[Down] {
			t.Fatalf("%v: up/down disagree with transposed left/right", b.Hex())
		}
	}
}

func TestSpawnDistribution(t *testing.T) {
	rng := rand.NewPCG(7, 8)
	// Cells 0, 5, 10 and 15 occupied: 12 empty cells.
	b := board.FromCells([16]int{3, 0, 0, 0, 0, 3, 0, 0, 0, 0, 3, 0, 0, 0, 0, 3})
	const n = 240000
	var cell [16]int
	fours := 0
	for range n {
		s := Spawn(b, rng)
		diff := s ^ b
		if board.Board(diff).Empty() != 15 {
			t.Fatalf("spawn changed more than one cell: %v", s.Hex())
		}
		for i := range 16 {
			if v := board.Board(diff).At(i); v != 0 {
				if b.At(i) != 0 {
					t.Fatalf("spawn on occupied cell %d", i)
				}
				cell[i]++
				if v == 2 {
					fours++
				} else if v != 1 {
					t.Fatalf("spawned tile index %d", v)
				}
			}
		}
	}
	for i, k := range cell {
		if b.At(i) != 0 {
			continue
		}
		// expected 20000, sd about 136: 5 sd bounds
		if math.Abs(float64(k)-n/12.0) > 700 {
			t.Errorf("cell %d got %d spawns, want about %d", i, k, n/12)
		}
	}
	// expected 24000, sd about 147
	if math.Abs(float64(fours)-0.1*n) > 750 {
		t.Errorf("%d fours in %d spawns, want about %d", fours, n, n/10)
	}
}

func TestStart(t *testing.T) {
	rng := rand.NewPCG(9, 10)
	for range 1000 {
		b := Start(rng)
		if b.Empty() != 14 {
			t.Fatalf("start board %v has %d tiles", b.Hex(), 16-b.Empty())
		}
		for i := range 16 {
			if v := b.At(i); v > 2 {
				t.Fatalf("start board %v has tile index %d", b.Hex(), v)
			}
		}
	}
}

func TestBelowUnbiasedEdges(t *testing.T) {
	rng := rand.NewPCG(11, 12)
	for n := uint32(1); n <= 16; n++ {
		seen := make([]bool, n)
		for range 2000 {
			k := below(rng, n)
			if k >= n {
				t.Fatalf("below(%d) = %d", n, k)
			}
			seen[k] = true
		}
		for k, s := range seen {
			if !s {
				t.Fatalf("below(%d) never gave %d", n, k)
			}
		}
	}
}

func BenchmarkMoves(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	boards := make([]board.Board, 1024)
	for i := range boards {
		boards[i] = board.Board(rng.Uint64() & 0x7777777777777777)
	}
	var sink board.Board
	b.ResetTimer()
	for i := range b.N {
		a, _ := Moves(boards[i&1023])
		sink ^= a[0] ^ a[1] ^ a[2] ^ a[3]
	}
	_ = sink
}

func BenchmarkSpawn(b *testing.B) {
	rng := rand.NewPCG(1, 1)
	var x board.Board
	for range b.N {
		x = Spawn(x&0x0f0f0f0f0f0f0f0f, rng)
	}
	_ = x
}
