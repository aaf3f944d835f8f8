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
	"sync/atomic"
	"syscall"
	"time"

	"github.com/td2048/td2048/evaluate"
	"github.com/td2048/td2048/games"
	"github.com/td2048/td2048/internal/evalresult"
	"github.com/td2048/td2048/internal/safefile"
	"github.com/td2048/td2048/internal/train"
	"github.com/td2048/td2048/learn"
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
are printed and the exit status is 1.

With --out FILE (a shard's result, or the whole evaluation's), the games
finished are recorded as they go in FILE.progress (after the first game,
then every 30 seconds, and when stopped), and the same command run again
continues from the first game not finished: its statistics are those of
one uninterrupted run. Run again once finished, it prints them and plays
nothing. --force starts over. A --stats file is written as FILE.partial
and takes its name only when every game is in it.`,
		example: `  td2048 eval                                    # 1000 greedy games with weights.td2048
  td2048 eval --games 1000 --depth 2             # one more layer of expectimax
  td2048 eval --move-time 100ms --games 100      # deepen each move within 100 ms
  td2048 eval --load threes.td2048 --stats stats.txt   # Threes!: the course's statistics file
  td2048 eval --games 1000 --depth 6 --shard 3/16 --out part-3.json   # shard 3 of 16, for td2048 merge
  td2048 eval --shard auto --shards 16 --out part-$SLURM_ARRAY_TASK_ID.json   # shard K of 16 in a Slurm array (or Indexed Job)`,
		setup: setupEval,
	})
}

func setupEval(fs *flag.FlagSet, e *env) func([]string) error {
	load := fs.String("load", "", loadHelp("weights to play with"))
	nGames := fs.Int("games", 1000, "games to play")
	seed := train.NewSeed()
	fs.Var(seed, "seed", "random seed (random when not given; td2048 help seeds)")
	threads := fs.Int("threads", 0, "worker threads (0: all cores; the statistics stay the same)")
	interleave := fs.Int("interleave", 0, "greedy 2048 games each thread plays in turn (0: the fastest; td2048 help threads)")
	var sf searchFlags
	sf.define(fs)
	gameName := fs.String("game", "", "2048 or threes (default: the loaded file's, else 2048)")
	statsFile := fs.String("stats", "", "Threes!: write the course's statistics file to `FILE` (for td2048 judge; FILE.partial until whole)")
	force := fs.Bool("force", false, "replace a --stats or --out file of another evaluation; start over, not continue")
	asJSON := fs.Bool("json", false, "print one JSON object instead of text")
	quiet := fs.Bool("quiet", false, "only the statistics and closing lines")
	var part shardFlags
	part.define(fs)
	var pf playFlags
	pf.define(fs, "")
	moveThreads := fs.Int("move-threads", 0, "threads searching each move (0: 1, each thread playing its own games; with --move-time all; td2048 help search)")
	setGroup(fs, "basic", "load", "game", "games", "seed", "depth")
	setGroup(fs, "search", "cache", "move-time", "downgrade", "stint", "compact", "move-threads")
	setGroup(fs, "run", "threads", "interleave", "stats", "force", "json", "quiet", "shard", "shards", "out")
	return func(args []string) error {
		if len(args) > 0 {
			return usagef("unexpected argument %q", args[0])
		}
		if err := checkEvalFiles(fs, *nGames, *load, part.out, *statsFile); err != nil {
			return err
		}
		if err := checkThreads(*threads); err != nil {
			return err
		}
		if err := sf.check(); err != nil {
			return err
		}
		if err := defaultLoad(fs, load, *gameName); err != nil {
			return err
		}
		if *moveThreads < 0 || *moveThreads > train.MaxThreads() {
			return usagef("--move-threads %d: want 0 (the default) to %d", *moveThreads, train.MaxThreads())
		}
		g, err := gameOfFile(fs, *gameName, *load)
		if err != nil {
			return err
		}
		if err := sf.checkGame(g); err != nil {
			return err
		}
		if *interleave < 0 || *interleave > learn.MaxInterleave {
			return usagef("--interleave %d: want 0 (the default) to %d games per thread", *interleave, learn.MaxInterleave)
		}
		if err := part.resolve(*nGames, *load, *force); err != nil {
			return err
		}
		defer part.release()
		if *statsFile != "" {
			if !g.StatsFile {
				return usagef("--stats writes a course statistics file of whole games; %s has none (the statistics block is the output)", g.Title)
			}
			release, err := part.claimStats(*statsFile, *force)
			if err != nil {
				return err
			}
			defer release()
		}
		net, h, kind, note, err := loadFor(*load, g, pf.weights())
		if err != nil {
			return err
		}
		defer net.Free()
		opt := sf.options(kind)
		gameThreads, mt := splitThreads(*threads, *moveThreads, &sf)
		opt.Threads = mt
		searchText := sf.describe(g.Move)
		if net.Compact() {
			searchText += ", 16-bit weights"
		}
		if *interleave > 1 && (!g.Interleaves || !games.Greedy(opt) || sf.downgrade != 0) {
			return usagef("--interleave %d: only greedy play of 2048 (--depth 1, no --move-time or --downgrade, after-state weights) plays several games in turn", *interleave)
		}
		out := e.stdout
		sd := seed.Value()
		res := evalresult.Result{Game: g.Name, Network: net.Spec().String(), NetworkText: describe(net.Spec()), Weights: *load,
			Trained: h.Episodes, Learner: kind.String(), Seed: sd, Depth: opt.Depth, MoveTime: sf.moveTime.Seconds(),
			Cache: int64(sf.cache), Search: searchText, Threads: threadCount(*threads)}
		if err := part.checkRerun(res, *load, *force); err != nil {
			return err
		}
		ctx, stop := interruptible()
		defer stop()
		progEnv := e
		if !*asJSON && !*quiet {
			writeEvalHeader(out, g, &res)
			evalPlayHeader(out, net, note, mt, gameThreads, sf.downgradeOpt())
			fmt.Fprintf(out, "total = %d\nseed = %d\n", *nGames, sd)
			part.header(out)
		} else if *quiet {
			progEnv = &env{stderr: io.Discard}
		}
		part.note(e.stderr)
		prog := newEvalProgress(progEnv, "eval", g.Goal, g.GoalValue(), g.Move+"s")
		cfg := games.EvalConfig{Net: net, Search: opt, Config: evaluate.Config{Downgrade: sf.downgradeOpt(),
			Games: part.games, First: part.first, Seed: sd, Threads: gameThreads, Interleave: *interleave, Tick: prog.tick}}
		cfg.Search.Stop = ctx.Done()
		if sf.depth > 1 || sf.moveTime > 0 {
			cfg.Table = search.NewTable(int64(sf.cache))
		}
		ev, complete, err := part.play(ctx, g, cfg)
		prog.clear()
		if err != nil {
			return err
		}
		interrupted := !complete
		n := ev.Block.Games
		if *asJSON {
			r := newEvalJSON(g, &res, h.Learner, &cfg, &ev, net.Compact(), mt)
			r.Requested, r.StatsFile, r.Earlier, r.Interrupted = *nGames, part.statsFile(complete), part.earlier(), interrupted
			if err := writeJSON(out, r); err != nil {
				return err
			}
		} else {
			if n > 0 {
				if err := writeStats(out, g, &ev); err != nil {
					return err
				}
			}
			fmt.Fprintf(out, "%d games in %s, %s %ss/s\n", n, ev.Elapsed.Round(time.Millisecond), rate(ev.Moves, ev.Elapsed), g.Move)
			if *statsFile != "" && complete {
				fmt.Fprintf(out, "statistics file = %s (%d games; check it with td2048 judge %s)\n", *statsFile, n, *statsFile)
			}
		}
		if interrupted {
			return fmt.Errorf("interrupted after %d games%s", n, part.stopped(n))
		}
		return nil
	}
}

