package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"td2048/learn"
	"td2048/netfile"
	"td2048/ntuple"
	"td2048/stats"
)

func init() {
	register(&command{
		name:  "train",
		short: "learn n-tuple network weights by TD(0), printing statistics every block",
		setup: setupTrain,
	})
}

func setupTrain(fs *flag.FlagSet, e *env) func([]string) error {
	network := fs.String("network", "4x6", "network: 4x6, 8x6, 5x6, 8x4, 4x5, 2x4, or hex patterns like 012345,456789 (add /noiso for no isomorphisms)")
	episodes := fs.Int("episodes", 100000, "episodes to train")
	alpha := fs.Float64("alpha", 0.1, "learning rate for the whole value (each of the patterns x images weights moves by alpha*error/(patterns x images))")
	var seed seedFlag
	fs.Var(&seed, "seed", "random seed (printed at start; random when not given)")
	save := fs.String("save", "weights.td2048", "write the weights to this file")
	load := fs.String("load", "", "continue from the weights in this file")
	every := fs.Int("every", 1000, "episodes per statistics block")
	learner := fs.String("learner", "after", "what the network values: after (after-states, the default) or state (states before the move, seed 004)")
	threads := fs.Int("threads", 1, "worker threads sharing the weights (lock-free); 1 repeats exactly for a seed")
	force := fs.Bool("force", false, "overwrite a --save file that holds another network")
	return func(args []string) error {
		if len(args) > 0 {
			return usagef("unexpected argument %q", args[0])
		}
		if *episodes < 0 || *every <= 0 || *threads < 0 {
			return usagef("--episodes, --every and --threads must be positive")
		}
		if !(*alpha >= 0) {
			return usagef("--alpha must be a number >= 0")
		}
		kind, err := parseLearner(*learner)
		if err != nil {
			return err
		}
		var spec *ntuple.Spec
		if *load == "" || flagGiven(fs, "network") {
			s, err := ntuple.ParseSpec(*network)
			if err != nil {
				return usagef("%v", err)
			}
			spec = &s
		}
		// Never overwrite another network's weights by accident.
		if h, err := netfile.ReadHeader(*save); err == nil && !*force && *save != *load {
			if spec != nil && h.Network != spec.String() {
				return fmt.Errorf("%s holds a %s network; training %s would overwrite it (choose another --save, or --force)", *save, h.Network, spec)
			}
		} else if err != nil && !errors.Is(err, os.ErrNotExist) && !*force {
			return fmt.Errorf("%v; not overwriting it (choose another --save, or --force)", err)
		}

		var net *ntuple.Network
		var h netfile.Header
		if *load != "" {
			net, h, err = loadNet(*load, "2048", spec)
			if err != nil {
				return err
			}
			if h.Learner != kind.String() && !flagGiven(fs, "learner") {
				kind, _ = learn.ParseKind(h.Learner)
			} else if err := netfile.Expect(*load, h, "2048", kind.String(), nil); err != nil {
				return err
			}
		} else {
			net, err = ntuple.New(*spec)
			if err != nil {
				return err
			}
		}
		defer net.Free()

		out := e.stdout
		sd := seed.value()
		fmt.Fprintf(out, "td2048 train\n")
		fmt.Fprintf(out, "network = %s\n", describe(net.Spec()))
		if *load != "" {
			fmt.Fprintf(out, "loaded = %s (%d episodes)\n", *load, h.Episodes)
		}
		kindText := "after-state TD(0)"
		if kind == learn.State {
			kindText = "state TD(0)"
		}
		fmt.Fprintf(out, "learner = %s\nalpha = %g\ntotal = %d\nthreads = %d\nseed = %d\n", kindText, *alpha, *episodes, max(*threads, 1), sd)

		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		res := learn.Train(ctx, net, learn.Config{
			Episodes: *episodes, Alpha: float32(*alpha), Kind: kind, Seed: sd,
			Threads: *threads, Every: *every,
			Block: func(done int, b *stats.Block, _ time.Duration) {
				b.Write(out, done, stats.Pow2)
			},
		})
		interrupted := ctx.Err() != nil
		stop()
		h.Episodes += int64(res.Episodes)
		h.Learner = kind.String()
		if err := netfile.Save(*save, net, h); err != nil {
			return err
		}
		fmt.Fprintf(out, "%d episodes in %s, %s moves/s; saved %s (%d episodes in all)\n",
			res.Episodes, res.Elapsed.Round(time.Millisecond), rate(res.Moves, res.Elapsed), *save, h.Episodes)
		if interrupted {
			return fmt.Errorf("interrupted after %d episodes; the weights so far are saved in %s", res.Episodes, *save)
		}
		return nil
	}
}
