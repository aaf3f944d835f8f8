package search

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/td2048/td2048/board"
	"github.com/td2048/td2048/ntuple"
	"github.com/td2048/td2048/rules/game2048"
	"github.com/td2048/td2048/rules/threes"
)

func mctsOpt(iters, threads int, seed uint64) Options {
	mo := DefaultMCTS()
	mo.Iterations, mo.Seed = iters, seed
	return Options{Method: MethodMCTS, MCTS: mo, Threads: threads}
}

func threesNet(seed uint64) *ntuple.Network {
	net := ntuple.MustNew("01,45+hint")
	rng := rand.New(rand.NewPCG(seed, seed))
	for i := range net.Weights() {
		net.Weights()[i] = float32(rng.IntN(64)) / 8
	}
	return net
}

// threesAt is a Threes! game at board b, a slide due, next tile next.
func threesAt(t *testing.T, s string, next int) threes.Game {
	t.Helper()
	b, err := threes.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return threes.Game{Board: b, Next: next, Bag: threes.FullBag, Last: threes.Anywhere, Actions: threes.OpeningTiles}
}

// On a board with one legal move, MCTS plays it, and only it has visits.
func TestMCTSOneLegalMove(t *testing.T) {
	net := tinyNet(3)
	b, _ := board.Parse("2,4,2,4, 4,2,4,2, 2,4,2,4, 0,0,0,0") // down only
	for _, threads := range []int{1, 2} {
		mv, _ := NewMCTS(net, mctsOpt(50, threads, 1)).Values(b)
		c := BestOf(&mv)
		if c.Dir != game2048.Down || mv[game2048.Down].Visits != 50 {
			t.Fatalf("2048, %d threads: %+v", threads, mv)
		}
	}
	tn := threesNet(3)
	g := threesAt(t, "3,6,3,6, 6,3,6,3, 3,6,3,6, 0,0,0,0", 2) // down only
	for _, threads := range []int{1, 2} {
		mv, _ := NewMCTSThrees(tn, mctsOpt(50, threads, 1)).Values(&g)
		if c := BestOf(&mv); c.Dir != threes.Down || mv[threes.Down].Visits != 50 {
			t.Fatalf("Threes!, %d threads: %+v", threads, mv)
		}
	}
}

// mctsError is the difference between MCTS's root totals and
// expectimax's, relative to expectimax's best: of expectimax's best move,
// and the largest over the legal moves.
func mctsError(t *testing.T, want, got [4]MoveValue) (best, worst float64) {
	t.Helper()
	c := BestOf(&want)
	if g := BestOf(&got); g.Dir != c.Dir {
		t.Errorf("MCTS chose %d, expectimax %d: %+v, %+v", g.Dir, c.Dir, got, want)
	}
	for d := range 4 {
		if want[d].Legal != got[d].Legal {
			t.Fatalf("legal moves differ: %+v, %+v", want, got)
		}
		if want[d].Legal {
			e := math.Abs(float64(want[d].Total-got[d].Total)) / float64(c.Value)
			worst = max(worst, e)
			if d == c.Dir {
				best = e
			}
		}
	}
	return best, worst
}

// With the tree capped at expectimax's depth, no rollout and no discount,
// MCTS's root values tend to expectimax's as the iterations grow: its
// chance nodes sample what expectimax averages, and UCT's visits go to
// the best moves. The bounds are loose: the best move's value within 1%
// at 100,000 iterations and closer than at 300, and the others' within
// 10% (UCT visits a worse move about logarithmically often, so its value
// converges slowly).
func TestMCTSConvergesToExpectimax(t *testing.T) {
	if testing.Short() {
		t.Skip("a few seconds")
	}
	check := func(name string, exact [4]MoveValue, values func(iters int) [4]MoveValue) {
		t.Helper()
		few, _ := mctsError(t, exact, values(300))
		best, worst := mctsError(t, exact, values(100000))
		t.Logf("%s: best move's relative error %.4f at 300 iterations, %.4f at 100000 (worst move %.4f)", name, few, best, worst)
		if best > 0.01 || best >= few || worst > 0.1 {
			t.Errorf("%s: best move's relative error %.4f at 300 iterations, %.4f at 100000 (worst move %.4f)", name, few, best, worst)
		}
	}
	net := tinyNet(7)
	b, _ := board.Parse("2,8,4,0, 4,16,2,0, 8,2,32,4, 2,4,8,2")
	exact := NewSearcher(net, Options{Depth: 2}, nil).Values(b, 2)
	check("2048", exact, func(iters int) [4]MoveValue {
		o := mctsOpt(iters, 1, 9)
		o.MCTS.RolloutDepth, o.MCTS.Gamma, o.MCTS.Nodes = 0, 1, 1<<21
		m := NewMCTS(net, o)
		m.mcts.cap = 2
		mv, _ := m.Values(b)
		return mv
	})
	tn := threesNet(7)
	g := threesAt(t, "1,3,6,0, 2,3,12,1, 6,1,0,3, 3,0,2,6", 3)
	exactT := NewThrees(tn, Options{Depth: 2}, nil).Values(&g, 2)
	check("Threes!", exactT, func(iters int) [4]MoveValue {
		o := mctsOpt(iters, 1, 9)
		o.MCTS.RolloutDepth, o.MCTS.Gamma, o.MCTS.Nodes = 0, 1, 1<<21
		m := NewMCTSThrees(tn, o)
		m.mcts.cap = 2
		mv, _ := m.Values(&g)
		return mv
	})
}

