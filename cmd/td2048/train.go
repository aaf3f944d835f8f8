package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	flag "github.com/spf13/pflag"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/td2048/td2048/learn"
	"github.com/td2048/td2048/netfile"
	"github.com/td2048/td2048/ntuple"
	"github.com/td2048/td2048/plot"
	"github.com/td2048/td2048/stats"
)

func init() {
	register(&command{
		name:  "train",
		short: "learn n-tuple network weights by TD(0), printing statistics every block",
		setup: setupTrain,
	})
}

// runHeader is what a weight file records of the run that wrote it.
type runHeader struct {
	learn.RunState
	Base      int64  `json:"base"`       // episodes the weights had before this run
	Log       string `json:"log"`        // the metrics log, "" for none
	LogOffset int64  `json:"log_offset"` // its length when the file was written
}

type trainFlags struct {
	network, save, load, resume, learner, schedule, plateau, log, plot, game string
	episodes, every, threads, ckEvery                                        int
	alpha                                                                    float64
	seed                                                                     seedFlag
	force                                                                    bool
}

func setupTrain(fs *flag.FlagSet, e *env) func([]string) error {
	var f trainFlags
	fs.StringVar(&f.game, "game", "", "2048 or threes (default: the game of the --load or --resume file, else 2048)")
	fs.StringVar(&f.network, "network", "4x6", "network: 4x6, 8x6, 5x6, 8x4, 4x5, 2x4, or hex patterns like 012345,456789 (add /noiso for no isomorphisms, @K for K stages, +hint for Threes! tables per hint; Threes! default 4x6+hint)")
	fs.IntVar(&f.episodes, "episodes", 100000, "episodes to train (with --resume: the run's new total)")
	fs.Float64Var(&f.alpha, "alpha", 0.1, "learning rate for the whole value (each of the patterns x images weights moves by alpha*error/(patterns x images))")
	fs.StringVar(&f.schedule, "alpha-schedule", "", "learning rate by episode, like 0:0.1,200000:0.05,400000:0.025 (overrides --alpha from the first step)")
	fs.StringVar(&f.plateau, "plateau", "", "cut the rate by FACTOR when the mean of BLOCKS block averages has not improved for BLOCKS blocks, like 0.5:10")
	fs.Var(&f.seed, "seed", "random seed (printed at start; random when not given)")
	fs.StringVar(&f.save, "save", "weights.td2048", "write the weights (and the run's state, for --resume) to this file")
	fs.StringVar(&f.load, "load", "", "start from the weights in this file (td2048, 2048.bin or TDL2048+ .w)")
	fs.StringVar(&f.resume, "resume", "", "continue the interrupted or finished run saved in this file, exactly where it stopped")
	fs.IntVar(&f.every, "every", 1000, "episodes per statistics block")
	fs.StringVar(&f.learner, "learner", "after", "what the network values: after (after-states, the default) or state (states before the move, seed 004)")
	fs.IntVar(&f.threads, "threads", 0, "worker threads sharing the weights without locks (0: all cores); only 1 repeats a run exactly for a seed")
	fs.IntVar(&f.ckEvery, "checkpoint-every", 10000, "save weights and run state every this many episodes (0: only at the end and on interrupt)")
	fs.StringVar(&f.log, "log", "", "metrics log, one JSON line per block (default: the --save file with .jsonl; none to turn it off)")
	fs.StringVar(&f.plot, "plot", "", "draw the learning curve to this PNG or SVG at every checkpoint and at the end")
	fs.BoolVar(&f.force, "force", false, "overwrite a --save file that holds another network")
	return func(args []string) error {
		if len(args) > 0 {
			return usagef("unexpected argument %q", args[0])
		}
		return train(fs, &f, e)
	}
}

