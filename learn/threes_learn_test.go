package learn

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/td2048/td2048/board"
	"github.com/td2048/td2048/ntuple"
	"github.com/td2048/td2048/rules/threes"
	"github.com/td2048/td2048/search"
	"github.com/td2048/td2048/stats"
)

// A short real run: a small network must clearly  Random-ish play
// with a zero network scores under 1,000; after 6,000 episodes the
// 8x4 line network, with the hint or without, scores twice that.
func TestThreesTrainingImproves(t *testing.T) {
	for _, spec := range []string{"8x4+hint", "8x4"} {
		net := ntuple.MustNew(spec)
		var avgs []float64
		_, _, err := TrainThrees(context.Background(), net, Config{
			Episodes: 6000, Seed: 1, Threads: 1, Every: 1000,
			Block: func(done int, b *stats.Block, _ time.Duration, _ float32) { avgs = append(avgs, b.Avg()) },
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(avgs) != 6 {
			t.Fatalf("%s: %d blocks", spec, len(avgs))
		}
		first, last := avgs[0], avgs[len(avgs)-1]
		t.Logf("%s: block averages %.0f", spec, avgs)
		if last < 2*first {
			t.Errorf("%s: first block avg %.0f, last %.0f: not learning", spec, first, last)
		}
	}
}

func TestThreesTrainRepeatable(t *testing.T) {
	run := func() []float32 {
		net := ntuple.MustNew("0123,4567+hint")
		if _, _, err := TrainThrees(context.Background(), net, Config{Episodes: 200, Seed: 7, Threads: 1, Every: 100}); err != nil {
			t.Fatal(err)
		}
		return net.Weights()
	}
	a, b := run(), run()
	nonzero := 0
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("weight %d differs: %v vs %v", i, a[i], b[i])
		}
		if a[i] != 0 {
			nonzero++
		}
	}
	if nonzero == 0 {
		t.Fatal("nothing learned")
	}
}

func TestThreesTrainRefusesStagedNetworks(t *testing.T) {
	net := ntuple.MustNew("0123@2")
	if _, _, err := TrainThrees(context.Background(), net, Config{Episodes: 1}); err == nil {
		t.Fatal("a 2-stage network without +hint was accepted")
	}
}

// TestHintStagesLearnApart: with +hint, an after-state is learned in the
// stage of its hint only. One episode's updates, replayed by hand, touch
// exactly the weights of (after-state, hint) pairs.
func TestThreesHintStagesLearnApart(t *testing.T) {
	net := ntuple.MustNew("0123,4567+hint")
	w := NewThreesWorker(net, NewRand(3, 0))
	w.Play(0.5)
	// Replay the same episode without learning to see its after-states.
	net2 := ntuple.MustNew("0123,4567+hint")
	rng := NewRand(3, 0)
	g := threes.Start(rng)
	used := map[[2]int]bool{} // (stage, weight index within stage)
	stage := len(net2.Weights()) / 3
	for {
		c := search.GreedyThrees(net2, g.Board, g.Next)
		if !c.Legal() {
			break
		}
		var x [ntuple.MaxPatterns * 8]uint32
		for _, i := range net2.IndexStage(g.Next-1, c.After, x[:]) {
			used[[2]int{int(i) / stage, int(i) % stage}] = true
		}
		g.SlideTo(c.After, c.Dir)
		g.PlaceRandom(rng)
	}
	// The zero network's greedy game is the learner's (its choices were
	// made before learning), so the touched weights match.
	for i, v := range net.Weights() {
		key := [2]int{i / stage, i % stage}
		if (v != 0) && !used[key] {
			t.Fatalf("weight %d (stage %d) moved without its after-state", i, i/stage)
		}
	}
	touched := 0
	for _, v := range net.Weights() {
		if v != 0 {
			touched++
		}
	}
	if touched == 0 {
		t.Fatal("nothing learned")
	}
}

// bruteMax and bruteChance are expectimax written out plainly, in float64,
// over threes.Game values and explicit placement.
func bruteMax(net *ntuple.Network, g threes.Game, depth int) float64 {
	best, any := math.Inf(-1), false
	for d := range 4 {
		h := g
		r, err := h.Slide(d)
		if err != nil {
			continue
		}
		any = true
		best = math.Max(best, float64(r)+bruteChance(net, h, depth-1))
	}
	if !any {
		return 0
	}
	return best
}

func bruteChance(net *ntuple.Network, g threes.Game, depth int) float64 {
	if depth == 0 {
		return float64(net.EstimateStage(search.ThreesStage(net, g.Next), g.Board))
	}
	sum, n := 0.0, 0
	for pos := range 16 {
		for next := 1; next <= 3; next++ {
			h := g
			if _, err := h.Place(pos, g.Next, next); err != nil {
				continue
			}
			sum += bruteMax(net, h, depth)
			n++
		}
	}
	if n == 0 {
		return 0
	}
	return sum / float64(n)
}

