// Command memwall estimates how fast a program could play and learn with
// a network, were it to do nothing but read and write its weights: the
// memory wall beneath td2048's and TDL2048+'s training, greedy play and
// 2-ply search (docs/speed.md; docs/explanation/experiments.md, "The memory wall").
//
//	go run ./scripts/memwall --load weights.td2048                # one thread
//	go run ./scripts/memwall --load weights.td2048 --threads 2
//	go run ./scripts/memwall --load tdl.w --coherent            # as a TC run holds it
//	go run ./scripts/memwall --load weights.td2048 --play        # as greedy play reads
//	go run ./scripts/memwall --load weights.td2048 --depth 2     # as 2-ply search reads
//	go run ./scripts/memwall --load weights.td2048 --compact     # as play reads 16-bit weights
//
// It first plays --games greedy games with the weights and records, for
// each move, the weight indices of every candidate after-state (what a
// trainer reads to choose the move); with --depth 2 it plays 2-ply games
// and records each move's leaves instead (what the search reads), and
// replays them as play. Then it replays them on a fresh
// table of the network's size with nothing else to do: per move, one
// load of every candidate's weights, all independent, so the processor
// keeps as many misses in flight as it can and runs ahead into the next
// move, and one read-modify-write of each weight of the chosen
// after-state (the update; with TC its two accumulators beside it, as
// td2048 and TDL2048+ pack them; --play leaves it out). No game logic, no
// sums that a choice waits on. It is an estimate, not a bound: the
// recorded indices (4 bytes a lookup) stream through the cache beside the
// weights, and the writes come at once; on 4x6 td2048 trains and plays
// as fast as the replay. Its moves per second against a trainer's on the
// same weights say how much of the trainer's time is anything but the
// weights' memory.
package main

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	flag "github.com/spf13/pflag"

	"github.com/td2048/td2048/board"
	"github.com/td2048/td2048/learn"
	"github.com/td2048/td2048/netfile"
	"github.com/td2048/td2048/ntuple"
	"github.com/td2048/td2048/rules/game2048"
	"github.com/td2048/td2048/scripts/internal/bench"
	"github.com/td2048/td2048/search"
)

// A move is one recorded move: its candidates' indices, Lookups each, at
// off in the recording, and which candidate was chosen.
type move struct {
	off, n, chosen int
}

// A recording is the indices of the moves of some games.
type recording struct {
	lookups int
	compact bool // the weights are 16 bits, as play holds large networks
	idx     []uint32
	moves   []move
}

// play plays games games from seed and returns what move recorded of
// them: move records the move on b and returns its after-state, or false
// when the game is over (buf is scratch for the indices).
func play(net *ntuple.Network, games int, seed uint64, move func(r *recording, b board.Board, buf []uint32) (board.Board, bool)) recording {
	r := recording{lookups: net.Lookups()}
	rng := learn.NewRand(seed, 0)
	buf := make([]uint32, r.lookups)
	for range games {
		b := game2048.Start(rng)
		for after, ok := move(&r, b, buf); ok; after, ok = move(&r, b, buf) {
			b = game2048.Spawn(after, rng)
		}
	}
	return r
}

// record plays games greedy games on net from seed.
func record(net *ntuple.Network, games int, seed uint64) recording {
	return play(net, games, seed, func(r *recording, b board.Board, buf []uint32) (board.Board, bool) {
		var after [4]board.Board
		var rew [4]uint32
		game2048.MovesTo(b, &after, &rew)
		m := move{off: len(r.idx)}
		best, bestV := -1, float32(0)
		for d := range 4 {
			if after[d] == b {
				continue
			}
			r.idx = append(r.idx, net.IndexStage(net.StageOf(after[d]), after[d], buf)...)
			if v := float32(game2048.Reward(rew[d])) + net.EstimateStage(net.StageOf(after[d]), after[d]); best < 0 || v > bestV {
				best, bestV, m.chosen = d, v, m.n
			}
			m.n++
		}
		if best < 0 {
			return b, false
		}
		r.moves = append(r.moves, m)
		return after[best], true
	})
}

