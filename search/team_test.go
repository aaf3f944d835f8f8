package search

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/td2048/td2048/board"
	"github.com/td2048/td2048/ntuple"
	"github.com/td2048/td2048/rules/threes"
)

// teamBoards are a fixed set of positions: random boards of every
// fullness, and boards from the middle of games.
func teamBoards(rng *rand.Rand, n int) []board.Board {
	var bs []board.Board
	for len(bs) < n {
		bs = append(bs, randomBoard(rng, 3+rng.IntN(12)))
	}
	// Mid-game boards, and two with a 16384 (a staged network's second
	// stage).
	return append(bs, 0x0000000000120012, 0x1234000000000121, 0x0001002300340045, 0x8765000000010002,
		0x0000000100e00012, 0x00000000e9810210)
}

// TestTeamIsOneSearcher: a search of one move on 2, 3 or 16 goroutines
// (16: the top of the tree shared out two and three levels down) gives
// the values of one searcher, bit for bit, at every depth from 2, for
// after-state and state networks, with a table shared by the team or
// none, and a staged network in both stages; so the same move.
func TestTeamIsOneSearcher(t *testing.T) {
	rng := rand.New(rand.NewPCG(43, 43))
	nets := map[string]*ntuple.Network{"tiny": tinyNet(21), "staged": stagedNet()}
	for name, net := range nets {
		t.Run(name, func(t *testing.T) {
			for _, kind := range []Kind{AfterState, State} {
				for depth := 2; depth <= 4; depth++ {
					if depth == 4 && kind == State { // a ply deeper than after-state's
						continue
					}
					boards := teamBoards(rng, 12)
					if depth == 4 { // fuller boards: smaller trees
						boards = slices.DeleteFunc(boards, func(b board.Board) bool { return b.Empty() > 7 })
					}
					for _, threads := range []int{2, 3, 16} {
						for _, bytes := range []int64{0, 1 << 20} {
							one := NewSearcher(net, Options{Depth: depth, Kind: kind}, NewTable(bytes))
							team := NewSearcher(net, Options{Depth: depth, Kind: kind, Threads: threads}, NewTable(bytes))
							for _, b := range boards {
								want, got := one.Values(b, depth), team.Values(b, depth)
								if got != want {
									t.Fatalf("%s kind %d depth %d, %d threads, table %d, %s:\n team %+v\n one  %+v", name, kind, depth, threads, bytes, b.Hex(), got, want)
								}
								if BestOf(&got) != BestOf(&want) {
									t.Fatalf("%s: moves differ", b.Hex())
								}
							}
						}
					}
				}
			}
		})
	}
}

// TestTeamCountsAndDeepens: a team counts its helpers' nodes, deepens
// within a time budget as one searcher does (a cap reached gives one
// searcher's values), and is stopped by Stop.
func TestTeamCountsAndDeepens(t *testing.T) {
	net := tinyNet(22)
	b := randomBoard(rand.New(rand.NewPCG(1, 2)), 9)
	one := NewSearcher(net, Options{Depth: 3}, nil)
	team := NewSearcher(net, Options{Depth: 3, Threads: 2}, nil)
	one.Values(b, 3)
	team.Values(b, 3)
	if team.Nodes != one.Nodes || one.Nodes == 0 {
		t.Fatalf("team counted %d chance nodes, one searcher %d (no table: the same nodes)", team.Nodes, one.Nodes)
	}
	capped := NewSearcher(net, Options{Depth: 3, MoveTime: time.Minute, Threads: 2}, NewTable(1<<20))
	mv, d := capped.ValuesTimed(b)
	if d != 3 || mv != one.Values(b, 3) {
		t.Fatalf("capped team search: depth %d, values %+v", d, mv)
	}
	stop := make(chan struct{})
	s := NewSearcher(net, Options{Depth: 12, Threads: 2, Stop: stop}, nil)
	time.AfterFunc(20*time.Millisecond, func() { close(stop) })
	done := make(chan struct{})
	go func() {
		s.Best(board.FromCells([16]int{1, 2}))
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("a stopped team search went on 30 s")
	}
	if !s.Stopped() {
		t.Fatal("a stopped team search does not say so")
	}
	// A budget too short for depth 2 still answers from depth 1.
	quick := NewSearcher(net, Options{MoveTime: time.Nanosecond, Threads: 2}, nil)
	qv, d := quick.ValuesTimed(b)
	if c := BestOf(&qv); !c.Legal() || d < 1 {
		t.Fatalf("no answer within a nanosecond: %+v at depth %d", c, d)
	}
}

// TestThreesTeamIsOneSearcher: the same for Threes!.
func TestThreesTeamIsOneSearcher(t *testing.T) {
	net := ntuple.MustNew("01,45+hint")
	rng := rand.New(rand.NewPCG(44, 44))
	for i := range net.Weights() {
		net.Weights()[i] = float32(rng.IntN(64)) / 8
	}
	for depth := 2; depth <= 3; depth++ {
		for _, bytes := range []int64{0, 1 << 20} {
			one := NewThrees(net, Options{Depth: depth}, NewTable(bytes))
			team := NewThrees(net, Options{Depth: depth, Threads: 3}, NewTable(bytes))
			for range 8 {
				g := threes.Start(rng)
				for range rng.IntN(30) {
					c := GreedyThrees(net, g.Board, g.Next)
					if !c.Legal() {
						break
					}
					g.Slide(c.Dir)
					g.PlaceRandom(rng)
				}
				if want, got := one.Values(&g, depth), team.Values(&g, depth); got != want {
					t.Fatalf("depth %d, table %d, %s: team %+v, one %+v", depth, bytes, g.Board.Hex(), got, want)
				}
			}
		}
	}
}
