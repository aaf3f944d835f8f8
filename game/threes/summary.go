package threes

import (
	"fmt"
	"io"
	"math"
	"strconv"
)

// A Summary accumulates games for the course's summary block, the one the
// framework prints after its games and its judge prints after reading a
// statistics file:
//
//	1000	avg = 174965, max = 561159, ops = 807830 (466175|4259039)
//		48	100%	(0.3%)
//		96	99.7%	(1%)
//		...
//		6144	0.4%	(0.4%)
//
// avg is the mean score rounded down, ops the actions per second of wall
// time from opening to closing, then in parentheses the slider's actions
// per second of its own time and the placer's. Each tile line gives the
// share of games whose largest tile was at least that tile and, in
// parentheses, exactly it; as in the framework, only tiles some game ended
// with are listed, and a blank line ends the block.
type Summary struct {
	Games      int
	Sum, Max   int64
	End        [16]int // games whose largest tile index was exactly i
	Slides     int64
	Placements int64
	Time       int64 // milliseconds, summed over games
	SlideTime  int64
	PlaceTime  int64
}

// Add records one game.
func (s *Summary) Add(g GameStats) {
	s.Games++
	s.Sum += int64(g.Score)
	s.Max = max(s.Max, int64(g.Score))
	s.End[min(max(g.MaxTile, 0), 15)]++
	s.Slides += int64(g.Slides)
	s.Placements += int64(g.Placements)
	s.Time += g.Time
	s.SlideTime += g.SlideTime
	s.PlaceTime += g.PlaceTime
}

// Reach is the share (0..1) of games whose largest tile index was at
// least t.
func (s *Summary) Reach(t int) float64 {
	if s.Games == 0 {
		return 0
	}
	n := 0
	for i := max(t, 0); i < len(s.End); i++ {
		n += s.End[i]
	}
	return float64(n) / float64(s.Games)
}

// rate formats actions per second as the framework prints it: fixed, no
// decimals, inf for no time at all.
func rate(actions, ms int64) string {
	v := float64(actions) * 1000 / float64(ms)
	switch {
	case math.IsNaN(v):
		return "nan"
	case math.IsInf(v, 1):
		return "inf"
	}
	return strconv.FormatFloat(v, 'f', 0, 64)
}

// Write prints the summary block.
func (s *Summary) Write(w io.Writer) error {
	avg := int64(0)
	if s.Games > 0 {
		avg = s.Sum / int64(s.Games)
	}
	_, err := fmt.Fprintf(w, "%d\tavg = %d, max = %d, ops = %s (%s|%s)\n", s.Games, avg, s.Max,
		rate(s.Slides+s.Placements, s.Time), rate(s.Slides, s.SlideTime), rate(s.Placements, s.PlaceTime))
	if err != nil {
		return err
	}
	for t, n := range s.End {
		if n == 0 {
			continue
		}
		if _, err := fmt.Fprintf(w, "\t%d\t%s%%\t(%s%%)\n", Value(t), num(100*s.Reach(t)), num(100*float64(n)/float64(s.Games))); err != nil {
			return err
		}
	}
	_, err = fmt.Fprintln(w)
	return err
}

// num formats a share as C++ streams do by default: six significant
// digits, no trailing zeros.
func num(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }
