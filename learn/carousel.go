package learn

import (
	"math/bits"

	"github.com/td2048/td2048/board"
	"github.com/td2048/td2048/rules/game2048"
)

// Carousel shaping (docs/methods.md section 5, TDL2048+'s -b and its
// stage mode). One episode is a chain of sub-episodes. A board o starts
// as one random tile. Each sub-episode aims at a scale W (the set of tiles
// the board holds, board.Board.Scale): o's for the first, o's plus Block
// (as integers) after; the episode ends when W reaches Limit. The stage
// rises while W reaches the next threshold; o is edited to hold W (and an
// empty cell); online modes learn o as the first after-state (a dummy
// board of 32768s while W < Block, which no game reaches). Then a random
// tile, and play by the Trace's rules until no move is legal or the best
// move merges two 32768s; every chosen after-state whose reward is at
// least Block becomes o. The last after-state's target is 0, and the
// stage carries over from one sub-episode to the next.

// dummy is the first after-state of an online carousel sub-episode that
// starts below Block: all cells 32768.
const dummy = board.Board(1<<64 - 1)

// playCarousel is carousel shaping (Shaping.carousel).
func (w *Worker) playCarousel(alpha float32) Episode {
	tr, sh := w.trace, w.Shaping
	th := w.Net.Spec().StageThresholds()
	o := game2048.Spawn(0, w.Rand)
	k := 0
	var first Episode
	for sub := 0; ; sub++ {
		want := o.Scale()
		if sub > 0 {
			want += uint32(sh.block)
		}
		if want >= uint32(sh.limit) || want > 0xffff {
			return first
		}
		for k+1 < len(th) && want >= uint32(th[k+1]) {
			k++
			w.promote.enter(w.Net, k)
		}
		if o = scaleTo(o, want|1); o.EmptyMask() == 0 {
			return first // cannot happen: the edit leaves an empty cell
		}
		tr.Reset(alpha)
		if tr.Mode.online {
			start := o
			if want < uint32(sh.block) {
				start = dummy
			}
			tr.pushStart(start, k)
		}
		if tally(&first, sub, w.subEpisode(game2048.Spawn(o, w.Rand), alpha, &k, &o, float32(sh.block))) {
			return first
		}
	}
}

// The board edit below ports TDL2048+'s board::scale64(scale) (board.h)
// to td2048's boards, operation for operation, so that the carousel
// starts from the same boards. A cell holding exponent e stands for bit e
// of a scale; bit 0 is an empty cell.

// where is the mask (bit 4i for cell i) of the cells holding exponent t.
func where(x uint64, t uint32) uint64 {
	y := x ^ uint64(t)*0x1111111111111111
	y |= y >> 2
	y |= y >> 1
	return ^y & 0x1111111111111111
}

// put sets every cell of mask w (bit 4i for cell i) to exponent t.
func put(x, w uint64, t uint32) uint64 { return x&^(w*0xf) | w*uint64(t) }

// msb is the highest set bit of x (0 for 0); lsb the lowest.
func msb(x uint32) uint32 {
	if x == 0 {
		return 0
	}
	return 1 << (bits.Len32(x) - 1)
}

func lsb(x uint32) uint32 { return x & -x }

// lg is floor(log2 x), 0xffffffff for 0, as TDL2048+'s math::lg.
func lg(x uint32) uint32 { return uint32(bits.Len32(x)) - 1 }

// either is C's a ?: b.
func either(a, b uint32) uint32 {
	if a != 0 {
		return a
	}
	return b
}

// scaleTo edits b so that its scale becomes scale: TDL2048+'s
// board::scale64(scale, 0), docs/methods.md section 5. First the board's
// largest tile is brought down to scale's by gap-closing downgrades
// (board.Wide.Downgrade, TDL2048+'s board::shift64), one at a time; then,
// from the highest value where the two sets differ down: a wanted value
// that is missing replaces the cell of lowest index holding the largest
// present smaller value (an empty cell counting as the smallest, 1; if
// none, a larger value present in at least two cells); a present value
// that is not wanted becomes, in all its cells, the largest wanted smaller
// value (else the smallest other present value, else empty).
func scaleTo(b board.Board, scale uint32) board.Board {
	x := uint64(b)
	rank := b.Scale()
	for dist := int32(lg(rank) - lg(scale)); dist > 0; dist-- {
		y := board.Wide{Low: board.Board(x)}.Downgrade(1).Low
		if y == board.Board(x) { // no gap
			break
		}
		x, rank = uint64(y), y.Scale()
	}
	const mask = ^uint32(0) // thres 0: every value counts
	diff := (scale ^ rank) & mask
	for u := uint32(0); diff != 0; diff ^= u {
		u = msb(diff)
		if scale&u != 0 { // wanted, missing
			t := msb(rank & (u - 1))
			var w uint64
			if t != 0 {
				w = where(x, uint32(bits.TrailingZeros32(t)))
			}
			n := bits.OnesCount64(w)
			for k := rank &^ (u - 1); n == 0 && k != 0; k ^= t {
				t = lsb(k)
				w = where(x, uint32(bits.TrailingZeros32(t)))
				n = bits.OnesCount64(w)
				if n <= 1 {
					n = 0
				}
			}
			if n == 0 {
				continue
			}
			x = put(x, w&-w, uint32(bits.TrailingZeros32(u)))
			if n == 1 {
				diff ^= (scale ^ diff) & t
				rank ^= t
			}
			rank |= u
		} else { // present, unwanted
			w := where(x, uint32(bits.TrailingZeros32(u)))
			t := either(msb((scale|^mask)&(u-1)), either(lsb(rank^u), 1))
			x = put(x, w, uint32(bits.TrailingZeros32(t)))
			rank = rank ^ u | t
		}
	}
	return board.Board(x)
}
