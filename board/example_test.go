package board_test

import (
	"fmt"

	"github.com/td2048/td2048/board"
)

// A board is written as 16 tiles row by row from the top left, or as its
// 64-bit packing (cell 15 first), and printed as a grid.
func Example() {
	b, err := board.Parse("2,2,0,4, 0,8,0,0, 0,0,0,0, 0,0,0,2")
	if err != nil {
		panic(err)
	}
	fmt.Println(b.Hex())
	fmt.Print(b)
	fmt.Println("empty cells:", b.Empty(), "largest tile:", 1<<b.MaxTile())
	// Output:
	// 0x1000000000302011
	//      2     2     .     4
	//      .     8     .     .
	//      .     .     .     .
	//      .     .     .     2
	// empty cells: 11 largest tile: 8
}

// The eight symmetric images of a board (rotations and reflections) are
// what an n-tuple network reads each pattern on; Canonical picks one
// representative, so that symmetric boards share a transposition entry.
func ExampleBoard_Images() {
	b := board.FromCells([16]int{1, 2})
	for _, im := range b.Images() {
		fmt.Println(im.Hex(), im.Canonical() == b.Canonical())
	}
	// Output:
	// 0x0000000000000021 true
	// 0x0000000000001200 true
	// 0x0021000000000000 true
	// 0x1200000000000000 true
	// 0x0000000000020001 true
	// 0x0000000020001000 true
	// 0x0001000200000000 true
	// 0x1000200000000000 true
}
