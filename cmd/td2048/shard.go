package main

// eval --shard K/N --out part.json: one shard of an evaluation, written as
// an evalresult file for td2048 merge.

import (
	"fmt"
	"hash"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	flag "github.com/spf13/pflag"

	"github.com/td2048/td2048/internal/buildinfo"
	"github.com/td2048/td2048/internal/evalresult"
	"github.com/td2048/td2048/internal/jobarray"
	"github.com/td2048/td2048/internal/safefile"
	"github.com/td2048/td2048/netfile"
)

// shardFlags are eval's --shard, --shards and --out.
type shardFlags struct {
	spec   string
	count  int
	out    string
	getenv func(string) string // os.Getenv but in tests

	shard   evalresult.Shard
	leftOut string // --shard auto: the shards the job array does not run
	first   int    // the shard's games: first .. first+games-1
	games   int
	total   int
	weights string // the weights file's checksum (netfile.FileSum)
	release func()
	started time.Time
	// loadStat is the weights file when it was hashed.
	loadStat os.FileInfo
	// replace: a result file is at --out and not --force: it is replaced
	// only by a rerun of its evaluation (checkRerun).
	replace bool

	// The progress record beside --out, and the statistics file (--stats)
	// and the one under way (checkpoint.go).
	progress, stats, partial string
	next                     evalresult.Result    // the result's evaluation fields and build
	prior                    *evalresult.Progress // games an earlier run finished: continued after them
	done                     bool                 // prior.Done is a result of this evaluation there: nothing to play
	hash                     hash.Hash            // the checksum of the statistics lines prior records
	statsSrc                 string               // where those lines are
}

func (s *shardFlags) define(fs *flag.FlagSet) {
	fs.StringVar(&s.spec, "shard", "", "play only shard `K/N` (from 0) of the games, for td2048 merge; auto: a Slurm array's or Indexed Job's own index")
	fs.IntVar(&s.count, "shards", 0, "with --shard auto: the evaluation's number of shards (default: TD2048_SHARDS)")
	fs.StringVar(&s.out, "out", "", "write the result to `FILE` (JSON) for td2048 merge, continuing from FILE.progress; only a rerun replaces a result")
}

// resolve reads the flags for an evaluation of total games: the games
// this process plays are s.first .. s.first+s.games-1 (all of them when
// not sharded). It claims --out (force: whatever is there) and hashes the
// weights at load.
func (s *shardFlags) resolve(total int, load string, force bool) error {
	s.total, s.first, s.games = total, 0, total
	s.release = func() {}
	s.started = time.Now()
	var err error
	switch {
	case s.spec == "" && s.count != 0:
		return usagef("--shards goes with --shard auto")
	case s.spec == "" && s.out == "":
		return nil
	case s.spec == "":
		s.shard = evalresult.Shard{K: 0, N: 1} // the whole evaluation
	case s.out == "":
		return usagef("--shard needs --out FILE for the shard's result (td2048 merge reads it)")
	case s.spec == "auto":
		err = s.auto()
	case s.count != 0:
		return usagef("--shards goes with --shard auto (K/N gives the count)")
	default:
		if s.shard, err = evalresult.ParseShard(s.spec); err != nil {
			return usagef("--shard: %v", err)
		}
	}
	if err != nil {
		return err
	}
	s.first, s.games = s.shard.Games(total)
	if err := s.claim(force); err != nil {
		return err
	}
	s.loadStat, _ = os.Stat(load)
	sum, err := netfile.FileSum(load)
	if err != nil && !os.IsNotExist(err) { // a missing file is the loader's to report
		s.release()
		return fmt.Errorf("cannot read %s: %v", load, safefile.UnwrapPath(err))
	}
	s.weights = sum
	return nil
}

// shardsVar gives the shard count of --shard auto without --shards.
const shardsVar = "TD2048_SHARDS"

// auto sets the shard of --shard auto: the job array's task index itself
// (never its offset in the array, so that an array resubmitting shard 2
// alone plays shard 2), of the count --shards or TD2048_SHARDS gives
// (never the array's size).
func (s *shardFlags) auto() error {
	getenv := s.getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	task, err := jobarray.FromEnv(getenv)
	if err != nil {
		return usagef("--shard auto: %v", err)
	}
	n := s.count
	if n == 0 {
		v := getenv(shardsVar)
		if v == "" {
			return usagef("--shard auto: give the evaluation's shard count with --shards N or %s=N (the whole evaluation's, not this array's size: an array resubmitting shard 2 alone plays shard 2 of N)", shardsVar)
		}
		if n, err = strconv.Atoi(v); err != nil || strings.HasPrefix(v, "+") {
			return usagef("--shard auto: %s=%q is not a count", shardsVar, v)
		}
	}
	if n < 1 || n > evalresult.MaxShards {
		return usagef("--shard auto: %d shards: want 1 to %d", n, evalresult.MaxShards)
	}
	if err := task.In(n, "shard", "the evaluation"); err != nil {
		return usagef("--shard auto: %v", err)
	}
	s.shard, s.leftOut = evalresult.Shard{K: task.Index, N: n}, task.LeftOut(n)
	return nil
}

