package main

import (
	"context"
	"fmt"
	flag "github.com/spf13/pflag"
	"os"
	"os/signal"
	"runtime"
	"syscall"
	"time"

	"github.com/td2048/td2048/bench"
)

func init() {
	register(&command{
		name:  "bench",
		short: "speed of training and play on a fixed workload, and a signature of its results",
		setup: setupBench,
	})
}

func setupBench(fs *flag.FlagSet, e *env) func([]string) error {
	short := fs.Bool("short", false, "a quick workload (for CI): "+describeBench(bench.Short))
	threads := fs.Int("threads", 1, "threads for every phase (0: all cores); training on more than one is not repeatable, so no signature")
	episodes := fs.Int("episodes", bench.Default.Episodes, "training episodes")
	games := fs.Int("games", bench.Default.Games, "greedy games")
	deep := fs.Int("deep-games", bench.Default.DeepGames, "2-ply games")
	return func(args []string) error {
		if len(args) > 0 {
			return usagef("unexpected argument %q", args[0])
		}
		if *episodes < 0 || *games < 0 || *deep < 0 {
			return usagef("--episodes, --games and --deep-games must not be negative")
		}
		// --short sets the workload; the sizes given beside it override it.
		cfg := bench.Default
		if *short {
			cfg = bench.Short
		}
		set := func(name string) bool { return !*short || flagGiven(fs, name) }
		if set("episodes") {
			cfg.Episodes = *episodes
		}
		if set("games") {
			cfg.Games = *games
		}
		if set("deep-games") {
			cfg.DeepGames = *deep
		}
		if *threads < 0 {
			return usagef("--threads must not be negative")
		}
		cfg.Threads = *threads
		if cfg.Threads == 0 {
			cfg.Threads = runtime.GOMAXPROCS(0)
		}
		out := e.stdout
		fmt.Fprintf(out, "td2048 bench: %s, %d thread(s), %s/%s, %d CPUs\n", describeBench(cfg), cfg.Threads, runtime.GOOS, runtime.GOARCH, runtime.NumCPU())
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		res, err := bench.Run(ctx, cfg)
		if err != nil {
			return err
		}
		for _, p := range res.Phases {
			fmt.Fprintf(out, "%-24s %12.0f moves/s  %10d moves  %8s\n", p.Name, p.MovesPerSec(), p.Moves, p.Elapsed.Round(time.Millisecond))
		}
		if res.Repeatable {
			fmt.Fprintf(out, "signature %08x\n", res.Signature)
		} else {
			fmt.Fprintln(out, "signature none (training on several threads is not repeatable)")
		}
		return nil
	}
}

func describeBench(c bench.Config) string {
	return fmt.Sprintf("%d training episodes, %d greedy games, %d 2-ply games", c.Episodes, c.Games, c.DeepGames)
}
