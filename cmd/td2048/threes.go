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

// A threesSummary is the course's summary of Threes! games, the block the
// framework prints after its games and judge after reading a statistics
// file (stats.Block.WriteThrees): their statistics block and speed.
type threesSummary struct {
	stats.Block
	speed stats.Speed
}

// add counts one game.
func (s *threesSummary) add(g threes.GameStats) {
	s.Add(g.Score, g.MaxTile, g.Slides)
	s.speed.Add(&stats.Speed{Slides: int64(g.Slides), Placements: int64(g.Placements), Time: g.Time, SlideTime: g.SlideTime, PlaceTime: g.PlaceTime})
}

// write prints the summary as the course does.
func (s *threesSummary) write(w io.Writer) error {
	return s.WriteThrees(w, s.Games, threes.TileValue, s.speed)
}
