package evaluate

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/td2048/td2048/board"
	"github.com/td2048/td2048/episode"
	"github.com/td2048/td2048/learn"
	"github.com/td2048/td2048/ntuple"
	"github.com/td2048/td2048/rules/game2048"
)

// Greedy games played several at a time on each thread are the games
// played one at a time: the same block, the same moves, on any number of
// threads, for a small network and for 4x6 (its assembly path).
func TestInterleavedEvaluationPlaysTheSameGames(t *testing.T) {
	specs := []string{"0123,4567", "4x6"}
	if testing.Short() {
		specs = specs[:1]
	}
	for _, spec := range specs {
		net := ntuple.MustNew(spec)
		learn.Train(context.Background(), net, learn.Config{Episodes: 300, Seed: 3, Threads: 1, Every: 300})
		one, r1 := runBlock(context.Background(), Config{Games: 150, Seed: 5, Threads: 1, NewPolicy: greedyPolicies(net)})
		if one.Games != 150 || r1.Moves != one.Moves {
			t.Fatalf("%s: one at a time %+v, result %+v", spec, one, r1)
		}
		for _, threads := range []int{1, 2} {
			for _, k := range []int{0, 1, 2, 3, 7} {
				got, r := runBlock(context.Background(), Config{Games: 150, Seed: 5, Threads: threads, Greedy: net, Interleave: k})
				if got != one || r.Moves != r1.Moves {
					t.Fatalf("%s, %d threads, %d in turn: %+v (%d moves)\none at a time %+v (%d moves)", spec, threads, k, got, r.Moves, one, r1.Moves)
				}
			}
		}
		net.Free()
	}
}

// Cancelling an interleaved evaluation gives up every game under way:
// what remains is a prefix of the whole evaluation, and every move played
// is counted.
func TestInterleavedEvaluationInterruptedIsAPrefix(t *testing.T) {
	net := ntuple.MustNew("0123,4567")
	learn.Train(context.Background(), net, learn.Config{Episodes: 200, Seed: 3, Threads: 1, Every: 200})
	for _, threads := range []int{1, 2} {
		ctx, cancel := context.WithCancel(context.Background())
		var seen atomic.Int64
		block, res := runBlock(ctx, Config{Games: 1 << 20, Seed: 9, Threads: threads, Greedy: net, Interleave: 3,
			TickEvery: time.Millisecond, Tick: func(s episode.Snapshot) {
				seen.Store(s.Moves)
				if s.Block.Games >= 20 {
					cancel()
				}
			}})
		cancel()
		if block.Games < 20 || block.Games >= 1<<20 || res.Moves < block.Moves || res.Moves < seen.Load() {
			t.Fatalf("%d threads: %d games finished, result %+v, %d moves seen", threads, block.Games, res, seen.Load())
		}
		whole, _ := runBlock(context.Background(), Config{Games: block.Games, Seed: 9, Threads: 1, NewPolicy: greedyPolicies(net)})
		if whole != block {
			t.Fatalf("%d threads: interrupted %+v\nfirst %d games %+v", threads, block, block.Games, whole)
		}
	}
}

// A game of the interleaved player that merges two 32768s goes on past
// them, as the single game does, while the other games go on around it.
func TestInterleavedGamesGoPast32768(t *testing.T) {
	net := ntuple.MustNew("01,45")
	rng := func(i int) game2048.Rand { return episode.NewRand(4, uint64(i)) }
	const games = 5
	next := 0
	take := func() (int, bool) { next++; return next - 1, next <= games }
	got := map[int]played{}
	var stop atomic.Bool
	var counted atomic.Int64
	greedyLanes(net, 2, rng, func(game2048.Rand) board.Board { return fourBig }, &stop, &counted)(take, func(i int, p played) bool {
		got[i] = p
		return true
	})
	total := 0
	for i := range games {
		want, ok := playFrom(fourBig, greedyPolicies(net)(), nil, rng(i), new(atomic.Bool), new(atomic.Int64))
		if g := got[i]; !ok || !g.finished || g.ep != want || !want.Overflow || want.MaxTile < 17 {
			t.Fatalf("game %d: interleaved %+v, alone %+v", i, g, want)
		}
		total += want.Moves
	}
	if counted.Load() != int64(total) {
		t.Fatalf("%d moves counted, %d played", counted.Load(), total)
	}
}
