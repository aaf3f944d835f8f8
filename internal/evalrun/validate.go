package evalrun

import (
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/td2048/td2048/internal/evalresult"
	"github.com/td2048/td2048/internal/jobarray"
	"github.com/td2048/td2048/internal/safefile"
	"github.com/td2048/td2048/internal/train"
	"github.com/td2048/td2048/learn"
	"github.com/td2048/td2048/netfile"
	"github.com/td2048/td2048/search"
)

// MaxDepth is the deepest search of eval (and hint).
const MaxDepth = 12

// SeedWhenRecorded is the seed of an evaluation that records its games
// (--out, --shard) when none is given: a fixed one, as a sweep plan's, so
// that the shards of one command line are one evaluation and a requeued
// shard continues its own games.
const SeedWhenRecorded = 1

// ShardsVar gives the shard count of --shard auto without --shards.
const ShardsVar = "TD2048_SHARDS"

// Compiled is what Validate makes of a spec, for Open and the run to use
// as they are: nothing is parsed twice.
type Compiled struct {
	// Shard is the part of the evaluation played (0/1 with --out alone),
	// First and Count its games (all of them without --out); LeftOut,
	// with --shard auto, names the shards the job array does not run.
	Shard        evalresult.Shard
	First, Count int
	LeftOut      string
	Seed         uint64
	// Search is the search of each move (its Kind the weights', set by
	// Open), MoveThreads searching each move, GameThreads playing games
	// at once; Downgrade the tile-downgrading asked for.
	Search                   search.Options
	GameThreads, MoveThreads int
	Downgrade                search.Downgrade
	// Weights is how the weights are held.
	Weights netfile.Weights
}

// bad is a setting that cannot work: a *train.FieldError, which names its
// flag and its plan key.
func bad(key, format string, a ...any) error {
	return &train.FieldError{Field: key, Msg: fmt.Sprintf(format, a...)}
}

// Complete gives the fields not in given their defaults that depend on
// the others: the weights the game's own file, the cache by the depth,
// the seed fixed when the games are recorded (SeedWhenRecorded), else
// drawn at random.
func (s *Spec) Complete(given train.Given) {
	s.Play.Complete(given)
	if !given["cache"] {
		s.Cache = 0
		if s.Depth >= 3 || s.MoveTime > 0 {
			s.Cache = 64 << 20 // a table pays deeper; at 2 plies filling it costs more than it saves (docs/speed.md)
		}
	}
	if s.Seed == nil {
		sd := uint64(SeedWhenRecorded)
		if s.Out == "" && s.Shard == "" {
			sd = rand.Uint64() >> 1
		}
		s.Seed = &sd
	}
}

// Validate checks a completed spec (Complete) before any file is read,
// and returns what it makes of it; Open checks what depends on the
// weights file. getenv reads the job array's index for --shard auto
// (os.Getenv when nil). The error of a setting is a *train.FieldError.
func (s *Spec) Validate(given train.Given, getenv func(string) string) (Compiled, error) {
	var c Compiled
	switch {
	case s.Games <= 0:
		return c, bad("games", " must be positive")
	case int64(s.Games) > evalresult.MaxGames:
		return c, bad("games", " %d: at most %d (2^40) games in one evaluation", s.Games, int64(evalresult.MaxGames))
	}
	if err := CheckOutputs(given, s.Out, s.Stats, s.Load); err != nil {
		return c, err
	}
	if s.Threads < 0 || s.Threads > train.MaxThreads() {
		return c, bad("threads", " %d: want 0 (all cores) to %d (this machine has %d CPUs)", s.Threads, train.MaxThreads(), runtime.NumCPU())
	}
	if err := s.Play.Check(given, MaxDepth); err != nil {
		return c, err
	}
	switch {
	case s.MoveThreads < 0 || s.MoveThreads > train.MaxThreads():
		return c, bad("move_threads", " %d: want 0 (the default) to %d", s.MoveThreads, train.MaxThreads())
	case s.Interleave < 0 || s.Interleave > learn.MaxInterleave:
		return c, bad("interleave", " %d: want 0 (the default) to %d games per thread", s.Interleave, learn.MaxInterleave)
	}
	if err := s.shard(&c, getenv); err != nil {
		return c, err
	}
	c.Seed = *s.Seed
	c.Search = search.Options{Depth: s.Depth, MoveTime: time.Duration(s.MoveTime)}
	if s.MoveTime > 0 && s.Depth == 1 {
		c.Search.Depth = 0 // with --move-time, a depth of 1 (the default) means no cap
	}
	s.MCTS.Apply(&c.Search, c.Seed, true, given)
	c.GameThreads, c.MoveThreads = s.threads()
	c.Search.Threads = c.MoveThreads
	c.Downgrade, c.Weights = s.Downgrading(), s.Weights(given)
	return c, nil
}

