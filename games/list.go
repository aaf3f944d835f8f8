package games

import (
	"fmt"

	"github.com/td2048/td2048/board"
	"github.com/td2048/td2048/game/threes"
	"github.com/td2048/td2048/learn"
	"github.com/td2048/td2048/ntuple"
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
			case s.StageCount() > 1:
				return fmt.Errorf("network %s: multi-stage 2048 networks are not supported yet", s)
			}
			return nil
		},
		Train: learn.Train,
	})
	Register(&Game{
		Name: "threes", Title: "Threes!", Code: threes.Code,
		Goal: 13, Rates: []int{12, 13, 14},
		Network:   "4x6+hint",
		Learners:  []learn.Kind{learn.AfterState},
		CheckSpec: threeslearn.CheckSpec,
		Train:     threeslearn.Train,
	})
}