// record2 plays games 2-ply games on net from seed, as `td2048 eval
// --depth 2` does (no table), and records for each move the leaves its
// search values, each once per chance node as the search gathers them:
// below each legal move's after-state (keyed, as the search keys it, by
// its canonical image when the network is symmetric), a 2 or a 4 on each
// empty cell, and each legal move of that board. Every leaf is valued in
// the stage of the move's board. A move's leaves are its candidates; none
// is chosen (a 2-ply recording is replayed as play).
func record2(net *ntuple.Network, games int, seed uint64) recording {
	s := search.NewSearcher(net, search.Options{Depth: 2}, nil)
	seen := map[board.Board]bool{}
	return play(net, games, seed, func(r *recording, b board.Board, buf []uint32) (board.Board, bool) {
		c := s.Best(b)
		if c.Legal() {
			r.leaves(net, b, buf, seen)
		}
		return c.After, c.Legal()
	})
}

// leaves records the move on b of a 2-ply search: its leaves' indices,
// in b's stage (buf and seen are scratch).
func (r *recording) leaves(net *ntuple.Network, b board.Board, buf []uint32, seen map[board.Board]bool) {
	m, k := move{off: len(r.idx)}, net.StageOf(b)
	after, _ := game2048.Moves(b)
	for d := range 4 {
		if after[d] == b {
			continue
		}
		key := after[d]
		if net.Spec().Iso {
			key = key.Canonical()
		}
		clear(seen)
		for e := key.EmptyMask(); e != 0; e &= e - 1 {
			cell := board.Board(e & -e)
			for _, child := range [2]board.Board{key | cell, key | cell*2} {
				leaves, _ := game2048.Moves(child)
				for _, l := range leaves {
					if l == child || seen[l] {
						continue
					}
					seen[l] = true
					r.idx = append(r.idx, net.IndexStage(k, l, buf)...)
					m.n++
				}
			}
		}
	}
	r.moves = append(r.moves, m)
}

// canonical turns the recording's indices, where net keeps the weights,
// into their canonical ones (ntuple.Network.CanonicalIndex), each within
// its own table.
func (r *recording) canonical(net *ntuple.Network) {
	w := net.Weights()
	type span struct{ p, off, n int }
	var spans []span
	for k := range net.StageCount() {
		for p := range net.Spec().Patterns {
			t := net.StageTable(k, p)
			off := int((uintptr(unsafe.Pointer(&t[0])) - uintptr(unsafe.Pointer(&w[0]))) / 4)
			spans = append(spans, span{p, off, len(t)})
		}
	}
	for j, i := range r.idx {
		for _, s := range spans {
			if int(i) >= s.off && int(i) < s.off+s.n {
				r.idx[j] = uint32(s.off) + net.CanonicalIndex(s.p, i-uint32(s.off))
				break
			}
		}
	}
}

// replay reads and (with write) writes the weights of moves in a, stride
// floats per weight (1, or 3 with the TC accumulators), and returns a sum of what it
// read so that nothing is optimised away. It reads without bounds checks
// (the indices are checked once, by check), so that a lookup is two loads
// and an add.
func (r *recording) replay(a []uint32, stride uint32, moves []move, write bool) uint32 {
	var s uint32
	L := r.lookups
	base := unsafe.Pointer(unsafe.SliceData(a))
	at := func(i uint32) *uint32 { return (*uint32)(unsafe.Add(base, uintptr(i)*uintptr(4*stride))) }
	sum, step := reads[uint32], uintptr(4*stride)
	if r.compact {
		sum, step = reads[uint16], 2
	}
	for _, m := range moves {
		x := r.idx[m.off : m.off+m.n*L]
		s += sum(base, step, x)
		if !write {
			continue
		}
		for _, j := range x[m.chosen*L : (m.chosen+1)*L] {
			p := at(j)
			*p++
			if stride == 3 {
				q := unsafe.Slice(p, 3)
				q[1]++
				q[2]++
			}
		}
	}
	return s
}

// reads sums the weights at indices x of the table at base, a T every
// step bytes, four independent sums so that the loads do not wait on
// each other.
func reads[T uint16 | uint32](base unsafe.Pointer, step uintptr, x []uint32) uint32 {
	var s0, s1, s2, s3 uint32
	at := func(i uint32) uint32 { return uint32(*(*T)(unsafe.Add(base, uintptr(i)*step))) }
	i := 0
	for ; i+3 < len(x); i += 4 {
		s0 += at(x[i])
		s1 += at(x[i+1])
		s2 += at(x[i+2])
		s3 += at(x[i+3])
	}
	for ; i < len(x); i++ {
		s0 += at(x[i])
	}
	return s0 + s1 + s2 + s3
}

