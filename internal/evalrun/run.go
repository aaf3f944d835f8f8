package evalrun

// An evaluation with --out (a shard, or the whole) records its finished
// games as it goes, in a progress record beside its result file
// (part-K.json.progress), so that the same command run again continues
// from the first game not finished, and a finished one does nothing. Its
// statistics file (Threes!' --stats) grows as NAME.partial and takes its
// name only once every game is in it: an interrupted evaluation leaves no
// file that looks finished.

import (
	"bufio"
	"cmp"
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
	"github.com/td2048/td2048/internal/train"
	"github.com/td2048/td2048/learn"
)

// RecordEvery is how often a running evaluation records its finished
// games, after the first one (recorded at once); an interrupt records them
// too.
const RecordEvery = 30 * time.Second

// ProgressName is the progress record of the result file out.
func ProgressName(out string) string { return out + ".progress" }

// checkRerun, before any game, checks that the weights were not replaced
// while they were hashed and loaded, and decides what an earlier run of
// the evaluation r.Result left at --out (the table beside Rule): r.Done,
// r.Prior, or all games to play; anything else is refused with one line.
func (r *Run) checkRerun(opt Options) error {
	s, next := &r.Spec, &r.Result
	if fi, err := os.Stat(s.Load); err == nil && r.loadStat != nil &&
		(!os.SameFile(fi, r.loadStat) || fi.Size() != r.loadStat.Size() || !fi.ModTime().Equal(r.loadStat.ModTime())) {
		return fmt.Errorf("%s changed while it was loaded (a training run saving it?): run again to evaluate one version of it", s.Load)
	}
	if s.Out == "" {
		return nil
	}
	b := buildinfo.Current()
	next.Build, next.WeightsSum = &b, r.weightsSum
	next.GamesTotal, next.ShardK, next.ShardN, next.First = s.Games, r.Shard.K, r.Shard.N, r.First
	prev, err := rerunOf(s.Out, r.replace, next)
	if err != nil {
		return err
	}
	if prev != nil && r.intact(prev) {
		r.Prior, r.Done = &evalresult.Progress{Done: *prev}, true
		return nil
	}
	// Another build's result, or its statistics file gone or other than
	// asked, is played again, and replaced.
	p, err := evalresult.ReadProgress(r.Progress)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case s.Force:
		// started over: the record and the statistics under way are replaced
	case err == nil:
		err = r.continues(&p)
		if err == nil {
			r.Prior = &p
			return nil
		}
		fallthrough
	default:
		return fmt.Errorf("%v; not continuing from it (--force starts over)", err)
	}
	if s.Stats != "" && !s.Force && !NamesStats(s.Out, prev, s.Stats) {
		// A file at --stats that no result of this evaluation names.
		return opt.Refuse(s.Stats, "stats", "stats")
	}
	return nil
}

// NamesStats reports whether prev, the result at out (if any), names
// stats as its statistics file, which a rerun (or merge) may replace.
func NamesStats(out string, prev *evalresult.Result, stats string) bool {
	return prev != nil && prev.Stats != "" && safefile.Same(train.Resolve(out, prev.Stats), stats)
}

// intact reports whether prev, a result of the evaluation r.Result, is
// done: this build's, its statistics file the one asked for, unchanged.
func (r *Run) intact(prev *evalresult.Result) bool {
	s := &r.Spec
	if prev.Build == nil || !buildinfo.Same(*prev.Build, *r.Result.Build) {
		return false
	}
	if !NamesStats(s.Out, prev, s.Stats) { // also without --stats
		return s.Stats == "" && prev.Stats == ""
	}
	sum, err := evalresult.HashFile(s.Stats)
	return err == nil && sum == prev.StatsSHA256
}

