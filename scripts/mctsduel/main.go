// Command mctsduel plays Monte Carlo tree search against expectimax on the
// same weights at equal time per move (docs/explanation/experiments.md,
// "MCTS against expectimax"): at each budget, the same games (the same
// seeds) with `eval --search mcts --move-time B` and with `eval
// --move-time B` (expectimax deepening within B, with eval's 64 MB
// table), in alternating chunks of games so that a change in the
// machine's load falls on both. It prints each side's mean score with its
// standard error, their paired difference with its own, the reach rates
// of the game's headline tiles, the moves a second and the CPU time a
// move (the budget is wall time: on a loaded machine a move gets less
// CPU than its budget, and a search that checks its clock less often
// overruns it by more).
//
//	go run ./scripts/mctsduel --load weights.td2048 --games 30 --budgets 1ms,10ms
//	go run ./scripts/mctsduel --load threes.td2048 --games 50 --rollout-depth 0
//
// Each move searches on --move-threads threads (1 by default: the games
// then take one core each, --threads of them at once).
package main

import (
	"cmp"
	"fmt"
	"os"
	"strings"
	"time"

	flag "github.com/spf13/pflag"

	"github.com/td2048/td2048/games"
	"github.com/td2048/td2048/netfile"
	"github.com/td2048/td2048/ntuple"
	"github.com/td2048/td2048/scripts/internal/bench"
	"github.com/td2048/td2048/search"
	"github.com/td2048/td2048/stats"
)

func main() {
	load := flag.String("load", "weights.td2048", "weights of 2048 or Threes! (td2048)")
	count := flag.Int("games", 20, "games at each budget, for each side")
	budgets := flag.String("budgets", "1ms,10ms,100ms", "times per move, comma-separated")
	chunk := flag.Int("chunk", 2, "games each side plays in turn")
	threads := flag.Int("threads", 1, "games at once")
	moveThreads := flag.Int("move-threads", 1, "threads searching each move (both sides)")
	seed := flag.Uint64("seed", 1, "seed of the games and of MCTS")
	scale := flag.Float64("mcts-scale", 1, "MCTS's time a move as a multiple of the budget (1: equal time)")
	mo := search.DefaultMCTS()
	flag.IntVar(&mo.RolloutDepth, "rollout-depth", mo.RolloutDepth, "MCTS: greedy moves from each new leaf")
	flag.Float64Var(&mo.Exploration, "exploration", mo.Exploration, "MCTS: UCT's exploration constant")
	flag.Float64Var(&mo.Gamma, "gamma", mo.Gamma, "MCTS: discount at each random tile")
	flag.Parse()
	var times []time.Duration
	for _, s := range strings.Split(*budgets, ",") {
		d, err := time.ParseDuration(strings.TrimSpace(s))
		if err != nil || d <= 0 {
			bench.Fail(2, "mctsduel", fmt.Sprintf("budget %q: want a duration like 10ms", s))
		}
		times = append(times, d)
	}
	if *count < 2 || *chunk < 1 || *threads < 1 || *moveThreads < 1 || !(*scale > 0) {
		bench.Fail(2, "mctsduel", "want --games 2 or more, --chunk, --threads and --move-threads 1 or more, --mcts-scale more than 0")
	}
	net, h, note, err := netfile.LoadPlay(*load, netfile.CompactUnstaged)
	if err != nil {
		bench.Fail(1, "mctsduel", err)
	}
	g, err := games.Lookup(h.Game)
	if err != nil {
		bench.Fail(1, "mctsduel", err)
	}
	// MCTS values after-states, as eval's --search mcts refuses others.
	if kind, err := search.ParseKind(h.Learner); err != nil || kind != search.AfterState {
		bench.Fail(1, "mctsduel", fmt.Sprintf("%s holds %s values; MCTS values after-states", *load, cmp.Or(h.Learner, "unknown")))
	}
	fmt.Printf("mctsduel: %s, %s network %s (%d episodes), %d games a side from seed %d, %d games at once, %d thread(s) a move\n",
		*load, g.Title, h.Network, h.Episodes, *count, *seed, *threads, *moveThreads)
	fmt.Printf("MCTS: exploration %v, rollouts of %d moves, gamma %v; expectimax: iterative deepening with a 64 MB table%s\n",
		mo.Exploration, mo.RolloutDepth, mo.Gamma, strings.TrimSuffix(" ("+note+")", " ()"))
	for _, b := range times {
		mo.Iterations, mo.Seed = 0, *seed
		mcts := search.Options{Method: search.MethodMCTS, MCTS: mo, MoveTime: time.Duration(float64(b) * *scale), Threads: *moveThreads}
		exp := search.Options{MoveTime: b, Threads: *moveThreads}
		var sides [2]side
		for first := 0; first < *count; first += *chunk {
			n := min(*chunk, *count-first)
			for i, opt := range []search.Options{mcts, exp} {
				if err := sides[i].play(g, net, opt, first, n, *threads, *seed); err != nil {
					bench.Fail(1, "mctsduel", err)
				}
			}
			fmt.Fprintf(os.Stderr, "budget %v: %d of %d games a side (%s)\n", b, first+n, *count, time.Now().UTC().Format("15:04:05"))
		}
		report(g, b, *scale, &sides[0], &sides[1])
	}
}

// A side is one method's games at one budget.
type side struct {
	scores  []float64
	block   stats.Block
	moves   int64
	elapsed time.Duration
	cpu     time.Duration // the process's CPU time while this side played
}

// play plays games first..first+n-1 with opt and adds them to s.
func (s *side) play(g *games.Game, net *ntuple.Network, opt search.Options, first, n, threads int, seed uint64) error {
	cfg := games.EvalConfig{Net: net, Search: opt}
	if opt.Method != search.MethodMCTS {
		cfg.Table = search.NewTable(64 << 20)
	}
	cfg.Games, cfg.First, cfg.Seed, cfg.Threads = n, first, seed, threads
	start := bench.CPUTime()
	ev, scores, err := bench.Evaluate(g, cfg)
	if err != nil {
		return err
	}
	s.cpu += bench.CPUTime() - start
	s.scores = append(s.scores, scores...)
	s.block.Merge(&ev.Block)
	s.moves += ev.Moves
	s.elapsed += ev.Elapsed
	return nil
}

// report prints one budget's duel: MCTS's side a, expectimax's b.
func report(g *games.Game, budget time.Duration, scale float64, a, b *side) {
	md, sd, z, _ := bench.Paired(b.scores, a.scores)
	fmt.Printf("budget %v a move (MCTS: x%v), %d games a side:\n", budget, scale, len(a.scores))
	for _, s := range []struct {
		name string
		s    *side
	}{{"MCTS", a}, {"expectimax", b}} {
		m, se := bench.MeanSE(s.s.scores)
		var rates []string
		for _, t := range g.Rates {
			rates = append(rates, fmt.Sprintf("%d %.0f%%", g.Value(t), 100*s.s.block.Reach(t)))
		}
		fmt.Printf("  %-10s mean %9.0f ± %6.0f   %s   %.0f moves/s, %.2f ms of CPU a move\n", s.name, m, se, strings.Join(rates, ", "),
			float64(s.s.moves)/max(s.s.elapsed.Seconds(), 1e-9), 1000*s.s.cpu.Seconds()/float64(max(s.s.moves, 1)))
	}
	ma, _ := bench.MeanSE(b.scores)
	fmt.Printf("  MCTS - expectimax: %.0f ± %.0f (%.2f standard errors; %+.1f%%)\n", md, sd, z, 100*md/ma)
}
