package session

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/td2048/td2048/board"
	"github.com/td2048/td2048/rules/game2048"
	"github.com/td2048/td2048/rules/threes"
)

// step is one recorded move: its direction, then the board, the new
// tile's cell and index, the next tile and the score after it.
type step struct {
	dir        int
	board      uint64
	cell, tile int
	next       int
	score      int
}

// recorded are the first twelve moves of two games as the web server and
// the terminal view played them before this package existed (2048 with
// seed 2048, Threes! with seed 3), each move the first legal direction
// from 3n mod 4 on.
var recorded = []struct {
	game  string
	seed  uint64
	start uint64
	next  int
	bag   threes.Bag
	steps []step
}{
	{Game2048, 2048, 0x0000000000000102, 0, 0, []step{
		{1, 0x0010000000001200, 13, 1, 0, 0},
		{3, 0x0101000000000012, 14, 1, 0, 0},
		{2, 0x0111000200001000, 3, 1, 0, 0},
		{1, 0x2100200000101000, 5, 1, 0, 4},
		{0, 0x0000000030101110, 5, 1, 0, 12},
		{3, 0x0000100000310012, 11, 1, 0, 16},
		{2, 0x1031101200000000, 11, 1, 0, 16},
		{1, 0x1311220000000000, 12, 1, 0, 20},
		{0, 0x0100000013002211, 14, 1, 0, 20},
		{3, 0x0001000100130032, 8, 1, 0, 32},
		{2, 0x0112003300020000, 14, 1, 0, 36},
		{1, 0x2200401020000000, 9, 1, 0, 56},
	}},
	{GameThrees, 3, 0x0210200101333002, 3, 3, []step{
		{0, 0x3000021120033132, 15, 3, 2, 12},
		{3, 0x0300203102033132, 11, 2, 1, 15},
		{2, 0x2331020331320001, 0, 1, 3, 15},
		{1, 0x2410203031320013, 0, 3, 1, 21},
		{0, 0x0001241020423113, 12, 1, 2, 24},
		{3, 0x0001024122423113, 7, 2, 1, 24},
		{2, 0x0241224331131000, 3, 1, 3, 27},
		{1, 0x2410224331131003, 0, 3, 2, 30},
		{0, 0x2200241032431114, 14, 2, 2, 33},
		{3, 0x2220024132431114, 15, 2, 3, 33},
		{2, 0x2221325313140030, 1, 3, 1, 48},
		{1, 0x2230325313140301, 0, 1, 1, 51},
	}},
}

// TestRecordedGames: a session plays recorded games move for move, and
// Replay arrives where they did.
// games lists the games a session plays.
var games = []string{Game2048, GameThrees}

func TestRecordedGames(t *testing.T) {
	for _, r := range recorded {
		t.Run(fmt.Sprint(r.game, " seed ", r.seed), func(t *testing.T) {
			s, err := New(r.game, r.seed)
			if err != nil {
				t.Fatal(err)
			}
			if s.Board() != board.Board(r.start) || s.Next() != r.next || s.Bag() != r.bag || s.Len() != 0 || s.Over() || s.Game() != r.game || s.Seed() != r.seed {
				t.Fatalf("%s start: %s next %d bag %v", r.game, s.Board().Hex(), s.Next(), s.Bag())
			}
			var dirs []int
			for i, st := range r.steps {
				before := s.Board()
				res := s.Apply(st.dir)
				if !res.Legal || res.Board != board.Board(st.board) || res.Cell != st.cell || res.tile != st.tile ||
					res.Next != st.next || res.Score != st.score || res.Over {
					t.Fatalf("%s move %d: %+v, want %+v", r.game, i+1, res, st)
				}
				if res.Value != s.Code().Value(st.tile) || res.After.At(res.Cell) != 0 || res.After == before {
					t.Fatalf("%s move %d: value %d, after %s", r.game, i+1, res.Value, res.After.Hex())
				}
				if s.Board() != res.Board || s.Next() != res.Next || s.Score() != res.Score || s.Len() != i+1 {
					t.Fatalf("%s move %d: session %s next %d score %d len %d", r.game, i+1, s.Board().Hex(), s.Next(), s.Score(), s.Len())
				}
				dirs = append(dirs, st.dir)
			}
			if h := s.History(); len(h) != len(dirs) || h[0] != dirs[0] || h[len(h)-1] != dirs[len(dirs)-1] {
				t.Errorf("%s history %v, want %v", r.game, h, dirs)
			}
			rs, err := Replay(r.game, r.seed, s.History())
			if err != nil || rs.Position() != s.Position() || rs.Len() != s.Len() {
				t.Errorf("%s replay: %v, %+v, want %+v", r.game, err, rs.Position(), s.Position())
			}
		})
	}
}

