package games

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/td2048/td2048/board"
	"github.com/td2048/td2048/evaluate"
	"github.com/td2048/td2048/learn"
	"github.com/td2048/td2048/ntuple"
	game20481 "github.com/td2048/td2048/rules/game2048"
	"github.com/td2048/td2048/rules/threes"
	"github.com/td2048/td2048/search"
	"github.com/td2048/td2048/session"
	"github.com/td2048/td2048/stats"
)

// game2048 is 2048's descriptor.
var game2048 = &Game{
	Name: session.Game2048, Title: "2048", Code: board.Pow2,
	Goal: 11, Rates: []int{11, 12, 13, 14, 15, 16},
	Network:  "4x6",
	File:     "weights.td2048",
	Learners: []learn.Kind{learn.AfterState, learn.State},
	Move:     "move",
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
	moves: func(b board.Board) (after [4]board.Board, reward [4]int) {
		after, r := game20481.Moves(b)
		for d := range 4 {
			reward[d] = game20481.Reward(r[d])
		}
		return after, reward
	},
	spawns:  func(after board.Board, _ int) uint64 { return after.EmptyMask() },
	stageOf: func(net *ntuple.Network, b board.Board, _ int) int { return net.StageOf(b) },
	ParseState: func(s string) (session.Position, error) {
		w, err := board.ParseWide(s)
		return session.Position{Board: w.Low, Ext: w.Ext}, err
	},
	Parse: func(s string) (board.Board, string, error) {
		wide, err := board.ParseWide(s)
		if err != nil {
			return 0, "", err
		}
		// Tiles past 32768: the moves are those of the board's view,
		// the board the network reads (its large tiles lowered into gaps).
		b, _ := wide.View(0)
		if wide.Ext != 0 {
			return b, fmt.Sprintf("tiles past 32768: valued as the board's view, its large tiles lowered into the gaps below them\n%s", wide), nil
		}
		return b, "", nil
	},
	Position: func(b board.Board, next int) (session.Position, error) {
		if next != 0 {
			return session.Position{}, errors.New("2048 has no next tile")
		}
		return session.Position{Board: b}, nil
	},
	// The advisors value the moves of p's view: past 32768 the board with
	// its large tiles lowered into gaps (its moves are p's).
	NewAdvisor: func(net *ntuple.Network, opt search.Options, tt *search.Table) Advisor {
		if opt.Method == search.MethodMCTS {
			s := search.NewMCTS(net, opt)
			return advisor{func(p session.Position) ([4]search.MoveValue, int) { return s.Values(p.View()) }, s.Stopped}
		}
		s := search.NewSearcher(net, opt, tt)
		return advisor{func(p session.Position) ([4]search.MoveValue, int) { return s.ValuesTimed(p.View()) }, s.Stopped}
	},
	Evaluate: func(ctx context.Context, cfg EvalConfig) (Evaluation, error) {
		ec := cfg.Config
		ec.Greedy, ec.NewPolicy, ec.NewThreesPolicy = nil, nil, nil // the game's own, below
		if Greedy(cfg.Search) {
			ec.Greedy = cfg.Net
		} else if cfg.Search.Method == search.MethodMCTS {
			ec.NewPolicy = func() evaluate.Policy { return search.NewMCTS(cfg.Net, cfg.Search).Best }
		} else {
			ec.NewPolicy = func() evaluate.Policy { return search.NewSearcher(cfg.Net, cfg.Search, cfg.Table).Best }
		}
		return evaluate.Run(ctx, ec)
	},
	Downgrades:  true,
	Interleaves: true,
	Shapes:      true,
	WriteEval:   func(w io.Writer, ev *Evaluation) error { return ev.Block.Write(w, ev.Block.Games, stats.Pow2) },
	WriteBlock: func(w io.Writer, done int, b *stats.Block, _ time.Duration) error {
		return b.Write(w, done, stats.Pow2)
	},
}