func TestThreesExpectimaxMatchesBruteForce(t *testing.T) {
	net := ntuple.MustNew("01,45+hint")
	rng := rand.New(rand.NewPCG(2, 2))
	for i := range net.Weights() {
		net.Weights()[i] = float32(rng.IntN(64)) / 8
	}
	tt := search.NewTable(1 << 20)
	for depth := 1; depth <= 3; depth++ {
		for game := range 20 {
			// A position from a random game, 10 to 40 slides in.
			g := threes.Start(rng)
			for range 10 + rng.IntN(30) {
				c := search.GreedyThrees(net, g.Board, g.Next)
				if !c.Legal() {
					break
				}
				g.SlideTo(c.After, c.Dir)
				g.PlaceRandom(rng)
			}
			for _, table := range []*search.Table{nil, tt} {
				s := search.NewThrees(net, search.Options{Depth: depth}, table)
				mv := s.Values(&g, depth)
				for d := range 4 {
					h := g
					r, err := h.Slide(d)
					if (err == nil) != mv[d].Legal {
						t.Fatalf("%v dir %d: legal %v, %v", g.Board.Hex(), d, mv[d].Legal, err)
					}
					if err != nil {
						continue
					}
					want := float64(r) + bruteChance(net, h, depth-1)
					if math.Abs(float64(mv[d].Total)-want) > 1e-4*math.Max(1, math.Abs(want)) {
						t.Fatalf("depth %d game %d %v hint %d bag %v dir %d: %v, brute force %v",
							depth, game, g.Board.Hex(), g.Next, g.Bag, d, mv[d].Total, want)
					}
				}
				if depth == 1 && s.Best(&g) != search.GreedyThrees(net, g.Board, g.Next) {
					t.Fatal("depth 1 is not greedy")
				}
			}
		}
	}
}

var sinkChoice search.Choice

// BenchmarkGreedy4x6Hint chooses slides on boards of random tiles up to
// 3072, whose weights are spread over the whole table as a trained
// network's games spread them, with every table page real memory.
func BenchmarkThreesGreedy4x6Hint(b *testing.B) {
	net := ntuple.MustNew("4x6+hint")
	defer net.Free()
	fill(net)
	rng := rand.New(rand.NewPCG(1, 2))
	boards := make([]board.Board, 1<<16)
	for i := range boards {
		for c := range 16 {
			boards[i] = boards[i].Set(c, rng.IntN(14))
		}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sinkChoice = search.GreedyThrees(net, boards[i&(1<<16-1)], 1+i%3)
	}
}

// fill sets every weight to a small value in a fixed pattern.
func fill(net *ntuple.Network) {
	for i, wts := 0, net.Weights(); i < len(wts); i++ {
		wts[i] = float32(i*2654435761%1000) / 1e4
	}
}

// benchTrain measures learning episodes on a network whose every weight
// is set (small values in a fixed pattern), so that every table page is
// real memory, as in a trained network; a zero network reads the kernel's
// shared zero page and is unrealistically fast.
func benchTrain(b *testing.B, spec string) {
	net := ntuple.MustNew(spec)
	defer net.Free()
	fill(net)
	w := NewThreesWorker(net, NewRand(1, 0))
	w.Play(0.1) // warm the buffers
	b.ReportAllocs()
	b.ResetTimer()
	slides := 0
	start := time.Now()
	for i := 0; i < b.N; i++ {
		slides += w.Play(0.1).Moves
	}
	b.ReportMetric(float64(slides)/time.Since(start).Seconds(), "slides/s")
	b.ReportMetric(float64(slides)/float64(b.N), "slides/episode")
}

// BenchmarkTrain4x6Hint is one learning episode per op; allocs/op must be
// 0 once the buffers have grown.
func BenchmarkThreesTrain4x6Hint(b *testing.B) { benchTrain(b, "4x6+hint") }

func BenchmarkThreesTrain4x6(b *testing.B) { benchTrain(b, "4x6") }

func BenchmarkThreesExpectimax2(b *testing.B) {
	net := ntuple.MustNew("4x6+hint")
	defer net.Free()
	fill(net)
	rng := rand.New(rand.NewPCG(1, 2))
	games := make([]threes.Game, 256)
	for i := range games {
		games[i] = threes.Start(rng)
	}
	s := search.NewThrees(net, search.Options{Depth: 2}, nil)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sinkChoice = s.Best(&games[i&255])
	}
}

