package evalrun

import (
	"cmp"
	"errors"
	"fmt"
	"hash"
	"os"
	"time"

	"github.com/td2048/td2048/games"
	"github.com/td2048/td2048/internal/evalresult"
	"github.com/td2048/td2048/internal/safefile"
	"github.com/td2048/td2048/internal/train"
	"github.com/td2048/td2048/learn"
	"github.com/td2048/td2048/netfile"
	"github.com/td2048/td2048/ntuple"
)

// Options are what a face adds to a run.
type Options struct {
	// Refuse, unless the spec says Force, is asked before the run writes
	// over a file that is not its own: it returns an error when what path
	// holds would be lost (train.Options.Refuse). Nil is
	// train.RefuseNonEmpty.
	Refuse func(path, flag, want string) error
	// Loaded, when not nil, are weights a library caller has loaded (the
	// Python package's network): the run plays them instead of reading
	// the spec's weights file, and Close leaves them to their owner. Such
	// a run has no --out (its result records the file it played).
	Loaded *Loaded
}

// A Run is an evaluation opened: its settings, checked, its files
// claimed, its weights loaded, and what an earlier run of it left.
type Run struct {
	Spec Spec
	Compiled
	Loaded
	// Result holds what is evaluated (its evaluation fields, and with
	// --out the games, the shard and the build): what the result file
	// records, and eval prints.
	Result evalresult.Result
	// Progress is the progress record beside --out; Prior the games an
	// earlier run finished (continued after them), Done set when Prior is
	// a finished result of this evaluation: nothing to play.
	Progress string
	Prior    *evalresult.Progress
	Done     bool

	statsReal  string      // the file --stats names, a link followed (at Open)
	weightsSum string      // the weights file's checksum (netfile.FileSum), with --out
	replace    bool        // a result is at --out: replaced only by a rerun of its evaluation
	loadStat   os.FileInfo // the weights file when it was hashed
	hash       hash.Hash   // the checksum of the statistics lines Prior records
	statsSrc   string      // where those lines are
	started    time.Time
	releases   []func()
	borrowed   bool // Net is Options.Loaded's, not the run's to free
}

// Open readies the evaluation s describes, given naming the fields the
// user set: its settings checked, --out and --stats locked, the weights
// loaded, and what an earlier run left at --out decided on (checkRerun).
// The error of a setting that cannot work is a *train.FieldError. Close
// releases what Open took.
func Open(s Spec, given train.Given, opt Options) (r *Run, err error) {
	if opt.Refuse == nil {
		opt.Refuse = train.RefuseNonEmpty
	}
	s.Complete(given)
	c, err := s.Validate(given, nil)
	if err != nil {
		return nil, err
	}
	r = &Run{Spec: s, Compiled: c, started: time.Now()}
	defer func() {
		if err != nil {
			r.Close()
			r = nil
		}
	}()
	if r.Game, err = s.GameOf(given); err != nil {
		return r, err
	}
	g := r.Game
	if s.Out != "" {
		if err := r.claimOut(opt); err != nil {
			return r, err
		}
	}
	if s.Stats != "" {
		if !g.StatsFile {
			return r, bad("stats", " writes a course statistics file of whole games; %s has none (the statistics block is the output)", g.Title)
		}
		// Without --out a file there is refused at once unless force; with
		// --out once checkRerun knows whether it is this evaluation's.
		r.statsReal = s.Stats
		if real, err := safefile.Resolve(s.Stats); err == nil {
			r.statsReal = real
		}
		release, err := ClaimOutput(s.Stats, "stats", "stats", s.Force || s.Out != "", opt.Refuse)
		if err != nil {
			return r, err
		}
		r.releases = append(r.releases, release)
	}
	if l := opt.Loaded; l != nil {
		switch {
		case l.Game != g:
			return r, bad("game", " %s: these weights are %s's", g.Name, l.Game.Name)
		case s.Out != "":
			return r, bad("out", ": an evaluation of weights already loaded writes no result file (evaluate their file instead)")
		}
		r.Loaded, r.borrowed = *l, true
	} else if r.Net, r.Header, r.Kind, r.Note, err = Load(s.Load, g, c.Weights); err != nil {
		return r, err
	}
	if err := s.CheckKind(r.Kind); err != nil {
		return r, err
	}
	r.Search.Kind = r.Kind
	if s.Interleave > 1 && (!g.Interleaves || !games.Greedy(r.Search) || s.Downgrade != 0) {
		return r, bad("interleave", " %d: only greedy play of 2048 (--depth 1, no --move-time or --downgrade, after-state weights) plays several games in turn", s.Interleave)
	}
	search := s.DescribeSearch(g.Move, given)
	if r.Net.Compact() {
		search += ", 16-bit weights"
	}
	r.Result = evalresult.Result{Game: g.Name, Network: r.Net.Spec().String(), NetworkText: r.Net.Spec().Describe(), Weights: s.Load,
		Trained: r.Header.Episodes, Learner: r.Kind.String(), Seed: c.Seed, Depth: r.Search.Depth, MoveTime: time.Duration(s.MoveTime).Seconds(),
		Cache: int64(s.Cache), Search: search, Threads: ThreadCount(s.Threads)}
	return r, r.checkRerun(opt)
}

