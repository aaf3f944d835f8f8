package games

import (
	"fmt"
	"io"
	"time"

	"github.com/td2048/td2048/board"
	"github.com/td2048/td2048/game/threes"
	"github.com/td2048/td2048/learn"
	"github.com/td2048/td2048/ntuple"
	"github.com/td2048/td2048/stats"
	"github.com/td2048/td2048/threeslearn"
)

func init() {
	Register(&Game{
		Name: "2048", Title: "2048", Code: board.Pow2,
		Goal: 11, Rates: []int{11, 12, 13, 14, 15, 16},
		Network:  "4x6",
		Learners: []learn.Kind{learn.AfterState, learn.State},
		CheckSpec: func(s ntuple.Spec) error {
			switch {
			case s.Hint:
				return fmt.Errorf("network %s: +hint networks are for Threes!, not 2048", s)
			case s.StageCount() > 1 && s.StageThresholds() == nil:
				return fmt.Errorf("network %s: name the stage thresholds, one per stage, like %s@0,16384,32768 (only @2 has a default, 0,16384)", s, ntuple.Spec{Patterns: s.Patterns, Iso: s.Iso})
			}
			return nil
		},
		Train: learn.Train,
		WriteBlock: func(w io.Writer, done int, b *stats.Block, _ time.Duration) error {
			return b.Write(w, done, stats.Pow2)
		},
	})
	Register(&Game{
		Name: "threes", Title: "Threes!", Code: threes.Code,
		Goal: 13, Rates: []int{12, 13, 14},
		Network:   "4x6+hint",
		Learners:  []learn.Kind{learn.AfterState},
		CheckSpec: threeslearn.CheckSpec,
		Train:     threeslearn.Train,
		// The framework prints every training block as its summary: the
		// slides and placements of the block's games (nine opening
		// placements and one after each slide) over the block's wall time;
		// the slider's and placer's own times are not measured apart.
		WriteBlock: func(w io.Writer, done int, b *stats.Block, wall time.Duration) error {
			return b.WriteThrees(w, done, threes.TileValue, stats.Speed{Slides: b.Moves,
				Placements: b.Moves + threes.OpeningTiles*int64(b.Games), Time: wall.Milliseconds()})
		},
	})
}