// TestTrainTwoThreads: two workers share one network (run with -race);
// every episode is counted once and blocks come in order.
func TestThreesTrainTwoThreads(t *testing.T) {
	net := ntuple.MustNew("0123,4567+hint")
	var dones []int
	games := 0
	_, res, err := TrainThrees(context.Background(), net, Config{Episodes: 450, Seed: 1, Threads: 2, Every: 100,
		Block: func(done int, b *stats.Block, _ time.Duration, _ float32) {
			dones = append(dones, done)
			games += b.Games
		}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Episodes != 450 || games != 450 || len(dones) != 5 || dones[4] != 450 || dones[0] != 100 {
		t.Fatalf("result %+v, blocks %v, games %d", res, dones, games)
	}
	// Cancelling stops the run early, counting only finished episodes.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, res, _ := TrainThrees(ctx, net, Config{Episodes: 1000, Threads: 2, Every: 10}); res.Episodes != 0 {
		t.Fatalf("cancelled run played %d", res.Episodes)
	}
}

// TestGreedyValuesAreEstimates: Greedy's batched sums equal reward +
// EstimateStage bit for bit, for the fast 4x6 path and a general one.
func TestThreesGreedyValuesAreEstimates(t *testing.T) {
	for _, spec := range []string{"4x6", "4x6+hint", "0123,4567,048c+hint", "8x4"} {
		net := ntuple.MustNew(spec)
		rng := rand.New(rand.NewPCG(4, 4))
		var boards []board.Board
		for range 200 {
			g := threes.Start(rng)
			for range rng.IntN(40) {
				c := search.GreedyThrees(net, g.Board, g.Next)
				if !c.Legal() {
					break
				}
				g.SlideTo(c.After, c.Dir)
				g.PlaceRandom(rng)
			}
			boards = append(boards, g.Board)
		}
		// Random weights wherever these boards' after-states read.
		wts := net.Weights()
		var x [ntuple.MaxPatterns * 8]uint32
		for _, b := range boards {
			after, _ := threes.Moves(b)
			for _, a := range after {
				for k := range net.Spec().StageCount() {
					for _, i := range net.IndexStage(k, a, x[:]) {
						wts[i] = float32(rng.IntN(1<<20)) / 1024
					}
				}
			}
		}
		for i, b := range boards {
			hint := 1 + i%3
			c := search.GreedyThrees(net, b, hint)
			after, reward := threes.Moves(b)
			best, bestV := -1, float32(math.Inf(-1))
			for d := range 4 {
				if after[d] != b {
					if v := float32(reward[d]) + net.EstimateStage(search.ThreesStage(net, hint), after[d]); v > bestV {
						best, bestV = d, v
					}
				}
			}
			if c.Dir != best || c.Legal() && c.Value != bestV {
				t.Fatalf("%s %v hint %d: Greedy %d %v, estimates %d %v", spec, b.Hex(), hint, c.Dir, c.Value, best, bestV)
			}
		}
		net.Free()
	}
}

func TestThreesHotPathsAllocateNothing(t *testing.T) {
	net := ntuple.MustNew("0123,4567+hint")
	g := threes.Start(NewRand(1, 1))
	if n := testing.AllocsPerRun(100, func() { sinkChoice = search.GreedyThrees(net, g.Board, g.Next) }); n != 0 {
		t.Errorf("Greedy: %v allocations", n)
	}
	w := NewThreesWorker(net, NewRand(2, 2))
	w.Play(0.1)
	if n := testing.AllocsPerRun(20, func() { w.Play(0.1) }); n != 0 {
		t.Errorf("Play: %v allocations per episode", n)
	}
	s := search.NewThrees(net, search.Options{Depth: 2}, search.NewTable(1<<16))
	if n := testing.AllocsPerRun(20, func() { sinkChoice = s.Best(&g) }); n != 0 {
		t.Errorf("search.Threes.Best: %v allocations", n)
	}
}

// TestDirectLearnsAsIndexed: on a 4x6 network, learning from boards (the
// assembly path) plays the same episodes and leaves the same weights, bit
// for bit, as learning from stored indices. (Stages are the same code with
// an offset, checked in package ntuple; two 4x6+hint networks would take
// 1.5 GB.)
func TestThreesDirectLearnsAsIndexed(t *testing.T) {
	a, b := ntuple.MustNew("4x6"), ntuple.MustNew("4x6")
	defer a.Free()
	defer b.Free()
	if !a.Direct() {
		t.Skip("no direct 4x6 path on this processor")
	}
	wa, wb := NewThreesWorker(a, NewRand(7, 1)), NewThreesWorker(b, NewRand(7, 1))
	wb.trace.useIndices()
	for i := range 100 {
		if ea, eb := wa.Play(0.1), wb.Play(0.1); ea != eb {
			t.Fatalf("episode %d: direct %+v, indexed %+v", i, ea, eb)
		}
	}
	if !slices.Equal(a.Weights(), b.Weights()) {
		t.Fatal("weights differ")
	}
}

// TestDivergenceStopsTheRun: as in 2048, a rate far too large stops the
// run at the episode whose values became infinite, on both learning paths.
func TestThreesDivergenceStopsTheRun(t *testing.T) {
	for _, spec := range []string{"0123,4567+hint", "0123,4567"} {
		net := ntuple.MustNew(spec)
		_, _, err := TrainThrees(context.Background(), net, Config{Episodes: 100000, Seed: 1, Threads: 1, Every: 10, Schedule: Constant(1e30)})
		var div *DivergedError
		if !errors.As(err, &div) || div.Episode > 1000 {
			t.Fatalf("%s: %v", spec, err)
		}
		net.Free()
	}
}
