package search

import (
	"math/rand/v2"
	"testing"

	"github.com/td2048/td2048/board"
	"github.com/td2048/td2048/ntuple"
)

// BenchmarkGreedy4x6 chooses greedy moves on boards of 6 to 11 random
// tiles over a 4x6 network whose every weight is set: the hot path of
// 1-ply play, which multi-stage networks must not slow.
func BenchmarkGreedy4x6(b *testing.B) {
	net := ntuple.MustNew("4x6")
	defer net.Free()
	for i, w := 0, net.Weights(); i < len(w); i++ {
		w[i] = float32(i*2654435761%1000) / 1e4
	}
	rng := rand.New(rand.NewPCG(1, 2))
	boards := make([]board.Board, 4096)
	for i := range boards {
		for range 6 + rng.IntN(6) {
			boards[i] = boards[i].Set(rng.IntN(16), 1+rng.IntN(8))
		}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sinkChoice = Greedy(net, boards[i&4095])
	}
}
