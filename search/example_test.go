package search_test

import (
	"fmt"
	"time"

	"github.com/td2048/td2048/board"
	"github.com/td2048/td2048/ntuple"
	"github.com/td2048/td2048/rules/threes"
	"github.com/td2048/td2048/search"
)

// A tiny network (it values an after-state at 10 when its top-left cell is
// empty, a stand-in for trained weights), searched greedily and at three
// plies: expectimax over the 2s and 4s that may appear.
func Example() {
	net := ntuple.MustNew("0/noiso") // one weight per tile at cell 0
	defer net.Free()
	net.Weights()[0] = 10 // an empty top-left corner is worth 10
	b, _ := board.Parse("2,2,0,4, 0,8,0,0, 0,0,0,0, 0,0,0,2")
	fmt.Println("greedy:", game2048Dir(search.Greedy(net, b)))
	s := search.NewSearcher(net, search.Options{Depth: 3}, search.NewTable(1<<20))
	mv := s.Values(b, 3)
	c := search.BestOf(&mv)
	fmt.Printf("3-ply: %s, worth %.2f\n", game2048Dir(c), c.Value)
	// Output:
	// greedy: right
	// 3-ply: right, worth 40.61
}

func game2048Dir(c search.Choice) string {
	if !c.Legal() {
		return "none"
	}
	return [4]string{"up", "right", "down", "left"}[c.Dir]
}

// The same API searches Threes!: its chance nodes place the next tile on
// the free cells of the edge opposite the slide, and a deadline bounds a
// search that deepens from one ply.
func ExampleNewThrees() {
	net := ntuple.MustNew("0/noiso")
	defer net.Free()
	g := threes.Game{Board: 0x0000000000321321, Next: 3, Bag: threes.FullBag, Last: threes.Anywhere, Actions: threes.OpeningTiles}
	s := search.NewThrees(net, search.Options{Depth: 12, MoveTime: 50 * time.Millisecond}, nil)
	mv, depth := s.ValuesTimed(&g)
	fmt.Println(search.BestOf(&mv).Legal(), depth >= 1 && depth <= 12)
	// Output:
	// true true
}

// Monte Carlo tree search over the same network, with the course's
// settings as a plain options value: each move's visits and mean return,
// the most visited played. The same seed gives the same move.
func ExampleNewMCTS() {
	net := ntuple.MustNew("0/noiso")
	defer net.Free()
	net.Weights()[0] = 10 // an empty top-left corner is worth 10
	b, _ := board.Parse("2,2,0,4, 0,8,0,0, 0,0,0,0, 0,0,0,2")
	opt := search.Options{Method: search.MethodMCTS, MCTS: search.DefaultMCTS()}
	opt.MCTS.Seed = 1
	mv, _ := search.NewMCTS(net, opt).Values(b)
	visits := int64(0)
	for _, m := range mv {
		visits += m.Visits
	}
	c := search.BestOf(&mv)
	fmt.Println(visits, c.Legal(), c == search.NewMCTS(net, opt).Best(b))
	// Output:
	// 500 true true
}
