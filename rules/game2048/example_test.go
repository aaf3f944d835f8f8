package game2048_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/td2048/td2048/board"
	"github.com/td2048/td2048/rules/game2048"
)

// Moves gives every direction's after-state and reward at once; a
// direction whose after-state equals the board is illegal.
func ExampleMoves() {
	b, _ := board.Parse("2,2,2,2, 4,4,8,0, 0,0,0,0, 0,0,0,0")
	after, reward := game2048.Moves(b)
	for d := range 4 {
		if after[d] == b {
			fmt.Println(game2048.DirNames[d], "illegal")
			continue
		}
		fmt.Printf("%s: reward %d\n%s", game2048.DirNames[d], game2048.Reward(reward[d]), after[d])
	}
	// Output:
	// up illegal
	// right: reward 16
	//      .     .     4     4
	//      .     .     8     8
	//      .     .     .     .
	//      .     .     .     .
	// down: reward 0
	//      .     .     .     .
	//      .     .     .     .
	//      2     2     2     .
	//      4     4     8     2
	// left: reward 16
	//      4     4     .     .
	//      8     8     .     .
	//      .     .     .     .
	//      .     .     .     .
}

// A game: start with two random tiles, slide, and a tile appears.
func ExampleSpawn() {
	rng := rand.New(rand.NewPCG(1, 2))
	b := game2048.Start(rng)
	fmt.Println(16-b.Empty(), "tiles")
	after, reward, legal := game2048.Move(b, game2048.Left)
	if legal {
		b = game2048.Spawn(after, rng)
		fmt.Println("reward", reward, "then", 16-b.Empty(), "tiles")
	}
	// Output:
	// 2 tiles
	// reward 0 then 3 tiles
}
