package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	flag "github.com/spf13/pflag"

	"github.com/td2048/td2048/internal/train"
	"github.com/td2048/td2048/learn"
	"github.com/td2048/td2048/stats"
)

func init() {
	register(&command{
		name:  "train",
		short: "learn network weights by TD(0) and its research variants",
		long:  "Learn n-tuple network weights by TD learning, printing statistics every block.",
		setup: setupTrain,
	})
}

func setupTrain(fs *flag.FlagSet, e *env) func([]string) error {
	s := train.Default()
	s.AddFlags(fs)
	quiet := fs.Bool("quiet", false, "only the statistics blocks and closing lines")
	if err := fs.SetAnnotation("quiet", train.GroupAnnotation, []string{"run"}); err != nil {
		panic(err)
	}
	return func(args []string) error {
		if len(args) > 0 {
			return usagef("unexpected argument %q", args[0])
		}
		if s.Recipe == "list" {
			writeRecipes(e.stdout)
			return nil
		}
		return runTrain(e, s, train.GivenFlags(fs), *quiet)
	}
}

// runTrain trains the run s describes, given naming the settings the user
// set, printing its header (unless quiet), its blocks and its closing
// lines; the train command and sweep tasks run through it.
func runTrain(e *env, s train.Spec, given train.Given, quiet bool) error {
	r, err := train.Open(s, given, train.Options{Refuse: refuseClobber})
	if err != nil {
		return usageOf(err)
	}
	defer r.Close()
	v := &trainView{e: e, r: r}
	if quiet {
		v.prog = newProgress(&env{stderr: io.Discard}, r.Game.Goal, 0)
	} else {
		r.WriteHeader(e.stdout)
		v.prog = newProgress(e, r.Game.Goal, r.Game.Value(r.Game.Goal))
	}
	// A closed terminal (SIGHUP) stops and saves the run as SIGTERM does.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	res, err := r.Train(ctx, v)
	stop()
	v.prog.clear()
	if err != nil {
		return err
	}
	out, save := e.stdout, r.Spec.Save
	fmt.Fprintf(out, "%d episodes in %s, %s moves/s; saved %s (%d of %d episodes of this run)\n",
		res.Episodes, res.Elapsed.Round(time.Millisecond), rate(res.Moves, res.Elapsed), save, res.Done, res.Total)
	if c := learn.DescribeChoices(res.Choices); c != "" {
		fmt.Fprintf(out, "adapted = %s of the time\n", c)
	}
	if r.Spec.Plot != "" && r.LogPath != "" {
		fmt.Fprintf(out, "plot: %s\n", r.Spec.Plot)
	}
	if res.Interrupted {
		return fmt.Errorf("interrupted after %d episodes; the run is saved: continue it with td2048 train --resume %s", res.Done, save)
	}
	if res.Limited && res.Done < res.Total {
		fmt.Fprintf(out, "stopped at --duration %v after %d episodes; continue the run with td2048 train --resume %s\n", r.Spec.Duration, res.Done, save)
	}
	return nil
}

// usageOf makes a setting that cannot work a usage error.
func usageOf(err error) error {
	if _, ok := errors.AsType[*train.FieldError](err); ok {
		return usagef("%v", err)
	}
	return err
}

// trainView shows a run as it trains: its blocks on stdout in the game's
// course format, its progress and warnings on stderr.
type trainView struct {
	e    *env
	r    *train.Run
	prog *progress
}

func (v *trainView) Block(done int, b *stats.Block, rec stats.Record, wall time.Duration) {
	v.prog.clear()
	v.r.Game.WriteBlock(v.e.stdout, done, b, wall)
	v.prog.block(done, v.r.Spec.Episodes, time.Duration(rec.Elapsed*float64(time.Second)), rec.MovesPerSec)
}

func (v *trainView) Tick(s learn.Snapshot) { v.prog.tick(s) }

func (v *trainView) Warn(msg string) {
	v.prog.clear()
	fmt.Fprintf(v.e.stderr, "td2048 train: %s\n", msg)
}
