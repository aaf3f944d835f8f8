package main

// eval --shard K/N --out part.json: one shard of an evaluation, written as
// an evalresult file for td2048 merge.

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	flag "github.com/spf13/pflag"

	"github.com/td2048/td2048/buildinfo"
	"github.com/td2048/td2048/evalresult"
	"github.com/td2048/td2048/games"
	"github.com/td2048/td2048/netfile"
	"github.com/td2048/td2048/safefile"
)

// shardFlags are eval's --shard, --shards and --out.
type shardFlags struct {
	spec   string
	count  int
	out    string
	getenv func(string) string // os.Getenv but in tests

	shard   evalresult.Shard
	first   int // the shard's games: first .. first+games-1
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
}

func (s *shardFlags) define(fs *flag.FlagSet) {
	fs.StringVar(&s.spec, "shard", "", "play only shard `K/N` (from 0) of the games, for td2048 merge; auto: a Slurm array's or Indexed Job's index")
	fs.IntVar(&s.count, "shards", 0, "with --shard auto: the number of shards (default: SLURM_ARRAY_TASK_COUNT or TD2048_SHARDS)")
	fs.StringVar(&s.out, "out", "", "write the result to `FILE` (JSON) for td2048 merge; only a rerun replaces a result there")
}

// resolve reads the flags for an evaluation of total games: the games
// this process plays are s.first .. s.first+s.games-1 (all of them when
// not sharded). It claims --out (force: whatever is there) and hashes the
// weights at load.
func (s *shardFlags) resolve(total int, load string, force bool) error {
	s.total, s.first, s.games = total, 0, total
	s.release = func() {}
	s.started = time.Now()
	if s.spec == "" {
		if s.count != 0 {
			return usagef("--shards goes with --shard auto")
		}
		if s.out == "" {
			return nil
		}
		s.shard = evalresult.Shard{K: 0, N: 1}
	} else {
		if s.out == "" {
			return usagef("--shard needs --out FILE for the shard's result (td2048 merge reads it)")
		}
		var err error
		if s.spec == "auto" {
			getenv := s.getenv
			if getenv == nil {
				getenv = os.Getenv
			}
			if s.count < 0 {
				return usagef("--shards must not be negative")
			}
			s.shard, err = evalresult.AutoShard(getenv, s.count)
		} else {
			if s.count != 0 {
				return usagef("--shards goes with --shard auto (K/N gives the count)")
			}
			s.shard, err = evalresult.ParseShard(s.spec)
		}
		if err != nil {
			return usagef("--shard: %v", err)
		}
		s.first, s.games = s.shard.Games(total)
	}
	if err := s.claim(force); err != nil {
		return err
	}
	s.loadStat, _ = os.Stat(load)
	sum, err := netfile.FileSum(load)
	if err != nil && !os.IsNotExist(err) { // a missing file is the loader's to report
		s.release()
		return fmt.Errorf("cannot read %s: %v", load, unwrapPathErr(err))
	}
	s.weights = sum
	return nil
}

// claim locks --out and, unless force, refuses a file there that is not
// an evaluation result; a result there is compared with the evaluation
// once it is known (checkRerun).
func (s *shardFlags) claim(force bool) error {
	release, err := claimOutput(s.out, "out", "result", true)
	if err != nil {
		return err
	}
	s.release = sync.OnceFunc(release)
	if force {
		return nil
	}
	head, err := safefile.Sniff(s.out, 256)
	if err == nil && isResult(head) {
		s.replace = true
		return nil
	}
	if err := refuseClobber(s.out, "out", "result", "", nil); err != nil {
		s.release()
		return err
	}
	return nil
}

// isResult reports whether a file's first bytes are an evaluation result's.
func isResult(head []byte) bool {
	return strings.Contains(string(head), `"format": "`+evalresult.Format+`"`)
}

// checkRerun, before any game, refuses to replace a result file at --out
// that is not of the evaluation r (its evaluation fields set), and checks
// that the weights were not replaced while they were hashed and loaded.
func (s *shardFlags) checkRerun(r evalresult.Result, load string) error {
	if s.out == "" {
		return nil
	}
	if fi, err := os.Stat(load); err == nil && s.loadStat != nil &&
		(!os.SameFile(fi, s.loadStat) || fi.Size() != s.loadStat.Size() || !fi.ModTime().Equal(s.loadStat.ModTime())) {
		return fmt.Errorf("%s changed while it was loaded (a training run saving it?): run again to evaluate one version of it", load)
	}
	if !s.replace {
		return nil
	}
	r.WeightsSum = s.weights
	r.GamesTotal, r.ShardK, r.ShardN, r.First = s.total, s.shard.K, s.shard.N, s.first
	return refuseResult(s.out, "out", &r)
}

// refuseResult refuses to replace the result file at path unless it holds
// the result of the evaluation of next (a rerun, which gives the same
// counts).
func refuseResult(path, flagName string, next *evalresult.Result) error {
	hint := "choose another --" + flagName + ", or --force to replace it"
	prev, err := evalresult.Read(path)
	if err != nil {
		return fmt.Errorf("%v; not overwriting it (%s)", err, hint)
	}
	if d := evalresult.Rerun(&prev, next); d != "" {
		return fmt.Errorf("%s holds the result of another evaluation (this one has %s); not overwriting it (%s)", path, d, hint)
	}
	return nil
}

// header prints the shard's line of eval's header.
func (s *shardFlags) header(w io.Writer) {
	if s.out == "" {
		return
	}
	fmt.Fprintf(w, "shard = %s: games %d..%d of %d, result to %s\n", s.shard, s.first, s.first+s.games-1, s.total, s.out)
}

// save writes the result r of the shard (its evaluation fields set by the
// caller) with the block b; statsPath is the Threes! statistics file.
func (s *shardFlags) save(r evalresult.Result, ev *games.Evaluation, statsPath string) error {
	if s.out == "" {
		return nil
	}
	defer s.release()
	b := buildinfo.Current()
	r.Build = &b
	r.WeightsSum = s.weights
	r.GamesTotal, r.ShardK, r.ShardN, r.First = s.total, s.shard.K, s.shard.N, s.first
	if sp := ev.Speed; sp != nil { // the course summary's speeds (Threes!)
		r.Placements, r.TimeMS, r.SlideMS, r.PlaceMS = sp.Placements, sp.Time, sp.SlideTime, sp.PlaceTime
	}
	r.SetBlock(&ev.Block)
	r.ElapsedMS = ev.Elapsed.Milliseconds()
	r.WallMS = time.Since(s.started).Milliseconds()
	if statsPath != "" {
		sum, err := evalresult.HashFile(statsPath)
		if err != nil {
			return err
		}
		r.StatsSHA256 = sum
		r.Stats = statsPath
		if rel, err := filepath.Rel(filepath.Dir(s.out), statsPath); err == nil && filepath.IsAbs(statsPath) == filepath.IsAbs(s.out) {
			r.Stats = rel
		}
	}
	return evalresult.Write(s.out, r)
}

// result starts a shard's result with what was evaluated.
func shardResult(game, load string, h netfile.Header, network, networkText, learner string, seed uint64, depth int, moveTime time.Duration, cache int64, search string, threads int) evalresult.Result {
	return evalresult.Result{Game: game, Network: network, NetworkText: networkText, Weights: load, Trained: h.Episodes,
		Learner: learner, Seed: seed, Depth: depth, MoveTime: moveTime.Seconds(), Cache: cache, Search: search, Threads: threadCount(threads)}
}

// unwrapPathErr is the cause of a path error.
func unwrapPathErr(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}
