package threes

import (
	"fmt"
	"math/bits"

	"github.com/td2048/td2048/board"
)

// A Bag is the set of tiles (1, 2, 3) not yet drawn: bit t-1 set for tile
// t. When a draw empties it, it is refilled at once, so in a game a bag is
// never empty and every three draws are a permutation of 1, 2, 3.
type Bag uint8

// FullBag holds all three tiles.
const FullBag Bag = 7

// Has reports whether tile t (1..3) is in the bag.
func (g Bag) Has(t int) bool { return t >= 1 && t <= 3 && g>>uint(t-1)&1 != 0 }

// count is the number of tiles in the bag.
func (g Bag) count() int { return bits.OnesCount8(uint8(g & FullBag)) }

// Take returns the bag after drawing tile t (which must be in it),
// refilled when that empties it.
func (g Bag) Take(t int) Bag {
	g &^= 1 << uint(t-1)
	if g&FullBag == 0 {
		return FullBag
	}
	return g
}

// BagOf is the bag holding tiles, as Tiles lists them (in any order): a
// bag is never empty and holds each of 1, 2 and 3 at most once.
func BagOf(tiles []int) (Bag, error) {
	if len(tiles) == 0 {
		return 0, fmt.Errorf("bag is empty: it is refilled when its last tile is drawn, so it holds 1 to 3 tiles")
	}
	var g Bag
	for _, t := range tiles {
		switch {
		case t < 1 || t > 3:
			return 0, fmt.Errorf("bag holds %d: its tiles are 1, 2 and 3", t)
		case g.Has(t):
			return 0, fmt.Errorf("bag holds %d twice: it holds each of 1, 2 and 3 at most once", t)
		}
		g |= 1 << uint(t-1)
	}
	return g, nil
}

// Tiles lists the tiles in the bag in increasing order.
func (g Bag) Tiles() []int {
	var t []int
	for i := 1; i <= 3; i++ {
		if g.Has(i) {
			t = append(t, i)
		}
	}
	return t
}

// draw draws a tile uniformly from the bag: the tile and the bag after it.
func (g Bag) draw(rng Rand) (int, Bag) {
	k := below(rng, uint32(g.count()))
	m := uint8(g & FullBag)
	for ; k > 0; k-- {
		m &= m - 1
	}
	t := bits.TrailingZeros8(m) + 1
	return t, g.Take(t)
}

func (g Bag) String() string {
	s := "{"
	for i, t := range g.Tiles() {
		if i > 0 {
			s += ","
		}
		s += fmt.Sprint(t)
	}
	return s + "}"
}

// Rand is the source of randomness the rules need: uniform 64-bit words.
// *rand.PCG and *rand.ChaCha8 from math/rand/v2 satisfy it.
type Rand interface{ Uint64() uint64 }

// below returns a uniform integer in [0,n) for 0 < n <= 16 from rng,
// without bias (multiply-shift with rejection).
func below(rng Rand, n uint32) uint32 {
	for {
		x := uint32(rng.Uint64() >> 32)
		m := uint64(x) * uint64(n)
		if l := uint32(m); l >= n || l >= -n%n {
			return uint32(m >> 32)
		}
	}
}

// OpeningTiles is the number of placements on the empty board before the
// first slide.
const OpeningTiles = 9

// A Game is the whole state of a Threes! game between actions.
type Game struct {
	Board board.Board
	// Next is the next tile (1..3), the one the next placement must put
	// down and the player sees; the course calls it the hint. It is 0
	// before the first placement, which draws its tile and the next one
	// together.
	Next int
	Bag  Bag // tiles not yet drawn
	// Last is the direction of the last slide, which decides the edge of
	// the next placement, or Anywhere (opening, or after a placement).
	Last int
	// Actions counts the actions so far: the first OpeningTiles are
	// placements, then slides and placements alternate, the slider first.
	Actions int
}

// New returns a game before its first action: empty board, full bag.
func New() Game { return Game{Bag: FullBag, Last: Anywhere} }

