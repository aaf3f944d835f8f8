package main

import (
	"context"
	"encoding/json"
	"fmt"
	flag "github.com/spf13/pflag"
	"io"
	"math"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/td2048/td2048/board"
	"github.com/td2048/td2048/learn"
	"github.com/td2048/td2048/netfile"
	"github.com/td2048/td2048/ntuple"
	"github.com/td2048/td2048/search"
	"github.com/td2048/td2048/stats"
)

func init() {
	register(&command{
		name:  "eval",
		short: "play games with saved weights, learning off, and print their statistics",
		long: `Play games with saved weights, learning off, and print the statistics
block of the course demo over all of them (Threes!: the course's summary),
the headline rate and the speed. Ctrl-C or SIGTERM stops the games under
way at their next move: the statistics of the games finished before them
are printed and the exit status is 1.`,
		setup: setupEval,
	})
}

func setupEval(fs *flag.FlagSet, e *env) func([]string) error {
	load := fs.String("load", "weights.td2048", "weights to play with")
	games := fs.Int("games", 1000, "games to play")
	var seed seedFlag
	fs.Var(&seed, "seed", "random seed (printed at start; random when not given); game i draws from (seed, i) alone")
	threads := fs.Int("threads", 0, "worker threads (0: all cores); the statistics do not depend on it")
	var sf searchFlags
	sf.define(fs)
	gameName := fs.String("game", "", "2048 or threes (default: the game of the --load file, else 2048)")
	statsFile := fs.String("stats", "", "Threes!: write the course's statistics file here (one line per game, for td2048 judge and the course judge)")
	force := fs.Bool("force", false, "replace an existing --stats file")
	asJSON := fs.Bool("json", false, "print one JSON object (statistics, rates, speed, seed, search, network) instead of text")
	var part shardFlags
	part.define(fs)
	return func(args []string) error {
		if len(args) > 0 {
			return usagef("unexpected argument %q", args[0])
		}
		if *games <= 0 {
			return usagef("--games must be positive")
		}
		if err := checkThreads(*threads); err != nil {
			return err
		}
		if err := sf.check(); err != nil {
			return err
		}
		if !flagGiven(fs, "game") {
			if h, err := netfile.ReadHeader(*load); err == nil && h.Game != "" {
				*gameName = h.Game
			}
		}
		g, err := gameOf(*gameName)
		if err != nil {
			return err
		}
		if err := part.resolve(*games, *load); err != nil {
			return err
		}
		defer part.release()
		if g.Name == "threes" {
			return threesEval(threesEvalArgs{Part: &part, Load: *load, Games: *games, Seed: seed.value(), Threads: *threads,
				Depth: sf.depth, MoveTime: sf.moveTime, DepthGiven: sf.depthGiven(), Cache: int64(sf.cache),
				Stats: *statsFile, Force: *force, JSON: *asJSON}, e)
		}
		if *statsFile != "" {
			return usagef("--stats writes the Threes! course statistics file; 2048 has none (the statistics block is the output)")
		}
		net, h, err := loadNet(*load, "2048", nil)
		if err != nil {
			return err
		}
		defer net.Free()
		kind, err := learn.ParseKind(h.Learner)
		if err != nil {
			return err
		}
		out := e.stdout
		sd := seed.value()
		ctx, stop := interruptible()
		defer stop()
		if !*asJSON {
			fmt.Fprintf(out, "td2048 eval\nnetwork = %s\nloaded = %s (%d episodes, %s-value)\nsearch = %s\ntotal = %d\nseed = %d\n",
				describe(net.Spec()), *load, h.Episodes, kind, sf.describe(), *games, sd)
			part.header(out)
		}
		prog := newEvalProgress(e, "eval", g.Goal, g.Value(g.Goal), "moves")
		block, res := learn.Evaluate(ctx, learn.EvalConfig{Games: part.games, First: part.first, Seed: sd, Threads: *threads,
			NewPolicy: evalPolicies(&sf, net, kind, ctx.Done()), Tick: prog.tick})
		prog.clear()
		interrupted := ctx.Err() != nil
		if *asJSON {
			opt := sf.options(kind)
			r := newEvalJSON("2048", net.Spec(), *load, h, *games, sd, *threads, block, g.Goal, stats.Pow2)
			r.Depth, r.MoveTime = opt.Depth, opt.MoveTime.Seconds()
			if sf.depth > 1 || sf.moveTime > 0 {
				r.Cache = int64(sf.cache)
			}
			r.Moves, r.Elapsed, r.MovesPerSec = res.Moves, seconds(res.Elapsed), perSec(res.Moves, res.Elapsed)
			r.Interrupted = interrupted
			if err := writeJSON(out, r); err != nil {
				return err
			}
		} else {
			if block.Games > 0 {
				block.Write(out, block.Games, stats.Pow2)
				fmt.Fprintf(out, "2048 rate = %s%% (%d of %d games)\n", stats.Num(100*block.Reach(g.Goal)), block.Reached(g.Goal), block.Games)
			}
			fmt.Fprintf(out, "%d games in %s, %s moves/s\n", block.Games, res.Elapsed.Round(time.Millisecond), rate(res.Moves, res.Elapsed))
		}
		if interrupted {
			return fmt.Errorf("interrupted after %d games", block.Games)
		}
		opt := sf.options(kind)
		return part.save(shardResult("2048", *load, h, net.Spec().String(), describe(net.Spec()), kind.String(), sd,
			opt.Depth, opt.MoveTime, int64(sf.cache), sf.describe(), *threads), &block, res.Elapsed, "")
	}
}

