package threeslearn

import (
	"math"
	"math/bits"
	"time"

	"github.com/td2048/td2048/board"
	"github.com/td2048/td2048/game/threes"
	"github.com/td2048/td2048/ntuple"
	"github.com/td2048/td2048/search"
)

// Stage is the stage of net's tables that values an after-state whose
// next tile is hint: hint-1 for a "+hint" network, else 0.
func Stage(net *ntuple.Network, hint int) int {
	if net.Spec().Hint && hint >= 1 {
		return hint - 1
	}
	return 0
}

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

// A Choice is one chosen slide.
type Choice struct {
	Dir    int         // -1 when no slide is legal
	After  board.Board // the after-state
	Reward int         // the slide's reward
	Value  float32     // reward + value of what lies below
}

// Legal reports whether a slide was found.
func (c Choice) Legal() bool { return c.Dir >= 0 }

// NoMove is the choice on a board where no slide is legal.
var NoMove = Choice{Dir: -1, Value: float32(math.Inf(-1))}

// Greedy returns the slide maximising reward + V(after-state), valued with
// the stage of hint (the tile that will be placed next). Ties go to the
// first direction in up, right, down, left order.
func Greedy(net *ntuple.Network, b board.Board, hint int) Choice {
	after, reward := threes.Moves(b)
	k := Stage(net, hint)
	// Every legal after-state valued in one batch, its loads overlapping:
	// the sums equal EstimateStage's bit for bit.
	var legal [4]board.Board
	var value [4]float32
	n := 0
	for d := range 4 {
		if after[d] != b {
			legal[n] = after[d]
			n++
		}
	}
	net.EstimateManyStage(k, legal[:n], value[:n])
	best, i := NoMove, 0
	for d := range 4 {
		if after[d] == b {
			continue
		}
		v := float32(reward[d]) + value[i]
		i++
		if v > best.Value {
			best = Choice{Dir: d, After: after[d], Reward: int(reward[d]), Value: v}
		}
	}
	return best
}

// Options configure a Searcher.
type Options struct {
	// Depth in plies: 1 chooses greedily (reward + V), 2 adds one chance
	// and max layer below each slide, and so on. 0 means 1, or no cap
	// when MoveTime is set.
	Depth int
	// MoveTime, when positive, is a hard deadline per move: Best and
	// ValuesTimed deepen from depth 1 until it passes (or Depth, when set,
	// is reached) and answer with the deepest finished search, abandoning
	// the one under way. Depth 1 always finishes.
	MoveTime time.Duration
	// Stop, when not nil, interrupts searches once it is closed (a
	// context's Done channel, say); Stopped then reports it.
	Stop <-chan struct{}
}

// MaxDepth bounds the depth of a search: the table keys hold depths up
// to 31.
const MaxDepth = 31

// A Searcher runs expectimax for Threes! over one network, for one
// goroutine; several searchers may share one Table.
//
// A max node is a board before a slide with its hint and bag: the best
// over legal slides of reward + the chance node below, 0 when no slide is
// legal (the game is over). A chance node is an after-state with the
// direction of its slide, its hint and its bag: the average over the empty
// cells of the edge opposite the slide, where the hint tile goes, and over
// the tiles of the bag, one of which becomes the next hint, of the max
// node so made. At depth 0 a chance node is the leaf V(after-state) by the
// hint's stage. Placements carry no reward here, as in learning.
//
// The deadline and Stop are checked every 1024 chance nodes, not at each
// leaf: a search overruns them by a few milliseconds at most.
type Searcher struct {
	net      *ntuple.Network
	depth    int // 0: no cap (MoveTime only)
	moveTime time.Duration
	stop     <-chan struct{}
	tt       *search.Table

	deadline time.Time
	timed    bool
	aborted  bool // the search under way was cut short
	stopped  bool // by Stop
	// Nodes counts the chance nodes evaluated, for speed figures.
	Nodes int64
}

// NewSearcher returns a searcher over net; tt may be nil (no table).
func NewSearcher(net *ntuple.Network, opt Options, tt *search.Table) *Searcher {
	depth := opt.Depth
	if depth <= 0 && opt.MoveTime <= 0 {
		depth = 1
	}
	return &Searcher{net: net, depth: min(max(depth, 0), MaxDepth), moveTime: opt.MoveTime, stop: opt.Stop, tt: tt}
}

// Depth is the configured depth (0 when only a time budget bounds it).
func (s *Searcher) Depth() int { return s.depth }

// Stopped reports whether the last search was cut short because Stop was
// closed; its values and choice are then not to be trusted.
func (s *Searcher) Stopped() bool { return s.stopped }

// A MoveValue is one slide's expectimax value.
type MoveValue struct {
	Legal  bool
	After  board.Board
	Reward int
	Value  float32 // the chance node below the after-state
	Total  float32 // Reward + Value
}

