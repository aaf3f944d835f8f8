package main

import (
	"context"
	"errors"
	"fmt"
	flag "github.com/spf13/pflag"
	"math"
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
	"github.com/td2048/td2048/runfile"
	"github.com/td2048/td2048/safefile"
	"github.com/td2048/td2048/stats"
)

func init() {
	register(&command{
		name:  "train",
		short: "learn n-tuple network weights by TD(0), printing statistics every block",
		long:  trainLong(),
		setup: setupTrain,
	})
}

type trainFlags struct {
	network, save, load, resume, learner, schedule, plateau, log, plot, game, update string
	recipe, shaping, coherenceFrom                                                   string
	coherenceAlpha                                                                   float64
	duration, ckGap                                                                  time.Duration
	episodes, every, threads, ckEvery, interleave                                    int
	alpha, init                                                                      float64
	seed                                                                             seedFlag
	force, coherence, promote                                                        bool
}

func setupTrain(fs *flag.FlagSet, e *env) func([]string) error {
	var f trainFlags
	fs.StringVar(&f.recipe, "recipe", "", "train by a published recipe (see above; list prints each with its flags): td, online, otd, otd-tc, tc, ms, guei2022, jaskowski2018, matsuzaki2017; flags given override it")
	fs.StringVar(&f.game, "game", "", "2048 or threes (default: the game of the --load or --resume file, else 2048)")
	fs.StringVar(&f.network, "network", "4x6", "network: 4x6, 5x6, 6x6, 7x6, 8x6, 4x5, 5x4, 2x4, 8x4, 9x4 (or TDL2048+'s 4x6patt ...), or hex patterns like 012345,456789 (add /noiso for no isomorphisms; @T0,T1,... for 2048 stages, one table set per threshold on the board's scale, the sum of its distinct tiles, as TDL2048+'s -@, so 4x6@0,16384 or 4x6patt@2 switches tables at the first 16384; +hint for Threes! tables per hint; Threes! default 4x6+hint)")
	fs.IntVar(&f.episodes, "episodes", 100000, "episodes to train (with --resume: the run's new total)")
	fs.Float64Var(&f.alpha, "alpha", 0.1, "learning rate for the whole value (each of the patterns x images weights moves by alpha*error/(patterns x images))")
	fs.StringVar(&f.schedule, "alpha-schedule", "", "learning rate by episode, like 0:0.1,200000:0.05,400000:0.025 (overrides --alpha from the first step)")
	fs.StringVar(&f.plateau, "plateau", "", "cut the rate by FACTOR when the mean of BLOCKS block averages has not improved for BLOCKS blocks, like 0.5:10")
	fs.Var(&f.seed, "seed", "random seed (printed at start; random when not given)")
	fs.StringVar(&f.save, "save", "weights.td2048", "write the weights (and the run's state, for --resume) to this file")
	fs.StringVar(&f.load, "load", "", "start from the weights in this file (td2048, 2048.bin or TDL2048+ .w)")
	fs.StringVar(&f.resume, "resume", "", "continue the interrupted or finished run saved in this file, exactly where it stopped")
	fs.IntVar(&f.interleave, "interleave", 0, fmt.Sprintf("episodes each thread plays in turn, so that one's memory waits overlap another's work; after-state learning without shaping (0: the fastest measured on this processor: %d on AMD processors for networks of at most 40 weights a board, like 4x6 and 5x6, else 1; on several threads the run then plays that many or one at a time, whichever it measures faster as it goes: see --threads). With --threads 1 any value repeats a run from its seed (give it to repeat a run on another vendor's processor); a run stopped and resumed learns as one never stopped at 1 from any stop, above 1 from a checkpoint (a kill -9's) or with checkpoints at the same episodes", learn.DefaultInterleave))
	fs.DurationVar(&f.duration, "duration", 0, "stop after this much training (like 60m), save, and exit 0: equal-compute comparisons; --resume continues the run (0: no limit)")
	fs.IntVar(&f.every, "every", 1000, "episodes per statistics block")
	fs.StringVar(&f.learner, "learner", "after", "what the network values: after (after-states, the default) or state (states before the move, seed 004)")
	fs.BoolVar(&f.coherence, "coherence", false, "temporal coherence (TC): each weight's step scaled by |E|/A of its past updates (alpha defaults to 1.0); a --load'ed network keeps its weights and starts its accumulators, as TDL2048+ does for OTD then TC")
	fs.StringVar(&f.coherenceFrom, "coherence-from", "", "switch to temporal coherence at this episode, or this share of --episodes (like 90%): OTD then TC in one run; the rate becomes --coherence-alpha unless --alpha-schedule is given")
	fs.Float64Var(&f.coherenceAlpha, "coherence-alpha", 1.0, "the rate from --coherence-from on (TDL2048+'s TC rate 1.0)")
	fs.StringVar(&f.shaping, "shaping", "", "2048 sub-episodes: restart[,L=10][,at=0.5] (replay the late part of games from a chosen after-state, TDL2048+'s restart) or carousel[,block=2048][,limit=65536] (start from boards of ever larger tiles, TDL2048+'s -b); see docs/methods.md")
	fs.Float64Var(&f.init, "init", 0, "optimistic initialisation: a new network values every board at this (like 320000; TDL2048+'s 4x6patt=320000/norm)")
	fs.StringVar(&f.update, "update", "backward", "how after-states learn: backward (after the episode, the course's rule), online (as the next move is chosen, TDL2048+'s default: each after-state from its value at the choice for plain TD(0), valued again with --coherence, stages or --shaping), fast or forward (online, always from the value at the choice or always valued again: TDL2048+'s -tt fast and forward) or delayed (online lambda on the values of the choices, after Jaskowski 2018), optionally with ,nstep=N (n-step TD) and ,lambda=L (TD(lambda): backward untruncated unless nstep is given, online truncated at nstep, default 5, like backward,lambda=0.5,nstep=5 or delayed,lambda=0.5); see docs/methods.md")
	fs.BoolVar(&f.promote, "promote", false, "weight promotion for a multi-stage network: a stage first entered starts from the weights of the stage below")
	fs.IntVar(&f.threads, "threads", 0, "worker threads sharing the weights without locks (0: all cores); only 1 repeats a run exactly for a seed. Unless --interleave is given, a run of several measures as it goes whether all its threads or half of them, and (where --interleave defaults to 2) two games in turn or one, train faster, and keeps the faster")
	fs.IntVar(&f.ckEvery, "checkpoint-every", 10000, "save weights and run state every this many episodes (0: only at the end and on interrupt); by default at most once per --checkpoint-gap")
	fs.DurationVar(&f.ckGap, "checkpoint-gap", time.Minute, "skip the checkpoints that come sooner than this after the last one, so that a short run learns instead of writing weights (0: save at every --checkpoint-every; the default when --checkpoint-every is given)")
	fs.StringVar(&f.log, "log", "", "metrics log, one JSON line per block (default: the --save file with .jsonl; none to turn it off)")
	fs.StringVar(&f.plot, "plot", "", "draw the learning curve to this PNG, SVG or PDF at every checkpoint and at the end")
	fs.BoolVar(&f.force, "force", false, "replace existing files: a --save file with trained weights, another run's --log, a --plot that is not an image")
	return func(args []string) error {
		if len(args) > 0 {
			return usagef("unexpected argument %q", args[0])
		}
		return train(fs, &f, e)
	}
}

