package train

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strconv"

	"github.com/td2048/td2048/internal/safefile"
	"github.com/td2048/td2048/learn"
	"github.com/td2048/td2048/netfile"
	"github.com/td2048/td2048/ntuple"
)

// Options are what a face adds to a run.
type Options struct {
	// Refuse, unless the spec says Force, is asked before the run writes
	// over a file that is not its own (its checkpoint, its log): it returns
	// an error when what path holds would be lost. flag is the setting
	// that names the file, want what the run writes there: "weights",
	// "log" or "image". Nil is RefuseNonEmpty.
	Refuse func(path, flag, want string) error
}

// Open readies the run s describes, given naming the fields the user set
// (Complete gives the others their defaults): every setting is checked
// (Validate, once, then what the files decide), every output checked and
// locked, the network made, loaded or resumed (its file opened once),
// the log opened. The error of a setting that cannot work is a
// *FieldError. Close releases what Open took.
func Open(s Spec, given Given, opt Options) (r *Run, err error) {
	if given == nil {
		given = Given{}
	}
	s.Complete(given)
	c, err := s.Validate()
	if err != nil {
		return nil, err
	}
	r = &Run{Spec: s, kept: -1}
	defer func() {
		if err != nil {
			r.Close()
			r = nil
		}
	}()
	if err := r.openInput(); err != nil {
		return r, err
	}
	if err := r.settle(given, c); err != nil {
		return r, err
	}
	if err := r.claimOutputs(given, opt); err != nil {
		return r, err
	}
	if err := r.makeNet(given); err != nil {
		return r, err
	}
	return r, r.start(given, c)
}

// openInput opens the --load or --resume file and reads its header: the
// weights are read from the same open file later.
func (r *Run) openInput() error {
	s := &r.Spec
	path := cmp.Or(s.Resume, s.Load)
	if path == "" {
		return nil
	}
	f, err := os.Open(path)
	switch {
	case errors.Is(err, os.ErrNotExist) && s.Resume != "":
		return fmt.Errorf("%s not found: nothing to resume", path)
	case errors.Is(err, os.ErrNotExist):
		return fmt.Errorf("%s not found: train one with td2048 train, or name another with --load", path)
	case err != nil:
		return fmt.Errorf("cannot read %s: %w", path, safefile.UnwrapPath(err))
	}
	r.in = f
	h, err := netfile.ReadHeaderFrom(f, path)
	if err != nil && s.Resume != "" {
		if k, derr := netfile.DetectFile(path); derr == nil && k != netfile.Native && k != netfile.Unknown {
			return notRun(path, k)
		}
		return err
	}
	if err == nil {
		r.Loaded = h
	}
	return nil
}

// settle decides what the files decide: the game, a resumed run's
// settings (its checkpoint's, by their rules), the learner of loaded
// weights; and checks them with the game and network. c is what Validate
// made of the spec.
func (r *Run) settle(given Given, c Compiled) error {
	s := &r.Spec
	g, err := s.game(r.Loaded.Game)
	if err != nil {
		return err
	}
	r.Game = g
	s.Save = cmp.Or(s.Save, g.File) // each game its own file, so 2048's and Threes!' runs never collide
	r.Learning = c.Learning
	if s.Resume != "" {
		st, ok, err := ReadState(r.Loaded)
		if !ok {
			return fmt.Errorf("%s holds weights but no run to resume (use --load %s to train on from its weights)", s.Resume, s.Resume)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", s.Resume, err)
		}
		saved := st.Saved(r.Loaded, s.Resume)
		if *s, err = s.Resumed(saved, given); err != nil {
			return err
		}
		if s.Episodes < st.Done {
			return bad("episodes", " %d: the run has done %d already", s.Episodes, st.Done)
		}
		r.State = st
		if s.Save == s.Resume || safefile.Same(s.Save, s.Resume) {
			r.kept = st.Done
		}
		if r.Learning, err = s.learning(); err != nil { // the checkpoint's settings
			return fmt.Errorf("%s: damaged run state: %w", s.Resume, err)
		}
	}
	if s.loads() != "" && !given["learner"] && r.Loaded.Learner != "" {
		if r.Kind, err = learn.ParseKind(r.Loaded.Learner); err != nil {
			return err
		}
		s.Learner = r.Kind.String()
	}
	if r.in == nil || given["network"] {
		r.netSpec = c.Network // a new run's Validate checked with its game
		if s.Resume != "" {   // the checkpoint's, the same network by its rule
			if r.netSpec, err = s.network(g); err != nil {
				return err
			}
		}
		if r.in != nil {
			if err := s.checkGame(g, *r.netSpec, r.Learning); err != nil {
				return err
			}
		}
	}
	s.Threads = cmp.Or(s.Threads, runtime.GOMAXPROCS(0))
	Seed{&s.Seed}.Value() // a seed drawn now where none was given, kept with the run
	return nil
}