// writeEvalHeader prints the first lines of eval's text: the command, and
// what is evaluated (writeLoaded).
func writeEvalHeader(out io.Writer, g *games.Game, res *evalresult.Result) {
	title := ""
	if g.Name != games.Default {
		title = " (" + g.Title + ")"
	}
	fmt.Fprintf(out, "td2048 eval%s\n", title)
	writeLoaded(out, g, res)
}

// writeLoaded prints the lines of eval's header, and merge's, on what
// was evaluated: the network, its file (and learner, in a game of more
// than one) and the search.
func writeLoaded(w io.Writer, g *games.Game, r *evalresult.Result) {
	learner := ""
	if len(g.Learners) > 1 {
		learner = fmt.Sprintf(", %s-value", r.Learner)
	}
	fmt.Fprintf(w, "network = %s\nloaded = %s (%d episodes%s)\nsearch = %s\n", r.NetworkText, r.Weights, r.Trained, learner, r.Search)
}

// writeStats prints the statistics of an evaluation of some games, eval's
// and merge's: the game's block, then the rate of its headline tile.
func writeStats(w io.Writer, g *games.Game, ev *games.Evaluation) error {
	if err := g.WriteEval(w, ev); err != nil {
		return err
	}
	b := &ev.Block
	_, err := fmt.Fprintf(w, "%d rate = %s%% (%d of %d games)\n", g.GoalValue(), stats.Num(100*b.Reach(g.Goal)), b.Reached(g.Goal), b.Games)
	return err
}

// splitThreads shares eval's threads (0: all cores) between games at once
// and threads searching each move (moveThreads; 0: 1, or all with
// --move-time): a search of one move needs 2 plies or a time budget.
func splitThreads(threads, moveThreads int, sf *searchFlags) (games, move int) {
	threads = threadCount(threads)
	move = moveThreads
	switch {
	case sf.depth == 1 && sf.moveTime <= 0:
		move = 1 // no search to share
	case move == 0 && sf.moveTime > 0:
		move = threads
	case move == 0:
		move = 1
	}
	return max(1, threads/move), move
}

