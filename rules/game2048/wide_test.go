package game2048

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/td2048/td2048/board"
)

// wideRow is row value x (16 bits of nibbles, then 4 extra bits) as
// exponents, first cell first.
func wideRow(x int) [4]int {
	var c [4]int
	for i := range c {
		c[i] = x>>(4*i)&0xf | x>>(16+i)&1<<4
	}
	return c
}

// TestMovesWideAllRows: every one of the 2^20 wide rows, as row 1 slid
// left and right and as column 2 slid up and down, against slideRowWide.
func TestMovesWideAllRows(t *testing.T) {
	for x := range 1 << 20 {
		c := wideRow(x)
		l, rewL := slideRowWide(c)
		rr, rewR := slideRowWide([4]int{c[3], c[2], c[1], c[0]})
		r := [4]int{rr[3], rr[2], rr[1], rr[0]}
		var row, col, wantL, wantR, wantU, wantD [16]int
		for i := range 4 {
			row[4+i], wantL[4+i], wantR[4+i] = c[i], l[i], r[i]
			col[4*i+2], wantU[4*i+2], wantD[4*i+2] = c[i], l[i], r[i]
		}
		a, rew := MovesWide(board.WideFromCells(row))
		if a[Left].Cells() != wantL || a[Right].Cells() != wantR || rew[Left] != rewL || rew[Right] != rewR {
			t.Fatalf("row %v: left %v %d right %v %d, want %v %d, %v %d", c, a[Left].Cells(), rew[Left], a[Right].Cells(), rew[Right], wantL, rewL, wantR, rewR)
		}
		a, rew = MovesWide(board.WideFromCells(col))
		if a[Up].Cells() != wantU || a[Down].Cells() != wantD || rew[Up] != rewL || rew[Down] != rewR {
			t.Fatalf("column %v: up %v %d down %v %d", c, a[Up].Cells(), rew[Up], a[Down].Cells(), rew[Down])
		}
	}
}

// TestMovesWideAgreesWithMoves: on 4-bit boards that make no 65536 the
// wide slides are Moves'; random boards mix tables and cell-by-cell rows.
func TestMovesWideAgreesWithMoves(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 100000 {
		b := board.Board(rng.Uint64())
		a, r := Moves(b)
		aw, rw := MovesWide(board.Wide{Low: b})
		for d := range 4 {
			if Overflow(r[d]) {
				if Reward(r[d]) != rw[d] || aw[d].Ext == 0 {
					t.Fatalf("%s dir %d: overflow reward %d, wide %d %s", b.Hex(), d, Reward(r[d]), rw[d], aw[d].Hex())
				}
				continue
			}
			if aw[d] != (board.Wide{Low: a[d]}) || rw[d] != Reward(r[d]) {
				t.Fatalf("%s dir %d: %s %d, want %s %d", b.Hex(), d, aw[d].Hex(), rw[d], a[d].Hex(), Reward(r[d]))
			}
		}
	}
}

// TestSlideRowWideVectors: TDL2048+'s 80-bit rows (docs/methods.md §6).
func TestSlideRowWideVectors(t *testing.T) {
	for _, c := range []struct {
		in, out [4]int
		reward  int
	}{
		{[4]int{15, 15, 1, 0}, [4]int{16, 1, 0, 0}, 65536},
		{[4]int{16, 16, 0, 0}, [4]int{17, 0, 0, 0}, 131072},
		{[4]int{16, 15, 15, 0}, [4]int{16, 16, 0, 0}, 65536},
		{[4]int{31, 31, 0, 0}, [4]int{31, 31, 0, 0}, 0},
		{[4]int{17, 0, 17, 17}, [4]int{18, 17, 0, 0}, 262144},
	} {
		t.Run(fmt.Sprint(c.in), func(t *testing.T) {
			if out, r := slideRowWide(c.in); out != c.out || r != c.reward {
				t.Errorf("%v: %v %d, want %v %d", c.in, out, r, c.out, c.reward)
			}
		})
	}
}

// TestSpawnWide: with no extra plane SpawnWide is Spawn, draw for draw;
// with one it never covers a tile past 32768 whose low nibble is 0.
func TestSpawnWide(t *testing.T) {
	r1, r2 := rand.New(rand.NewPCG(3, 4)), rand.New(rand.NewPCG(3, 4))
	for range 10000 {
		x := r1.Uint64()
		r2.Uint64()
		b := board.Board(x & 0x1111111111111111 * 3) // some empty cells
		if b.Empty() == 0 {
			continue
		}
		if got, want := SpawnWide(board.Wide{Low: b}, r1), Spawn(b, r2); got != (board.Wide{Low: want}) {
			t.Fatalf("%s: %s, want %s", b.Hex(), got.Hex(), want.Hex())
		}
	}
	w := board.WideFromCells([16]int{16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16})
	rng := rand.New(rand.NewPCG(5, 6))
	for range 100 {
		s := SpawnWide(w, rng)
		if v := s.At(15); (v != 1 && v != 2) || s.Low&^(0xf<<60) != 0 || s.Ext != w.Ext {
			t.Fatalf("spawn on %s: %s", w.Hex(), s.Hex())
		}
	}
}

// Random wide games from boards of large tiles: a slide keeps the sum of
// the tile values, scores something exactly when a merge removed a tile,
// and the game ends where OverWide says, on a full board.
func TestWideGamesKeepTheTileSum(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	sum := func(w board.Wide) int {
		s := 0
		for _, v := range w.Tiles() {
			s += v
		}
		return s
	}
	count := func(w board.Wide) int { return 16 - w.Empty() }
	for g := range 50 {
		w := board.WideFromCells([16]int{16 + g%3, 16 + g%3, 15, 15, 14, 0, 3, 0, 0, 1})
		for moves := 0; !OverWide(w); moves++ {
			a, r := MovesWide(w)
			var legal []int
			for d := range 4 {
				if a[d] != w {
					legal = append(legal, d)
				}
			}
			d := legal[rng.IntN(len(legal))]
			if sum(a[d]) != sum(w) || (r[d] == 0) != (count(a[d]) == count(w)) || r[d] < 0 {
				t.Fatalf("game %d move %d: %s dir %d -> %s reward %d", g, moves, w.Hex(), d, a[d].Hex(), r[d])
			}
			w = SpawnWide(a[d], rng)
		}
		if w.Empty() != 0 {
			t.Fatalf("game %d over on %s with empty cells", g, w.Hex())
		}
	}
}

// TestAfterWide: a slide that merges two 32768s makes 65536 on the wide
// board (exponent 16) where Moves, on the 4-bit board, cannot; any other
// slide is Moves' after-state.
func TestAfterWide(t *testing.T) {
	var b board.Board
	b = b.Set(0, 15).Set(1, 15).Set(4, 3)
	for d, want := range map[int]int{Left: 16, Right: 16} {
		if got := AfterWide(b, d).MaxTile(); got != want {
			t.Errorf("direction %d: largest tile 2^%d, want 2^%d", d, got, want)
		}
	}
	after, _ := Moves(b)
	for _, d := range []int{Up, Down} {
		if w := AfterWide(b, d); w.Ext != 0 || w.Low != after[d] {
			t.Errorf("direction %d: %v, want %v", d, w, after[d])
		}
	}
}