// claimOutputs checks every file the run writes before any work (the
// weights, which are also the checkpoint, the metrics log and the plot),
// locks them against a second writer, and refuses to write over what is
// not the run's own.
func (r *Run) claimOutputs(given Given, opt Options) error {
	s := &r.Spec
	fork := s.Resume != "" && !safefile.Same(s.Save, s.Resume)
	r.LogPath = s.Log
	switch {
	case fork && !given["log"] && s.Log != "none":
		// A run resumed under another name keeps its own log, a copy
		// of its parent's up to the checkpoint.
		r.forkFrom, r.LogPath = s.Log, DefaultLog(s.Save)
	case r.LogPath == "":
		r.LogPath = DefaultLog(s.Save)
	case r.LogPath == "none":
		r.LogPath = ""
	}
	if fork && !given["plot"] {
		s.Plot = "" // the parent's plot is the parent's
	}
	parentLog := "" // a fork's parent's log, which it reads: never an output, --force or not
	if fork && r.State.Log != "" {
		parentLog = r.State.LogPath(s.Resume)
	}
	outs := []struct{ key, path, want string }{{"save", s.Save, "weights"}, {"log", r.LogPath, "log"}, {"plot", s.Plot, "image"}}
	for i, o := range outs {
		if o.path == "" {
			continue
		}
		if err := safefile.Check(o.path); err != nil {
			return bad(o.key, ": %v", err)
		}
		for _, in := range []struct{ key, path string }{{"load", s.loads()}, {"resume", s.Resume}} {
			if o.key != "save" && safefile.Same(o.path, in.path) {
				return bad(o.key, " %s is the --%s file: it would be overwritten", o.path, in.key)
			}
		}
		if safefile.Same(o.path, parentLog) {
			return bad(o.key, " %s is the log of the run in %s: a run resumed under another name writes its own (name another file)", o.path, s.Resume)
		}
		for _, p := range outs[:i] {
			if safefile.Same(o.path, p.path) {
				return bad(o.key, " %s is the --%s file too", o.path, FlagOf(p.key))
			}
		}
	}
	// Training on over the --load file continues its history: its own log
	// (the default one) goes on, the episodes counted from the weights'.
	r.appendLog = s.loads() != "" && safefile.Same(s.Save, s.Load) && !given["log"] && r.LogPath != ""
	// A resumed run goes on with its own log unless --log names another.
	r.resumeLog = s.Resume != "" && !fork && !given["log"] && r.LogPath != ""
	var err error
	if r.locks, err = safefile.AcquireAll(s.Save, r.LogPath, s.Plot); err != nil {
		return err
	}
	if s.Force {
		return nil
	}
	refuse := opt.Refuse
	if refuse == nil {
		refuse = RefuseNonEmpty
	}
	own := map[string]bool{"save": safefile.Same(s.Save, s.Resume) || safefile.Same(s.Save, s.loads()), "log": r.resumeLog || r.appendLog}
	for _, o := range outs {
		if o.path != "" && !own[o.key] {
			if err := refuse(o.path, o.key, o.want); err != nil {
				return err
			}
		}
	}
	return nil
}

// RefuseNonEmpty refuses to write over a file that is not empty: the
// rule of a run whose Options name no Refuse.
func RefuseNonEmpty(path, flag, _ string) error {
	head, err := safefile.Sniff(path, 1)
	if err != nil {
		return fmt.Errorf("--%s %s: %w", flag, path, err)
	}
	if len(head) > 0 {
		return fmt.Errorf("%s exists; not overwriting it (choose another --%s, or --force to replace it)", path, flag)
	}
	return nil
}

