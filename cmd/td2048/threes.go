package main

// Threes! for train, eval and hint (--game threes): the functions those
// commands call with their flags' values.

import (
	"bufio"
	"encoding/json"
	"fmt"
	"github.com/td2048/td2048/games"
	"io"
	"runtime"
	"time"

	"github.com/td2048/td2048/board"
	"github.com/td2048/td2048/game/threes"
	"github.com/td2048/td2048/netfile"
	"github.com/td2048/td2048/ntuple"
	"github.com/td2048/td2048/search"
	"github.com/td2048/td2048/stats"
	"github.com/td2048/td2048/threeslearn"
)

// loadThrees loads Threes! weights, checking the game (and the network
// when spec is set).
func loadThrees(path string, spec *ntuple.Spec) (*ntuple.Network, netfile.Header, error) {
	net, h, err := loadNet(path, "threes", spec)
	if err != nil {
		return nil, h, err
	}
	if err := netfile.Expect(path, h, "threes", "after", spec); err != nil {
		net.Free()
		return nil, h, err
	}
	if err := threeslearn.CheckSpec(net.Spec()); err != nil {
		net.Free()
		return nil, h, fmt.Errorf("%s: %v", path, err)
	}
	return net, h, nil
}

// threadCount is the number of threads a Threads value of 0 or more means.
func threadCount(n int) int {
	if n <= 0 {
		return runtime.GOMAXPROCS(0)
	}
	return n
}

// threesEvalArgs are the flags of eval --game threes.
type threesEvalArgs struct {
	Load       string
	Games      int
	Seed       uint64
	Threads    int           // 0: all cores
	Depth      int           // search depth in plies, 1 greedy
	MoveTime   time.Duration // a deadline per slide: deepen from depth 1 until it passes
	DepthGiven bool          // with MoveTime, Depth caps the depth
	Cache      int64         // transposition table bytes (depth 2 and up), 0 none
	Stats      string
	Force      bool // replace an existing Stats file
	JSON       bool
	Part       *shardFlags // the shard to play (all games when not sharded) and its result file
}

func threesEval(a threesEvalArgs, e *env) error {
	if a.Part == nil {
		a.Part = &shardFlags{games: a.Games, total: a.Games}
	}
	if a.Games <= 0 || a.Threads < 0 {
		return usagef("--games must be positive and --threads at least 0")
	}
	if a.Depth < 1 || a.Depth > 12 {
		return usagef("--depth must be 1 to 12")
	}
	if a.Cache < 0 || a.MoveTime < 0 {
		return usagef("--cache and --move-time must not be negative")
	}
	if a.Stats != "" {
		release, err := claimOutput(a.Stats, "stats", "stats", a.Force)
		if err != nil {
			return err
		}
		defer release()
	}
	net, h, err := loadThrees(a.Load, nil)
	if err != nil {
		return err
	}
	defer net.Free()
	out := e.stdout
	opt := search.Options{Depth: a.Depth, MoveTime: a.MoveTime}
	searchText := "1-ply (greedy)"
	var tt *search.Table
	if a.Depth > 1 || a.MoveTime > 0 {
		searchText = fmt.Sprintf("%d-ply expectimax", a.Depth)
		if a.MoveTime > 0 {
			searchText = fmt.Sprintf("iterative deepening, %v per slide, up to %d plies", a.MoveTime, a.Depth)
			if !a.DepthGiven {
				opt.Depth = 0
				searchText = fmt.Sprintf("iterative deepening, %v per slide", a.MoveTime)
			}
		}
		if tt = search.NewTable(a.Cache); tt != nil {
			searchText += ", table " + mib(tt.Bytes())
		} else {
			searchText += ", no table"
		}
	}
	ctx, stop := interruptible()
	defer stop()
	if !a.JSON {
		fmt.Fprintf(out, "td2048 eval (Threes!)\nnetwork = %s\nloaded = %s (%d episodes)\nsearch = %s\ntotal = %d\nseed = %d\n",
			describe(net.Spec()), a.Load, h.Episodes, searchText, a.Games, a.Seed)
		a.Part.header(out)
	}
	opt.Stop = ctx.Done()
	newPolicy := func() threeslearn.Policy { return threeslearn.GreedyPolicy(net) }
	if a.Depth > 1 || a.MoveTime > 0 {
		newPolicy = func() threeslearn.Policy { return search.NewThrees(net, opt, tt).Best }
	}
	g := games.MustLookup("threes")
	prog := newEvalProgress(e, "eval", g.Goal, g.Value(g.Goal), "slides")
	cfg := threeslearn.EvalConfig{Games: a.Part.games, First: a.Part.first, Seed: a.Seed, Threads: a.Threads, NewPolicy: newPolicy, Tick: prog.tick}
	var ev threeslearn.Evaluation
	if a.Stats != "" {
		err = netfile.WriteAtomic(a.Stats, func(w io.Writer) error {
			bw := bufio.NewWriterSize(w, 1<<20)
			cfg.Stats = bw
			var err error
			if ev, err = threeslearn.Evaluate(ctx, cfg); err != nil {
				return err
			}
			return bw.Flush()
		})
	} else {
		ev, err = threeslearn.Evaluate(ctx, cfg)
	}
	prog.clear()
	if err != nil {
		return err
	}
	interrupted := ctx.Err() != nil
	n := ev.Block.Games
	if a.JSON {
		r := newEvalJSON("threes", net.Spec(), a.Load, h, a.Games, a.Seed, a.Threads, ev.Block, g.Goal, g.Value)
		r.Learner = "after"
		r.Depth, r.MoveTime = opt.Depth, a.MoveTime.Seconds()
		if tt != nil {
			r.Cache = tt.Bytes()
		}
		r.Moves, r.Elapsed, r.MovesPerSec = ev.Slides, seconds(ev.Elapsed), perSec(ev.Slides, ev.Elapsed)
		r.Placements, r.Ops, r.StatsFile = ev.Summary.Placements, newOpsJSON(ev.Speed()), a.Stats
		r.Interrupted = interrupted
		if err := writeJSON(out, r); err != nil {
			return err
		}
	} else {
		if n > 0 {
			writeSummary(out, &ev.Summary)
			fmt.Fprintf(out, "3072 rate = %s%% (%d of %d games)\n", stats.Num(100*ev.Block.Reach(g.Goal)), ev.Block.Reached(g.Goal), n)
		}
		fmt.Fprintf(out, "%d games in %s, %s slides/s\n", n, ev.Elapsed.Round(time.Millisecond), rate(ev.Slides, ev.Elapsed))
		if a.Stats != "" {
			fmt.Fprintf(out, "statistics file = %s (%d games; check it with td2048 judge %s)\n", a.Stats, n, a.Stats)
		}
	}
	if interrupted {
		return fmt.Errorf("interrupted after %d games", n)
	}
	return a.Part.saveThrees(shardResult("threes", a.Load, h, net.Spec().String(), describe(net.Spec()), "after", a.Seed,
		opt.Depth, a.MoveTime, a.Cache, searchText, a.Threads), &ev, a.Stats)
}

