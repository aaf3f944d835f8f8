package main

import (
	"context"
	"fmt"

	"github.com/td2048/td2048/game/threes"
	"github.com/td2048/td2048/learn"
	"github.com/td2048/td2048/ntuple"
	"github.com/td2048/td2048/stats"
	"github.com/td2048/td2048/threeslearn"
)

// gameFace is what the commands need to know of a game.
type gameFace struct {
	name, title string
	goal        int // tile index of the headline rate: 2048, or 3072 in Threes!
	value       func(int) int
	checkSpec   func(ntuple.Spec) error
	train       func(context.Context, *ntuple.Network, learn.Config) (learn.RunState, learn.Result, error)
}

var games = map[string]*gameFace{
	"2048": {
		name: "2048", title: "2048", goal: 11, value: stats.Pow2,
		checkSpec: func(s ntuple.Spec) error {
			switch {
			case s.Hint:
				return fmt.Errorf("network %s: +hint networks are for Threes!, not 2048", s)
			case s.StageCount() > 1:
				return fmt.Errorf("network %s: multi-stage 2048 networks are not supported yet", s)
			}
			return nil
		},
		train: learn.Train,
	},
	"threes": {
		name: "threes", title: "Threes!", goal: 13, value: threes.TileValue,
		checkSpec: threeslearn.CheckSpec, train: threeslearn.Train,
	},
}

func gameOf(name string) (*gameFace, error) {
	if name == "" { // --game not given and no file to take it from
		name = "2048"
	}
	g := games[name]
	if g == nil {
		return nil, usagef("--game %q: want 2048 or threes", name)
	}
	return g, nil
}