// makeNet makes the network: new, loaded or resumed.
func (r *Run) makeNet(given Given) error {
	s := &r.Spec
	if r.netSpec != nil {
		if err := checkMemory(int64(r.netSpec.Weights())*4, *r.netSpec, ""); err != nil {
			return err
		}
	}
	if r.in == nil {
		net, err := ntuple.New(*r.netSpec)
		if err != nil {
			return err
		}
		if r.Net = net; s.Init != 0 {
			net.Optimistic(s.Init)
		}
		return nil
	}
	path := r.in.Name()
	fi, err := r.in.Stat()
	if err != nil {
		return err
	}
	if fi.IsDir() {
		return fmt.Errorf("%s is a directory, not a weight file", path)
	}
	net, h, _, err := netfile.ReadAny(r.in, fi.Size())
	if errors.Is(err, netfile.ErrUnknownFormat) {
		return fmt.Errorf("%s is %w", path, err)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	r.Net, r.Loaded = net, h
	learner := ""
	if given["learner"] {
		learner = s.Learner
	}
	if err := cmp.Or(netfile.Expect(path, h, r.Game.Name, learner, r.netSpec), netfile.CheckThresholds(path, net.Spec())); err != nil {
		return err
	}
	if err := r.Game.CheckSpec(net.Spec()); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if s.loads() != "" {
		r.State = State{Base: h.Episodes}
		return s.checkGame(r.Game, net.Spec(), r.Learning)
	}
	return nil
}

// start readies the rest: the episodes in turn, temporal coherence, the
// schedule (c's for a new run), the log, and the state the checkpoints
// record.
func (r *Run) start(given Given, c Compiled) error {
	s, net, st := &r.Spec, r.Net, &r.State
	if s.Interleave == 0 { // the default: the fastest measured for this network
		s.Interleave = 1
		if r.Game.Interleaves {
			s.Interleave = learn.FastestInterleave(net, r.Kind, r.Shaping)
		}
	}
	r.Adapt = !given["interleave"]
	if s.Coherence || r.CoherenceFrom > 0 && !net.Coherent() {
		if err := checkMemory(3*int64(net.Spec().Weights())*4, net.Spec(), " with coherence (each weight with its two accumulators)"); err != nil {
			return err
		}
	}
	if s.Coherence {
		net.EnableCoherence()
	}
	if s.Resume == "" { // a resumed run goes on with its checkpoint's
		st.Schedule = c.Schedule
	} else if err := st.RunState.Check(s.Threads, s.Interleave); err != nil {
		// Checked before the log is cut back to the checkpoint: a resume
		// that fails leaves every file as it was.
		return fmt.Errorf("%s: %w", s.Resume, err)
	}
	if err := r.openLog(); err != nil {
		return err
	}
	st.Spec = *s
	st.Spec.Load, st.Spec.CoherenceFrom = Rel(s.Save, s.Load), ""
	if r.CoherenceFrom > 0 {
		st.Spec.CoherenceFrom = Episode(strconv.Itoa(r.CoherenceFrom))
	}
	st.Log, st.LogRel, st.LogOffset, st.LogPending = Rel(s.Save, r.LogPath), true, 0, nil
	st.LogDefault = r.LogPath != "" && safefile.Same(r.LogPath, DefaultLog(s.Save))
	st.Plot = Rel(s.Save, s.Plot)
	return nil
}

// openLog opens the metrics log: new for a new run, cut back to the
// checkpoint on resume, copied from the parent's for a fork.
func (r *Run) openLog() error {
	var err error
	switch {
	case r.LogPath == "":
		return nil
	case r.resumeLog:
		r.log, err = ResumeLog(r.LogPath, &r.State)
	case r.forkFrom != "":
		r.log, err = ForkLog(r.LogPath, r.forkFrom, &r.State)
	case r.appendLog:
		r.log, err = AppendLog(r.LogPath)
	default:
		r.log, err = CreateLog(r.LogPath)
	}
	if err == nil && r.log != nil && r.Spec.Resume != "" && r.Spec.Episodes > r.State.Done {
		err = r.log.dropClosing(&r.State)
	}
	return err
}

// loads is the file a new run starts from (--load): a resumed run's Load
// is where the run once started, not a file it reads.
func (s *Spec) loads() string {
	if s.Resume != "" {
		return ""
	}
	return s.Load
}

// checkMemory refuses a network that cannot fit in this machine's memory
// before it is made (the Go runtime would die with a stack dump).
func checkMemory(bytes int64, net ntuple.Spec, what string) error {
	total := PhysicalMemory()
	if total > 0 && bytes > total*9/10 {
		return bad("network", " %s%s needs %d MiB; this machine has %d MiB of memory", net, what, bytes>>20, total>>20)
	}
	return nil
}
