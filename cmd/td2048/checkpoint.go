package main

// eval --out: an evaluation (a shard, or the whole) that records its
// finished games as it goes, in a progress record beside its result file
// (part-K.json.progress), so that the same command run again continues
// from the first game not finished, and a finished one does nothing.
// Its statistics file (Threes!' --stats) grows as NAME.partial and takes
// its name only once every game is in it: an interrupted evaluation
// leaves no file that looks finished.

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/td2048/td2048/games"
	"github.com/td2048/td2048/internal/buildinfo"
	"github.com/td2048/td2048/internal/evalresult"
	"github.com/td2048/td2048/internal/safefile"
)

// recordEvery is how often a running evaluation records its finished
// games, after the first one (recorded at once); an interrupt records them
// too.
const recordEvery = 30 * time.Second

// progressName is the progress record of the result file out.
func progressName(out string) string { return out + ".progress" }

// partialName is where the statistics file path grows until it is
// finished: NAME.partial beside the file path names (links followed).
func partialName(path string) string {
	if real, err := safefile.Resolve(path); err == nil {
		return real + ".partial"
	}
	return path + ".partial"
}

// claimStats locks the statistics file path; without --out (nothing to
// continue from) it is refused at once unless force, as any output, and
// with --out once checkRerun knows whether it is this evaluation's.
func (s *shardFlags) claimStats(path string, force bool) (release func(), err error) {
	s.stats, s.partial = path, partialName(path)
	return claimOutput(path, "stats", "stats", force || s.out != "")
}

// resume decides, for the evaluation next (its evaluation fields and
// build set), what an earlier run left: a finished result of this
// evaluation and build with its statistics file intact (s.done:
// nothing to play), or a record of the games it finished (s.prior: the
// run continues after them), or nothing (or force): all games are played.
// Anything it cannot continue from is refused with one line.
func (s *shardFlags) resume(next *evalresult.Result, force bool) error {
	hint := "; not continuing from it (--force starts over)"
	var prev *evalresult.Result // a result of this evaluation at --out
	if !force && s.replace {
		r, err := refuseResult(s.out, "out", next)
		if err != nil {
			return err
		}
		if s.intact(&r, next) {
			s.prior, s.done = &evalresult.Progress{Done: r}, true
			return nil
		}
		// Another build's, or its statistics file gone or other than
		// asked: played again, and replaced.
		prev = &r
	}
	p, err := evalresult.ReadProgress(s.progress)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case force:
		// started over: the record and the statistics under way are replaced
	case err != nil:
		return fmt.Errorf("%v%s", err, hint)
	default:
		if err := s.continues(&p, next); err != nil {
			return fmt.Errorf("%s%s", err, hint)
		}
		s.prior = &p
		return nil
	}
	if s.stats != "" && !force && !(prev != nil && s.namesStats(prev)) {
		// A file at --stats that no result of this evaluation names.
		return refuseClobber(s.stats, "stats", "stats")
	}
	return nil
}

// namesStats reports whether prev, the result at --out, names --stats as
// its statistics file.
func (s *shardFlags) namesStats(prev *evalresult.Result) bool {
	return namesStats(s.out, prev, s.stats)
}

// namesStats reports whether prev, the result at out, names stats as its
// statistics file: one a run of the same evaluation (or merge) may
// replace.
func namesStats(out string, prev *evalresult.Result, stats string) bool {
	return prev.Stats != "" && safefile.Same(shardStats(evalresult.Part{Path: out, Result: *prev}), stats)
}

// intact reports whether prev, a result of the evaluation next, is done:
// played by this build, with the statistics file asked for, unchanged.
func (s *shardFlags) intact(prev, next *evalresult.Result) bool {
	if prev.Build == nil || !buildinfo.Same(*prev.Build, *next.Build) {
		return false
	}
	if !s.namesStats(prev) { // also without --stats
		return s.stats == "" && prev.Stats == ""
	}
	sum, err := evalresult.HashFile(s.stats)
	return err == nil && sum == prev.StatsSHA256
}