// TestIllegalSlides: a slide that moves nothing changes nothing, not even
// the move number, and is not in the history; Moves says which are legal.
func TestIllegalSlides(t *testing.T) {
	b2048, _ := board.Parse("2,4,2,4, 4,2,4,2, 0,0,0,0, 0,0,0,0")
	b3, _ := threes.Parse("3,6,3,6, 6,3,6,3, 0,0,0,0, 0,0,0,0")
	for _, c := range []struct {
		game string
		p    Position
	}{{Game2048, Position{Board: b2048, Score: 40}}, {GameThrees, Position{Board: b3, Next: 1, Bag: 6}}} {
		t.Run(c.game, func(t *testing.T) {
			s, err := Resume(c.game, 9, 17, c.p)
			if err != nil {
				t.Fatal(err)
			}
			if want := [4]bool{false, false, true, false}; s.Moves() != want {
				t.Errorf("%s moves %v, want %v", c.game, s.Moves(), want)
			}
			before := s.Position()
			for _, d := range []int{0, 1, 3} {
				res := s.Apply(d)
				if res.Legal || res.Board != before.Board || res.After != before.Board || res.Cell != -1 || res.tile != 0 ||
					res.Reward != 0 || res.Next != before.Next || res.Score != before.Score || res.Over {
					t.Errorf("%s illegal %d: %+v", c.game, d, res)
				}
			}
			if s.Position() != before || s.Len() != 17 || len(s.History()) != 0 {
				t.Errorf("%s after illegal slides: %+v len %d", c.game, s.Position(), s.Len())
			}
			if res := s.Apply(2); !res.Legal || s.Len() != 18 || len(s.History()) != 1 || res.Cell < 0 {
				t.Errorf("%s down: %+v", c.game, res)
			}
		})
	}
}

// TestWholeGames plays games to their end: the score is the sum of what
// the moves added, Moves agrees with what Apply finds legal, and nothing
// moves once the game is over.
func TestWholeGames(t *testing.T) {
	for _, g := range games {
		for seed := range uint64(20) {
			s, _ := New(g, seed)
			score := s.Score()
			for i := 0; !s.Over(); i++ {
				legal := s.Moves()
				for d := range 4 {
					// Try each direction on a copy of the game.
					c, err := Resume(g, seed, s.Len(), s.Position())
					if err != nil {
						t.Fatal(err)
					}
					if c.Apply(d).Legal != legal[d] {
						t.Fatalf("%s seed %d: Moves %v, %d legal %v", g, seed, legal, d, !legal[d])
					}
				}
				d := (i*7 + int(seed)) % 4
				for !legal[d] {
					d = (d + 1) % 4
				}
				res := s.Apply(d)
				score += res.Reward
				if g == GameThrees {
					score += threes.Score(res.tile) // placing a 3 adds its value
				}
				if res.Score != score || s.Score() != score {
					t.Fatalf("%s seed %d move %d: score %d, moves add up to %d", g, seed, s.Len(), res.Score, score)
				}
			}
			if s.Moves() != [4]bool{} || s.Len() < 10 {
				t.Errorf("%s seed %d over after %d moves, moves %v", g, seed, s.Len(), s.Moves())
			}
			end := s.Position()
			rs, err := Replay(g, seed, append(s.History(), 0))
			if want := fmt.Sprintf("move %d: the game ended after move %d", s.Len()+1, s.Len()); err == nil || !strings.Contains(err.Error(), want) || rs.Position() != end {
				t.Errorf("%s seed %d: replay past the end: %v, want %q", g, seed, err, want)
			}
			for d := range 4 {
				if res := s.Apply(d); res.Legal || !res.Over || s.Position() != end {
					t.Errorf("%s seed %d: a move after the end: %+v", g, seed, res)
				}
			}
		}
	}
}