// The same seed gives the same values and moves, game after game, with
// one thread or a team; the seed matters.
func TestMCTSSameSeedSameMoves(t *testing.T) {
	net, tn := tinyNet(11), threesNet(11)
	for _, threads := range []int{1, 2, 3} {
		play := func(seed uint64) (moves []int, values [][4]MoveValue) {
			s := NewMCTS(net, mctsOpt(200, threads, seed))
			ts := NewMCTSThrees(tn, mctsOpt(200, threads, seed))
			rng := rand.New(rand.NewPCG(1, 2))
			b, g := game2048.Start(rng), threes.Start(rng)
			for range 20 {
				mv, _ := s.Values(b)
				c := BestOf(&mv)
				tv, _ := ts.Values(&g)
				tc := BestOf(&tv)
				if !c.Legal() || !tc.Legal() {
					break
				}
				moves, values = append(moves, c.Dir, tc.Dir), append(values, mv, tv)
				b = game2048.Spawn(c.After, rng)
				g.SlideTo(tc.After, tc.Dir)
				g.PlaceRandom(rng)
			}
			return
		}
		m1, v1 := play(5)
		m2, v2 := play(5)
		_, v3 := play(6)
		for i := range v1 {
			if v1[i] != v2[i] || m1[i] != m2[i] {
				t.Fatalf("%d threads, move %d: %+v, then %+v", threads, i, v1[i], v2[i])
			}
		}
		same := true
		for i := range v1 {
			same = same && v1[i] == v3[i]
		}
		if same {
			t.Errorf("%d threads: seeds 5 and 6 gave the same values", threads)
		}
	}
}

// With a network of zeros MCTS plays by the rewards alone: with the tree
// one move deep and no rollout a move's total is its reward; a rollout
// adds the rewards of the greedy moves after it (a greedy move of a zero
// network is the merge worth most); and the whole tree plays the merge
// worth most.
func TestMCTSZeroNetworkPlaysByRewards(t *testing.T) {
	zero := ntuple.MustNew("01,45")
	zeroT := ntuple.MustNew("01,45+hint")
	b, _ := board.Parse("512,512,2,0, 4,8,16,32, 2,4,8,16, 4,2,4,8")
	g := threesAt(t, "96,96,1,0, 3,6,12,24, 6,12,24,48, 12,24,48,3", 1)
	for _, depth := range []int{0, 10} {
		o := mctsOpt(400, 1, 3)
		o.MCTS.RolloutDepth = depth
		m := NewMCTS(zero, o)
		m.mcts.cap = 1
		mv, _ := m.Values(b)
		mt := NewMCTSThrees(zeroT, o)
		mt.mcts.cap = 1
		tv, _ := mt.Values(&g)
		for d := range 4 {
			if depth == 0 && (mv[d].Value != 0 || mv[d].Total != float32(mv[d].Reward) || tv[d].Value != 0 || tv[d].Total != float32(tv[d].Reward)) {
				t.Fatalf("zero network, one move deep, %s: 2048 %+v, Threes! %+v", dirName[d], mv[d], tv[d])
			}
			// Up and down leave the 512s for a rollout's greedy move.
			if depth > 0 && mv[d].Legal && mv[d].Total < 1024*0.99 {
				t.Errorf("2048, rollout %d, %s: %+v, the 1024 merge missed", depth, dirName[d], mv[d])
			}
		}
		if depth > 0 {
			continue
		}
		if c := BestOf(&mv); c.Dir != game2048.Left && c.Dir != game2048.Right || c.Points() < 1024 {
			t.Errorf("2048, one move deep: played %+v, not the 1024 merge", c)
		}
		if c := BestOf(&tv); c.Dir != threes.Left || c.Reward == 0 {
			t.Errorf("Threes!, one move deep: played %+v, not the 192 merge", c)
		}
		// The whole tree: the merge now, or kept for the next move.
		if c := NewMCTS(zero, o).Best(b); c.Value < 1024*0.99 {
			t.Errorf("2048: played %+v, worth less than the 1024 merge", c)
		}
		if c := NewMCTSThrees(zeroT, o).Best(&g); c.Value < 192*0.99 {
			t.Errorf("Threes!: played %+v, worth less than the 192 merge", c)
		}
	}
}