// continues checks that the record p is of the evaluation next, by this
// build, and that its statistics under way hold the lines it records;
// s.hash then holds the checksum of those lines so far.
func (s *shardFlags) continues(p *evalresult.Progress, next *evalresult.Result) error {
	d := &p.Done
	if diff := evalresult.Rerun(d, next); diff != "" {
		return fmt.Errorf("%s records the games of another evaluation (this one has %s)", s.progress, diff)
	}
	if d.Build == nil || !buildinfo.Same(*d.Build, *next.Build) {
		return fmt.Errorf("%s records games played by another build of td2048 (%s; this is %s): finish them with that build", s.progress, describeBuild(d.Build), describeBuild(next.Build))
	}
	if d.Stats != s.relStats() {
		return fmt.Errorf("%s records games with statistics file %q, not %q", s.progress, d.Stats, s.relStats())
	}
	if s.stats == "" {
		return nil
	}
	// The lines under way are in NAME.partial, or, when a run was stopped
	// as it finished, in NAME itself, whole.
	src := s.partial
	if _, err := os.Stat(src); errors.Is(err, fs.ErrNotExist) {
		if fi, err := os.Stat(s.stats); err == nil && fi.Size() == p.StatsBytes {
			src = s.stats
		}
	}
	f, err := os.Open(src)
	if err != nil {
		return fmt.Errorf("%s records %d games, but their statistics lines are gone: %v", s.progress, d.Count, safefile.UnwrapPath(err))
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, io.LimitReader(f, p.StatsBytes))
	if err != nil {
		return err
	}
	if n != p.StatsBytes || hex.EncodeToString(h.Sum(nil)) != d.StatsSHA256 {
		return fmt.Errorf("%s does not begin with the statistics lines of the %d games %s records", src, d.Count, s.progress)
	}
	s.hash, s.statsSrc = h, src
	return nil
}

// describeBuild names a build, or its absence.
func describeBuild(b *buildinfo.Info) string {
	if b == nil {
		return "a td2048 that did not record its build"
	}
	return b.Describe()
}

// relStats is the statistics file as the result at --out names it:
// relative to the result's folder (statsName); "" without --stats.
func (s *shardFlags) relStats() string {
	if s.stats == "" {
		return ""
	}
	return statsName(s.out, s.stats)
}

// statsSink writes the statistics lines to the file under way, counting
// them and keeping their checksum.
type statsSink struct {
	f *os.File
	h hash.Hash
	n int64
}

func (w *statsSink) Write(p []byte) (int, error) {
	n, err := w.f.Write(p)
	w.h.Write(p[:n])
	w.n += int64(n)
	return n, err
}

// evalRun is one run of play: the statistics under way and the
// last record.
type evalRun struct {
	s      *shardFlags
	start  time.Time
	sink   *statsSink
	bw     *bufio.Writer
	prior  games.Evaluation // the games earlier runs finished
	wallMS int64            // earlier runs' time
	kept   int              // games in the last record
	keptAt time.Time
	failed error // a record that could not be written
	cancel context.CancelFunc
}

