package search

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/td2048/td2048/board"
	"github.com/td2048/td2048/ntuple"
	"github.com/td2048/td2048/rules/game2048"
)

func tinyNet(seed uint64) *ntuple.Network {
	n := ntuple.MustNew("01,45")
	rng := rand.New(rand.NewPCG(seed, seed))
	for i := range n.Weights() {
		n.Weights()[i] = float32(rng.IntN(64)) / 8
	}
	return n
}

// bruteMax and bruteChance are expectimax written out plainly, in float64,
// over game2048.Move and explicit tile placement.
func bruteMax(net *ntuple.Network, b board.Board, depth int, kind Kind) float64 {
	if depth == 0 {
		return float64(net.Estimate(b))
	}
	best, any := math.Inf(-1), false
	for d := range 4 {
		a, r, ok := game2048.Move(b, d)
		if ok {
			any = true
			best = math.Max(best, float64(r)+bruteChance(net, a, depth-1, kind))
		}
	}
	if !any {
		return 0
	}
	return best
}

func bruteChance(net *ntuple.Network, a board.Board, depth int, kind Kind) float64 {
	if depth == 0 && kind == AfterState {
		return float64(net.Estimate(a))
	}
	sum, n := 0.0, 0
	for i := range 16 {
		if a.At(i) == 0 {
			sum += 0.9*bruteMax(net, a.Set(i, 1), depth, kind) + 0.1*bruteMax(net, a.Set(i, 2), depth, kind)
			n++
		}
	}
	if n == 0 {
		return 0
	}
	return sum / float64(n)
}

func randomBoard(rng *rand.Rand, tiles int) board.Board {
	var b board.Board
	for range tiles {
		b = b.Set(rng.IntN(16), 1+rng.IntN(6))
	}
	return b
}

func TestExpectimaxMatchesBruteForce(t *testing.T) {
	net := tinyNet(1)
	rng := rand.New(rand.NewPCG(2, 2))
	for _, kind := range []Kind{AfterState, State} {
		for depth := 1; depth <= 3; depth++ {
			games := 30
			if depth == 3 {
				games = 4
			}
			for range games {
				b := randomBoard(rng, 10+rng.IntN(4))
				s := NewSearcher(net, Options{Depth: depth, Kind: kind}, nil)
				mv := s.Values(b, depth)
				for d := range 4 {
					a, r, ok := game2048.Move(b, d)
					if ok != mv[d].Legal {
						t.Fatalf("%v dir %d: legal %v, want %v", b.Hex(), d, mv[d].Legal, ok)
					}
					if !ok {
						continue
					}
					want := float64(r) + bruteChance(net, a, depth-1, kind)
					if math.Abs(float64(mv[d].Total)-want) > 1e-4*math.Max(1, math.Abs(want)) {
						t.Fatalf("kind %d depth %d %v dir %d: %v, brute force %v", kind, depth, b.Hex(), d, mv[d].Total, want)
					}
				}
			}
		}
	}
}

func TestTableChangesNothing(t *testing.T) {
	net := tinyNet(3)
	rng := rand.New(rand.NewPCG(4, 4))
	tt := NewTable(1 << 20)
	for range 40 {
		b := randomBoard(rng, 9+rng.IntN(5))
		with := NewSearcher(net, Options{Depth: 3}, tt)
		without := NewSearcher(net, Options{Depth: 3}, nil)
		a, c := with.Values(b, 3), without.Values(b, 3)
		if a != c {
			t.Fatalf("%v: with table %v, without %v", b.Hex(), a, c)
		}
		if with.Best(b) != without.Best(b) {
			t.Fatalf("%v: moves differ", b.Hex())
		}
	}
}

func TestTableStoresAndChecks(t *testing.T) {
	tt := NewTable(1 << 16)
	if tt.Bytes() != 1<<16 {
		t.Fatalf("bytes %d", tt.Bytes())
	}
	tt.Put(0x1234, 2, 1.5)
	if v, ok := tt.get(0x1234, 2); !ok || v != 1.5 {
		t.Fatalf("get %v %v", v, ok)
	}
	if _, ok := tt.get(0x1234, 1); ok {
		t.Fatal("hit at another depth")
	}
	if _, ok := tt.get(0x1235, 2); ok {
		t.Fatal("hit for another board")
	}
	if _, ok := tt.get(0, 0); ok {
		t.Fatal("empty entry hit")
	}
	if NewTable(100) != nil {
		t.Fatal("tiny table made")
	}
}

func TestGreedyIsDepthOne(t *testing.T) {
	net := tinyNet(5)
	rng := rand.New(rand.NewPCG(6, 6))
	s := NewSearcher(net, Options{Depth: 1}, nil)
	for range 500 {
		b := randomBoard(rng, 2+rng.IntN(14))
		if g, e := Greedy(net, b), s.Best(b); g != e {
			t.Fatalf("%v: Greedy %+v, depth 1 %+v", b.Hex(), g, e)
		}
	}
}