// writeSummary prints the course's summary of s: what eval prints after
// its games and judge after replaying them.
func writeSummary(w io.Writer, s *threes.Summary) error {
	b := stats.Block{Games: s.Games, Sum: s.Sum, MaxScore: int(s.Max), Moves: s.Slides}
	copy(b.End[:], s.End[:])
	return b.WriteThrees(w, s.Games, threes.TileValue, stats.Speed{Slides: s.Slides, Placements: s.Placements,
		Time: s.Time, SlideTime: s.SlideTime, PlaceTime: s.PlaceTime})
}

// threesHintArgs are the flags of hint --game threes.
type threesHintArgs struct {
	Load  string
	JSON  bool
	Depth int
	Next  int // the next tile: 1, 2 or 3
	// MoveTime, when positive, is a deadline: the search deepens from
	// depth 1 up to Depth until it passes, and the values are the deepest
	// finished search's (the output then says its depth).
	MoveTime time.Duration
}

func threesHint(boardArg string, a threesHintArgs, e *env) error {
	b, err := threes.Parse(boardArg)
	if err != nil {
		return usagef("%v (Threes! tiles are 1, 2, 3, 6, 12, ..., 6144)", err)
	}
	if a.Next < 1 || a.Next > 3 {
		return usagef("--next must be the next tile, 1, 2 or 3")
	}
	if a.Depth < 1 || a.Depth > 12 {
		return usagef("--depth must be 1 to 12")
	}
	if a.MoveTime < 0 {
		return usagef("--move-time must not be negative")
	}
	var s *search.Threes
	if a.Load != "" {
		net, _, err := loadThrees(a.Load, nil)
		if err != nil {
			return err
		}
		defer net.Free()
		s = search.NewThrees(net, search.Options{Depth: a.Depth, MoveTime: a.MoveTime}, search.NewTable(64<<20))
	}
	// The bag is not known from a board: below the first ply the next
	// hint is taken as equally likely 1, 2 or 3.
	g := threes.Game{Board: b, Next: a.Next, Bag: threes.FullBag, Last: threes.Anywhere, Actions: threes.OpeningTiles}
	var mv [4]search.MoveValue
	depth := 0 // the depth searched, when a deadline may have cut it
	if s != nil {
		var d int
		mv, d = s.ValuesTimed(&g)
		if a.MoveTime > 0 && d < a.Depth {
			depth = d // the deadline cut the search short
		}
	} else {
		after, reward := threes.Moves(b)
		mv = rewards(b, after, func(d int) uint32 { return uint32(reward[d]) })
	}
	res := hintMoves(b, threes.DirNames, &mv, s != nil, func(d int, after board.Board) []int {
		var cells []int
		for _, c := range threes.EdgeCells(d) {
			if after.At(c) == 0 {
				cells = append(cells, c)
			}
		}
		return cells
	})
	res.Next = a.Next
	if depth > 0 {
		res.Depth, res.within = depth, a.MoveTime
	}
	if a.JSON {
		return json.NewEncoder(e.stdout).Encode(res)
	}
	writeHint(e.stdout, b, threes.Code, res, s != nil)
	return nil
}
