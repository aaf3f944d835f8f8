package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	flag "github.com/spf13/pflag"

	"github.com/td2048/td2048/board"
	"github.com/td2048/td2048/games"
	"github.com/td2048/td2048/internal/advice"
	"github.com/td2048/td2048/internal/evalrun"
	"github.com/td2048/td2048/search"
	"github.com/td2048/td2048/session"
)

func init() {
	register(&command{
		name:  "hint",
		args:  "BOARD",
		short: "show each move on one board: legality, after-state, reward and (with --load) value, best marked",
		example: `  td2048 hint 2,2,0,4,0,8,0,0,0,0,0,0,0,0,0,2    # each move, valued with weights.td2048 if present
  td2048 hint 0x1000000000002211 --depth 3 --json
  td2048 hint --load threes.td2048 --next 3 1,2,3,0,0,3,0,0,6,0,0,0,0,0,0,12`,
		setup: setupHint,
	})
}

func setupHint(fs *flag.FlagSet, e *env) func([]string) error {
	p := evalrun.Play{Search: evalrun.DefaultSearch(1, 64<<20, 10*time.Second), Compact: true}
	p.AddFlags(fs, map[string]string{
		"load":      "weights to value the moves with; none, or no default file: rewards only",
		"depth":     "search depth in plies: 1 values each after-state, 2 and up run expectimax below it",
		"cache":     "transposition table size (0 turns it off)",
		"move_time": "a deadline for the search: deepen from depth 1 up to --depth until it passes, and answer from the deepest search finished (0: none)",
	})
	asJSON := fs.Bool("json", false, "print one JSON object")
	nextTile := fs.Int("next", 0, "Threes!: the next tile, 1, 2 or 3, as the game shows it (needed for Threes!)")
	fs.IntVar(nextTile, "hint", 0, "the next tile (now --next)")
	fs.MarkDeprecated("hint", "use --next (the Threes! next tile; \"hint\" is the move advice)")
	threads := moveThreadsFlag(fs)
	downgrades := fs.Int("downgrades", 0, "with --downgrade: the downgrades under way in the game (TDL2048+'s n)")
	return func(args []string) error {
		if len(args) != 1 {
			return usagef("want one BOARD: 16 comma-separated tiles row by row from the top left (0 for empty; 2048 tiles up to 2^31), or 0x and the 64-bit hex packing")
		}
		given := evalrun.GivenFlags(fs)
		if err := p.Check(given, evalrun.MaxDepth); err != nil {
			return usageOf(err)
		}
		// Like eval, play and serve, hint uses the game's file unless told
		// otherwise; without weights it still shows the rules' side.
		if p.Load == "none" {
			p.Load = ""
		} else if !given["load"] {
			p.Complete(given)
			if _, err := os.Stat(p.Load); err != nil {
				p.Load = ""
			}
		}
		g, err := p.GameOf(given)
		if err != nil {
			return usageOf(err)
		}
		if err := checkThreads(*threads); err != nil {
			return err
		}
		pos, note, err := hintPosition(g, args[0], *nextTile, fs.Changed("next") || fs.Changed("hint"))
		if err != nil {
			return err
		}
		if note != "" && !*asJSON {
			fmt.Fprintln(e.stdout, note)
		}
		dg := p.Downgrading()
		switch n := *downgrades; {
		case n < 0 || n > search.MaxDowngrades:
			return usagef("--downgrades %d: want 0 to %d", n, search.MaxDowngrades)
		case n > 0 && !dg.On():
			return usagef("--downgrades needs --downgrade")
		}
		pos.Downgrades = *downgrades
		mv, valued := g.RuleValues(pos.View()), false
		res := advice.Hint{}
		if p.Load != "" {
			net, _, kind, note, err := evalrun.Load(p.Load, g, p.Weights(given))
			if err != nil {
				return err
			}
			defer net.Free()
			if err := p.CheckKind(kind); err != nil {
				return usageOf(err)
			}
			if !*asJSON {
				writeNotes(e.stdout, note, net, dg)
			}
			// --depth caps the search; the deadline may cut it short.
			moveTime := time.Duration(p.MoveTime)
			opt := search.Options{Depth: p.Depth, MoveTime: moveTime, Kind: kind, Threads: evalrun.ThreadCount(*threads)}
			p.Apply(&opt, 0, false, given)
			var done int
			mv, done = g.NewAdvisor(net, opt, p.Table()).Values(pos)
			valued = true
			res.Searched(&mv, done, p.On(), p.Depth, moveTime)
		}
		res = advice.Moves(g, pos, &mv, valued, res)
		if dg.On() {
			n := pos.Downgrades
			res.Downgrades = new(n)
			if c := search.BestOf(&mv); c.Legal() {
				res.Triggers = new(dg.After(n, pos.View(), c.Dir) > n)
			}
		}
		if *asJSON {
			return json.NewEncoder(e.stdout).Encode(res)
		}
		writeHint(e.stdout, pos.View(), g.Code, res, valued)
		return nil
	}
}