// interruptible is a context cancelled by the first Ctrl-C or SIGTERM;
// after it, the signals have their default effect again, so that a
// second Ctrl-C ends the process at once.
func interruptible() (context.Context, context.CancelFunc) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	context.AfterFunc(ctx, stop)
	return ctx, stop
}

// evalPolicies is searchFlags.policies with searches that stop when stop
// is closed.
//
// TODO(integration): searchflags.go's policies could take the stop
// channel and serve eval, play and serve alike.
func evalPolicies(f *searchFlags, net *ntuple.Network, kind learn.Kind, stop <-chan struct{}) func() learn.Policy {
	if f.depth == 1 && f.moveTime <= 0 && kind == learn.AfterState {
		return func() learn.Policy {
			return func(b board.Board) search.Choice { return search.Greedy(net, b) }
		}
	}
	tt := search.NewTable(int64(f.cache))
	opt := f.options(kind)
	opt.Stop = stop
	return func() learn.Policy {
		return search.NewSearcher(net, opt, tt).Best
	}
}

// evalJSON is eval --json's object.
type evalJSON struct {
	Game     string  `json:"game"`
	Network  string  `json:"network"`
	Weights  string  `json:"weights"`
	Trained  int64   `json:"trained_episodes"`
	Learner  string  `json:"learner"`
	Depth    int     `json:"depth"`
	MoveTime float64 `json:"move_time_s"`
	Cache    int64   `json:"cache_bytes"`
	Threads  int     `json:"threads"`
	Seed     uint64  `json:"seed"`

	Requested   int                `json:"games_requested"`
	Games       int                `json:"games"`
	Interrupted bool               `json:"interrupted"`
	Avg         float64            `json:"avg"`
	Max         int                `json:"max"`
	Reach       map[string]float64 `json:"reach"`
	End         map[string]float64 `json:"end"`
	Goal        int                `json:"goal"`
	GoalRate    float64            `json:"goal_rate"`

	Moves       int64   `json:"moves"`
	Elapsed     float64 `json:"elapsed_s"`
	MovesPerSec float64 `json:"moves_per_sec"`

	// Threes! only.
	Placements int64    `json:"placements,omitempty"`
	Ops        *opsJSON `json:"ops,omitempty"`
	StatsFile  string   `json:"stats_file,omitempty"`
}

// opsJSON are the speeds of the Threes! course summary, null where no
// time was recorded.
type opsJSON struct {
	All    *float64 `json:"all"`
	Slider *float64 `json:"slider"`
	Placer *float64 `json:"placer"`
}

func newOpsJSON(sp stats.Speed) *opsJSON {
	ops := func(actions, ms int64) *float64 {
		if v, ok := stats.Ops(actions, ms); ok {
			return &v
		}
		return nil
	}
	return &opsJSON{ops(sp.Slides+sp.Placements, sp.Time), ops(sp.Slides, sp.SlideTime), ops(sp.Placements, sp.PlaceTime)}
}

func newEvalJSON(game string, spec ntuple.Spec, load string, h netfile.Header, requested int, seed uint64, threads int,
	b stats.Block, goal int, value func(int) int) *evalJSON {
	rec := stats.NewRecord(int64(b.Games), &b, value)
	return &evalJSON{Game: game, Network: spec.String(), Weights: load, Trained: h.Episodes, Learner: h.Learner,
		Depth: 1, Threads: threadCount(threads), Seed: seed,
		Requested: requested, Games: b.Games, Avg: rec.Avg, Max: rec.Max, Reach: rec.Reach, End: rec.End,
		Goal: value(goal), GoalRate: b.Reach(goal)}
}

// perSec is a speed for JSON, rounded to a unit; seconds are rounded to
// microseconds.
func perSec(n int64, d time.Duration) float64 { return math.Round(float64(n) / max(d.Seconds(), 1e-9)) }

func seconds(d time.Duration) float64 { return d.Round(time.Microsecond).Seconds() }

// writeJSON prints v as one line of JSON.
func writeJSON(w io.Writer, v any) error { return json.NewEncoder(w).Encode(v) }
