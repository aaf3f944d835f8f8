// Package games is the registry of the games td2048 plays: one descriptor
// per game, which the faces (the command, the terminal view, the web page,
// the plots) ask for everything that differs between games, so that none of
// them holds a per-game fact or branch.
//
// A descriptor names the game and its tiles, says which networks and
// learners fit it, and how to train, evaluate and replay it; the rules
// themselves live in the game's own package (rules/game2048 for 2048,
// rules/threes for Threes!). A new game (a 3x3 2048, another spawn rule) is a rules
// package, its session rules and one descriptor registered here.
package games

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/td2048/td2048/board"
	"github.com/td2048/td2048/learn"
	"github.com/td2048/td2048/ntuple"
	"github.com/td2048/td2048/search"
	"github.com/td2048/td2048/session"
	"github.com/td2048/td2048/stats"
)

// A Game describes one game.
type Game struct {
	// Name is the game's name in flags, weight files and logs ("2048").
	Name string
	// Title is its name for people ("Threes!").
	Title string
	// Code maps tile indices, as boards hold them, to tile values.
	Code board.Code
	// Goal is the tile index whose reach rate is a run's headline (2048,
	// or 3072 in Threes!), and Rates the indices whose reach rates plots
	// and summaries show first.
	Goal  int
	Rates []int
	// Network is the default network spec.
	Network string
	// File is the weights file the commands save to and load from when
	// none is named (weights.td2048, threes.td2048), so that the games'
	// runs in one folder never collide; its metrics log is beside it
	// (threes.jsonl).
	File string
	// Learners are the learner kinds that fit the game, the default first.
	Learners []learn.Kind
	// CheckSpec refuses networks the game cannot use.
	CheckSpec func(ntuple.Spec) error
	// Train trains a network on the game (learn.Train's contract).
	Train func(context.Context, *ntuple.Network, learn.Config) (learn.RunState, learn.Result, error)
	// Move is what a move is called in the game's messages ("slide").
	Move string
	// HasNext: the player sees the next tile (Threes!), and a position
	// carries it and the bag it was drawn from (package session).
	HasNext bool
	// Parse reads a board as people write it (hint's argument): the board
	// the network reads, and a note for people when that is not the board
	// as written (2048's tiles past 32768, read as the board's view).
	Parse func(s string) (b board.Board, note string, err error)
	// ParseState reads a board as the game's states write it (the web
	// page's): the position's board, and 2048's extra plane past 32768.
	ParseState func(s string) (session.Position, error)
	// Position is the position of board b with the next tile the player
	// sees (0 in a game without one); below the first ply the tiles after
	// it are taken as drawn from a full bag.
	Position func(b board.Board, next int) (session.Position, error)
	// moves are the rules' slides of a board: each direction's after-state
	// (b itself when the slide is illegal) and reward.
	moves func(b board.Board) (after [4]board.Board, reward [4]int)
	// spawns is the mask (bit 4i for cell i) of the cells where the new
	// tile may go after the slide d that made after.
	spawns func(after board.Board, d int) uint64
	// stageOf is the stage of net that values board b when the next tile
	// is next (0 in a game without one), as the game's searches pick it.
	stageOf func(net *ntuple.Network, b board.Board, next int) int
	// NewAdvisor values positions' moves with net (package search).
	NewAdvisor func(net *ntuple.Network, opt search.Options, tt *search.Table) Advisor
	// Evaluate plays an evaluation. Cancelling ctx abandons the games
	// under way at their next move.
	Evaluate func(ctx context.Context, cfg EvalConfig) (Evaluation, error)
	// Downgrades: its tiles can be downgraded in evaluations
	// (EvalConfig.Downgrade: 2048's powers of two).
	Downgrades bool
	// StatsFile: the game's course keeps a statistics file of whole games
	// (EvalConfig.Stats).
	StatsFile bool
	// Interleaves: its after-state training and its greedy evaluations
	// can play several games in turn on each thread (learn.Config's and
	// evaluate.Config's Interleave).
	Interleaves bool
	// Shapes: its training can be shaped into sub-episodes (learn's
	// restart and carousel shaping).
	Shapes bool
	// WriteEval prints an evaluation's statistics in the course's format.
	WriteEval func(w io.Writer, ev *Evaluation) error
	// WriteBlock prints a training block of episodes in the game's course
	// format: the course demo's block for 2048, the course framework's
	// summary for Threes!; wall is the block's wall time.
	WriteBlock func(w io.Writer, done int, b *stats.Block, wall time.Duration) error
}

// Value is the value of tile index i (0 for an empty cell).
func (g *Game) Value(i int) int { return max(g.Code.Value(i), 0) }

// GoalValue is the value of the goal tile.
func (g *Game) GoalValue() int { return g.Value(g.Goal) }

// CheckLearner refuses a learner kind the game does not support.
func (g *Game) CheckLearner(k learn.Kind) error {
	if slices.Contains(g.Learners, k) {
		return nil
	}
	return fmt.Errorf("%s learns %s values only", g.Title, g.Learners[0])
}

// registry holds the games in the order Names lists them, the default
// first (list.go).
var registry = []*Game{game2048, gameThrees}

// Default is the game played when none is named.
const Default = session.Game2048

// Lookup returns the game of that name ("" for Default).
func Lookup(name string) (*Game, error) {
	if name == "" {
		name = Default
	}
	for _, g := range registry {
		if g.Name == name {
			return g, nil
		}
	}
	return nil, fmt.Errorf("unknown game %q: want %s", name, strings.Join(Names(), " or "))
}

// MustLookup is Lookup for names known to be registered.
func MustLookup(name string) *Game {
	g, err := Lookup(name)
	if err != nil {
		panic(err)
	}
	return g
}

// Names lists the games' names, the default first.
func Names() []string {
	var n []string
	for _, g := range registry {
		n = append(n, g.Name)
	}
	return n
}

// All lists the games in Names' order.
func All() []*Game { return slices.Clone(registry) }