// hintPosition reads hint's board and next tile: the position, its real
// board with 2048's tiles past 32768, and a note for people when the
// moves are valued on another board.
func hintPosition(g *games.Game, arg string, next int, nextGiven bool) (session.Position, string, error) {
	_, note, err := g.Parse(arg)
	if err != nil {
		return session.Position{}, "", usagef("%v", err)
	}
	st, err := g.ParseState(arg)
	if err != nil {
		return session.Position{}, "", usagef("%v", err)
	}
	p, err := g.Position(st.Board, next)
	if err != nil && g.HasNext && !nextGiven {
		return p, "", usagef("%s needs the next tile, shown beside the board: give it with --next (%v)", g.Title, err)
	}
	if err != nil {
		return p, "", usagef("--next %d: %v", next, err)
	}
	p.Ext = st.Ext
	if err := session.Check(g.Name, &p); err != nil {
		return p, "", usagef("%v", err)
	}
	return p, note, nil
}

// writeHint prints a hint for people, tiles shown by code: b is the
// board the moves were valued on.
func writeHint(w io.Writer, b board.Board, code board.Code, res advice.Hint, valued bool) {
	if res.Next > 0 {
		fmt.Fprintf(w, "board %s, next tile %d\n%s\n", res.Board, res.Next, b.Format(code))
	} else {
		fmt.Fprintf(w, "board %s\n%s\n", res.Board, b.Format(code))
	}
	if res.View != nil {
		fmt.Fprintf(w, "valued on %s (shown above), its large tiles lowered into the gaps below them; rewards and after-states are the real board's\n", *res.View)
	}
	for _, m := range res.Moves {
		mark := " "
		if res.Best != nil && *res.Best == m.Dir {
			mark = "*"
		}
		if !m.Legal {
			fmt.Fprintf(w, "%s %-5s  illegal\n", mark, m.Dir)
			continue
		}
		fmt.Fprintf(w, "%s %-5s  reward %d", mark, m.Dir, *m.Reward)
		if m.ViewReward != nil {
			fmt.Fprintf(w, " (%d on the board valued)", *m.ViewReward)
		}
		if m.Visits != nil {
			fmt.Fprintf(w, "  visits %d", *m.Visits)
		}
		if m.Value != nil {
			fmt.Fprintf(w, "  value %.2f  reward+value %.2f", *m.Value, *m.Total)
		}
		fmt.Fprintf(w, "  after %s", *m.After)
		if m.Cells != nil {
			fmt.Fprintf(w, ", %d goes to one of cells %v", res.Next, m.Cells)
		}
		fmt.Fprintln(w)
		pic := m.Picture
		if pic == "" {
			pic = m.ViewAfter.Format(code)
		}
		for _, line := range strings.Split(strings.TrimRight(pic, "\n"), "\n") {
			fmt.Fprintf(w, "         %s\n", line)
		}
	}
	switch {
	case res.Best == nil:
		fmt.Fprintln(w, "no legal move: the game is over")
	case valued:
		fmt.Fprintf(w, "best: %s\n", *res.Best)
	default:
		fmt.Fprintf(w, "best by reward alone (no --load): %s\n", *res.Best)
	}
	if res.Depth > 0 {
		fmt.Fprintf(w, "searched %d plies deep within %v\n", res.Depth, res.Within)
	}
	if res.Iterations > 0 {
		fmt.Fprintf(w, "MCTS: %d iterations, most visited played; values are mean returns; the tree reached %d moves deep\n", res.Iterations, res.TreeDepth)
	}
	if res.Triggers != nil {
		if *res.Triggers {
			fmt.Fprintf(w, "tile-downgrading: %d under way; the best move triggers one more (the game's next moves are valued with %d)\n", *res.Downgrades, *res.Downgrades+1)
		} else {
			fmt.Fprintf(w, "tile-downgrading: %d under way; the best move triggers none\n", *res.Downgrades)
		}
	}
}
