// Package stats keeps per-block game statistics and prints them in the
// two formats users of the course code know.
//
// 2048 (Block.Write) prints the course demo's block (TDL2048-Demo's
// make_statistic):
//
//	1000	avg = 7848.38	max = 27040
//		64	100%	(0.4%)
//		128	99.6%	(2.5%)
//
// The average is computed in float32 as the demo does, float(sum)/games,
// and printed as C++ streams print by default (Num). Each tile line gives
// the share of games whose largest tile was at least that tile, then in
// parentheses the share whose largest tile was exactly it, both float32
// products of the count and float(100.0/games). Lines run from the
// smallest largest-tile up; a tile no game ended on has no line.
//
// Threes! (Block.WriteThrees) prints the course framework's summary (TCG
// 2022), with an integer average, the speeds and a blank line after it:
//
//	1000	avg = 174965, max = 561159, ops = 807830 (466175|4259039)
//		48	100%	(0.3%)
//		96	99.7%	(1%)
//
// A speed whose time was not recorded (0 ms) prints n/a where the
// framework prints inf.
package stats

import (
	"fmt"
	"io"
	"strconv"
)

// Tiles is the number of tile indices tracked: 0..31 (2048 boards hold
// tiles up to 2^31, see board.Wide).
const Tiles = 32

// Block accumulates games.
type Block struct {
	Games    int
	Sum      int64
	MaxScore int
	Moves    int64
	End      [Tiles]int // games whose largest tile index was exactly i
	// Work counts the moves played for the games beyond their own
	// (AddWork): a shaped training episode also plays the sub-episodes
	// that restart from its boards. Speeds count them (Played).
	Work int64 `json:",omitempty"`
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
	b.Work += o.Work
	for i := range b.End {
		b.End[i] += o.End[i]
	}
}

// AddWork records that the last game added took work moves in all, its
// own moves included (Block.Work); nothing when work is not more.
func (b *Block) AddWork(moves, work int) {
	if work > moves {
		b.Work += int64(work - moves)
	}
}

// Played is every move played for the block's games: Moves plus the
// extra Work.
func (b *Block) Played() int64 { return b.Moves + b.Work }

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

// endRate is the share of games whose largest tile index was exactly t.
func (b *Block) endRate(t int) float64 {
	if b.Games == 0 || t < 0 || t >= Tiles {
		return 0
	}
	return float64(b.End[t]) / float64(b.Games)
}

// avg32 is the mean score as the course demo computes it: the sum as a
// float32 divided by the game count in float32 (0 for no games).
func (b *Block) avg32() float32 {
	if b.Games == 0 {
		return 0
	}
	return float32(b.Sum) / float32(b.Games)
}

// Num formats a number as C++ streams do by default: printf's %g with six
// significant digits, so no trailing zeros, and exponent form from 1e+06
// up and below 0.0001 (1e+06, 1.23457e+06, 1e-05), as the course demo
// prints them.
func Num(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }

// Write prints the block as the course demo does (see the package
// comment); label is the first column (the episode count in training, the
// game count in an evaluation). value maps a tile index to the tile shown.
func (b *Block) Write(w io.Writer, label int, value func(int) int) error {
	if _, err := fmt.Fprintf(w, "%d\tavg = %s\tmax = %d\n", label, Num(float64(b.avg32())), b.MaxScore); err != nil {
		return err
	}
	if b.Games == 0 {
		return nil
	}
	// The demo's float coef = 100.0 / unit, and count * coef in float32.
	coef := float32(100.0 / float64(b.Games))
	return b.writeTiles(w, value, func(n int) float64 { return float64(float32(n) * coef) })
}

// writeTiles prints a line per tile some game ended on: the tile, the
// percentage of the games that reached it and, in parentheses, of those
// that ended on it, percent(count) of each count.
func (b *Block) writeTiles(w io.Writer, value func(int) int, percent func(n int) float64) error {
	for t, n := range b.End {
		if n == 0 {
			continue
		}
		if _, err := fmt.Fprintf(w, "\t%d\t%s%%\t(%s%%)\n", value(t), Num(percent(b.Reached(t))), Num(percent(n))); err != nil {
			return err
		}
	}
	return nil
}

// Speed is what the Threes! course summary says of speed: each side's
// actions and the milliseconds they took, summed over the games.
type Speed struct {
	Slides, Placements int64
	// Time is the games' milliseconds from opening to closing; SlideTime
	// and PlaceTime each side's own, summed over its actions. A time of 0
	// means not measured: its rate prints n/a.
	Time, SlideTime, PlaceTime int64
}

// Add counts the actions and times of o too.
func (s *Speed) Add(o *Speed) {
	s.Slides, s.Placements, s.Time = s.Slides+o.Slides, s.Placements+o.Placements, s.Time+o.Time
	s.SlideTime, s.PlaceTime = s.SlideTime+o.SlideTime, s.PlaceTime+o.PlaceTime
}

// Ops is the rate of actions per second over ms milliseconds, and whether
// it is known (ms > 0).
func Ops(actions, ms int64) (float64, bool) {
	if ms <= 0 {
		return 0, false
	}
	return float64(actions) * 1000 / float64(ms), true
}

// opsText prints a rate as the framework does (fixed, no decimals), or n/a
// where no time was recorded: the framework divides by the zero time and
// prints inf, or nan with no actions either.
func opsText(actions, ms int64) string {
	v, ok := Ops(actions, ms)
	if !ok {
		return "n/a"
	}
	return strconv.FormatFloat(v, 'f', 0, 64)
}

// WriteThrees prints the block as the Threes! course framework prints its
// summary (see the package comment): label, the mean score rounded down,
// the best score, the actions per second of the games' time and in
// parentheses the slider's and the placer's of their own time, then a line
// per tile some game ended on (shares printed as doubles, count * 100.0 /
// games) and a blank line. value maps tile indices to tiles.
func (b *Block) WriteThrees(w io.Writer, label int, value func(int) int, sp Speed) error {
	avg := int64(0)
	if b.Games > 0 {
		avg = b.Sum / int64(b.Games)
	}
	_, err := fmt.Fprintf(w, "%d\tavg = %d, max = %d, ops = %s (%s|%s)\n", label, avg, b.MaxScore,
		opsText(sp.Slides+sp.Placements, sp.Time), opsText(sp.Slides, sp.SlideTime), opsText(sp.Placements, sp.PlaceTime))
	if err != nil {
		return err
	}
	if err := b.writeTiles(w, value, func(n int) float64 { return float64(n) * 100.0 / float64(b.Games) }); err != nil {
		return err
	}
	_, err = fmt.Fprintln(w)
	return err
}

// Pow2 is 2048's tile value of an index (0 for empty).
func Pow2(i int) int {
	if i <= 0 {
		return 0
	}
	return 1 << uint(i)
}
