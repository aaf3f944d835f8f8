package search

import (
	"math/rand/v2"
	"testing"

	"github.com/td2048/td2048/board"
	"github.com/td2048/td2048/ntuple"
)

var sinkChoice Choice

// benchExpectimax chooses 2048 moves at depth plies on boards of 6 to 11
// random tiles up to 256, over a 4x6 network whose every weight is set
// (every table page real memory, as in a trained network).
func benchExpectimax(b *testing.B, depth int, tt *Table) {
	net, boards := benchNet(256)
	defer net.Free()
	s := NewSearcher(net, Options{Depth: depth}, tt)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sinkChoice = s.Best(boards[i&255])
	}
}

func BenchmarkExpectimax2048Depth2(b *testing.B) { benchExpectimax(b, 2, nil) }

func BenchmarkExpectimax2048Depth3(b *testing.B) { benchExpectimax(b, 3, nil) }

// benchNet is a 4x6 network whose every weight is set (every table page
// real memory, as in a trained network) and n boards of 6 to 11 random
// tiles up to 256.
func benchNet(n int) (*ntuple.Network, []board.Board) {
	net := ntuple.MustNew("4x6")
	for i, w := 0, net.Weights(); i < len(w); i++ {
		w[i] = float32(i*2654435761%1000) / 1e4
	}
	rng := rand.New(rand.NewPCG(1, 2))
	boards := make([]board.Board, n)
	for i := range boards {
		for range 6 + rng.IntN(6) {
			boards[i] = boards[i].Set(rng.IntN(16), 1+rng.IntN(8))
		}
	}
	return net, boards
}
