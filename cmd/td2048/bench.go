package main

import (
	"fmt"
	"io"
	"math"
	"runtime"
	"time"

	flag "github.com/spf13/pflag"

	"github.com/td2048/td2048/internal/bench"
	"github.com/td2048/td2048/internal/evalrun"
	"github.com/td2048/td2048/learn"
	"github.com/td2048/td2048/ntuple"
	"github.com/td2048/td2048/stats"
)

func init() {
	register(&command{
		name:  "bench",
		short: "speed of training and play on a fixed workload, and a signature of its results",
		example: `  td2048 bench                                   # 10,000 training episodes, 1000 greedy and 20 2-ply games
  td2048 bench --short                           # the quick workload CI runs
  td2048 bench --threads 0                       # all cores`,
		setup: setupBench,
	})
}

func setupBench(fs *flag.FlagSet, e *env) func([]string) error {
	short := fs.Bool("short", false, "a quick workload (for CI): "+describeBench(bench.Short))
	threads := fs.Int("threads", 1, "threads for every phase (0: all cores); training on more than one is not repeatable, so no signature")
	episodes := fs.Int("episodes", bench.Default.Episodes, "training episodes")
	games := fs.Int("games", bench.Default.Games, "greedy games")
	deep := fs.Int("deep-games", bench.Default.DeepGames, "2-ply games")
	mctsGames := fs.Int("mcts-games", bench.Default.MCTSGames, "games of MCTS at the course's settings (500 iterations a move; --short: 50)")
	asJSON := fs.Bool("json", false, "print one JSON object (workload, phases, moves/s, signature) instead of text")
	course := fs.Bool("course", false, fmt.Sprintf("also time the course's result: train 4x6 from zero for %d episodes on 1 thread and on all threads (minutes)", bench.CourseEpisodes))
	courseEpisodes := fs.Int("course-episodes", bench.CourseEpisodes, "episodes of --course")
	return func(args []string) error {
		if len(args) > 0 {
			return usagef("unexpected argument %q", args[0])
		}
		if *episodes < 0 || *games < 0 || *deep < 0 || *mctsGames < 0 {
			return usagef("--episodes, --games, --deep-games and --mcts-games must not be negative")
		}
		// --short sets the workload; the sizes given beside it override it.
		cfg := bench.Default
		if *short {
			cfg = bench.Short
		}
		for name, n := range map[string]struct{ to, from *int }{"episodes": {&cfg.Episodes, episodes}, "games": {&cfg.Games, games},
			"deep-games": {&cfg.DeepGames, deep}, "mcts-games": {&cfg.MCTSGames, mctsGames}} {
			if !*short || fs.Changed(name) {
				*n.to = *n.from
			}
		}
		if err := checkThreads(*threads); err != nil {
			return usagef("%v (this machine has %d CPUs)", err, runtime.NumCPU())
		}
		cfg.Threads = evalrun.ThreadCount(*threads)
		out := e.stdout
		if !*asJSON {
			cpus := fmt.Sprintf("%d CPUs", runtime.NumCPU())
			if m := cpuModel(); m != "" {
				cpus += " (" + m + ")"
			}
			fmt.Fprintf(out, "td2048 bench: %s, %d thread(s), %s/%s, %s, indices by %s\n", describeBench(cfg), cfg.Threads, runtime.GOOS, runtime.GOARCH, cpus, ntuple.IndexCode())
		}
		ctx, stop := interruptible()
		defer stop()
		clearLine := benchTicks(e, &cfg)
		res, err := bench.Run(ctx, cfg)
		clearLine()
		if err != nil {
			return err
		}
		var courses []bench.Course
		if *course || fs.Changed("course-episodes") {
			if *courseEpisodes <= 0 {
				return usagef("--course-episodes must be positive")
			}
			for _, th := range courseThreads() {
				p := newProgress(e, 11, 2048)
				c, err := bench.TimeToResult(ctx, *courseEpisodes, th, p.tick)
				p.clear()
				if err != nil {
					return err
				}
				courses = append(courses, c)
			}
		}
		if *asJSON {
			return writeJSON(out, newBenchJSON(cfg, res, courses))
		}
		writeBench(out, cfg, res, courses)
		return nil
	}
}

// benchTicks shows the progress of each phase of cfg's workload on its
// own line; clearLine clears the line of the phase under way.
func benchTicks(e *env, cfg *bench.Config) (clearLine func()) {
	prog := newProgress(e, 11, 2048) // no phase's: it shows nothing
	cfg.Tick = func(phase string, s learn.Snapshot) {
		if prog.name != "bench: "+phase {
			prog.clear()
			if phase == bench.TrainPhase {
				prog = newProgress(e, 11, 2048)
			} else {
				prog = newEvalProgress(e, "", 11, 2048, "moves")
			}
			prog.name = "bench: " + phase
		}
		prog.tick(s)
	}
	return func() { prog.clear() }
}

