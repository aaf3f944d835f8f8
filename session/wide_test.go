package session

import (
	"testing"

	"github.com/td2048/td2048/board"
	"github.com/td2048/td2048/rules/game2048"
)

// A 2048 session goes on past 32768: the slide that merges two 32768s
// scores 65536, keeps the 65536 in the extra plane, places its new tile
// as game2048.SpawnWide does from the move's stream, and the game goes on to
// 131072; the faces' tiles, the largest tile, the hex form and the view
// follow.
func TestSessionGoesPast32768(t *testing.T) {
	b := board.FromCells([16]int{15, 15, 0, 0, 1, 0, 0, 0, 0, 3})
	s, err := Resume(Game2048, 5, 100, Position{Board: b, Score: 1000})
	if err != nil {
		t.Fatal(err)
	}
	res := s.Apply(game2048.Left)
	wantAfter := board.WideFromCells([16]int{16, 0, 0, 0, 1, 0, 0, 0, 3})
	want := game2048.SpawnWide(wantAfter, Stream(5, 101))
	if !res.Legal || res.Over || !res.Overflow || res.Reward != 65536 || res.After != wantAfter.Low || res.AfterExt != 1 ||
		res.Board != want.Low || s.Position().Ext != want.Ext || s.Score() != 1000+65536 || res.Cell < 0 {
		t.Fatalf("the 65536 merge: %+v, want board %s", res, want.Hex())
	}
	if s.Tiles()[0] != 65536 || s.Cell(0) != 16 || s.MaxTile() != 16 || s.Over() {
		t.Fatalf("tiles %v max %d", s.Tiles(), s.MaxTile())
	}
	// The view reads 65536 as 32768 (the gap it fills) and moves alike.
	if v := s.Position().View(); v.At(0) != 15 {
		t.Fatalf("view %s", v.Hex())
	}
	// The hex form resumes the same game.
	w, err := board.ParseWide(s.Hex())
	if err != nil || w != want {
		t.Fatalf("hex %s: %s %v", s.Hex(), w.Hex(), err)
	}
	// Two 65536s make 131072; the game goes on.
	two := board.WideFromCells([16]int{16, 16, 0, 0, 2})
	s, err = Resume(Game2048, 6, 7, Position{Board: two.Low, Ext: two.Ext})
	if err != nil {
		t.Fatal(err)
	}
	if s.Tiles()[0] != 65536 || s.Tiles()[1] != 65536 {
		t.Fatalf("tiles %v", s.Tiles())
	}
	res = s.Apply(game2048.Right)
	if !res.Legal || res.Overflow || res.Reward != 131072 || s.Tiles()[3] != 131072 || s.MaxTile() != 17 {
		t.Fatalf("131072: %+v tiles %v", res, s.Tiles())
	}
	if m := s.Moves(); !m[game2048.Left] {
		t.Fatalf("moves %v on %s", m, s.Hex())
	}
	// Threes! has no extra plane.
	if _, err := Resume(GameThrees, 1, 0, Position{Board: 0x1, Next: 1, Bag: 7, Ext: 1}); err == nil {
		t.Error("a Threes! position with an extra plane resumed")
	}
}