// play plays what is left of the evaluation cfg (s.first, s.games) and
// returns the evaluation of all its games finished, earlier runs'
// included, and whether that is all of them. A finished evaluation
// (s.done) plays nothing. With --out it records the games finished as
// it goes, and when interrupted; once all are played, it saves the
// result (the statistics file first).
func (s *shardFlags) play(ctx context.Context, g *games.Game, cfg games.EvalConfig) (games.Evaluation, bool, error) {
	if s.done {
		// A run stopped after its result was written leaves its record.
		os.Remove(s.progress)
		return evalOf(&s.prior.Done, g), true, nil
	}
	r := &evalRun{s: s, start: time.Now()}
	if s.out != "" && s.prior == nil {
		// Starting over (--force, or a result played again): an earlier
		// record goes before the statistics under way are emptied.
		if err := removeRecord(s.progress); err != nil {
			return games.Evaluation{}, false, err
		}
	}
	if s.prior != nil {
		d := &s.prior.Done
		r.prior, r.wallMS, r.kept = evalOf(d, g), d.WallMS, d.Count
		cfg.First, cfg.Games = s.first+d.Count, s.games-d.Count
	}
	if s.stats != "" {
		if err := r.openStats(); err != nil {
			return games.Evaluation{}, false, fmt.Errorf("--stats: %w", err)
		}
		defer r.sink.f.Close()
		cfg.Stats = r.bw
	}
	ctx, r.cancel = context.WithCancel(ctx)
	defer r.cancel()
	cfg.Search.Stop = ctx.Done()
	if s.out != "" {
		cfg.Done = r.done
	}
	ev, err := g.Evaluate(ctx, cfg)
	if err == nil {
		err = r.failed
	}
	all, complete := addEval(r.prior, ev), false
	switch {
	case err != nil:
	case all.Block.Games < s.games:
		err = r.stop(&ev)
	default:
		complete, err = true, r.finish(&ev)
	}
	if err != nil && s.out != "" && r.kept > 0 {
		err = fmt.Errorf("%w; %s keeps %s: the same command continues at game %d", err, s.progress, counted(r.kept, "finished game"), s.first+r.kept)
	}
	return all, complete, err
}

// evalOf is the evaluation a result holds.
func evalOf(res *evalresult.Result, g *games.Game) games.Evaluation {
	ev := games.Evaluation{Block: res.Block(), Moves: res.Moves, Elapsed: time.Duration(res.ElapsedMS) * time.Millisecond}
	if g.StatsFile { // the course's statistics file comes with its summary's speeds
		sp := res.Speed()
		ev.Speed = &sp
	}
	return ev
}

// addEval is the evaluation of a's games and then b's.
func addEval(a, b games.Evaluation) games.Evaluation {
	a.Block.Merge(&b.Block)
	a.Moves += b.Moves
	a.Elapsed += b.Elapsed
	if b.Speed != nil {
		sp := *b.Speed
		if a.Speed != nil {
			sp.Add(a.Speed)
		}
		a.Speed = &sp
	}
	return a
}