// Close releases the files Open claimed and frees the weights.
func (r *Run) Close() {
	for i := len(r.releases) - 1; i >= 0; i-- {
		r.releases[i]()
	}
	r.releases = nil
	if r.Net != nil && !r.borrowed {
		r.Net.Free()
	}
	r.Net = nil
}

// claimOut locks --out and its progress record and, unless force, refuses
// a file there that is not an evaluation result; a result there is
// compared with the evaluation once it is known (checkRerun). It hashes
// the weights, to record them in the result.
func (r *Run) claimOut(opt Options) error {
	s := &r.Spec
	r.Progress = ProgressName(s.Out)
	if err := safefile.Check(r.Progress); err != nil {
		return bad("out", ": its progress record %v", err)
	}
	release, replace, err := claimResult(s.Out, s.Force, opt.Refuse)
	if err != nil {
		return err
	}
	r.replace, r.releases = replace, append(r.releases, release)
	lock, err := safefile.Acquire(r.Progress)
	if err != nil {
		return err
	}
	r.releases = append(r.releases, lock.Release)
	r.loadStat, _ = os.Stat(s.Load)
	r.weightsSum, err = netfile.FileSum(s.Load)
	if err != nil && !os.IsNotExist(err) { // a missing file is the loader's to report
		return fmt.Errorf("cannot read %s: %v", s.Load, safefile.UnwrapPath(err))
	}
	return nil
}

// ClaimOutput readies path, which the setting key names, for a command
// that writes it once at the end: checked, locked against a second
// writer and, unless force, refused when refuse says replacing it would
// lose something (want is what is written). release frees the lock.
func ClaimOutput(path, key, want string, force bool, refuse func(path, flag, want string) error) (release func(), err error) {
	if err := safefile.Check(path); err != nil {
		return nil, bad(key, ": %v", err)
	}
	lock, err := safefile.Acquire(path)
	if err != nil {
		return nil, err
	}
	if !force {
		if err := refuse(path, key, want); err != nil {
			lock.Release()
			return nil, err
		}
	}
	return lock.Release, nil
}

// claimResult locks the result file --out names and, unless force,
// refuses a file there that is not an evaluation result; replace says a
// result is there, to be replaced only by a rerun of its evaluation
// (rerunOf).
func claimResult(path string, force bool, refuse func(path, flag, want string) error) (release func(), replace bool, err error) {
	release, err = ClaimOutput(path, "out", "result", force, func(path, flag, want string) error {
		if head, err := safefile.Sniff(path, 256); err == nil && evalresult.IsResult(head) {
			replace = true
			return nil
		}
		return refuse(path, flag, want)
	})
	return release, replace, err
}

// rerunOf is the result at path when claimResult found one (replace),
// refused unless it is the result of the evaluation of next (a rerun,
// which gives the same counts); nil when there is none.
func rerunOf(path string, replace bool, next *evalresult.Result) (*evalresult.Result, error) {
	if !replace {
		return nil, nil
	}
	const hint = "choose another --out, or --force to replace it"
	prev, err := evalresult.Read(path)
	if err != nil {
		return nil, fmt.Errorf("%w; not overwriting it (%s)", err, hint)
	}
	if d := evalresult.Rerun(&prev, next); d != "" {
		return nil, fmt.Errorf("%s holds the result of another evaluation (this one has %s); not overwriting it (%s)", path, d, hint)
	}
	return &prev, nil
}

// Load loads weights for game g, held as w says (netfile.LoadPlay): the
// file must be g's, its network and learner ones g can use. It returns
// the learner, and a note for people when the weights are not held as
// asked.
func Load(path string, g *games.Game, w netfile.Weights) (*ntuple.Network, netfile.Header, learn.Kind, string, error) {
	net, h, note, err := netfile.LoadPlay(path, w)
	if errors.Is(err, os.ErrNotExist) {
		train := "td2048 train"
		if g.Name != games.Default {
			train += " --game " + g.Name
		}
		return nil, h, 0, "", fmt.Errorf("%s not found: train one with %s, or name another with --load", path, train)
	}
	if err != nil {
		return nil, h, 0, "", ReadError(path, err)
	}
	// The checks are pure: the first to fail is the error. A network the
	// game cannot play (a staged one read from a .w without its
	// thresholds, say) is refused by every face alike.
	kind, kerr := learn.ParseKind(h.Learner)
	err = cmp.Or(netfile.Expect(path, h, g.Name, "", nil), netfile.CheckThresholds(path, net.Spec()))
	if err == nil {
		if err = cmp.Or(g.CheckSpec(net.Spec()), kerr, g.CheckLearner(kind)); err != nil {
			err = fmt.Errorf("%s: %v", path, err)
		}
	}
	if err != nil {
		net.Free()
		return nil, h, 0, "", err
	}
	return net, h, kind, note, nil
}

// ReadError words an error reading the weight file at path: an error of
// the system's about the path as "cannot read PATH: cause"; the others
// name the file already.
func ReadError(path string, err error) error {
	if c := safefile.UnwrapPath(err); c != err {
		return fmt.Errorf("cannot read %s: %v", path, c)
	}
	return err
}

// MiB is a memory size in MiB, or in KiB (rounded up) below 1 MiB.
func MiB(bytes int64) string {
	if bytes >= 1<<20 {
		return fmt.Sprintf("%d MiB", bytes>>20)
	}
	return fmt.Sprintf("%d KiB", (bytes+1023)>>10)
}
