package main

import (
	"context"
	"fmt"
	flag "github.com/spf13/pflag"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/td2048/td2048/learn"
	"github.com/td2048/td2048/netfile"
	"github.com/td2048/td2048/stats"
)

func init() {
	register(&command{
		name:  "eval",
		short: "play games with saved weights, learning off, and print their statistics",
		setup: setupEval,
	})
}

func setupEval(fs *flag.FlagSet, e *env) func([]string) error {
	load := fs.String("load", "weights.td2048", "weights to play with")
	games := fs.Int("games", 1000, "games to play")
	var seed seedFlag
	fs.Var(&seed, "seed", "random seed (printed at start; random when not given); game i draws from (seed, i) alone")
	threads := fs.Int("threads", 0, "worker threads (0: all cores); the statistics do not depend on it")
	var sf searchFlags
	sf.define(fs)
	gameName := fs.String("game", "", "2048 or threes (default: the game of the --load file, else 2048)")
	statsFile := fs.String("stats", "", "Threes!: write the course's statistics file here (one line per game, for td2048 judge and the course judge)")
	return func(args []string) error {
		if len(args) > 0 {
			return usagef("unexpected argument %q", args[0])
		}
		if *games <= 0 || *threads < 0 {
			return usagef("--games must be positive and --threads at least 0")
		}
		if err := sf.check(); err != nil {
			return err
		}
		if !flagGiven(fs, "game") {
			if h, err := netfile.ReadHeader(*load); err == nil && h.Game != "" {
				*gameName = h.Game
			}
		}
		g, err := gameOf(*gameName)
		if err != nil {
			return err
		}
		if g.name == "threes" {
			if sf.moveTime > 0 {
				return usagef("--move-time is for 2048 only; Threes! searches to --depth")
			}
			return threesEval(threesEvalArgs{Load: *load, Games: *games, Seed: seed.value(), Threads: *threads,
				Depth: sf.depth, Cache: int64(sf.cache), Stats: *statsFile}, e)
		}
		if *statsFile != "" {
			return usagef("--stats writes the Threes! course statistics file; 2048 has none (the statistics block is the output)")
		}
		net, h, err := loadNet(*load, "2048", nil)
		if err != nil {
			return err
		}
		defer net.Free()
		kind, err := learn.ParseKind(h.Learner)
		if err != nil {
			return err
		}
		out := e.stdout
		sd := seed.value()
		fmt.Fprintf(out, "td2048 eval\nnetwork = %s\nloaded = %s (%d episodes, %s-value)\nsearch = %s\ntotal = %d\nseed = %d\n",
			describe(net.Spec()), *load, h.Episodes, kind, sf.describe(), *games, sd)
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		policy := sf.policies(net, kind)
		block, res := learn.Evaluate(ctx, learn.EvalConfig{Games: *games, Seed: sd, Threads: *threads, NewPolicy: policy})
		block.Write(out, block.Games, stats.Pow2)
		fmt.Fprintf(out, "2048 rate = %s%% (%d of %d games)\n", stats.Num(100*block.Reach(11)), block.Reached(11), block.Games)
		fmt.Fprintf(out, "%d games in %s, %s moves/s\n", res.Episodes, res.Elapsed.Round(time.Millisecond), rate(res.Moves, res.Elapsed))
		if ctx.Err() != nil {
			return fmt.Errorf("interrupted after %d games", res.Episodes)
		}
		return nil
	}
}
