package search

import (
	"testing"

	"github.com/td2048/td2048/board"
	"github.com/td2048/td2048/ntuple"
	"github.com/td2048/td2048/rules/game2048"
)

// stagedNet is a two-stage network (stage 1 from the first 16384) whose
// stages disagree: stage 0 likes a 2 in cell 0, stage 1 hates it.
func stagedNet() *ntuple.Network {
	net := ntuple.MustNew("0/noiso@2")
	net.StageTable(0, 0)[1] = 100
	net.StageTable(1, 0)[1] = -100
	return net
}

// TestStagedGreedy: the after-states of a move are valued by the stage of
// the board they come from, the one below 16384 and the one above it.
func TestStagedGreedy(t *testing.T) {
	net := stagedNet()
	for _, c := range []struct {
		b     board.Board
		value float32 // best reward + V
	}{
		// 2 in cell 1, a 4 in cell 15: left puts the 2 in cell 0.
		{0x2000000000000010, 100},
		// The same with a 16384: stage 1 avoids a 2 in cell 0.
		{0x200000000e000010, 0},
	} {
		t.Run(c.b.Hex(), func(t *testing.T) {
			got := Greedy(net, c.b)
			if got.Value != c.value {
				t.Errorf("%x (stage %d): best %+v, want value %v", uint64(c.b), net.StageOf(c.b), got, c.value)
			}
			for _, depth := range []int{1, 2, 3} {
				s := NewSearcher(net, Options{Depth: depth}, NewTable(1<<20))
				if depth == 1 {
					if v := s.Values(c.b, 1); BestOf(&v).Value != c.value {
						t.Errorf("%x: 1-ply search best %v, want %v", uint64(c.b), BestOf(&v).Value, c.value)
					}
				}
				// The whole tree below a root is valued by the root's stage.
				one := NewSearcher(ntuple.MustNew("0/noiso"), Options{Depth: depth}, nil)
				k := net.StageOf(c.b)
				copy(one.net.StageTable(0, 0), net.StageTable(k, 0))
				want, got := one.Values(c.b, depth), s.Values(c.b, depth)
				if want != got {
					t.Errorf("%x depth %d: staged %+v, its stage alone %+v", uint64(c.b), depth, got, want)
				}
			}
		})
	}
}

// TestStagedTableKeys: one table serves roots of both stages without
// handing one stage's values to the other: a root holding 8192+8192 (stage
// 0) and one holding 16384 (stage 1) slide left to the same after-state.
func TestStagedTableKeys(t *testing.T) {
	net := ntuple.MustNew("01,45/noiso@2")
	for i, w := 0, net.Weights(); i < len(w); i++ {
		w[i] = float32(i*7919%1000) - 500
	}
	a, b := board.Board(0x10000000000000dd), board.Board(0x10000000000000e0)
	ga, _, _ := game2048.Move(a, 3)
	gb, _, _ := game2048.Move(b, 3)
	if ga != gb || net.StageOf(a) != 0 || net.StageOf(b) != 1 {
		t.Fatalf("boards do not meet: %x %x", uint64(ga), uint64(gb))
	}
	for _, order := range [][]board.Board{{a, b}, {b, a}} {
		s := NewSearcher(net, Options{Depth: 3}, NewTable(1<<20))
		for _, root := range order {
			plain := NewSearcher(net, Options{Depth: 3}, nil)
			if got, want := s.Values(root, 3), plain.Values(root, 3); got != want {
				t.Fatalf("%x after %x: with table %+v, without %+v", uint64(root), uint64(order[0]), got, want)
			}
		}
	}
}