func TestMoveTimeAlwaysAnswers(t *testing.T) {
	net := tinyNet(7)
	rng := rand.New(rand.NewPCG(8, 8))
	for _, budget := range []time.Duration{time.Nanosecond, time.Millisecond, 20 * time.Millisecond} {
		s := NewSearcher(net, Options{MoveTime: budget}, NewTable(1<<20))
		for range 20 {
			b := randomBoard(rng, 6+rng.IntN(8))
			mv, depth := s.ValuesTimed(b)
			c := BestOf(&mv)
			legal := !game2048.Over(b)
			if c.Legal() != legal {
				t.Fatalf("%v: legal %v, game over %v", b.Hex(), c.Legal(), !legal)
			}
			if legal {
				if _, _, ok := game2048.Move(b, c.Dir); !ok || depth < 1 {
					t.Fatalf("%v: illegal answer %d at depth %d", b.Hex(), c.Dir, depth)
				}
			}
		}
	}
	// A generous budget with a depth cap stops at the cap.
	s := NewSearcher(net, Options{Depth: 2, MoveTime: time.Minute}, nil)
	if _, d := s.ValuesTimed(randomBoard(rng, 10)); d != 2 {
		t.Fatalf("depth %d, want 2", d)
	}
}

// A move that merges 32768+32768 is valued as any other: 65536 plus the
// value below its after-state, which holds 32768 in the merged cell (the
// game goes on); the choice made of it says it overflowed, so that a game
// loop goes on on the wide board.
func TestOverflowMoveGoesOn(t *testing.T) {
	net := tinyNet(9)
	b := board.FromCells([16]int{15, 15, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 0})
	after, _, _ := game2048.Move(b, game2048.Left)
	if after.At(0) != 15 || after.At(1) != 1 {
		t.Fatalf("after-state %s", after.Hex())
	}
	for depth := 1; depth <= 2; depth++ {
		mv := NewSearcher(net, Options{Depth: depth}, nil).Values(b, depth)
		want := 65536 + bruteChance(net, after, depth-1, AfterState)
		if m := mv[game2048.Left]; !m.Legal || !m.overflow || m.Reward != 65536 || math.Abs(float64(m.Total)-want) > 1e-2 {
			t.Fatalf("depth %d: left %+v, want total %v", depth, m, want)
		}
	}
	if c := Greedy(net, b); c.Dir == game2048.Left && (c.Value != 65536+net.Estimate(after) || !c.Overflow() || c.Points() != 65536) {
		t.Fatalf("greedy values the overflow at %+v", c)
	}
	_, reward := game2048.Moves(b)
	for _, c := range []Choice{Greedy(net, b), NewSearcher(net, Options{Depth: 2}, nil).Best(b)} {
		if !c.Legal() || c.Overflow() != game2048.Overflow(reward[c.Dir]) || c.Points() != game2048.Reward(reward[c.Dir]) {
			t.Fatalf("choice %+v", c)
		}
	}
}

// A search stops soon after Stop closes, however deep it was asked to go,
// and says so; the same searcher then searches again as before.
func TestStopInterruptsSearch(t *testing.T) {
	net := tinyNet(11)
	b := board.FromCells([16]int{1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0})
	stop := make(chan struct{})
	for _, opt := range []Options{{Depth: 9}, {MoveTime: time.Hour}} {
		stop = make(chan struct{})
		opt.Stop = stop
		s := NewSearcher(net, opt, nil)
		done := make(chan Choice)
		go func() { done <- s.Best(b) }()
		time.Sleep(20 * time.Millisecond)
		close(stop)
		select {
		case c := <-done:
			if !s.Stopped() {
				t.Errorf("%+v: a stopped search does not say so", opt)
			}
			if !c.Legal() && opt.MoveTime > 0 {
				t.Errorf("%+v: no move from the finished depths", opt)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("%+v: the search went on 30 s after Stop closed", opt)
		}
	}
	// Closed before the search: it stops at once, values cut short.
	s := NewSearcher(net, Options{Depth: 9, Stop: stop}, nil)
	s.Values(b, 9)
	if !s.Stopped() {
		t.Error("a search begun after Stop closed does not say so")
	}
	// A Stop that never closes changes nothing.
	b = randomBoard(rand.New(rand.NewPCG(3, 3)), 11)
	want := NewSearcher(net, Options{Depth: 3}, nil).Values(b, 3)
	s = NewSearcher(net, Options{Depth: 3, Stop: make(chan struct{})}, nil)
	if got := s.Values(b, 3); got != want || s.Stopped() {
		t.Errorf("with an open Stop %+v, without %+v", got, want)
	}
}
