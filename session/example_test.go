package session_test

import (
	"fmt"

	"github.com/td2048/td2048/board"
	"github.com/td2048/td2048/rules/threes"
	"github.com/td2048/td2048/session"
)

// A 2048 game from its seed: each move reports the slide's reward and the
// new tile with its cell.
func Example() {
	s, err := session.New(session.Game2048, 2048)
	if err != nil {
		panic(err)
	}
	fmt.Printf("start:\n%s", s.Board())
	for _, d := range []int{1, 3, 2, 1} { // right, left, down, right
		r := s.Apply(d)
		fmt.Printf("move %d: reward %d, a %d on cell %d, score %d\n", s.Len(), r.Reward, r.Value, r.Cell, r.Score)
	}
	fmt.Print(s.Board())
	// Output:
	// start:
	//      4     .     2     .
	//      .     .     .     .
	//      .     .     .     .
	//      .     .     .     .
	// move 1: reward 0, a 2 on cell 13, score 0
	// move 2: reward 0, a 2 on cell 14, score 0
	// move 3: reward 0, a 2 on cell 3, score 0
	// move 4: reward 4, a 2 on cell 5, score 4
	//      .     .     .     2
	//      .     2     .     .
	//      .     .     .     4
	//      .     .     2     4
}

// A Threes! move puts the next tile on the edge opposite the slide and
// shows the tile after it; the score is the board's value.
func ExampleSession_Apply() {
	s, _ := session.New(session.GameThrees, 3)
	fmt.Printf("start:\n%s", s.Board().Format(threes.Code))
	fmt.Println("next", s.Next(), "bag", s.Bag(), "score", s.Score())
	r := s.Apply(threes.Up)
	fmt.Printf("up: reward %d, a %d on cell %d, next %d, score %d\n", r.Reward, r.Value, r.Cell, r.Next, r.Score)
	fmt.Print(r.Board.Format(threes.Code))
	// Output:
	// start:
	//      2     .     .     3
	//      3     3     1     .
	//      1     .     .     2
	//      .     1     2     .
	// next 3 bag {1,2} score 9
	// up: reward 0, a 3 on cell 15, next 2, score 12
	//      2     3     1     3
	//      3     .     .     2
	//      1     1     2     .
	//      .     .     .     3
}

// A server that keeps no state resumes the game at every request from what
// the page sends: seed, move number and position. The move is the same as
// in a game played through.
func ExampleResume() {
	played, _ := session.Replay(session.Game2048, 2048, []int{1, 3, 2})
	b, _ := board.Parse(played.Board().Hex())
	s, err := session.Resume(session.Game2048, 2048, 3, session.Position{Board: b, Score: played.Score()})
	if err != nil {
		panic(err)
	}
	fmt.Println(s.Apply(1).Board == played.Apply(1).Board)
	// Output:
	// true
}

// Replay plays a recorded game again from its seed and its moves.
func ExampleReplay() {
	s, _ := session.New(session.GameThrees, 7)
	for !s.Over() {
		for d, ok := range s.Moves() {
			if ok {
				s.Apply(d)
				break
			}
		}
	}
	again, err := session.Replay(session.GameThrees, 7, s.History())
	fmt.Println(err, again.Len() == s.Len(), again.Position() == s.Position(), again.Over())
	// Output:
	// <nil> true true true
}
