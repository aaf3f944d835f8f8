// Command movespeed times the search of one move on a fixed set of
// mid-game boards, on one thread or a team of several
// (search.Options.Threads), and checks that the values do not depend on
// the threads: the measurement behind the speed of hint, the web page's
// advice and play on all cores.
//
//	go run ./scripts/movespeed --load weights.td2048 --depth 5 --threads 1
//	go run ./scripts/movespeed --load weights.td2048 --depth 5 --threads 2
//
// The boards are those of greedy games from seed 1 (game i from
// learn.NewRand(1, i)), every 50th from a quarter to three quarters of
// each game, until there are --boards. Each board is searched to --depth
// by one searcher (a team with --threads), as eval and play search one
// move after another, with one transposition table of --cache bytes,
// faulted in before the clock starts. It prints the wall
// and CPU time of the searches, the chance nodes they counted and a
// checksum of every move's value, which must be the same for every
// --threads. Run each setting as a process of its own, alternating, and
// compare medians: the machine's other work moves single runs.
package main

import (
	"fmt"
	"hash/crc32"
	"math"
	"time"

	flag "github.com/spf13/pflag"

	"github.com/td2048/td2048/board"
	"github.com/td2048/td2048/learn"
	"github.com/td2048/td2048/netfile"
	"github.com/td2048/td2048/ntuple"
	"github.com/td2048/td2048/rules/game2048"
	"github.com/td2048/td2048/scripts/internal/bench"
	"github.com/td2048/td2048/search"
)

func main() {
	load := flag.String("load", "weights.td2048", "2048 weights (td2048, 2048.bin or .w)")
	depth := flag.Int("depth", 4, "search depth in plies")
	threads := flag.Int("threads", 1, "goroutines searching each board")
	n := flag.Int("boards", 100, "boards")
	cache := flag.Int64("cache", 64<<20, "transposition table bytes")
	compact := flag.Bool("compact", true, "play with 16-bit weights where that pays, as the commands do")
	flag.Parse()
	w := netfile.Float32
	if *compact {
		w = netfile.Compact
	}
	net, _, _, err := netfile.LoadPlay(*load, w)
	if err != nil {
		bench.Fail(1, "movespeed", err)
	}
	if *depth < 1 || *depth > 8 || *threads < 1 || *n < 1 {
		bench.Fail(2, "movespeed", "want --depth 1 to 8, --threads and --boards at least 1")
	}
	bs := boards(net, *n)
	tt := search.NewTable(*cache)
	prefill(tt, *cache)
	r := searchAll(net, bs, *depth, *threads, tt)
	fmt.Printf("depth %d, %d thread(s), %d boards: %.3f s wall (%.2f ms a board), %.3f s CPU, %d chance nodes, values %08x\n",
		*depth, *threads, len(bs), r.wall.Seconds(), r.wall.Seconds()*1000/float64(len(bs)), r.cpu, r.nodes, r.sum)
}

// boards are n mid-game boards of greedy games with net from seed 1.
func boards(net *ntuple.Network, n int) []board.Board {
	var bs []board.Board
	for g := 0; len(bs) < n; g++ {
		rng := learn.NewRand(1, uint64(g))
		b := game2048.Start(rng)
		var seen []board.Board
		for {
			c := search.Greedy(net, b)
			if !c.Legal() || c.Overflow() {
				break
			}
			seen = append(seen, b)
			b = game2048.Spawn(c.After, rng)
		}
		for i := len(seen) / 4; i < 3*len(seen)/4 && len(bs) < n; i += 50 {
			bs = append(bs, seen[i])
		}
	}
	return bs
}

// prefill writes entries of boards no game reaches (four 32768s in the
// top row) all over the table, so
// that its pages are faulted in before the clock starts.
func prefill(tt *search.Table, bytes int64) {
	if tt == nil {
		return
	}
	rng := learn.NewRand(99, 0)
	for range bytes / 4096 * 64 {
		tt.Put(board.Board(rng.Uint64()|0xffff), uint32(rng.Uint64())&search.MaxAux, 0)
	}
}

// A result is what searchAll measured.
type result struct {
	wall  time.Duration
	cpu   float64 // seconds, every thread of the process
	nodes int64
	sum   uint32 // CRC-32 of every move's legality, reward and value
}

// searchAll searches each board to depth on threads goroutines.
func searchAll(net *ntuple.Network, bs []board.Board, depth, threads int, tt *search.Table) result {
	sum := crc32.NewIEEE()
	var r result
	s := search.NewSearcher(net, search.Options{Depth: depth, Threads: threads}, tt)
	cpu0, start := bench.CPUTime(), time.Now()
	for _, b := range bs {
		mv := s.Values(b, depth)
		for _, m := range mv {
			fmt.Fprintf(sum, "%v %d %08x|", m.Legal, m.Reward, math.Float32bits(m.Total))
		}
	}
	r.wall, r.cpu, r.sum, r.nodes = time.Since(start), (bench.CPUTime() - cpu0).Seconds(), sum.Sum32(), s.Nodes
	return r
}