// evalPlayHeader prints eval's lines on how it plays: the weights when
// compact (or not as asked, and why), the threads of a move, and notes.
func evalPlayHeader(out io.Writer, net *ntuple.Network, note string, move, games int, dg search.Downgrade) {
	if net.Compact() {
		fmt.Fprintf(out, "weights = %s; --compact=false plays float32\n", describeWeights(net))
	} else if note != "" {
		fmt.Fprintf(out, "weights = %s\n", describeWeights(net))
	}
	if move > 1 {
		fmt.Fprintf(out, "threads = %d a move, %d game(s) at once\n", move, games)
	}
	writeNotes(out, note, net, dg)
}

// checkEvalFiles refuses, before anything is read, a game count whose
// shards' ranges could overflow, and the outputs checkOutputs refuses.
func checkEvalFiles(fs *flag.FlagSet, games int, load, out, statsFile string) error {
	if games <= 0 {
		return usagef("--games must be positive")
	}
	if int64(games) > evalresult.MaxGames {
		return usagef("--games %d: at most %d (2^40) games in one evaluation", games, int64(evalresult.MaxGames))
	}
	return checkOutputs(fs, out, statsFile, load)
}

// checkOutputs refuses, for eval and merge, an empty --out or --stats
// given, either naming the file load (eval's --load; "" for none), and
// both naming one file.
func checkOutputs(fs *flag.FlagSet, out, statsFile, load string) error {
	for _, o := range []struct{ flag, path string }{{"out", out}, {"stats", statsFile}} {
		if fs.Changed(o.flag) && o.path == "" {
			return usagef("--%s: empty file name", o.flag)
		}
		if safefile.Same(o.path, load) {
			return usagef("--%s %s is the --load file: it would be overwritten", o.flag, o.path)
		}
	}
	if safefile.Same(out, statsFile) {
		return usagef("--out and --stats name the same file %s", out)
	}
	return nil
}

// interruptible is a context cancelled by the first Ctrl-C or SIGTERM;
// after it, a second Ctrl-C ends the process at once, and a second
// SIGTERM does nothing: Slurm sends a job step one at its time limit and
// another as it ends the job, and the first one's record must be written.
func interruptible() (context.Context, context.CancelFunc) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	var ended atomic.Bool // stopped by its caller, not by a signal
	context.AfterFunc(ctx, func() {
		if !ended.Load() {
			signal.Notify(make(chan os.Signal, 1), syscall.SIGTERM)
		}
		stop()
	})
	return ctx, func() { ended.Store(true); stop() }
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
	// Downgrade is the tile-downgrading threshold, 0 for none.
	Downgrade int    `json:"downgrade,omitempty"`
	Threads   int    `json:"threads"`
	Seed      uint64 `json:"seed"`
	// Compact: the games were played with 16-bit weights; MoveThreads
	// searched each move, when more than 1.
	Compact     bool `json:"compact,omitempty"`
	MoveThreads int  `json:"move_threads,omitempty"`

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
	// Earlier counts the games among Games that an earlier run of the
	// same eval --out command finished (it continued after them, or found
	// them all done).
	Earlier int `json:"games_earlier,omitempty"`
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

// newEvalJSON is eval --json's object of the evaluation res (learner
// being the file's) played as cfg says, ev its games finished; the
// weights were 16-bit when compact, and moveThreads searched each move.
func newEvalJSON(g *games.Game, res *evalresult.Result, learner string, cfg *games.EvalConfig, ev *games.Evaluation, compact bool, moveThreads int) *evalJSON {
	b := ev.Block
	rec := stats.NewRecord(int64(b.Games), &b, g.Value)
	r := &evalJSON{Game: res.Game, Network: res.Network, Weights: res.Weights, Trained: res.Trained, Learner: learner,
		Depth: res.Depth, MoveTime: res.MoveTime, Downgrade: cfg.Downgrade.Tile, Threads: res.Threads, Seed: res.Seed, Compact: compact,
		Games: b.Games, Avg: rec.Avg, Max: rec.Max, Reach: rec.Reach, End: rec.End, Goal: g.GoalValue(), GoalRate: b.Reach(g.Goal),
		Moves: ev.Moves, Elapsed: seconds(ev.Elapsed), MovesPerSec: perSec(ev.Moves, ev.Elapsed)}
	if cfg.Table != nil {
		r.Cache = cfg.Table.Bytes()
	}
	if ev.Speed != nil {
		r.Placements, r.Ops = ev.Speed.Placements, newOpsJSON(*ev.Speed)
	}
	if moveThreads > 1 {
		r.MoveThreads = moveThreads
	}
	return r
}

// perSec is a speed for JSON, rounded to a unit; seconds are rounded to
// microseconds.
func perSec(n int64, d time.Duration) float64 { return math.Round(float64(n) / max(d.Seconds(), 1e-9)) }

func seconds(d time.Duration) float64 { return d.Round(time.Microsecond).Seconds() }

// writeJSON prints v as one line of JSON.
func writeJSON(w io.Writer, v any) error { return json.NewEncoder(w).Encode(v) }