var dirName = [4]string{"up", "right", "down", "left"}

// A move time ends the search, which answers with every move tried; Stop
// cuts it short.
func TestMCTSMoveTimeAndStop(t *testing.T) {
	net := tinyNet(2)
	b, _ := board.Parse("2,0,0,0, 0,4,0,0, 0,0,2,0, 0,0,0,0")
	o := mctsOpt(0, 2, 1)
	o.MoveTime = 20 * time.Millisecond
	s := NewMCTS(net, o)
	mv, _ := s.Values(b)
	for d := range 4 {
		if mv[d].Legal && mv[d].Visits == 0 {
			t.Fatalf("move %d not tried: %+v", d, mv)
		}
	}
	stop := make(chan struct{})
	close(stop)
	o.Stop, o.MoveTime, o.MCTS.Iterations = stop, 0, 1<<20
	s = NewMCTS(net, o)
	s.Values(b)
	if !s.Stopped() || s.Iterations() > 64 {
		t.Fatalf("stopped %v after %d iterations", s.Stopped(), s.Iterations())
	}
}

// The pool is reused: searching a move allocates nothing once it has
// grown.
func TestMCTSNoAllocations(t *testing.T) {
	net, tn := tinyNet(4), threesNet(4)
	b, _ := board.Parse("2,0,0,0, 0,4,0,0, 0,0,2,0, 0,0,0,0")
	g := threesAt(t, "1,3,6,0, 2,3,12,1, 6,1,0,3, 3,0,2,6", 3)
	s, ts := NewMCTS(net, mctsOpt(300, 1, 1)), NewMCTSThrees(tn, mctsOpt(300, 1, 1))
	s.Values(b)
	ts.Values(&g)
	if n := testing.AllocsPerRun(5, func() { s.Values(b); ts.Values(&g) }); n != 0 {
		t.Fatalf("%v allocations a search", n)
	}
}

func TestMCTSOptionsCheck(t *testing.T) {
	good := DefaultMCTS()
	if err := good.Check(false); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []func(*MCTSOptions){
		func(o *MCTSOptions) { o.Iterations = 0 },
		func(o *MCTSOptions) { o.Exploration = -1 },
		func(o *MCTSOptions) { o.Exploration = math.NaN() },
		func(o *MCTSOptions) { o.RolloutDepth = -1 },
		func(o *MCTSOptions) { o.Gamma = 0 },
		func(o *MCTSOptions) { o.Gamma = 1.5 },
	} {
		o := good
		bad(&o)
		if o.Check(false) == nil {
			t.Errorf("%+v passed", o)
		}
	}
	o := good
	o.Iterations = 0
	if o.Check(true) != nil {
		t.Error("0 iterations refused with a move time")
	}
}

// BenchmarkMCTS is one move of MCTS at the course's settings on a 4x6
// network (arbitrary weights), from a mid-game board.
func BenchmarkMCTS(b *testing.B) {
	net := ntuple.MustNew("4x6")
	defer net.Free()
	w := net.Weights()
	for i := range w {
		w[i] = float32(i * 7919 % 1000)
	}
	pos, _ := board.Parse("2,4,8,16, 0,2,4,8, 0,0,2,4, 0,0,0,2")
	s := NewMCTS(net, mctsOpt(DefaultIterations, 1, 1))
	b.ReportAllocs()
	for b.Loop() {
		s.Best(pos)
	}
}