// writeBench prints bench's text: each phase's speed, the course's runs,
// the signatures.
func writeBench(out io.Writer, cfg bench.Config, res bench.Result, courses []bench.Course) {
	for _, p := range res.Phases {
		fmt.Fprintf(out, "%-24s %12.0f moves/s  %10d moves  %8s\n", p.Name, p.MovesPerSec(), p.Moves, p.Elapsed.Round(time.Millisecond))
	}
	for _, c := range courses {
		fmt.Fprintf(out, "course: %d episodes of 4x6 from zero on %d thread(s) in %s (%.0f moves/s); last block avg %s, 2048 rate %s%%\n",
			c.Episodes, c.Threads, c.Elapsed.Round(100*time.Millisecond), float64(c.Moves)/max(c.Elapsed.Seconds(), 1e-9),
			stats.Num(c.Last.Avg()), stats.Num(100*c.Last.Reach(11)))
	}
	if !res.Repeatable {
		fmt.Fprintln(out, "signature none (training on several threads is not repeatable)")
		return
	}
	fmt.Fprintf(out, "signature %08x\n", res.Signature)
	if cfg.Games > 0 || cfg.DeepGames > 0 {
		fmt.Fprintf(out, "signature of 16-bit play %08x\n", res.CompactSignature)
	}
	if cfg.MCTSGames > 0 {
		fmt.Fprintf(out, "signature of MCTS play %08x\n", res.MCTSSignature)
	}
}

// benchJSON is bench --json's object.
type benchJSON struct {
	Episodes  int              `json:"episodes"`
	Games     int              `json:"games"`
	DeepGames int              `json:"deep_games"`
	MCTSGames int              `json:"mcts_games"`
	Threads   int              `json:"threads"`
	OS        string           `json:"goos"`
	Arch      string           `json:"goarch"`
	CPUs      int              `json:"cpus"`
	CPUModel  string           `json:"cpu_model"` // "" where the system does not say
	Indices   string           `json:"indices"`   // the code computing the weights' indices: AVX-512, PEXT or Go
	Phases    []benchPhaseJSON `json:"phases"`
	Signature *string          `json:"signature"` // 8 hex digits; null when training ran on several threads
	// CompactSignature is that of the 16-bit play phases (null as
	// Signature is, or without games).
	CompactSignature *string `json:"compact_signature,omitempty"`
	// MCTSSignature is that of the MCTS games (null as Signature is, or
	// without them).
	MCTSSignature *string           `json:"mcts_signature,omitempty"`
	Course        []benchCourseJSON `json:"course,omitempty"`
}

// benchCourseJSON is one time to the course's result (--course).
type benchCourseJSON struct {
	Threads  int     `json:"threads"`
	Episodes int     `json:"episodes"`
	Elapsed  float64 `json:"elapsed_s"`
	Moves    int64   `json:"moves"`
	LastAvg  float64 `json:"last_block_avg"`
	Rate2048 float64 `json:"last_block_2048_rate"`
}

// courseThreads are the thread counts --course times: 1 and all cores.
func courseThreads() []int {
	if n := runtime.GOMAXPROCS(0); n > 1 {
		return []int{1, n}
	}
	return []int{1}
}

type benchPhaseJSON struct {
	Name        string  `json:"name"`
	Moves       int64   `json:"moves"`
	Elapsed     float64 `json:"elapsed_s"`
	MovesPerSec float64 `json:"moves_per_sec"`
}

func newBenchJSON(cfg bench.Config, res bench.Result, courses []bench.Course) benchJSON {
	r := benchJSON{Episodes: cfg.Episodes, Games: cfg.Games, DeepGames: cfg.DeepGames, MCTSGames: cfg.MCTSGames, Threads: cfg.Threads,
		OS: runtime.GOOS, Arch: runtime.GOARCH, CPUs: runtime.NumCPU(), CPUModel: cpuModel(), Indices: ntuple.IndexCode()}
	r.Phases = []benchPhaseJSON{}
	for _, p := range res.Phases {
		r.Phases = append(r.Phases, benchPhaseJSON{p.Name, p.Moves, seconds(p.Elapsed), math.Round(p.MovesPerSec())})
	}
	if res.Repeatable {
		r.Signature = new(fmt.Sprintf("%08x", res.Signature))
		if cfg.Games > 0 || cfg.DeepGames > 0 {
			r.CompactSignature = new(fmt.Sprintf("%08x", res.CompactSignature))
		}
		if cfg.MCTSGames > 0 {
			r.MCTSSignature = new(fmt.Sprintf("%08x", res.MCTSSignature))
		}
	}
	for _, c := range courses {
		r.Course = append(r.Course, benchCourseJSON{c.Threads, c.Episodes, seconds(c.Elapsed), c.Moves, c.Last.Avg(), c.Last.Reach(11)})
	}
	return r
}

func describeBench(c bench.Config) string {
	return fmt.Sprintf("%d training episodes, %d greedy games, %d 2-ply games, each with float32 and 16-bit weights, %d MCTS games (%d iterations a move)", c.Episodes, c.Games, c.DeepGames, c.MCTSGames, c.MCTSIterations)
}
