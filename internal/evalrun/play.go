package evalrun

import (
	"fmt"
	"time"

	"github.com/td2048/td2048/games"
	"github.com/td2048/td2048/internal/train"
	"github.com/td2048/td2048/learn"
	"github.com/td2048/td2048/netfile"
	"github.com/td2048/td2048/ntuple"
	"github.com/td2048/td2048/search"
)

// Complete gives the weights, when given does not name them, the file of
// the game (each game its own, as train saves them; the default game's
// when none is named).
func (p *Play) Complete(given train.Given) {
	if !given["load"] {
		if g, err := games.Lookup(p.Game); err == nil {
			p.Load = g.File
		}
	}
}

// Check checks the settings of p alone, before any file is read: a depth
// of 1 to maxDepth, a time of a move not negative, tile-downgrading, a
// game td2048 knows. The error is a *train.FieldError.
func (p *Play) Check(given train.Given, maxDepth int) error {
	switch {
	case given["load"] && p.Load == "":
		return bad("load", ": an empty value; leave it out for the game's own file")
	case given["game"] && p.Game == "":
		return bad("game", ": an empty value; leave it out for the weights file's game")
	case p.Depth < 1 || p.Depth > maxDepth:
		return bad("depth", " must be 1 to %d", maxDepth)
	case p.MoveTime < 0:
		return bad("move_time", " must not be negative")
	}
	if err := p.Downgrading().Check(); err != nil {
		return bad("downgrade", "/--stint: %v", err)
	}
	if p.Downgrade == 0 && given["stint"] {
		return bad("stint", " needs --downgrade")
	}
	if _, err := games.Lookup(p.Game); err != nil {
		return bad("game", ": %v", err)
	}
	return p.MCTS.Check(given, p.MoveTime > 0)
}

// Table is the transposition table of a search of s's cache size (one
// shared by a face's searches), nil for MCTS, whose trees are their own.
func (s *Search) Table() *search.Table {
	if s.On() {
		return nil
	}
	return search.NewTable(int64(s.Cache))
}

// MCTSKeys are the keys of MCTS's settings (but the method's, search).
var MCTSKeys = []string{"iterations", "exploration", "rollout_depth", "gamma"}

// On reports whether MCTS was asked for.
func (m *MCTS) On() bool { return m.Method == "mcts" }

// Check checks the method and MCTS's settings, given naming those set;
// timed says a move has a time.
func (m *MCTS) Check(given train.Given, timed bool) error {
	if _, err := search.ParseMethod(m.Method); err != nil {
		return bad("search", ": %v", err)
	}
	if !m.On() {
		for _, k := range MCTSKeys {
			if given[k] {
				return bad(k, " needs --search mcts")
			}
		}
		return nil
	}
	if m.Iterations == 0 {
		return bad("iterations", " must be 1 or more (with --move-time, leave it out to search until the time passes)")
	}
	if err := m.options(0).Check(timed); err != nil {
		return bad("search", " mcts: %v", err)
	}
	return nil
}

func (m *MCTS) options(seed uint64) search.MCTSOptions {
	return search.MCTSOptions{Iterations: m.Iterations, Exploration: m.Exploration, RolloutDepth: m.RolloutDepth, Gamma: m.Gamma, Seed: seed}
}

// Apply sets the method and MCTS's settings in o, with seed. Where
// o.MoveTime is a budget (budget; not only a deadline) the time decides
// how many iterations a move gets, unless given names them.
func (m *MCTS) Apply(o *search.Options, seed uint64, budget bool, given train.Given) {
	if !m.On() {
		return
	}
	o.Method, o.MCTS = search.MethodMCTS, m.options(seed)
	if budget && o.MoveTime > 0 && !given["iterations"] {
		o.MCTS.Iterations = 0
	}
}

// CheckKind refuses MCTS on weights of state values: MCTS values
// after-states.
func (m *MCTS) CheckKind(k search.Kind) error {
	if m.On() && k != search.AfterState {
		return bad("search", " mcts values after-states; these weights hold %s values (search them by expectimax)", k)
	}
	return nil
}

// Describe says how MCTS searches, with a move time of moveTime, a move
// being called move.
func (m *MCTS) Describe(move string, moveTime time.Duration, given train.Given) string {
	its := fmt.Sprintf("%d iterations a %s", m.Iterations, move)
	if moveTime > 0 {
		its = fmt.Sprintf("%v a %s", moveTime, move)
		if given["iterations"] {
			its += fmt.Sprintf(", at most %d iterations", m.Iterations)
		}
	}
	return fmt.Sprintf("MCTS, %s, exploration %v, rollouts of %d %ss, gamma %v", its, m.Exploration, m.RolloutDepth, move, m.Gamma)
}

// Downgrading is the tile-downgrading asked for (off when not).
func (p *Play) Downgrading() search.Downgrade {
	if p.Downgrade == 0 {
		return search.Downgrade{}
	}
	return search.Downgrade{Tile: p.Downgrade, Stint: p.Stint}
}

// Weights is how the weights are to be held (netfile.LoadPlay): by
// default 16-bit for large networks but those staged by tiles (which lose
// score at 2 plies), 16-bit for every large one when --compact is given.
func (p *Play) Weights(given train.Given) netfile.Weights {
	switch {
	case !p.Compact:
		return netfile.Float32
	case given["compact"]:
		return netfile.Compact
	}
	return netfile.CompactUnstaged
}

// GameOf is the game of the weights: the one --game names, else the
// weights file's (a game it names that td2048 does not know is the
// file's error, not a usage error), else the default game.
// Tile-downgrading is refused in a game with no tiles of 2048's kind.
func (p *Play) GameOf(given train.Given) (*games.Game, error) {
	g, err := games.Lookup(p.Game)
	if err != nil {
		err = bad("game", ": %v", err)
	}
	if !given["game"] {
		if h, herr := netfile.ReadHeader(p.Load); herr == nil && h.Game != "" {
			if g, err = games.Lookup(h.Game); err != nil {
				err = fmt.Errorf("%s: %v", p.Load, err)
			}
		}
	}
	if err == nil && p.Downgrade != 0 && !g.Downgrades {
		err = bad("downgrade", " lowers tiles of 2048's kind; %s has none to lower", g.Title)
	}
	return g, err
}

// Loaded are weights loaded to play: their game, network and file header,
// the learner, and a note for people when they are not held as asked.
type Loaded struct {
	Game   *games.Game
	Net    *ntuple.Network
	Header netfile.Header
	Kind   learn.Kind
	Note   string
}

// Open loads the weights of p (checked, Check) for their game (GameOf).
func (p *Play) Open(given train.Given) (Loaded, error) {
	var l Loaded
	var err error
	if l.Game, err = p.GameOf(given); err != nil {
		return l, err
	}
	l.Net, l.Header, l.Kind, l.Note, err = Load(p.Load, l.Game, p.Weights(given))
	if err == nil {
		if err = p.CheckKind(l.Kind); err != nil {
			l.Net.Free()
			l.Net = nil
		}
	}
	return l, err
}