// continues checks that the record p is of the evaluation r.Result, by
// this build, and that its statistics under way hold the lines it
// records; r.hash then holds the checksum of those lines so far.
func (r *Run) continues(p *evalresult.Progress) error {
	d, next := &p.Done, &r.Result
	if diff := evalresult.Rerun(d, next); diff != "" {
		return fmt.Errorf("%s records the games of another evaluation (this one has %s)", r.Progress, diff)
	}
	if d.Build == nil || !buildinfo.Same(*d.Build, *next.Build) {
		return fmt.Errorf("%s records games played by another build of td2048 (%s; this is %s): finish them with that build", r.Progress, DescribeBuild(d.Build), DescribeBuild(next.Build))
	}
	if rel := train.Rel(r.Spec.Out, r.Spec.Stats); d.Stats != rel {
		return fmt.Errorf("%s records games with statistics file %q, not %q", r.Progress, d.Stats, rel)
	}
	if r.Spec.Stats == "" {
		return nil
	}
	// The lines under way are in NAME.partial, or, when a run was stopped
	// as it finished, in NAME itself, whole.
	src := r.partial()
	if _, err := os.Stat(src); errors.Is(err, fs.ErrNotExist) {
		if fi, err := os.Stat(r.Spec.Stats); err == nil && fi.Size() == p.StatsBytes {
			src = r.Spec.Stats
		}
	}
	f, err := os.Open(src)
	if err != nil {
		return fmt.Errorf("%s records %d games, but their statistics lines are gone: %v", r.Progress, d.Count, safefile.UnwrapPath(err))
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, io.LimitReader(f, p.StatsBytes))
	if err != nil {
		return err
	}
	if n != p.StatsBytes || hex.EncodeToString(h.Sum(nil)) != d.StatsSHA256 {
		return fmt.Errorf("%s does not begin with the statistics lines of the %d games %s records", src, d.Count, r.Progress)
	}
	r.hash, r.statsSrc = h, src
	return nil
}

// DescribeBuild names a build, or its absence.
func DescribeBuild(b *buildinfo.Info) string {
	if b == nil {
		return "a td2048 that did not record its build"
	}
	return b.Describe()
}

// play is one run of the games: the statistics under way and the last
// record.
type play struct {
	r      *Run
	start  time.Time
	stats  *os.File         // the statistics file under way, with --stats
	sum    hash.Hash        // the checksum of the lines in it
	bw     *bufio.Writer    // the lines on their way to it
	prior  games.Evaluation // the games earlier runs finished
	wallMS int64            // earlier runs' time
	kept   int              // games in the last record
	keptAt time.Time
	failed error // a record that could not be written
	cancel context.CancelFunc
}

// Evaluate plays what is left of the evaluation, tick (when not nil) told
// the progress, and returns the evaluation of all its games finished,
// earlier runs' included, and whether that is all of them. With --out it
// records the games finished as it goes and when ctx is cancelled; once
// all are played, it saves the result (the statistics file first).
func (r *Run) Evaluate(ctx context.Context, tick func(learn.Snapshot)) (games.Evaluation, bool, error) {
	s := &r.Spec
	if r.Done {
		// A run stopped after its result was written leaves its record.
		os.Remove(r.Progress)
		return EvalOf(&r.Prior.Done, r.Game), true, nil
	}
	cfg := games.EvalConfig{Net: r.Net, Search: r.Search}
	if s.Depth > 1 || s.MoveTime > 0 { // a table the searches share; none for greedy play, nor MCTS (Search.Table)
		cfg.Table = s.Table()
	}
	cfg.Downgrade, cfg.Games, cfg.First, cfg.Seed = r.Downgrade, r.Count, r.First, r.Seed
	cfg.Threads, cfg.Interleave, cfg.Tick = r.GameThreads, s.Interleave, tick
	p := &play{r: r, start: time.Now()}
	if r.Prior != nil {
		d := &r.Prior.Done
		p.prior, p.wallMS, p.kept = EvalOf(d, r.Game), d.WallMS, d.Count
		cfg.First, cfg.Games = r.First+d.Count, r.Count-d.Count
	} else if s.Out != "" {
		// Starting over (--force, or a result played again): an earlier
		// record goes before the statistics under way are emptied.
		if err := removeRecord(r.Progress); err != nil {
			return games.Evaluation{}, false, err
		}
	}
	if s.Stats != "" {
		if err := p.openStats(); err != nil {
			return games.Evaluation{}, false, fmt.Errorf("--stats: %w", err)
		}
		defer p.stats.Close()
		cfg.Stats = p.bw
	}
	ctx, p.cancel = context.WithCancel(ctx)
	defer p.cancel()
	cfg.Search.Stop = ctx.Done()
	if s.Out != "" {
		cfg.Done = p.done
	}
	ev, err := r.Game.Evaluate(ctx, cfg)
	err = cmp.Or(err, p.failed)
	all, complete := AddEval(p.prior, ev), false
	switch {
	case err != nil:
	case all.Block.Games < r.Count:
		err = p.stop(&ev)
	default:
		complete, err = true, p.finish(&ev)
	}
	if err != nil && s.Out != "" && p.kept > 0 {
		err = fmt.Errorf("%w; %s keeps %s: the same command continues at game %d", err, r.Progress, Counted(p.kept, "finished game"), r.First+p.kept)
	}
	return all, complete, err
}

