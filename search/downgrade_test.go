package search

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/td2048/td2048/board"
	"github.com/td2048/td2048/rules/game2048"
)

// The values a Shifter decides with are the values of the downgraded
// board, at every depth: a downgraded decision is the policy's own on
// w.Downgrade(n) (or more, to fit four bits), and the move it plays on
// the real board is the same direction with the real reward.
func TestDowngradedValuesAreTheDowngradedBoards(t *testing.T) {
	net := tinyNet(21)
	// 65536 32768 16384 4096 | 2 ...: the view by 1 lowers the top three.
	w := board.WideFromCells([16]int{16, 15, 14, 12, 1, 0, 0, 0, 3, 0, 0, 1, 0, 0, 2, 0})
	for n := range 3 {
		for depth := 1; depth <= 2; depth++ {
			var got board.Board
			s := &Shifter{opt: Downgrade{Tile: 32768, Stint: 0}, n: n}
			searcher := NewSearcher(net, Options{Depth: depth}, nil)
			policy := func(b board.Board) Choice { got = b; return searcher.Best(b) }
			st := s.Step(w, policy)
			x := w.Downgrade(max(n, 1)).Low
			if got != x || st.View != x {
				t.Fatalf("n %d: decided on %s, want %s", n, got.Hex(), x.Hex())
			}
			mv := NewSearcher(net, Options{Depth: depth}, nil).Values(x, depth)
			want := BestOf(&mv)
			if st.Choice != want {
				t.Fatalf("n %d depth %d: %+v, want %+v", n, depth, st.Choice, want)
			}
			a, r := game2048.MovesWide(w)
			if st.After != a[want.Dir] || st.Reward != r[want.Dir] {
				t.Fatalf("n %d: real move %s %d, want %s %d", n, st.After.Hex(), st.Reward, a[want.Dir].Hex(), r[want.Dir])
			}
		}
	}
}

// validate on hand-made choices (TDL2048+'s move::validate).
func TestValidate(t *testing.T) {
	type move struct {
		view board.Board
		c    Choice
	}
	mk := func(cells [16]int, d int) move {
		b := board.FromCells(cells)
		a, r := game2048.Moves(b)
		return move{b, Choice{Dir: d, After: a[d], Reward: r[d]}}
	}
	for _, c := range []struct {
		c    move
		t    uint32
		want bool
	}{
		{move{0, NoMove}, 32768, false},
		// Makes 32768: reward 32768 not below 32768, after holds 32768.
		{mk([16]int{14, 14, 1}, game2048.Left), 32768, false},
		// Makes 16384 only: fine.
		{mk([16]int{13, 13, 1}, game2048.Left), 32768, true},
		// No merge, but a 32768 stands on the board: reward 0 is below.
		{mk([16]int{0, 15, 1}, game2048.Left), 32768, true},
		// Threshold 16384, reward 32768, the after-state holds 32768.
		{mk([16]int{14, 14, 1}, game2048.Left), 16384, false},
		// t = 65536: reward 65536 fails the reward test; then the move
		// passes when the same slide would no longer change its
		// after-state, and fails when it would. The after-state is
		// TDL2048+'s, where the 65536 left its cell empty: 32768 32768 2
		// left is . 2 . ., which slides again (TDL2048+ triggers).
		{mk([16]int{15, 15, 1}, game2048.Left), 65536, false},
		{mk([16]int{15, 15, 1, 0, 1, 1, 2}, game2048.Left), 65536, false},
		// The board 0x00000000123456ff: 32768 32768 64 32 / 16 8
		// 4 2: left makes . 64 32 . in TDL2048+'s board, which slides
		// left again.
		{mk([16]int{15, 15, 6, 5, 4, 3, 2, 1}, game2048.Left), 65536, false},
		// 32768 32768 . . over 2 4 8 16: the row left empty, nothing
		// slides left again.
		{mk([16]int{15, 15, 0, 0, 1, 2, 3, 4}, game2048.Left), 65536, true},
		// t = 32768: the two 32768s merged away leave no 32768 in
		// TDL2048+'s after-state, so the move passes.
		{mk([16]int{15, 15, 1}, game2048.Left), 32768, true},
		{mk([16]int{15, 15, 1, 0, 15}, game2048.Left), 32768, false},
	} {
		t.Run(fmt.Sprintf("%s dir %v at %d", c.c.view.Hex(), c.c.c.Dir, c.t), func(t *testing.T) {
			if got := validate(c.c.view, c.c.c, c.t); got != c.want {
				t.Errorf("%s %+v t %d: %v, want %v", c.c.view.Hex(), c.c.c, c.t, got, c.want)
			}
		})
	}
}