// Values returns the value of each slide on the game's board at depth
// plies, the game's hint and bag being known. It ignores MoveTime (see
// ValuesTimed) but not Stop.
func (s *Searcher) Values(g *threes.Game, depth int) [4]MoveValue {
	if !s.timed { // a new search, not one depth of a timed one
		s.stopped = false
		s.aborted = s.stop != nil && s.expired()
	}
	var mv [4]MoveValue
	after, reward := threes.Moves(g.Board)
	for d := range 4 {
		if after[d] == g.Board {
			continue
		}
		v := s.chance(after[d], d, g.Hint, g.Bag, depth-1)
		mv[d] = MoveValue{true, after[d], int(reward[d]), v, float32(reward[d]) + v}
	}
	return mv
}

// ValuesTimed deepens from depth 1 until MoveTime passes (or the depth
// cap is reached) and returns the values of the deepest finished search
// and its depth. Without MoveTime it is Values at the configured depth.
func (s *Searcher) ValuesTimed(g *threes.Game) ([4]MoveValue, int) {
	if s.moveTime <= 0 {
		return s.Values(g, s.depth), s.depth
	}
	start := time.Now()
	best, depth := s.Values(g, 1), 1
	if s.stopped || !legalAny(&best) {
		return best, depth
	}
	limit := MaxDepth
	if s.depth > 0 {
		limit = min(s.depth, MaxDepth)
	}
	s.deadline, s.timed = start.Add(s.moveTime), true
	defer func() { s.timed, s.aborted = false, false }()
	for d := 2; d <= limit; d++ {
		mv := s.Values(g, d)
		if s.aborted {
			break
		}
		best, depth = mv, d
		if time.Now().After(s.deadline) {
			break
		}
	}
	return best, depth
}

func legalAny(mv *[4]MoveValue) bool {
	for _, m := range mv {
		if m.Legal {
			return true
		}
	}
	return false
}

func bestOf(mv *[4]MoveValue) Choice {
	best := NoMove
	for d := range mv {
		if mv[d].Legal && mv[d].Total > best.Value {
			best = Choice{Dir: d, After: mv[d].After, Reward: mv[d].Reward, Value: mv[d].Total}
		}
	}
	return best
}

// Best chooses a slide at the configured depth, or within MoveTime.
func (s *Searcher) Best(g *threes.Game) Choice {
	if s.moveTime > 0 {
		c, _ := s.BestTimed(g)
		return c
	}
	if s.depth == 1 {
		s.stopped = false
		return Greedy(s.net, g.Board, g.Hint)
	}
	mv := s.Values(g, s.depth)
	return bestOf(&mv)
}

// BestTimed chooses a slide by the deepest search finished within
// MoveTime, and returns that depth.
func (s *Searcher) BestTimed(g *threes.Game) (Choice, int) {
	mv, depth := s.ValuesTimed(g)
	return bestOf(&mv), depth
}

// expired reports whether the search must stop: its deadline passed or
// Stop is closed.
func (s *Searcher) expired() bool {
	if s.stop != nil {
		select {
		case <-s.stop:
			s.stopped = true
			return true
		default:
		}
	}
	return s.timed && time.Now().After(s.deadline)
}

func (s *Searcher) chance(after board.Board, last, hint int, bag threes.Bag, depth int) float32 {
	if depth == 0 {
		return Value(s.net, after, hint)
	}
	if s.aborted {
		return 0
	}
	s.Nodes++
	if s.Nodes&1023 == 0 && s.expired() {
		s.aborted = true
		return 0
	}
	aux := uint32(depth) | uint32(last)<<5 | uint32(hint)<<8 | uint32(bag)<<10
	if s.tt != nil {
		if v, ok := s.tt.Get(after, aux); ok {
			return v
		}
	}
	var sum float32
	n := 0
	tile := board.Board(hint)
	for free := threes.Free(after, last); free != 0; free &= free - 1 {
		cell := free & -free
		placed := after | board.Board(cell)*tile
		for m := uint8(bag & threes.FullBag); m != 0; m &= m - 1 {
			next := bits.TrailingZeros8(m) + 1
			sum += s.node(placed, next, bag.Take(next), depth)
			n++
		}
	}
	var v float32
	if n > 0 {
		v = sum / float32(n)
	}
	if s.tt != nil && !s.aborted {
		s.tt.Put(after, aux, v)
	}
	return v
}

// node is a max node: the best of reward + chance below over the legal
// slides of b, whose hint and bag are given; 0 when none is legal.
func (s *Searcher) node(b board.Board, hint int, bag threes.Bag, depth int) float32 {
	if depth == 1 {
		// Leaves below: the greedy choice, its loads batched.
		if c := Greedy(s.net, b, hint); c.Legal() {
			return c.Value
		}
		return 0
	}
	after, reward := threes.Moves(b)
	best := float32(math.Inf(-1))
	for d := range 4 {
		if after[d] == b {
			continue
		}
		best = max(best, float32(reward[d])+s.chance(after[d], d, hint, bag, depth-1))
	}
	if math.IsInf(float64(best), -1) {
		return 0
	}
	return best
}