// SlideTurn reports whether the next action is a slide (else a placement).
func (g *Game) SlideTurn() bool {
	return g.Actions >= OpeningTiles && (g.Actions-OpeningTiles)%2 == 0
}

// Over reports whether the game has ended: a slide is due and none is
// legal.
func (g *Game) Over() bool { return g.SlideTurn() && Over(g.Board) }

// Slide slides in direction d when it is the slider's turn and d is legal;
// it returns the reward.
func (g *Game) Slide(d int) (int, error) {
	if !g.SlideTurn() {
		return 0, fmt.Errorf("a placement is due, not a slide")
	}
	if d < 0 || d > 3 {
		return 0, fmt.Errorf("no direction %d", d)
	}
	after, r, ok := Move(g.Board, d)
	if !ok {
		return 0, fmt.Errorf("sliding %s changes nothing", DirNames[d])
	}
	g.Board, g.Last = after, d
	g.Actions++
	return r, nil
}

// SlideTo records a slide already known to be legal (from Moves): the
// board becomes after, the slide's direction decides the next edge. It is
// the hot path of players that have computed every move anyway.
func (g *Game) SlideTo(after board.Board, d int) {
	g.Board, g.Last = after, d
	g.Actions++
}

// Place puts tile on cell pos and makes hint the next hint, when that is
// legal: a placement is due, the cell is empty and on the allowed edge,
// the tile is the current hint (or, at the very first placement, in the
// bag), and the new hint is in the bag. It returns the reward: the placed
// tile's score.
func (g *Game) Place(pos, tile, hint int) (int, error) {
	if g.SlideTurn() {
		return 0, fmt.Errorf("a slide is due, not a placement")
	}
	if pos < 0 || pos > 15 {
		return 0, fmt.Errorf("no cell %d", pos)
	}
	if g.Board.At(pos) != 0 {
		return 0, fmt.Errorf("cell %d is not empty", pos)
	}
	if g.Last != Anywhere && Edge(g.Last)>>(4*uint(pos))&1 == 0 {
		return 0, fmt.Errorf("cell %d is not on the edge opposite the slide %s (cells %v)", pos, DirNames[g.Last], EdgeCells(g.Last))
	}
	bag := g.Bag
	if g.Next == 0 {
		if !bag.Has(tile) {
			return 0, fmt.Errorf("first tile %d is not in the bag %v", tile, bag)
		}
		bag = bag.Take(tile)
	} else if tile != g.Next {
		return 0, fmt.Errorf("tile %d placed, the next tile was %d", tile, g.Next)
	}
	if !bag.Has(hint) {
		return 0, fmt.Errorf("new next tile %d is not in the bag %v", hint, bag)
	}
	g.Board = g.Board.Set(pos, tile)
	g.Bag = bag.Take(hint)
	g.Next, g.Last = hint, Anywhere
	g.Actions++
	return Score(tile), nil
}

// PlaceRandom is the course's random placer: the hint tile (at the first
// placement a tile drawn from the bag) goes to a uniformly chosen empty
// cell of the allowed edge, and the next hint is drawn uniformly from the
// bag. It returns the action. A placement must be due; the allowed edge
// always has an empty cell after a legal slide.
func (g *Game) PlaceRandom(rng Rand) (pos, tile, hint int) {
	free := Free(g.Board, g.Last)
	k := below(rng, uint32(bits.OnesCount64(free)))
	for ; k > 0; k-- {
		free &= free - 1
	}
	pos = bits.TrailingZeros64(free) / 4
	tile, bag := g.Next, g.Bag
	if tile == 0 {
		tile, bag = bag.draw(rng)
	}
	hint, bag = bag.draw(rng)
	g.Board |= board.Board(uint64(tile) << (4 * uint(pos)))
	g.Next, g.Bag, g.Last = hint, bag, Anywhere
	g.Actions++
	return pos, tile, hint
}

// Start returns a game after the random opening: nine placements on the
// empty board.
func Start(rng Rand) Game {
	g := New()
	for range OpeningTiles {
		g.PlaceRandom(rng)
	}
	return g
}