// claim locks --out and, unless force, refuses a file there that is not
// an evaluation result; a result there is compared with the evaluation
// once it is known (checkRerun).
func (s *shardFlags) claim(force bool) error {
	s.progress = progressName(s.out)
	if err := safefile.Check(s.progress); err != nil {
		return usagef("--out: its progress record %v", err)
	}
	release, replace, err := claimResult(s.out, "out", force)
	if err != nil {
		return err
	}
	lock, err := safefile.Acquire(s.progress)
	if err != nil {
		release()
		return err
	}
	s.release, s.replace = sync.OnceFunc(func() { lock.Release(); release() }), replace
	return nil
}

// claimResult locks the result file path (--flagName) and, unless force,
// refuses a file there that is not an evaluation result; replace says a
// result is there, to be replaced only by a rerun of its evaluation
// (refuseResult).
func claimResult(path, flagName string, force bool) (release func(), replace bool, err error) {
	release, err = claimOutput(path, flagName, "result", true)
	if err != nil || force {
		return release, false, err
	}
	if head, err := safefile.Sniff(path, 256); err == nil && evalresult.IsResult(head) {
		return release, true, nil
	}
	if err := refuseClobber(path, flagName, "result"); err != nil {
		release()
		return nil, false, err
	}
	return release, false, nil
}

// checkRerun, before any game, checks that the weights were not replaced
// while they were hashed and loaded, and decides what an earlier run of
// the evaluation r (its evaluation fields set) left at --out: a result of
// another evaluation is refused, a finished one of this evaluation is
// done, and a progress record is continued (resume).
func (s *shardFlags) checkRerun(r evalresult.Result, load string, force bool) error {
	if fi, err := os.Stat(load); err == nil && s.loadStat != nil &&
		(!os.SameFile(fi, s.loadStat) || fi.Size() != s.loadStat.Size() || !fi.ModTime().Equal(s.loadStat.ModTime())) {
		return fmt.Errorf("%s changed while it was loaded (a training run saving it?): run again to evaluate one version of it", load)
	}
	if s.out == "" {
		return nil
	}
	b := buildinfo.Current()
	r.Build = &b
	r.WeightsSum = s.weights
	r.GamesTotal, r.ShardK, r.ShardN, r.First = s.total, s.shard.K, s.shard.N, s.first
	s.next = r
	return s.resume(&s.next, force)
}

// refuseResult refuses to replace the result file at path unless it holds
// the result of the evaluation of next (a rerun, which gives the same
// counts), which it returns.
func refuseResult(path, flagName string, next *evalresult.Result) (evalresult.Result, error) {
	hint := "choose another --" + flagName + ", or --force to replace it"
	prev, err := evalresult.Read(path)
	if err != nil {
		return prev, fmt.Errorf("%w; not overwriting it (%s)", err, hint)
	}
	if d := evalresult.Rerun(&prev, next); d != "" {
		return prev, fmt.Errorf("%s holds the result of another evaluation (this one has %s); not overwriting it (%s)", path, d, hint)
	}
	return prev, nil
}

// header prints the shard's line of eval's header.
func (s *shardFlags) header(w io.Writer) {
	if s.out == "" {
		return
	}
	fmt.Fprintf(w, "shard = %s: games %d..%d of %d, result to %s\n", s.shard, s.first, s.first+s.games-1, s.total, s.out)
	switch {
	case s.done:
		fmt.Fprintf(w, "done already: %s holds the result of these games (played by %s); nothing to play (--force plays them again)\n", s.out, describeBuild(s.prior.Done.Build))
	case s.prior != nil:
		d := &s.prior.Done
		fmt.Fprintf(w, "continuing at game %d: games %d..%d finished earlier (%d of %d, recorded in %s)\n", s.first+d.Count, s.first, s.first+d.Count-1, d.Count, s.games, s.progress)
	}
}

// earlier is how many of the games an earlier run finished.
func (s *shardFlags) earlier() int {
	if s.prior == nil {
		return 0
	}
	return s.prior.Done.Count
}

// note warns that the job array runs only some of the shards.
func (s *shardFlags) note(w io.Writer) {
	if s.leftOut != "" {
		fmt.Fprintf(w, "td2048 eval: %s (deploy/slurm/resubmit.sh submits the shards with no result)\n", s.leftOut)
	}
}
