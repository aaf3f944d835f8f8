package search

import (
	"math/rand/v2"
	"testing"

	"github.com/td2048/td2048/board"
	"github.com/td2048/td2048/ntuple"
)

// TestPendingIsGreedy: a move fetched, then chosen after other moves were
// fetched and chosen, is Greedy's, bit for bit, on every path a network
// can take: 4x6 in assembly, a large network read with PEXT, small
// networks summed without prefetching, two stages, and boards with no
// legal move.
func TestPendingIsGreedy(t *testing.T) {
	big := "012345,456789"
	if testing.Short() {
		big = "0123,4567"
	}
	for _, spec := range []string{"01,45", "0123,4567,0145@0,256", big, "4x6", "4x6@0,16384"} {
		net := ntuple.MustNew(spec)
		rng := rand.New(rand.NewPCG(3, 4))
		w := net.Weights()
		for i := range w {
			w[i] = float32(rng.IntN(1 << 12))
		}
		// Three games' moves in flight at once, chosen in turn.
		var p [3]Pending
		var b [3]board.Board
		for range 300 {
			for i := range p {
				b[i] = randomBoard(rng, 1+rng.IntN(16))
				if rng.IntN(8) == 0 { // a 16384: stage 1 of a staged network
					b[i] = b[i].Set(rng.IntN(16), 14)
				}
				if rng.IntN(50) == 0 { // no legal move
					b[i] = 0x1212212112122121
				}
				p[i].Fetch(net, b[i])
			}
			for i := range p {
				if got, want := p[i].Choose(net), Greedy(net, b[i]); got != want {
					t.Fatalf("%s, %s: Pending chose %+v, Greedy %+v", spec, b[i].Hex(), got, want)
				}
			}
		}
		net.Free()
	}
}