func train(fs *flag.FlagSet, f *trainFlags, e *env) error {
	if f.episodes < 0 || f.every <= 0 || f.threads < 0 || f.ckEvery < 0 {
		return usagef("--episodes, --every, --threads and --checkpoint-every must not be negative, --every not 0")
	}
	if !(f.alpha >= 0) {
		return usagef("--alpha must be a number >= 0")
	}
	if f.resume != "" && f.load != "" {
		return usagef("--resume continues a run; --load starts a new one from saved weights: give one")
	}
	if f.resume != "" && !flagGiven(fs, "save") {
		f.save = f.resume
	}
	if k := netfile.KindOfName(f.save); k != netfile.Native && k != netfile.Unknown {
		return usagef("--save %s: train writes td2048 files (they hold the run, to resume it); use td2048 convert for %s", f.save, k)
	}
	if f.plot != "" {
		if _, err := plot.Format(f.plot); err != nil {
			return usagef("--plot: %v", err)
		}
	}
	kind, err := parseLearner(f.learner)
	if err != nil {
		return err
	}
	// The game: as given, else the file's.
	if from := f.load + f.resume; from != "" && !flagGiven(fs, "game") {
		if h, err := netfile.ReadHeader(from); err == nil && h.Game != "" {
			f.game = h.Game
		}
	}
	g, err := gameOf(f.game)
	if err != nil {
		return err
	}
	if g.name == "threes" {
		if kind != learn.AfterState {
			return usagef("Threes! learns after-state values only (--learner after)")
		}
		if !flagGiven(fs, "network") {
			f.network = threesDefaultNetwork
		}
	}

	var spec *ntuple.Spec
	if (f.load == "" && f.resume == "") || flagGiven(fs, "network") {
		s, err := ntuple.ParseSpec(f.network)
		if err != nil {
			return usagef("%v", err)
		}
		if err := g.checkSpec(s); err != nil {
			return usagef("%v", err)
		}
		spec = &s
	}
	// Never overwrite another network's weights by accident.
	if h, err := netfile.ReadHeader(f.save); err == nil && !f.force && f.save != f.load && f.save != f.resume {
		if h.Game != g.name {
			return fmt.Errorf("%s holds weights for %s; training %s would overwrite them (choose another --save, or --force)", f.save, h.Game, g.name)
		}
		if spec != nil && h.Network != spec.String() {
			return fmt.Errorf("%s holds a %s network; training %s would overwrite it (choose another --save, or --force)", f.save, h.Network, spec)
		}
	} else if err != nil && !errors.Is(err, os.ErrNotExist) && !f.force {
		return fmt.Errorf("%v; not overwriting it (choose another --save, or --force)", err)
	}

	var (
		net   *ntuple.Network
		h     netfile.Header
		run   runHeader
		sched *learn.Schedule
	)
	switch {
	case f.resume != "":
		net, h, err = loadNet(f.resume, g.name, spec)
		if err != nil {
			return err
		}
		if len(h.Run) == 0 {
			net.Free()
			return fmt.Errorf("%s holds weights but no run to resume (use --load to train on from its weights)", f.resume)
		}
		if err := json.Unmarshal(h.Run, &run); err != nil || run.Schedule == nil || len(run.Schedule.Steps) == 0 {
			net.Free()
			return fmt.Errorf("%s: damaged run state", f.resume)
		}
		for _, c := range []struct {
			flag string
			same bool
		}{
			{"seed", f.seed.v == run.Seed}, {"every", f.every == run.Every}, {"learner", f.learner == run.Learner},
			{"threads", f.threads == len(run.Rands)}, {"alpha", false}, {"alpha-schedule", false}, {"plateau", false},
		} {
			if flagGiven(fs, c.flag) && !c.same {
				net.Free()
				return usagef("--%s: a resumed run keeps its settings (start a new run with --load to change them)", c.flag)
			}
		}
		f.seed = seedFlag{set: true, v: run.Seed}
		f.every, f.threads = run.Every, len(run.Rands)
		if kind, err = learn.ParseKind(run.Learner); err != nil {
			net.Free()
			return err
		}
		if !flagGiven(fs, "episodes") {
			f.episodes = run.Total
		}
		if f.episodes < run.Done {
			net.Free()
			return usagef("--episodes %d: the run has done %d already", f.episodes, run.Done)
		}
		sched = run.Schedule
	case f.load != "":
		net, h, err = loadNet(f.load, g.name, spec)
		if err != nil {
			return err
		}
		if err := g.checkSpec(net.Spec()); err != nil {
			net.Free()
			return err
		}
		if !flagGiven(fs, "learner") {
			if kind, err = learn.ParseKind(h.Learner); err != nil {
				net.Free()
				return err
			}
		} else if err := netfile.Expect(f.load, h, g.name, kind.String(), nil); err != nil {
			net.Free()
			return err
		}
		run.Base = h.Episodes
	default:
		if net, err = ntuple.New(*spec); err != nil {
			return err
		}
	}
	defer net.Free()
	f.threads = threadCount(f.threads)
	if sched == nil {
		if sched, err = learn.ParseSchedule(f.schedule, f.alpha); err != nil {
			return usagef("%v", err)
		}
		if f.plateau != "" {
			if err := sched.SetPlateau(f.plateau); err != nil {
				return usagef("%v", err)
			}
		}
	}

	// The metrics log: new for a new run, cut back to the checkpoint on resume.
	logPath := f.log
	switch {
	case f.resume != "" && !flagGiven(fs, "log"):
		logPath = run.Log
	case logPath == "":
		logPath = strings.TrimSuffix(f.save, filepath.Ext(f.save)) + ".jsonl"
	case logPath == "none":
		logPath = ""
	}
	var logf *os.File
	if logPath != "" {
		if f.resume != "" && logPath == run.Log {
			logf, err = os.OpenFile(logPath, os.O_WRONLY|os.O_CREATE, 0o644)
			if err == nil {
				if err = logf.Truncate(run.LogOffset); err == nil {
					_, err = logf.Seek(run.LogOffset, io.SeekStart)
				}
			}
		} else {
			logf, err = os.Create(logPath)
		}
		if err != nil {
			return fmt.Errorf("log: %v", err)
		}
		defer logf.Close()
	}
	run.Log = logPath

	out := e.stdout
	sd := f.seed.value()
	fmt.Fprintf(out, "td2048 train\n")
	fmt.Fprintf(out, "game = %s\nnetwork = %s\n", g.title, describe(net.Spec()))
	switch {
	case f.resume != "":
		fmt.Fprintf(out, "resumed = %s (%d of %d episodes done)\n", f.resume, run.Done, f.episodes)
	case f.load != "":
		fmt.Fprintf(out, "loaded = %s (%d episodes)\n", f.load, h.Episodes)
	}
	kindText := "after-state TD(0), backward episode updates"
	if kind == learn.State {
		kindText = "state TD(0), backward episode updates"
	}
	fmt.Fprintf(out, "learner = %s\nalpha = %s\ntotal = %d\nthreads = %d\nseed = %d\n", kindText, sched, f.episodes, f.threads, sd)
	if logPath != "" {
		fmt.Fprintf(out, "log = %s\n", logPath)
	}

	save := func(st learn.RunState) error {
		run.RunState = st
		if logf != nil {
			if err := logf.Sync(); err != nil {
				return fmt.Errorf("log: %v", err)
			}
			off, err := logf.Seek(0, io.SeekCurrent)
			if err != nil {
				return fmt.Errorf("log: %v", err)
			}
			run.LogOffset = off
		}
		hh := h
		hh.Episodes = run.Base + int64(st.Done)
		hh.Learner = kind.String()
		hh.Game = g.name
		if hh.Run, err = json.Marshal(run); err != nil {
			return err
		}
		if err := netfile.Save(f.save, net, hh); err != nil {
			return err
		}
		if f.plot != "" && logPath != "" {
			s, err := plot.ReadLog(logPath, strings.TrimSuffix(filepath.Base(f.save), filepath.Ext(f.save)))
			if err == nil && len(s.Records) > 0 {
				err = plot.Save(f.plot, s)
			}
			if err != nil {
				fmt.Fprintf(e.stderr, "td2048 train: plot: %v\n", err)
			}
		}
		return nil
	}

	prog := newProgress(e, g.goal, g.value(g.goal))
	var lastElapsed time.Duration // at the end of the last block
	cfg := learn.Config{
		Episodes: f.episodes, Kind: kind, Seed: sd, Threads: f.threads, Every: f.every,
		Schedule: sched, CheckpointEvery: f.ckEvery,
		Checkpoint: func(st learn.RunState) error {
			prog.clear()
			return save(st)
		},
		Block: func(done int, b *stats.Block, elapsed time.Duration, alpha float32) {
			prog.clear()
			b.Write(out, done, g.value)
			dt := elapsed - lastElapsed
			rec := stats.NewRecord(int64(done), b, g.value)
			rec.Alpha, _ = strconv.ParseFloat(strconv.FormatFloat(float64(alpha), 'g', -1, 32), 64)
			rec.MovesPerSec = float64(b.Moves) / max(dt.Seconds(), 1e-9)
			rec.Elapsed = elapsed.Seconds()
			rec.Seed, rec.Network, rec.Game = sd, net.Spec().String(), g.name
			if logf != nil {
				stats.WriteRecord(logf, rec)
			}
			prog.block(done, f.episodes, elapsed, rec.MovesPerSec)
			lastElapsed = elapsed
		},
		Tick:      prog.tick,
		TickEvery: 250 * time.Millisecond,
	}
	if f.resume != "" {
		cfg.Resume = &run.RunState
		lastElapsed = time.Duration(run.Elapsed * float64(time.Second))
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	st, res, err := g.train(ctx, net, cfg)
	interrupted := ctx.Err() != nil
	stop()
	prog.clear()
	if err != nil {
		return err
	}
	if err := save(st); err != nil {
		return err
	}
	fmt.Fprintf(out, "%d episodes in %s, %s moves/s; saved %s (%d of %d episodes of this run)\n",
		res.Episodes, res.Elapsed.Round(time.Millisecond), rate(res.Moves, res.Elapsed), f.save, st.Done, st.Total)
	if interrupted {
		return fmt.Errorf("interrupted after %d episodes; the run is saved: continue it with td2048 train --resume %s", st.Done, f.save)
	}
	return nil
}