// TestTiles: face values of both games' boards.
func TestTiles(t *testing.T) {
	b, _ := board.Parse("2,4,8,16, 32,64,128,256, 512,1024,2048,4096, 8192,16384,32768,0")
	s, _ := Resume(Game2048, 0, 0, Position{Board: b})
	if s.Tiles() != [16]int{2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 0} {
		t.Errorf("2048 tiles %v", s.Tiles())
	}
	b, _ = threes.Parse("1,2,3,6,12,24,48,96,192,384,768,1536,3072,6144,0,0")
	s, _ = Resume(GameThrees, 0, 0, Position{Board: b, Next: 1, Bag: threes.FullBag})
	if s.Tiles() != [16]int{1, 2, 3, 6, 12, 24, 48, 96, 192, 384, 768, 1536, 3072, 6144, 0, 0} || s.Score() != threes.BoardScore(b) {
		t.Errorf("Threes! tiles %v score %d", s.Tiles(), s.Score())
	}
}

// TestRefused: unknown games, positions a game cannot be in, and replays
// with an illegal or late move.
func TestRefused(t *testing.T) {
	if _, err := New("chess", 1); err == nil || !strings.Contains(err.Error(), `"chess"`) {
		t.Errorf("New chess: %v", err)
	}
	good3, _ := threes.Parse("1,2,3,0, 0,0,0,0, 0,0,0,0, 0,0,0,0")
	for _, c := range []struct {
		game string
		n    int
		p    Position
		want string
	}{
		{"", 0, Position{}, "game"},
		{Game2048, -1, Position{}, "negative"},
		{Game2048, 0, Position{Next: 2}, "no next tile"},
		{Game2048, 0, Position{Bag: 3}, "no bag"},
		{Game2048, 0, Position{Score: -4}, "negative"},
		{GameThrees, 0, Position{Board: good3, Next: 0, Bag: 7}, "next tile 0"},
		{GameThrees, 0, Position{Board: good3, Next: 4, Bag: 7}, "next tile 4"},
		{GameThrees, 0, Position{Board: good3, Next: 1, Bag: 0}, "bag"},
		{GameThrees, 0, Position{Board: good3, Next: 1, Bag: 8}, "bag"},
		{GameThrees, 0, Position{Board: good3, Next: 2, Bag: 3}, "still in the bag"},
		{GameThrees, 0, Position{Board: good3.Set(5, 15), Next: 1, Bag: 7}, "cell 5"},
		{GameThrees, 0, Position{Board: good3, Next: 1, Bag: 7, Score: 4}, "board's value, 3"},
		{Game2048, 0, Position{}, "an empty board is not a position of 2048"},
		{GameThrees, 0, Position{Next: 1, Bag: 7}, "an empty board is not a position of Threes!"},
	} {
		t.Run(c.want, func(t *testing.T) {
			if _, err := Resume(c.game, 1, c.n, c.p); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Resume(%q, %d, %+v): %v, want %q", c.game, c.n, c.p, err, c.want)
			}
		})
	}
	// The recorded 2048 game, cut where some slide moves nothing, then
	// that slide.
	r := recorded[0]
	var dirs []int
	s, _ := New(r.game, r.seed)
	bad := -1
	for _, st := range r.steps {
		m := s.Moves()
		if bad = slices.Index(m[:], false); bad >= 0 {
			break
		}
		dirs = append(dirs, st.dir)
		s.Apply(st.dir)
	}
	if bad < 0 {
		t.Fatal("every slide of the recorded game is legal")
	}
	want := fmt.Sprintf("move %d: %s changes nothing", len(dirs)+1, DirNames[bad])
	if s, err := Replay(r.game, r.seed, append(dirs, bad)); err == nil || !strings.Contains(err.Error(), want) || s.Len() != len(dirs) {
		t.Errorf("replay with an illegal move: %v, want %q", err, want)
	}
	if _, err := Replay(r.game, r.seed, []int{4}); err == nil || !strings.Contains(err.Error(), "no direction 4") {
		t.Errorf("replay with direction 4: %v", err)
	}
	full, _ := board.Parse("2,4,2,4, 4,2,4,2, 2,4,2,4, 4,2,4,2")
	s, _ = Resume(Game2048, 0, 3, Position{Board: full})
	if !s.Over() {
		t.Error("a full board without merges is not over")
	}
	defer func() {
		if recover() == nil {
			t.Error("Apply(4) did not panic")
		}
	}()
	s.Apply(4)
}

// TestDirNames: the directions are those of the rules packages.
func TestDirNames(t *testing.T) {
	if DirNames != game2048.DirNames || DirNames != threes.DirNames {
		t.Errorf("%v, game %v, threes %v", DirNames, game2048.DirNames, threes.DirNames)
	}
}
