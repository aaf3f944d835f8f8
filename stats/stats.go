// Package stats keeps per-block game statistics and prints them in the
// block format users of the course demo know:
//
//	1000	avg = 7848.38	max = 27040
//		64	100%	(0.4%)
//		128	99.6%	(2.5%)
//
// Each tile line gives the share of games whose largest tile was at least
// that tile, then in parentheses the share whose largest tile was exactly
// it. Lines run from the smallest largest-tile seen to the largest.
package stats

import (
	"fmt"
	"io"
	"strconv"
)

// Tiles is the number of tile indices tracked: 0..16 (65536).
const Tiles = 17

// Block accumulates games.
type Block struct {
	Games    int
	Sum      int64
	MaxScore int
	Moves    int64
	End      [Tiles]int // games whose largest tile index was exactly i
}

// Add records one game: its score, largest tile index and move count.
func (b *Block) Add(score, maxTile, moves int) {
	b.Games++
	b.Sum += int64(score)
	b.MaxScore = max(b.MaxScore, score)
	b.Moves += int64(moves)
	b.End[min(max(maxTile, 0), Tiles-1)]++
}

// Merge adds another block's games to b.
func (b *Block) Merge(o *Block) {
	b.Games += o.Games
	b.Sum += o.Sum
	b.MaxScore = max(b.MaxScore, o.MaxScore)
	b.Moves += o.Moves
	for i := range b.End {
		b.End[i] += o.End[i]
	}
}

// Avg is the mean score.
func (b *Block) Avg() float64 {
	if b.Games == 0 {
		return 0
	}
	return float64(b.Sum) / float64(b.Games)
}

// Reached counts the games whose largest tile index was at least t.
func (b *Block) Reached(t int) int {
	n := 0
	for i := max(t, 0); i < Tiles; i++ {
		n += b.End[i]
	}
	return n
}

// Reach is the share (0..1) of games whose largest tile index was at least t.
func (b *Block) Reach(t int) float64 {
	if b.Games == 0 {
		return 0
	}
	return float64(b.Reached(t)) / float64(b.Games)
}

// EndRate is the share of games whose largest tile index was exactly t.
func (b *Block) EndRate(t int) float64 {
	if b.Games == 0 || t < 0 || t >= Tiles {
		return 0
	}
	return float64(b.End[t]) / float64(b.Games)
}

// Num formats a number as C++ streams do by default (six significant
// digits, no trailing zeros), but never in exponent form.
func Num(v float64) string {
	if v >= 1e6 || v <= -1e6 {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	s := strconv.FormatFloat(v, 'g', 6, 64)
	if f, err := strconv.ParseFloat(s, 64); err == nil && (f >= 1e6 || f <= -1e6) {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return s
}

// Write prints the block; label is the first column (the episode count in
// training, the game count in an evaluation). value maps a tile index to
// the tile shown.
func (b *Block) Write(w io.Writer, label int, value func(int) int) error {
	if _, err := fmt.Fprintf(w, "%d\tavg = %s\tmax = %d\n", label, Num(b.Avg()), b.MaxScore); err != nil {
		return err
	}
	lo, hi := -1, -1
	for i, n := range b.End {
		if n > 0 {
			if lo < 0 {
				lo = i
			}
			hi = i
		}
	}
	if lo < 0 {
		return nil
	}
	for t := lo; t <= hi; t++ {
		if _, err := fmt.Fprintf(w, "\t%d\t%s%%\t(%s%%)\n", value(t), Num(100*b.Reach(t)), Num(100*b.EndRate(t))); err != nil {
			return err
		}
	}
	return nil
}

// Pow2 is 2048's tile value of an index (0 for empty).
func Pow2(i int) int {
	if i <= 0 {
		return 0
	}
	return 1 << uint(i)
}