// check reports whether every recorded weight, stride floats each, lies
// within n floats.
func (r *recording) check(n int, stride uint32) bool {
	for _, i := range r.idx {
		if (int(i)+1)*int(stride) > n {
			return false
		}
	}
	return true
}

// sink takes what the replays read, so that no read is optimised away.
var sink atomic.Uint32

// rate replays the recording on threads threads, each its share of the
// moves (with the update's writes, or without, as play), and returns moves
// per second.
func (r *recording) rate(a []uint32, stride uint32, threads int, write bool) float64 {
	per := len(r.moves) / threads
	start := time.Now()
	var wg sync.WaitGroup
	for k := range threads {
		wg.Go(func() { sink.Add(r.replay(a, stride, r.moves[k*per:(k+1)*per], write)) })
	}
	wg.Wait()
	return float64(per*threads) / time.Since(start).Seconds()
}

func main() {
	load := flag.String("load", "", "the weights to record games with (td2048, 2048.bin or TDL2048+ .w)")
	games := flag.Int("games", 20, "games to record")
	depth := flag.Int("depth", 1, "1: record greedy games (each move's candidates); 2: record 2-ply games (each move's leaves), replayed as play")
	seed := flag.Uint64("seed", 1, "the games' random seed")
	threads := flag.Int("threads", 1, "threads replaying, each its share of the moves, on one table")
	rounds := flag.Int("rounds", 5, "replays to time")
	coherent := flag.Bool("coherent", false, "replay as TC training holds the weights (three floats a weight); a TC file is replayed so anyway")
	play := flag.Bool("play", false, "replay as play does: the candidates' reads alone, no update")
	compact := flag.Bool("compact", false, "replay as play reads 16-bit weights (two bytes a weight; implies --play)")
	canonical := flag.Bool("canonical", false, "replay the weights at their canonical indices, in the order files and TDL2048+ keep them, instead of td2048's cache-line order")
	flag.Parse()
	if *load == "" || *games < 1 || *threads < 1 || *rounds < 1 || *depth < 1 || *depth > 2 || *compact && *coherent {
		bench.Fail(2, "memwall", "want --load FILE, --depth 1 or 2, --games, --threads and --rounds of at least 1, and not both --compact and --coherent")
	}
	net, h, err := netfile.LoadAny(*load)
	if err == nil {
		err = fits(*load, h)
	}
	if err != nil {
		bench.Fail(1, "memwall", err)
	}
	rec, what := record, "candidates"
	if *depth == 2 {
		rec, what = record2, "leaves"
		*play = true // a search writes no weights
	}
	r := rec(net, *games, *seed)
	if *compact {
		r.compact, *play = true, true
	}
	if *canonical {
		r.canonical(net)
	}
	stride := uint32(1)
	if (*coherent || net.Coherent()) && !r.compact { // play reads no accumulators
		stride = 3
	}
	size := len(net.Weights())
	net.Free()
	a := table(size * int(stride))
	if !r.check(len(a), stride) {
		bench.Fail(1, "memwall", "an index lies outside the network's weights")
	}
	cand := len(r.idx) / r.lookups
	order := "cache-line"
	if *canonical {
		order = "canonical"
	}
	bytes := 4 * int(stride)
	if r.compact {
		bytes = 2
	}
	fmt.Printf("memwall: %s, %d games at depth %d, %d moves, %.2f %s a move, %d weights each, table %d MiB (%d bytes a weight, %s order)\n",
		*load, *games, *depth, len(r.moves), float64(cand)/float64(len(r.moves)), what, r.lookups, size*bytes>>20, bytes, order)
	for k := range *rounds {
		fmt.Printf("round %d: %.0f moves/s on %d thread(s)\n", k+1, r.rate(a, stride, *threads, !*play), *threads)
	}
}

// fits says why weights with header h cannot be replayed: memwall plays
// 2048 with after-state networks (a file without a header, TDL2048+'s or
// the course demo's, holds those).
func fits(path string, h netfile.Header) error {
	if h.Game != "" && h.Game != "2048" {
		return fmt.Errorf("%s holds %s weights: memwall plays 2048", path, h.Game)
	}
	if h.Learner == "state" {
		return fmt.Errorf("%s holds V(state) weights: memwall plays after-state networks", path)
	}
	return nil
}

// fill writes every word of a, so that its pages are there before the
// replay is timed.
func fill(a []uint32) []uint32 {
	for i := range a {
		a[i] = uint32(i)
	}
	return a
}
