package evalrun

import (
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
	return nil
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
// weights file's (GameOfFile); tile-downgrading is refused in a game with
// no tiles of 2048's kind to lower.
func (p *Play) GameOf(given train.Given) (*games.Game, error) {
	g, err := GameOfFile(p.Game, given["game"], p.Load)
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
	return l, err
}