// gameThrees is Threes!' descriptor.
var gameThrees = &Game{
	Name: session.GameThrees, Title: "Threes!", Code: threes.Code,
	Goal: 13, Rates: []int{12, 13, 14},
	Network:   "4x6+hint",
	File:      "threes.td2048",
	Learners:  []learn.Kind{learn.AfterState},
	Move:      "slide",
	HasNext:   true,
	CheckSpec: learn.CheckThreesSpec,
	Train:     learn.TrainThrees,
	moves: func(b board.Board) (after [4]board.Board, reward [4]int) {
		after, r := threes.Moves(b)
		for d := range 4 {
			reward[d] = int(r[d])
		}
		return after, reward
	},
	spawns:  func(after board.Board, d int) uint64 { return threes.Free(after, d) },
	stageOf: func(net *ntuple.Network, _ board.Board, next int) int { return search.ThreesStage(net, next) },
	ParseState: func(s string) (session.Position, error) {
		b, err := threes.Parse(s)
		return session.Position{Board: b}, err
	},
	Parse: func(s string) (board.Board, string, error) {
		b, err := threes.Parse(s)
		return b, "", err
	},
	Position: func(b board.Board, next int) (session.Position, error) {
		if next < 1 || next > 3 {
			return session.Position{}, errors.New("want the next tile, 1, 2 or 3")
		}
		return session.Position{Board: b, Next: next, Bag: threes.FullBag}, nil
	},
	NewAdvisor: func(net *ntuple.Network, opt search.Options, tt *search.Table) Advisor {
		if opt.Method == search.MethodMCTS {
			s := search.NewMCTSThrees(net, opt)
			return advisor{func(p session.Position) ([4]search.MoveValue, int) {
				g := p.ThreesGame()
				return s.Values(&g)
			}, s.Stopped}
		}
		s := search.NewThrees(net, opt, tt)
		return advisor{func(p session.Position) ([4]search.MoveValue, int) {
			g := p.ThreesGame()
			return s.ValuesTimed(&g)
		}, s.Stopped}
	},
	Evaluate: func(ctx context.Context, cfg EvalConfig) (Evaluation, error) {
		if cfg.Downgrade.On() {
			return Evaluation{}, errors.New("Threes! has no tiles to downgrade")
		}
		ec := cfg.Config
		ec.NewThreesPolicy = func() evaluate.ThreesPolicy { return evaluate.GreedyThreesPolicy(cfg.Net) }
		if cfg.Search.Method == search.MethodMCTS {
			ec.NewThreesPolicy = func() evaluate.ThreesPolicy { return search.NewMCTSThrees(cfg.Net, cfg.Search).Best }
		} else if !Greedy(cfg.Search) {
			ec.NewThreesPolicy = func() evaluate.ThreesPolicy { return search.NewThrees(cfg.Net, cfg.Search, cfg.Table).Best }
		}
		return evaluate.Run(ctx, ec)
	},
	StatsFile: true,
	WriteEval: func(w io.Writer, ev *Evaluation) error {
		return ev.Block.WriteThrees(w, ev.Block.Games, threes.TileValue, *ev.Speed)
	},
	// The framework prints every training block as its summary: the
	// slides and placements of the block's games (nine opening
	// placements and one after each slide) over the block's wall time;
	// the slider's and placer's own times are not measured apart.
	WriteBlock: func(w io.Writer, done int, b *stats.Block, wall time.Duration) error {
		return b.WriteThrees(w, done, threes.TileValue, stats.Speed{Slides: b.Moves,
			Placements: b.Moves + threes.OpeningTiles*int64(b.Games), Time: wall.Milliseconds()})
	},
}

// advisor is an Advisor of a search's values of a position and its
// Stopped.
type advisor struct {
	values  func(session.Position) ([4]search.MoveValue, int)
	stopped func() bool
}

func (a advisor) Values(p session.Position) ([4]search.MoveValue, int) { return a.values(p) }
func (a advisor) Stopped() bool                                        { return a.stopped() }