// Counted is n of a noun, plural but for one: "1 log", "2 logs".
func Counted(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

// EvalOf is the evaluation a result holds.
func EvalOf(res *evalresult.Result, g *games.Game) games.Evaluation {
	ev := games.Evaluation{Block: res.Block(), Moves: res.Moves, Elapsed: time.Duration(res.ElapsedMS) * time.Millisecond}
	if g.StatsFile { // the course's statistics file comes with its summary's speeds
		sp := res.Speed()
		ev.Speed = &sp
	}
	return ev
}

// AddEval is the evaluation of a's games and then b's.
func AddEval(a, b games.Evaluation) games.Evaluation {
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
func (p *play) openStats() error {
	r := p.r
	p.sum = sha256.New()
	n := int64(0)
	if r.Prior != nil {
		p.sum, n = r.hash, r.Prior.StatsBytes
		if r.statsSrc != r.partial() { // stopped as it finished: NAME is whole
			if err := os.Rename(r.statsSrc, r.partial()); err != nil {
				return err
			}
		}
	}
	f, err := os.OpenFile(r.partial(), os.O_CREATE|os.O_WRONLY, 0o644)
	if err == nil {
		err = f.Truncate(n) // lines written after the record
	}
	if err == nil {
		_, err = f.Seek(n, io.SeekStart)
	}
	if err != nil {
		f.Close() // nil when not opened: Close does nothing
		return err
	}
	p.stats, p.bw = f, bufio.NewWriterSize(io.MultiWriter(f, p.sum), 1<<20)
	return nil
}

// done sees each finished game: the first is recorded at once, then
// the games finished every RecordEvery.
func (p *play) done(ev *games.Evaluation) {
	if p.failed != nil || !p.keptAt.IsZero() && time.Since(p.keptAt) < RecordEvery {
		return
	}
	if _, err := p.record(ev); err != nil {
		p.failed = err
		p.cancel()
	}
}

// record writes the progress record of the earlier runs' games and ev's:
// the statistics lines on disk first, so that it never counts a line that
// is not there. It returns the result it recorded.
func (p *play) record(ev *games.Evaluation) (evalresult.Result, error) {
	res, err := p.result(ev)
	pr := evalresult.Progress{Done: res}
	if err == nil && p.stats != nil {
		pr.StatsBytes, err = p.stats.Seek(0, io.SeekCurrent) // the lines flushed: the file's end
	}
	if err == nil {
		err = evalresult.WriteProgress(p.r.Progress, pr)
	}
	if err == nil {
		p.kept, p.keptAt = res.Count, time.Now()
	}
	return res, err
}

// result is the result of the earlier runs' games and ev's, the
// statistics lines synced.
func (p *play) result(ev *games.Evaluation) (evalresult.Result, error) {
	r := p.r
	res := r.Result
	all := AddEval(p.prior, *ev)
	if all.Speed != nil {
		res.SetSpeed(all.Speed)
	}
	res.SetBlock(&all.Block)
	el := ev.Elapsed // the evaluation's own time, once it has returned
	if el == 0 {
		el = time.Since(p.start)
	}
	res.ElapsedMS = p.prior.Elapsed.Milliseconds() + el.Milliseconds()
	res.WallMS = p.wallMS + time.Since(r.started).Milliseconds()
	if p.stats != nil {
		if err := p.syncStats(); err != nil {
			return res, err
		}
		res.Stats, res.StatsSHA256 = train.Rel(r.Spec.Out, r.Spec.Stats), hex.EncodeToString(p.sum.Sum(nil))
	}
	return res, nil
}

// stop ends an interrupted run: its finished games recorded (or, without
// --out, the statistics lines of those games left in NAME.partial).
func (p *play) stop(ev *games.Evaluation) error {
	n := p.prior.Block.Games + ev.Block.Games
	if p.r.Spec.Out != "" && p.kept != n {
		_, err := p.record(ev)
		return err
	}
	if p.stats == nil {
		return nil
	}
	err := p.syncStats()
	if err == nil && n == 0 {
		os.Remove(p.r.partial()) // nothing in it
	}
	return err
}

// syncStats flushes and syncs the statistics lines.
func (p *play) syncStats() error {
	if err := cmp.Or(p.bw.Flush(), p.stats.Sync()); err != nil {
		return fmt.Errorf("--stats: %w", err)
	}
	return nil
}

// finish saves a run that played every game: the statistics file takes
// its name, then the result is written (a run stopped between the two
// continues from its record, which counts every game).
func (p *play) finish(ev *games.Evaluation) error {
	r, s := p.r, &p.r.Spec
	var res evalresult.Result
	var err error
	switch {
	case s.Out != "" && p.stats != nil && p.kept != r.Count:
		res, err = p.record(ev) // the games' statistics lines counted before the file takes its name
	case s.Out != "":
		res, err = p.result(ev)
	case p.stats != nil:
		err = p.syncStats()
	}
	if err != nil {
		return err
	}
	if p.stats != nil {
		p.stats.Close() // Windows renames no open file
		// The file the name named at Open (a link followed) is replaced;
		// the link stays.
		if err := os.Rename(r.partial(), r.statsReal); err != nil {
			return fmt.Errorf("--stats: %w", err)
		}
		if d, err := os.Open(filepath.Dir(r.statsReal)); err == nil {
			d.Sync()
			d.Close()
		}
	}
	if s.Out == "" {
		return nil
	}
	if err := evalresult.Write(s.Out, res); err != nil {
		return err
	}
	return removeRecord(r.Progress)
}

// removeRecord removes the progress record at path, if there is one.
func removeRecord(path string) error {
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// StatsFile is the statistics file of the evaluation: its name when
// complete, else the file the finished games' lines are in.
func (r *Run) StatsFile(complete bool) string {
	if complete || r.Spec.Stats == "" {
		return r.Spec.Stats
	}
	return r.partial()
}

// Stopped says, for an interrupted evaluation of n games finished, where
// it left them and how to continue.
func (r *Run) Stopped(n int) string {
	s := &r.Spec
	switch {
	case s.Out != "" && n == 0:
		return " (none to record: the same command starts them again)"
	case s.Out != "":
		return fmt.Sprintf(" (recorded in %s: the same command continues at game %d)", r.Progress, r.First+n)
	case s.Stats != "" && n > 0:
		return fmt.Sprintf(" (their statistics lines in %s; eval --out FILE records the games finished, so that the same command continues)", r.partial())
	}
	return " (not recorded: with --out FILE the games finished are recorded as they go, and the same command continues)"
}

// partial is where the statistics file grows until it is whole:
// NAME.partial beside the file --stats names.
func (r *Run) partial() string { return r.statsReal + ".partial" }