// CheckOutputs refuses, for eval and merge, an empty --out or --stats
// given, either naming the file load (eval's --load; "" for none), and
// both naming one file.
func CheckOutputs(given train.Given, out, stats, load string) error {
	for _, o := range []struct{ key, path string }{{"out", out}, {"stats", stats}} {
		if given[o.key] && o.path == "" {
			return bad(o.key, ": empty file name")
		}
		if safefile.Same(o.path, load) {
			return bad(o.key, " %s is the --load file: it would be overwritten", o.path)
		}
	}
	if safefile.Same(out, stats) {
		return bad("out", " and --stats name the same file %s", out)
	}
	return nil
}

// shard sets the games this run plays: c.First .. c.First+c.Count-1 of
// the evaluation (all of them when it is not sharded).
func (s *Spec) shard(c *Compiled, getenv func(string) string) (err error) {
	c.First, c.Count = 0, s.Games
	switch {
	case s.Shard == "" && s.Shards != 0:
		return bad("shards", " goes with --shard auto")
	case s.Shard == "" && s.Out == "":
		return nil
	case s.Shard == "":
		c.Shard = evalresult.Shard{K: 0, N: 1} // the whole evaluation
	case s.Out == "":
		return bad("shard", " needs --out FILE for the shard's result (td2048 merge reads it)")
	case s.Shard == "auto":
		if err := s.auto(c, getenv); err != nil {
			return err
		}
	case s.Shards != 0:
		return bad("shards", " goes with --shard auto (K/N gives the count)")
	default:
		if c.Shard, err = evalresult.ParseShard(s.Shard); err != nil {
			return bad("shard", ": %v", err)
		}
	}
	c.First, c.Count = c.Shard.Games(s.Games)
	return nil
}

// auto sets the shard of --shard auto: the job array's task index itself
// (never its offset in the array, so that an array resubmitting shard 2
// alone plays shard 2), of the count --shards or TD2048_SHARDS gives
// (never the array's size).
func (s *Spec) auto(c *Compiled, getenv func(string) string) error {
	if getenv == nil {
		getenv = os.Getenv
	}
	task, err := jobarray.FromEnv(getenv)
	if err != nil {
		return bad("shard", " auto: %v", err)
	}
	n := s.Shards
	if n == 0 {
		v := getenv(ShardsVar)
		if v == "" {
			return bad("shard", " auto: give the evaluation's shard count with --shards N or %s=N (the whole evaluation's, not this array's size: an array resubmitting shard 2 alone plays shard 2 of N)", ShardsVar)
		}
		if n, err = strconv.Atoi(v); err != nil || strings.HasPrefix(v, "+") {
			return bad("shard", " auto: %s=%q is not a count", ShardsVar, v)
		}
	}
	if n < 1 || n > evalresult.MaxShards {
		return bad("shard", " auto: %d shards: want 1 to %d", n, evalresult.MaxShards)
	}
	if err := task.In(n, "shard", "the evaluation"); err != nil {
		return bad("shard", " auto: %v", err)
	}
	c.Shard, c.LeftOut = evalresult.Shard{K: task.Index, N: n}, task.LeftOut(n)
	return nil
}

// threads shares the threads (0: all cores) between games at once and
// threads searching each move (0: 1, or all with --move-time): a search
// of one move needs 2 plies or a time budget.
func (s *Spec) threads() (gameThreads, moveThreads int) {
	threads := ThreadCount(s.Threads)
	move := s.MoveThreads
	switch {
	case s.Depth == 1 && s.MoveTime <= 0 && !s.On():
		move = 1 // no search to share
	case move == 0 && s.MoveTime > 0:
		move = threads
	case move == 0:
		move = 1
	}
	return max(1, threads/move), move
}

// ThreadCount is the number of threads a Threads value means.
func ThreadCount(n int) int {
	if n <= 0 {
		return runtime.GOMAXPROCS(0)
	}
	return n
}

// DescribeSearch says how the search plays, a move being called move;
// given names the settings the user set.
func (s *Spec) DescribeSearch(move string, given train.Given) string {
	d := fmt.Sprintf("%d-ply expectimax", s.Depth)
	if s.Depth == 1 {
		d = "1-ply (greedy)"
	}
	if s.On() {
		d = s.MCTS.Describe(move, time.Duration(s.MoveTime), given)
	} else if s.MoveTime > 0 {
		d = fmt.Sprintf("iterative deepening, %v per %s", time.Duration(s.MoveTime), move)
		if s.Depth > 1 {
			d += fmt.Sprintf(", up to %d plies", s.Depth)
		}
	}
	if s.Downgrade > 0 {
		d += fmt.Sprintf(", tile-downgrading from %d (stint %d)", s.Downgrade, s.Stint)
	}
	if (s.Depth > 1 || s.MoveTime > 0) && !s.On() {
		if s.Cache > 0 {
			d += ", table " + s.Cache.String()
		} else {
			d += ", no table"
		}
	}
	return d
}