// After follows a game's downgrades as Shifter does, move by move.
func TestDowngradeAfter(t *testing.T) {
	net := tinyNet(6)
	rng := rand.New(rand.NewPCG(9, 10))
	for _, d := range []Downgrade{{Tile: 64, Stint: 1}, {Tile: 128, Stint: 0}, {Tile: 32, Stint: 2}, {}} {
		s := NewShifter(d)
		n := 0
		w := board.Wide{Low: game2048.Start(rng)}
		for range 3000 {
			view, _ := w.View(s.N())
			st := s.Step(w, func(b board.Board) Choice { return Greedy(net, b) })
			if !st.Choice.Legal() {
				break
			}
			if n = d.After(n, view, st.Choice.Dir); n != s.N() {
				t.Fatalf("%+v: After says %d downgrades, the Shifter %d", d, n, s.N())
			}
			w = game2048.SpawnWide(st.After, rng)
		}
	}
}

// The trigger: TDL2048+'s loop counts one downgrade from the first move
// that fails the test (which is still played), a second from the next
// failure, and with stint 1 the threshold then becomes 65536.
func TestShifterTrigger(t *testing.T) {
	s := NewShifter(Downgrade{Tile: 32768, Stint: 1})
	left := func(b board.Board) Choice {
		a, r := game2048.Moves(b)
		return Choice{Dir: game2048.Left, After: a[game2048.Left], Reward: r[game2048.Left]}
	}
	// 16384+16384 -> 32768: fails, n = 1.
	w := board.WideFromCells([16]int{14, 14, 0, 0, 1})
	st := s.Step(w, left)
	if st.Reward != 32768 || st.After.At(0) != 15 || s.N() != 1 || s.opt.threshold(s.N()) != 32768 {
		t.Fatalf("first trigger: %+v n %d", st, s.N())
	}
	// Now decisions see 32768 as 16384 (one gap: 4 .. 16384).
	w = board.WideFromCells([16]int{15, 0, 0, 0, 1, 1})
	st = s.Step(w, left)
	if st.View != board.FromCells([16]int{14, 0, 0, 0, 1, 1}) || st.Reward != 4 || s.N() != 1 {
		t.Fatalf("downgraded step: %s %+v n %d", st.View.Hex(), st, s.N())
	}
	// The view makes 16384+16384 (really 32768+32768): fails, n = 2 > stint.
	w = board.WideFromCells([16]int{15, 15, 0, 0, 1})
	st = s.Step(w, left)
	if st.Reward != 65536 || st.After.At(0) != 16 || s.N() != 2 || s.opt.threshold(s.N()) != 65536 {
		t.Fatalf("second trigger: %+v %s n %d", st, st.After.Hex(), s.N())
	}
	s.Reset()
	if s.N() != 0 || s.opt.threshold(s.N()) != 32768 {
		t.Fatal("Reset")
	}
}

// Without downgrading, a game on the 4-bit board is decided on its own
// board and played as the choice says: Step is the plain game loop.
func TestShifterOffIsPlainPlay(t *testing.T) {
	net := tinyNet(5)
	rng := rand.New(rand.NewPCG(7, 8))
	s := NewShifter(Downgrade{})
	for range 200 {
		b := randomBoard(rng, 8)
		st := s.Step(board.Wide{Low: b}, func(b board.Board) Choice { return Greedy(net, b) })
		c := Greedy(net, b)
		if st.Choice != c || st.View != b || (c.Legal() && (st.After != board.Wide{Low: c.After} || st.Reward != c.Points())) || s.N() != 0 {
			t.Fatalf("%s: %+v, want %+v", b.Hex(), st, c)
		}
	}
}

func TestDowngradeCheck(t *testing.T) {
	for _, d := range []Downgrade{{}, {Tile: 4}, {Tile: 32768, Stint: 1}, {Tile: 65536}} {
		if err := d.Check(); err != nil {
			t.Errorf("%+v: %v", d, err)
		}
	}
	for _, d := range []Downgrade{{Tile: 2}, {Tile: 3000}, {Tile: 131072}, {Tile: -1}, {Tile: 32768, Stint: -1}} {
		if err := d.Check(); err == nil {
			t.Errorf("%+v accepted", d)
		}
	}
}