func train(fs *flag.FlagSet, f *trainFlags, e *env) error {
	if f.recipe == "list" {
		writeRecipes(e.stdout)
		return nil
	}
	if f.recipe != "" {
		if err := applyRecipe(fs, f.recipe); err != nil {
			return err
		}
	}
	if f.episodes < 0 || f.every <= 0 || f.threads < 0 || f.ckEvery < 0 {
		return usagef("--episodes, --every, --threads and --checkpoint-every must not be negative, --every not 0")
	}
	if f.ckGap < 0 {
		return usagef("--checkpoint-gap %v: want a time between checkpoints, like 1m, or 0", f.ckGap)
	}
	if flagGiven(fs, "checkpoint-every") && !flagGiven(fs, "checkpoint-gap") {
		f.ckGap = 0 // the interval asked for, every time
	}
	if f.duration < 0 {
		return usagef("--duration %v: want a time to train, like 60m", f.duration)
	}
	if f.interleave < 0 || f.interleave > learn.MaxInterleave {
		return usagef("--interleave %d: want 0 (the default) to %d episodes per thread", f.interleave, learn.MaxInterleave)
	}
	if f.coherence && !flagGiven(fs, "alpha") {
		f.alpha = 1 // TDL2048+'s TC rate: the first step of a weight moves V by the whole error
	}
	if err := learn.CheckAlpha(f.alpha); err != nil {
		return usagef("--alpha: %v", err)
	}
	if !(math.Abs(f.init) < 1e9) {
		return usagef("--init %v: want a value a board can have, like 320000", f.init)
	}
	if f.init != 0 && (f.load != "" || f.resume != "") {
		return usagef("--init fills a new network; --load and --resume bring their own weights")
	}
	if err := checkThreads(f.threads); err != nil {
		return err
	}
	if f.resume != "" && f.load != "" {
		return usagef("--resume continues a run; --load starts a new one from saved weights: give one")
	}
	if f.resume != "" && !flagGiven(fs, "save") {
		f.save = f.resume
	}
	if f.save == "" {
		return usagef("--save: want a file name")
	}
	if k := netfile.FormatOfName(f.save); k != netfile.Native && k != netfile.Unknown {
		return usagef("--save %s: train writes td2048 files (they hold the run, to resume it); use td2048 convert for %s", f.save, k)
	}
	kind, err := parseLearner(f.learner)
	if err != nil {
		return err
	}
	mode, err := learn.ParseMode(f.update)
	if err != nil {
		return usagef("--update: %v", err)
	}
	if mode != (learn.Mode{}) && kind != learn.AfterState {
		return usagef("--update %s is for after-state learning; the state learner learns backward by TD(0)", f.update)
	}
	shaping, err := learn.ParseShaping(f.shaping)
	if err != nil {
		return usagef("--shaping: %v", err)
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
	if err := g.CheckLearner(kind); err != nil {
		return usagef("--learner: %v", err)
	}
	if !flagGiven(fs, "network") {
		f.network = g.Network
	}
	var spec *ntuple.Spec
	if (f.load == "" && f.resume == "") || flagGiven(fs, "network") {
		s, err := parseNetwork(f.network)
		if err != nil {
			return err
		}
		if err := g.CheckSpec(s); err != nil {
			return usagef("%v", err)
		}
		spec = &s
	}
	if spec != nil {
		if err := learn.CheckStages(*spec, kind, f.promote); err != nil {
			return usagef("%v", err)
		}
	}

	// The run being resumed: its state, read from the header alone so that
	// every check below comes before the weights are read.
	var st runfile.State
	if f.resume != "" {
		h, err := netfile.ReadHeader(f.resume)
		if err != nil {
			if errors.Is(err, os.ErrNotExist) {
				return fmt.Errorf("%s not found: nothing to resume", f.resume)
			}
			return err
		}
		var ok bool
		st, ok, err = runfile.ReadState(h)
		if !ok {
			return fmt.Errorf("%s holds weights but no run to resume (use --load %s to train on from its weights)", f.resume, f.resume)
		}
		if err != nil {
			return fmt.Errorf("%s: %v", f.resume, err)
		}
		for _, c := range []struct {
			flag string
			same bool
		}{
			{"seed", f.seed.v == st.Seed}, {"every", f.every == st.Every}, {"learner", f.learner == st.Learner},
			{"threads", f.threads*max(st.Interleave, 1) == len(st.Rands)}, {"interleave", max(f.interleave, 1) == max(st.Interleave, 1)}, {"alpha", false}, {"alpha-schedule", false}, {"plateau", false},
			{"update", false}, {"promote", f.promote == (st.Promoted != nil)}, {"shaping", f.shaping == st.Shaping},
			{"coherence-from", false}, {"coherence-alpha", false},
		} {
			if flagGiven(fs, c.flag) && !c.same {
				return usagef("--%s: a resumed run keeps its settings (start a new run with --load to change them)", c.flag)
			}
		}
		f.seed = seedFlag{set: true, v: st.Seed}
		f.interleave = max(st.Interleave, 1)
		f.every, f.threads = st.Every, len(st.Rands)/f.interleave
		f.promote = st.Promoted != nil
		if shaping, err = learn.ParseShaping(st.Shaping); err != nil {
			return fmt.Errorf("%s: damaged run state: %v", f.resume, err)
		}
		if kind, err = learn.ParseKind(st.Learner); err != nil {
			return err
		}
		if mode, err = learn.ParseMode(st.Update); err != nil {
			return fmt.Errorf("%s: damaged run state: %v", f.resume, err)
		}
		if !flagGiven(fs, "episodes") {
			f.episodes = st.Total
		}
		if f.episodes < st.Done {
			return usagef("--episodes %d: the run has done %d already", f.episodes, st.Done)
		}
		// The run goes on as it was started unless a flag says otherwise.
		if !flagGiven(fs, "checkpoint-every") && st.CheckpointEvery > 0 {
			f.ckEvery = st.CheckpointEvery
		}
		if !flagGiven(fs, "checkpoint-every") && !flagGiven(fs, "checkpoint-gap") && st.CheckpointGap != "" {
			if f.ckGap, err = time.ParseDuration(st.CheckpointGap); err != nil || f.ckGap < 0 {
				return fmt.Errorf("%s: damaged run state: checkpoint gap %q", f.resume, st.CheckpointGap)
			}
		}
		if !flagGiven(fs, "plot") && st.Plot != "" {
			f.plot = runfile.Resolve(f.resume, st.Plot)
		}
	}
	f.threads = threadCount(f.threads)
	cohFrom, err := f.coherenceStart(st)
	if err != nil {
		return err
	}
	if cohFrom > 0 && kind != learn.AfterState {
		return usagef("--coherence-from is for after-state learning")
	}
	if f.interleave > 1 && !g.Interleaves {
		return usagef("--interleave %d: %s training plays one episode at a time on each thread", f.interleave, g.Name)
	}
	if err := learn.CheckInterleave(f.interleave, kind, shaping); err != nil {
		return usagef("--%v", err)
	}
	if spec != nil {
		if err := learn.CheckShaping(shaping, *spec, kind); err != nil {
			return usagef("--shaping: %v", err)
		}
	}

	// Every file this run writes, checked before any work: the weights
	// (also the checkpoint), the metrics log and the plot.
	logPath := f.log
	switch {
	case f.resume != "" && !flagGiven(fs, "log"):
		logPath = st.LogPath(f.resume)
	case logPath == "":
		logPath = runfile.DefaultLog(f.save)
	case logPath == "none":
		logPath = ""
	}
	if f.plot != "" {
		if _, err := plot.Format(f.plot); err != nil {
			return usagef("--plot: %v", err)
		}
	}
	outs := []struct{ flag, path string }{{"save", f.save}, {"log", logPath}, {"plot", f.plot}}
	for i, o := range outs {
		if o.path == "" {
			continue
		}
		if err := safefile.Check(o.path); err != nil {
			return usagef("--%s: %v", o.flag, err)
		}
		for _, in := range []struct{ flag, path string }{{"load", f.load}, {"resume", f.resume}} {
			if o.flag != "save" && in.path != "" && samePath(o.path, in.path) {
				return usagef("--%s %s is the --%s file: it would be overwritten", o.flag, o.path, in.flag)
			}
		}
		for _, p := range outs[:i] {
			if p.path != "" && samePath(o.path, p.path) {
				return usagef("--%s and --%s name the same file %s", p.flag, o.flag, o.path)
			}
		}
	}
	// Training on over the --load file continues its history: its own log
	// (the default one) goes on, the episodes counted from the weights'.
	appendLog := f.load != "" && samePath(f.save, f.load) && !flagGiven(fs, "log") && logPath != ""
	// A resumed run goes on with its own log unless --log names another.
	resumeLog := f.resume != "" && !flagGiven(fs, "log") && logPath != ""
	locks, err := safefile.AcquireAll(f.save, logPath, f.plot)
	if err != nil {
		return err
	}
	defer locks.Release()
	// Nothing is overwritten that the user did not name as this run's.
	if !f.force {
		if !samePath(f.save, f.resume) && !samePath(f.save, f.load) {
			if err := refuseClobber(f.save, "save", "weights", g.Name, spec); err != nil {
				return err
			}
		}
		if logPath != "" && !resumeLog && !appendLog {
			if err := refuseClobber(logPath, "log", "log", "", nil); err != nil {
				return err
			}
		}
		if f.plot != "" {
			if err := refuseClobber(f.plot, "plot", "image", "", nil); err != nil {
				return err
			}
		}
	}
	if spec != nil {
		if err := checkMemory(int64(spec.Weights())*4, "network "+spec.String()); err != nil {
			return err
		}
	}

	var (
		net   *ntuple.Network
		h     netfile.Header
		sched *learn.Schedule
	)
	switch {
	case f.resume != "":
		net, h, err = loadNet(f.resume, g.Name, spec)
		if err != nil {
			return err
		}
		if st2, _, err := runfile.ReadState(h); err != nil || st2.Done != st.Done || st2.Seed != st.Seed {
			net.Free()
			return fmt.Errorf("%s changed while it was being read; try again", f.resume)
		}
		sched = st.Schedule
	case f.load != "":
		net, h, err = loadNet(f.load, g.Name, spec)
		if err != nil {
			return err
		}
		if err := g.CheckSpec(net.Spec()); err != nil {
			net.Free()
			return err
		}
		if err := learn.CheckStages(net.Spec(), kind, f.promote); err != nil {
			net.Free()
			return usagef("%v", err)
		}
		if err := learn.CheckShaping(shaping, net.Spec(), kind); err != nil {
			net.Free()
			return usagef("--shaping: %v", err)
		}
		if !flagGiven(fs, "learner") {
			if kind, err = learn.ParseKind(h.Learner); err != nil {
				net.Free()
				return err
			}
		} else if err := netfile.Expect(f.load, h, g.Name, kind.String(), nil); err != nil {
			net.Free()
			return err
		}
		st = runfile.State{Base: h.Episodes}
	default:
		if net, err = ntuple.New(*spec); err != nil {
			return err
		}
		if f.init != 0 {
			net.Optimistic(f.init)
		}
	}
	defer net.Free()
	if f.interleave == 0 { // the default: the fastest measured for this network
		f.interleave = 1
		if g.Interleaves {
			f.interleave = learn.FastestInterleave(net, kind, shaping)
		}
	}
	if f.coherence {
		if f.resume != "" && !net.Coherent() {
			return usagef("--coherence: the resumed run learns by plain TD (start a new run with --load to switch)")
		}
		if kind != learn.AfterState {
			return usagef("--coherence is for after-state learning")
		}
		if err := checkMemory(3*int64(net.Spec().Weights())*4, "network "+net.Spec().String()+" with coherence (each weight with its two accumulators)"); err != nil {
			return err
		}
		net.EnableCoherence()
	}
	if cohFrom > 0 && !net.Coherent() {
		if err := checkMemory(3*int64(net.Spec().Weights())*4, "network "+net.Spec().String()+" with coherence (each weight with its two accumulators)"); err != nil {
			return err
		}
	}
	if sched == nil {
		if cohFrom > 0 && f.schedule == "" {
			if err := learn.CheckAlpha(f.coherenceAlpha); err != nil {
				return usagef("--coherence-alpha: %v", err)
			}
			f.schedule = fmt.Sprintf("%d:%g", cohFrom, f.coherenceAlpha)
		}
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
	var logf *runfile.Log
	if logPath != "" {
		switch {
		case resumeLog:
			logf, err = runfile.ResumeLog(logPath, &st)
		case appendLog:
			logf, err = runfile.AppendLog(logPath)
		default:
			logf, err = runfile.CreateLog(logPath)
		}
		if err != nil {
			return err
		}
		defer logf.Close()
	}
	st.Log, st.LogRel, st.LogOffset, st.LogPending = runfile.Rel(f.save, logPath), true, 0, nil
	st.LogDefault = logPath != "" && samePath(logPath, runfile.DefaultLog(f.save))
	st.CheckpointEvery, st.CheckpointGap, st.Plot = f.ckEvery, f.ckGap.String(), runfile.Rel(f.save, f.plot)

	out := e.stdout
	sd := f.seed.value()
	fmt.Fprintf(out, "td2048 train\n")
	fmt.Fprintf(out, "game = %s\nnetwork = %s\n", g.Title, describe(net.Spec()))
	switch {
	case f.resume != "":
		fmt.Fprintf(out, "resumed = %s (%d of %d episodes done)\n", f.resume, st.Done, f.episodes)
	case f.load != "":
		fmt.Fprintf(out, "loaded = %s (%d episodes)\n", f.load, h.Episodes)
	}
	kindText := "after-state " + mode.Describe()
	if net.Coherent() {
		kindText += ", temporal coherence"
	}
	if kind == learn.State {
		kindText = "state TD(0), backward episode updates"
	}
	fmt.Fprintf(out, "learner = %s\nalpha = %s\ntotal = %d\nthreads = %d\nseed = %d\n", kindText, sched, f.episodes, f.threads, sd)
	if f.interleave > 1 {
		fmt.Fprintf(out, "interleave = %d episodes per thread\n", f.interleave)
	}
	if a := learn.AdaptChoices(f.threads, f.interleave); a != "" && !flagGiven(fs, "interleave") {
		fmt.Fprintf(out, "adapt = %s, whichever trains faster as the run goes\n", a)
	}
	if f.init != 0 {
		fmt.Fprintf(out, "init = every board valued at %g (optimistic)\n", f.init)
	}
	if f.recipe != "" {
		r, _ := learn.LookupRecipe(f.recipe)
		fmt.Fprintf(out, "recipe = %s (%s)\n", r.Name, r.Cite)
	}
	if f.promote {
		fmt.Fprintf(out, "promotion = a stage first entered starts from the stage below's weights\n")
	}
	if shaping != (learn.Shaping{}) {
		fmt.Fprintf(out, "shaping = %s\n", shaping.Describe())
	}
	if cohFrom > 0 {
		fmt.Fprintf(out, "coherence = temporal coherence from episode %d\n", cohFrom)
	}
	if logPath != "" {
		fmt.Fprintf(out, "log = %s\n", logPath)
	}
	if f.plot != "" {
		fmt.Fprintf(out, "plot = %s\n", f.plot)
	}

	logFailing := false // warned of a failing log, not yet written again
	warnLog := func(err error) {
		switch {
		case err != nil && !logFailing:
			fmt.Fprintf(e.stderr, "td2048 train: warning: %v; training goes on, and the blocks are kept for the log\n", err)
		case err == nil && logFailing:
			fmt.Fprintf(e.stderr, "td2048 train: the log is written again, with the blocks it missed\n")
		}
		logFailing = err != nil
	}
	save := func(rs learn.RunState) error {
		st.RunState = rs
		if logf != nil {
			off, pending, err := logf.Sync()
			warnLog(err)
			st.LogOffset, st.LogPending = off, pending
		}
		hh := h
		hh.Episodes = st.Base + int64(rs.Done)
		hh.Learner = kind.String()
		hh.Game = g.Name
		if err := runfile.Save(f.save, net, hh, st); err != nil {
			return err
		}
		if f.plot != "" && logPath != "" {
			s, err := plot.ReadLog(logPath, strings.TrimSuffix(filepath.Base(f.save), filepath.Ext(f.save)))
			if err == nil && len(s.Records) > 0 {
				err = plot.Save(f.plot, s)
			}
			if err != nil {
				fmt.Fprintf(e.stderr, "td2048 train: warning: plot: %v\n", err)
			}
		}
		return nil
	}

	prog := newProgress(e, g.Goal, g.Value(g.Goal))
	var lastElapsed time.Duration // at the end of the last block
	cfg := learn.Config{
		Episodes: f.episodes, Kind: kind, Mode: mode, Seed: sd, Threads: f.threads, Interleave: f.interleave, Every: f.every,
		AdaptInterleave: !flagGiven(fs, "interleave"),
		Schedule:        sched, CheckpointEvery: f.ckEvery, CheckpointGap: f.ckGap, Promote: f.promote, Shaping: shaping, CoherenceFrom: cohFrom,
		Checkpoint: func(rs learn.RunState) error {
			prog.clear()
			return save(rs)
		},
		Block: func(done int, b *stats.Block, elapsed time.Duration, alpha float32) {
			prog.clear()
			dt := elapsed - lastElapsed
			g.WriteBlock(out, done, b, dt)
			rec := stats.NewRecord(st.Base+int64(done), b, g.Value)
			rec.Alpha, _ = strconv.ParseFloat(strconv.FormatFloat(float64(alpha), 'g', -1, 32), 64)
			rec.MovesPerSec = float64(b.Played()) / max(dt.Seconds(), 1e-9) // as the final line counts
			rec.Elapsed = elapsed.Seconds()
			rec.Seed, rec.Network, rec.Game = sd, net.Spec().String(), g.Name
			if logf != nil {
				warnLog(logf.Write(rec))
			}
			prog.block(done, f.episodes, elapsed, rec.MovesPerSec)
			lastElapsed = elapsed
		},
		Tick:      prog.tick,
		TickEvery: 250 * time.Millisecond,
	}
	if f.resume != "" {
		cfg.Resume = &st.RunState
		lastElapsed = time.Duration(st.Elapsed * float64(time.Second))
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	run, timeUp := ctx, context.CancelFunc(func() {})
	if f.duration > 0 {
		run, timeUp = context.WithTimeout(ctx, f.duration)
	}
	defer timeUp()
	rs, res, err := g.Train(run, net, cfg)
	interrupted, limited := ctx.Err() != nil, run.Err() != nil && ctx.Err() == nil
	stop()
	prog.clear()
	var div *learn.DivergedError
	if errors.As(err, &div) {
		kept := f.save + " was left as it was"
		if hh, herr := netfile.ReadHeader(f.save); herr == nil {
			if s2, ok, _ := runfile.ReadState(hh); ok && s2.Seed == sd {
				kept = fmt.Sprintf("%s keeps the last checkpoint (%d episodes)", f.save, s2.Done)
			}
		}
		return fmt.Errorf("%v; %s; lower --alpha", err, kept)
	}
	if err != nil {
		return err
	}
	if err := save(rs); err != nil {
		return err
	}
	fmt.Fprintf(out, "%d episodes in %s, %s moves/s; saved %s (%d of %d episodes of this run)\n",
		res.Episodes, res.Elapsed.Round(time.Millisecond), rate(res.Moves, res.Elapsed), f.save, rs.Done, rs.Total)
	if c := learn.DescribeChoices(res.Choices); c != "" {
		fmt.Fprintf(out, "adapted = %s of the time\n", c)
	}
	if f.plot != "" && logPath != "" {
		fmt.Fprintf(out, "plot: %s\n", f.plot)
	}
	if interrupted {
		return fmt.Errorf("interrupted after %d episodes; the run is saved: continue it with td2048 train --resume %s", rs.Done, f.save)
	}
	if limited && rs.Done < rs.Total {
		fmt.Fprintf(out, "stopped at --duration %v after %d episodes; continue the run with td2048 train --resume %s\n", f.duration, rs.Done, f.save)
	}
	return nil
}

// coherenceStart is the episode --coherence-from names (0 for none): a
// number, or a share of --episodes like 90%; a resumed run's own.
func (f *trainFlags) coherenceStart(st runfile.State) (int, error) {
	if f.resume != "" {
		return st.CoherenceFrom, nil
	}
	if f.coherenceFrom == "" {
		return 0, nil
	}
	if f.coherence {
		return 0, usagef("--coherence learns by TC from the start, --coherence-from from an episode on: give one")
	}
	var n int
	if p, ok := strings.CutSuffix(f.coherenceFrom, "%"); ok {
		v, err := strconv.ParseFloat(p, 64)
		if err != nil || !(v > 0 && v < 100) {
			return 0, usagef("--coherence-from %s: want an episode or a share like 90%%", f.coherenceFrom)
		}
		n = int(math.Round(v / 100 * float64(f.episodes)))
	} else {
		v, err := strconv.Atoi(f.coherenceFrom)
		if err != nil || v <= 0 {
			return 0, usagef("--coherence-from %s: want an episode or a share like 90%%", f.coherenceFrom)
		}
		n = v
	}
	if n <= 0 || n >= f.episodes {
		return 0, usagef("--coherence-from %s: episode %d is not within the run's %d episodes", f.coherenceFrom, n, f.episodes)
	}
	return n, nil
}
