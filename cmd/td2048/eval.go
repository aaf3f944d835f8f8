package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"
	"time"

	flag "github.com/spf13/pflag"

	"github.com/td2048/td2048/games"
	"github.com/td2048/td2048/internal/evalresult"
	"github.com/td2048/td2048/internal/evalrun"
	"github.com/td2048/td2048/internal/train"
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
	s := evalrun.Default()
	s.AddFlags(fs)
	return func(args []string) error {
		if len(args) > 0 {
			return usagef("unexpected argument %q", args[0])
		}
		return runEval(e, s, evalrun.GivenFlags(fs))
	}
}

// runEval runs the evaluation s describes, given naming the settings the
// user set, printing its header (unless quiet or JSON), its statistics
// and its closing lines; the eval command and sweep tasks run through it.
func runEval(e *env, s evalrun.Spec, given train.Given) error {
	r, err := evalrun.Open(s, given, evalrun.Options{Refuse: refuseClobber})
	if err != nil {
		return usageOf(err)
	}
	defer r.Close()
	s, g, out := r.Spec, r.Game, e.stdout
	ctx, stop := interruptible()
	defer stop()
	progEnv := e
	if !s.JSON && !s.Quiet {
		writeEvalHeader(out, r)
	} else if s.Quiet {
		progEnv = &env{stderr: io.Discard}
	}
	if r.LeftOut != "" {
		fmt.Fprintf(e.stderr, "td2048 eval: %s (deploy/slurm/resubmit.sh submits the shards with no result)\n", r.LeftOut)
	}
	prog := newEvalProgress(progEnv, "eval", g.Goal, g.GoalValue(), g.Move+"s")
	ev, complete, err := r.Evaluate(ctx, prog.tick)
	prog.clear()
	if err != nil {
		return err
	}
	n := ev.Block.Games
	if s.JSON {
		j := newEvalJSON(r, &ev)
		j.Requested, j.StatsFile, j.Interrupted = s.Games, r.StatsFile(complete), !complete
		if r.Prior != nil {
			j.Earlier = r.Prior.Done.Count
		}
		if err := writeJSON(out, j); err != nil {
			return err
		}
	} else {
		if n > 0 {
			if err := writeStats(out, g, &ev); err != nil {
				return err
			}
		}
		fmt.Fprintf(out, "%d games in %s, %s %ss/s\n", n, ev.Elapsed.Round(time.Millisecond), rate(ev.Moves, ev.Elapsed), g.Move)
		if s.Stats != "" && complete {
			fmt.Fprintf(out, "statistics file = %s (%d games; check it with td2048 judge %s)\n", s.Stats, n, s.Stats)
		}
	}
	if !complete {
		return fmt.Errorf("interrupted after %d games%s", n, r.Stopped(n))
	}
	return nil
}

// writeEvalHeader prints eval's header: the command, what is evaluated
// (writeLoaded), how it plays (the weights when compact, or not as asked,
// and why; the threads of a move; notes), its games and, with --out, the
// shard's and what an earlier run left of them.
func writeEvalHeader(w io.Writer, r *evalrun.Run) {
	s, g, net := &r.Spec, r.Game, r.Net
	title := ""
	if g.Name != games.Default {
		title = " (" + g.Title + ")"
	}
	fmt.Fprintf(w, "td2048 eval%s\n", title)
	writeLoaded(w, g, &r.Result)
	if net.Compact() {
		fmt.Fprintf(w, "weights = %s; --compact=false plays float32\n", describeWeights(net))
	} else if r.Note != "" {
		fmt.Fprintf(w, "weights = %s\n", describeWeights(net))
	}
	if r.MoveThreads > 1 {
		fmt.Fprintf(w, "threads = %d a move, %d game(s) at once\n", r.MoveThreads, r.GameThreads)
	}
	writeNotes(w, r.Note, net, r.Downgrade)
	fmt.Fprintf(w, "total = %d\nseed = %d\n", s.Games, r.Seed)
	if s.Out == "" {
		return
	}
	if r.Count == 0 {
		fmt.Fprintf(w, "shard = %s: no games (%d shards share %d games; this one plays none), result to %s\n", r.Shard, r.Shard.N, s.Games, s.Out)
	} else {
		fmt.Fprintf(w, "shard = %s: games %d..%d of %d, result to %s\n", r.Shard, r.First, r.First+r.Count-1, s.Games, s.Out)
	}
	switch {
	case r.Done:
		fmt.Fprintf(w, "done already: %s holds the result of these games (played by %s); nothing to play (--force plays them again)\n", s.Out, evalrun.DescribeBuild(r.Prior.Done.Build))
	case r.Prior != nil:
		d := &r.Prior.Done
		fmt.Fprintf(w, "continuing at game %d: games %d..%d finished earlier (%d of %d, recorded in %s)\n", r.First+d.Count, r.First, r.First+d.Count-1, d.Count, r.Count, r.Progress)
	}
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

	Requested int `json:"games_requested"`
	stats.Summary
	Interrupted bool    `json:"interrupted"`
	Goal        int     `json:"goal"`
	GoalRate    float64 `json:"goal_rate"`

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

// newEvalJSON is eval --json's object of the run r, ev its games
// finished.
func newEvalJSON(r *evalrun.Run, ev *games.Evaluation) *evalJSON {
	g, res, b := r.Game, &r.Result, ev.Block
	j := &evalJSON{Game: res.Game, Network: res.Network, Weights: res.Weights, Trained: res.Trained, Learner: r.Header.Learner,
		Depth: res.Depth, MoveTime: res.MoveTime, Downgrade: r.Downgrade.Tile, Threads: res.Threads, Seed: res.Seed, Compact: r.Net.Compact(),
		Summary: stats.NewSummary(&b, g.Value), Goal: g.GoalValue(), GoalRate: b.Reach(g.Goal),
		Moves: ev.Moves, Elapsed: seconds(ev.Elapsed), MovesPerSec: perSec(ev.Moves, ev.Elapsed)}
	if r.Spec.Depth > 1 || r.Spec.MoveTime > 0 {
		j.Cache = search.TableBytes(int64(r.Spec.Cache))
	}
	if ev.Speed != nil {
		j.Placements, j.Ops = ev.Speed.Placements, newOpsJSON(*ev.Speed)
	}
	if r.MoveThreads > 1 {
		j.MoveThreads = r.MoveThreads
	}
	return j
}

// perSec is a speed for JSON, rounded to a unit; seconds are rounded to
// microseconds.
func perSec(n int64, d time.Duration) float64 { return math.Round(float64(n) / max(d.Seconds(), 1e-9)) }

func seconds(d time.Duration) float64 { return d.Round(time.Microsecond).Seconds() }

// writeJSON prints v as one line of JSON.
func writeJSON(w io.Writer, v any) error { return json.NewEncoder(w).Encode(v) }
