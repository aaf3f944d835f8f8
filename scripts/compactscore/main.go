// Command compactscore plays the same games (the same seeds) with a
// network's float32 weights and with their compact 16-bit copy, as
// td2048's commands play them, and prints each average score with its
// standard error and their paired difference with its own: whether the
// compact weights lose anything a player would see.
//
//	go run ./scripts/compactscore --load weights.td2048 --games 10000
//	go run ./scripts/compactscore --load weights.td2048 --games 1000 --depth 2
//
// The games are td2048 eval's (the game's Evaluate): game i draws its
// tiles from seed --seed and i, greedy at depth 1, expectimax without a
// transposition table (eval's default at 2 plies) deeper.
package main

import (
	"fmt"

	flag "github.com/spf13/pflag"

	"github.com/td2048/td2048/games"
	"github.com/td2048/td2048/netfile"
	"github.com/td2048/td2048/ntuple"
	"github.com/td2048/td2048/scripts/internal/bench"
	"github.com/td2048/td2048/search"
)

func main() {
	load := flag.String("load", "weights.td2048", "weights of 2048 (td2048, 2048.bin or .w) or Threes! (td2048)")
	count := flag.Int("games", 1000, "games")
	depth := flag.Int("depth", 1, "search depth in plies")
	threads := flag.Int("threads", 0, "threads (0: all cores); the games do not depend on it")
	seed := flag.Uint64("seed", 1, "seed")
	flag.Parse()
	if *count < 2 || *depth < 1 || *depth > 6 {
		bench.Fail(2, "compactscore", "want --games 2 or more and --depth 1 to 6")
	}
	var scores [2][]float64
	for i, w := range []netfile.Weights{netfile.Float32, netfile.Compact16} {
		net, h, note, err := netfile.LoadPlay(*load, w)
		if err != nil || w == netfile.Compact16 && !net.Compact() {
			bench.Fail(1, "compactscore", err, note)
		}
		g, err := games.Lookup(h.Game)
		kind, kerr := search.ParseKind(h.Learner)
		if err == nil {
			err = kerr
		}
		if err == nil {
			err = g.CheckLearner(kind)
		}
		if err == nil {
			scores[i], err = play(g, net, search.Options{Depth: *depth, Kind: kind}, *count, *threads, *seed)
		}
		if err != nil {
			bench.Fail(1, "compactscore", err)
		}
		net.Free()
	}
	fmt.Println(report(*load, *depth, *seed, scores[0], scores[1]))
}

// play plays games 0..n-1 of game g with net, searched as opt says, and
// returns their scores.
func play(g *games.Game, net *ntuple.Network, opt search.Options, n, threads int, seed uint64) ([]float64, error) {
	cfg := games.EvalConfig{Net: net, Search: opt}
	cfg.Games, cfg.Seed, cfg.Threads = n, seed, threads
	_, scores, err := bench.Evaluate(g, cfg)
	return scores, err
}

// report compares the float32 games' scores a with the compact ones' b.
func report(load string, depth int, seed uint64, a, b []float64) string {
	ma, sa := bench.MeanSE(a)
	mb, sb := bench.MeanSE(b)
	md, sd, z, same := bench.Paired(a, b)
	return fmt.Sprintf("%s, depth %d, %d games from seed %d: float32 %.1f ± %.1f, 16-bit %.1f ± %.1f; paired difference (16-bit - float32) %.1f ± %.1f (%.2f standard errors); %d games scored the same",
		load, depth, len(a), seed, ma, sa, mb, sb, md, sd, z, same)
}
