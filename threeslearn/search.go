package threeslearn

import (
	"github.com/td2048/td2048/board"
	"github.com/td2048/td2048/ntuple"
	"github.com/td2048/td2048/search"
)

// The Threes! search lives in package search, beside 2048's; these names
// are the ones Threes! callers know it by.
type (
	Choice    = search.Choice
	Options   = search.Options
	MoveValue = search.MoveValue
	Searcher  = search.Threes
)

// NoMove is the choice on a board where no slide is legal.
var NoMove = search.NoMove

// MaxDepth bounds the depth of a search.
const MaxDepth = search.MaxDepth

// NewSearcher is search.NewThrees.
func NewSearcher(net *ntuple.Network, opt Options, tt *search.Table) *Searcher {
	return search.NewThrees(net, opt, tt)
}

// Stage is search.ThreesStage.
func Stage(net *ntuple.Network, hint int) int { return search.ThreesStage(net, hint) }

// CheckSpec reports whether a network can play Threes!: a plain network
// (one stage) or a "+hint" one (a stage per hint value).
func CheckSpec(spec ntuple.Spec) error {
	if spec.StageCount() > 1 && !spec.Hint {
		return errorf("network %s: Threes! uses plain networks or +hint ones (a stage per hint), not %d stages", spec, spec.StageCount())
	}
	return nil
}

// Value is V(after) for an after-state whose next tile is hint.
func Value(net *ntuple.Network, after board.Board, hint int) float32 {
	return net.EstimateStage(Stage(net, hint), after)
}

// Greedy is search.GreedyThrees.
func Greedy(net *ntuple.Network, b board.Board, hint int) Choice {
	return search.GreedyThrees(net, b, hint)
}
