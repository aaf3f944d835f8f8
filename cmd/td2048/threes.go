package main

import (
	"io"
	"runtime"

	"github.com/td2048/td2048/game/threes"
	"github.com/td2048/td2048/stats"
)

// threadCount is the number of threads a Threads value of 0 or more means.
func threadCount(n int) int {
	if n <= 0 {
		return runtime.GOMAXPROCS(0)
	}
	return n
}

// writeSummary prints the course's summary of a Threes! statistics file:
// what judge prints after replaying its games (eval prints the same
// through the game's WriteEval).
func writeSummary(w io.Writer, s *threes.Summary) error {
	b, sp := summaryStats(s)
	return b.WriteThrees(w, s.Games, threes.TileValue, sp)
}

// summaryStats is a Threes! summary as a statistics block and its speed.
func summaryStats(s *threes.Summary) (stats.Block, stats.Speed) {
	b := stats.Block{Games: s.Games, Sum: s.Sum, MaxScore: int(s.Max), Moves: s.Slides}
	copy(b.End[:], s.End[:])
	return b, stats.Speed{Slides: s.Slides, Placements: s.Placements, Time: s.Time, SlideTime: s.SlideTime, PlaceTime: s.PlaceTime}
}
