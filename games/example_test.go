package games_test

import (
	"context"
	"fmt"

	"github.com/td2048/td2048/board"
	"github.com/td2048/td2048/evaluate"
	"github.com/td2048/td2048/games"
	"github.com/td2048/td2048/ntuple"
	"github.com/td2048/td2048/search"
	"github.com/td2048/td2048/session"
)

// A face asks the descriptor for the game's facts and plays through it:
// here the moves of a 2048 board by the rules alone, and the network's
// values of the same moves.
func ExampleGame_NewAdvisor() {
	g := games.MustLookup("2048")
	b, _ := board.Parse("2,2,4,0, 0,0,0,0, 0,0,0,0, 0,0,0,0")
	p, _ := g.Position(b, 0)
	rules := g.RuleValues(b)
	net := ntuple.MustNew("0123,4567") // all weights 0: every value is 0
	defer net.Free()
	values, depth := g.NewAdvisor(net, search.Options{Depth: 1}, nil).Values(p)
	for d := range 4 {
		fmt.Printf("%-5s legal %-5v reward %d total %g\n", session.DirNames[d], rules[d].Legal, rules[d].Reward, values[d].Total)
	}
	fmt.Println("depth", depth, "best", session.DirNames[search.BestOf(&values).Dir])
	// Output:
	// up    legal false reward 0 total 0
	// right legal true  reward 4 total 4
	// down  legal true  reward 0 total 0
	// left  legal true  reward 4 total 4
	// depth 1 best right
}

// An evaluation of either game is one call; its statistics print in the
// game's course format.
func ExampleGame_Evaluate() {
	for _, name := range games.Names() {
		g := games.MustLookup(name)
		net := ntuple.MustNew("0123,4567") // a small network either game can use
		ev, err := g.Evaluate(context.Background(), games.EvalConfig{Net: net, Search: search.Options{Depth: 1}, Config: evaluate.Config{Games: 20, Seed: 1, Threads: 1}})
		net.Free()
		fmt.Println(g.Title, ev.Block.Games, "games", err, ev.Block.Reach(g.Goal))
	}
	// Output:
	// 2048 20 games <nil> 0
	// Threes! 20 games <nil> 0
}
