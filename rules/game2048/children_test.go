package game2048

import (
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/td2048/td2048/board"
)

// Every child of an after-state slides as MovesTo slides it: boards of 0
// to 15 random tiles up to 32768 (so merges that overflow too), every
// empty cell, every tile exponent.
func TestChildrenMatchesMoves(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var c Children
	for n := range 3000 {
		var key board.Board
		for range n % 16 {
			key = key.Set(rng.IntN(16), 1+rng.IntN(15))
		}
		c.Reset(key)
		for e := key.EmptyMask(); e != 0; e &= e - 1 {
			cell := bits.TrailingZeros64(e) / 4
			for tile := 1; tile <= 15; tile++ {
				b := key.Set(cell, tile)
				var want, got [4]board.Board
				var wr, gr [4]uint32
				MovesTo(b, &want, &wr)
				c.MovesTo(cell, tile, &got, &gr)
				if got != want || gr != wr {
					t.Fatalf("key %v, %d at cell %d: got %v %v, want %v %v", key, tile, cell, got, gr, want, wr)
				}
			}
		}
	}
}

func TestColumnSpread(t *testing.T) {
	for v := range 65536 {
		for c := range 4 {
			x := spread(uint16(v)) << (4 * c)
			if x&^(colMask<<(4*c)) != 0 || column(x|^(colMask<<(4*c)), c) != uint16(v) {
				t.Fatalf("column %d, value %#x: spread %#x", c, v, x)
			}
		}
	}
}

// childKeys are after-states with 4 to 11 tiles, as a search's chance
// nodes have, for the benchmarks of their children's slides.
func childKeys() []board.Board {
	rng := rand.New(rand.NewPCG(1, 1))
	keys := make([]board.Board, 256)
	for i := range keys {
		for range 4 + rng.IntN(8) {
			keys[i] = keys[i].Set(rng.IntN(16), 1+rng.IntN(10))
		}
	}
	return keys
}

// BenchmarkChildrenMoves slides all the children (a 2 and a 4 on each
// empty cell) of a chance node by MovesTo, as searches did before
// Children; BenchmarkChildren by Children. ns/op is per chance node.
func BenchmarkChildrenMoves(b *testing.B) {
	keys := childKeys()
	var after [4]board.Board
	var reward [4]uint32
	var sink board.Board
	for i := 0; b.Loop(); i++ {
		key := keys[i&255]
		for e := key.EmptyMask(); e != 0; e &= e - 1 {
			cell := board.Board(e & -e)
			MovesTo(key|cell, &after, &reward)
			sink ^= after[0] ^ after[1] ^ after[2] ^ after[3]
			MovesTo(key|cell*2, &after, &reward)
			sink ^= after[0] ^ after[1] ^ after[2] ^ after[3]
		}
	}
	_ = sink
}

func BenchmarkChildren(b *testing.B) {
	keys := childKeys()
	var c Children
	var after [4]board.Board
	var reward [4]uint32
	var sink board.Board
	for i := 0; b.Loop(); i++ {
		key := keys[i&255]
		c.Reset(key)
		for e := key.EmptyMask(); e != 0; e &= e - 1 {
			cell := bits.TrailingZeros64(e) / 4
			c.MovesTo(cell, 1, &after, &reward)
			sink ^= after[0] ^ after[1] ^ after[2] ^ after[3]
			c.MovesTo(cell, 2, &after, &reward)
			sink ^= after[0] ^ after[1] ^ after[2] ^ after[3]
		}
	}
	_ = sink
}