// openStats opens the statistics file under way: a new one, or the one
// an earlier run left, cut to the lines its record holds.
func (r *evalRun) openStats() error {
	s := r.s
	h, n := sha256.New(), int64(0)
	if s.prior != nil {
		h, n = s.hash, s.prior.StatsBytes
		if s.statsSrc != s.partial { // stopped as it finished: NAME is whole
			if err := os.Rename(s.statsSrc, s.partial); err != nil {
				return err
			}
		}
	}
	f, err := os.OpenFile(s.partial, os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	if err := f.Truncate(n); err != nil { // lines written after the record
		f.Close()
		return err
	}
	if _, err := f.Seek(n, io.SeekStart); err != nil {
		f.Close()
		return err
	}
	r.sink = &statsSink{f: f, h: h, n: n}
	r.bw = bufio.NewWriterSize(r.sink, 1<<20)
	return nil
}

// done sees each finished game: the first is recorded at once, then
// the games finished every recordEvery.
func (r *evalRun) done(ev *games.Evaluation) {
	if r.failed != nil || !r.keptAt.IsZero() && time.Since(r.keptAt) < recordEvery {
		return
	}
	if _, err := r.record(ev); err != nil {
		r.failed = err
		r.cancel()
	}
}

// record writes the progress record of the earlier runs' games and ev's:
// the statistics lines on disk first, so that it never counts a line that
// is not there. It returns the result it recorded.
func (r *evalRun) record(ev *games.Evaluation) (evalresult.Result, error) {
	res, err := r.result(ev)
	if err != nil {
		return res, err
	}
	p := evalresult.Progress{Done: res}
	if r.sink != nil {
		p.StatsBytes = r.sink.n
	}
	if err := evalresult.WriteProgress(r.s.progress, p); err != nil {
		return res, err
	}
	r.kept, r.keptAt = res.Count, time.Now()
	return res, nil
}

// result is the result of the earlier runs' games and ev's, with the
// statistics lines flushed and synced.
func (r *evalRun) result(ev *games.Evaluation) (evalresult.Result, error) {
	s := r.s
	res := s.next
	all := addEval(r.prior, *ev)
	if all.Speed != nil {
		res.SetSpeed(all.Speed)
	}
	res.SetBlock(&all.Block)
	el := ev.Elapsed // the evaluation's own time, once it has returned
	if el == 0 {
		el = time.Since(r.start)
	}
	res.ElapsedMS = r.prior.Elapsed.Milliseconds() + el.Milliseconds()
	res.WallMS = r.wallMS + time.Since(s.started).Milliseconds()
	if r.sink != nil {
		if err := r.syncStats(); err != nil {
			return res, err
		}
		res.Stats, res.StatsSHA256 = s.relStats(), hex.EncodeToString(r.sink.h.Sum(nil))
	}
	return res, nil
}

// stop ends an interrupted run: its finished games recorded (or, without
// --out, the statistics lines of those games left in NAME.partial).
func (r *evalRun) stop(ev *games.Evaluation) error {
	s := r.s
	if r.sink != nil {
		if err := r.syncStats(); err != nil {
			return err
		}
	}
	switch {
	case r.prior.Block.Games+ev.Block.Games == 0:
		if r.sink != nil {
			os.Remove(s.partial) // nothing in it
		}
		return nil
	case s.out == "" || r.kept == r.prior.Block.Games+ev.Block.Games:
		return nil
	}
	_, err := r.record(ev)
	return err
}

// syncStats writes the statistics lines out to the file under way and
// syncs it.
func (r *evalRun) syncStats() error {
	if err := r.bw.Flush(); err != nil {
		return fmt.Errorf("--stats: %w", err)
	}
	if err := r.sink.f.Sync(); err != nil {
		return fmt.Errorf("--stats: %w", err)
	}
	return nil
}

// finish saves a run that played every game: the statistics file takes
// its name, then the result is written (a run stopped between the two
// continues from its record, which counts every game), and the record
// goes.
func (r *evalRun) finish(ev *games.Evaluation) error {
	s := r.s
	var res evalresult.Result
	var err error
	switch {
	case s.out != "" && r.sink != nil && r.kept != s.games:
		res, err = r.record(ev) // the games' statistics lines counted before the file takes its name
	case s.out != "":
		res, err = r.result(ev)
	case r.sink != nil:
		err = r.syncStats()
	}
	if err != nil {
		return err
	}
	if r.sink != nil {
		r.sink.f.Close() // Windows renames no open file
		if err := rename(s.partial, s.stats); err != nil {
			return err
		}
	}
	if s.out == "" {
		return nil
	}
	if err := evalresult.Write(s.out, res); err != nil {
		return err
	}
	return removeRecord(s.progress)
}

// removeRecord removes the progress record at path, if there is one.
func removeRecord(path string) error {
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// rename gives the finished statistics file its name: the file path names
// (a link followed) is replaced, and the link stays.
func rename(partial, path string) error {
	real, err := safefile.Resolve(path)
	if err != nil {
		real = path
	}
	if err := os.Rename(partial, real); err != nil {
		return fmt.Errorf("--stats: %w", err)
	}
	if d, err := os.Open(filepath.Dir(real)); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

// statsFile is the statistics file of an evaluation: its name when
// complete, else the file the finished games' lines are in.
func (s *shardFlags) statsFile(complete bool) string {
	if complete || s.stats == "" {
		return s.stats
	}
	return s.partial
}

// stopped says where an interrupted evaluation of n games finished left
// them.
func (s *shardFlags) stopped(n int) string {
	switch {
	case n == 0:
		return ""
	case s.out != "":
		return fmt.Sprintf(" (recorded in %s: the same command continues at game %d)", s.progress, s.first+n)
	case s.stats != "":
		return fmt.Sprintf(" (their statistics lines in %s; eval --out FILE records the games finished, so that the same command continues)", s.partial)
	}
	return ""
}
