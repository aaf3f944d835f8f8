package threes_test

import (
	"fmt"

	"github.com/td2048/td2048/rules/threes"
)

// A left slide moves each tile at most one cell: the first place where
// something moves decides the row, and a row merges at most once.
func ExampleSlideRow() {
	for _, row := range [][4]int{{1, 2, 1, 2}, {3, 3, 3, 3}, {0, 4, 0, 4}, {1, 1, 2, 2}} {
		out, reward := threes.SlideRow(row)
		var face [4]int
		for i, t := range out {
			face[i] = threes.Value(t)
		}
		fmt.Println(face, reward)
	}
	// Output:
	// [3 1 2 0] 3
	// [6 3 3 0] 3
	// [6 0 6 0] 0
	// [1 3 2 0] 3
}

// A record is one line of the course's statistics file.
func ExampleParseRecord() {
	r, err := threes.ParseRecord("slider:placer@1700000000000|C23A31[3]|placer@1700000000001")
	if err != nil {
		panic(err)
	}
	for _, s := range r.Steps {
		a := s.Action
		fmt.Printf("%v: tile %d on cell %d, next hint %d, reward %d\n", a, threes.Value(a.Tile()), a.Pos(), a.Hint(), s.Reward)
	}
	// Output:
	// C23: tile 2 on cell 12, next hint 3, reward 0
	// A31: tile 3 on cell 10, next hint 1, reward 3
}
