package main

import (
	"encoding/json"
	"fmt"
	flag "github.com/spf13/pflag"
	"io"
	"os"
	"strings"
	"time"

	"github.com/td2048/td2048/board"
	"github.com/td2048/td2048/game"
	"github.com/td2048/td2048/learn"
	"github.com/td2048/td2048/netfile"
	"github.com/td2048/td2048/search"
)

func init() {
	register(&command{
		name:  "hint",
		args:  "BOARD",
		short: "show each move on one board: legality, after-state, reward and (with --load) value, best marked",
		setup: setupHint,
	})
}

// hintMove is one move of a hint; JSON null for what an illegal move lacks.
type hintMove struct {
	Dir    string   `json:"dir"`
	Legal  bool     `json:"legal"`
	After  *string  `json:"after"`
	Reward *int     `json:"reward"`
	Cells  []int    `json:"cells,omitempty"` // Threes!: where the next tile may go
	Value  *float32 `json:"value,omitempty"`
	Total  *float32 `json:"total,omitempty"`

	after board.Board
}

type hintResult struct {
	Board string     `json:"board"`
	Next  int        `json:"next,omitempty"` // Threes!: the next tile
	Moves []hintMove `json:"moves"`
	Best  *string    `json:"best"`
	// Depth is the depth searched when the deadline (--move-time) cut the
	// search short of --depth: the deepest finished within it.
	Depth int `json:"depth,omitempty"`
	// within is that deadline, for the text output.
	within time.Duration
}

// hintMoves lists the four moves of b: legality, after-state, reward,
// and when valued the value and reward+value; the best is search.BestOf's
// (by reward alone when not valued). cells, when set, lists where the
// next tile may go.
func hintMoves(b board.Board, names [4]string, mv *[4]search.MoveValue, valued bool,
	cells func(d int, after board.Board) []int) hintResult {
	res := hintResult{Board: b.Hex()}
	for d := range 4 {
		m := hintMove{Dir: names[d], Legal: mv[d].Legal, after: b}
		if m.Legal {
			h, r := mv[d].After.Hex(), int(mv[d].Reward)
			m.After, m.Reward, m.after = &h, &r, mv[d].After
			if cells != nil {
				m.Cells = cells(d, mv[d].After)
			}
			if valued {
				m.Value, m.Total = &mv[d].Value, &mv[d].Total
			}
		}
		res.Moves = append(res.Moves, m)
	}
	if c := search.BestOf(mv); c.Legal() {
		res.Best = &res.Moves[c.Dir].Dir
	}
	return res
}

// rewards are the moves' values by the rules alone: reward, no value.
func rewards(b board.Board, after [4]board.Board, reward func(d int) uint32) [4]search.MoveValue {
	var mv [4]search.MoveValue
	for d := range 4 {
		if after[d] != b {
			r := reward(d)
			mv[d] = search.MoveValue{Legal: true, After: after[d], Reward: r, Total: float32(r)}
		}
	}
	return mv
}

// hint computes the 2048 moves of b; with a searcher, their values.
func hint(b board.Board, s *search.Searcher, moveTime time.Duration) hintResult {
	var mv [4]search.MoveValue
	depth := 0
	if s != nil {
		mv, depth = s.ValuesTimed(b)
	} else {
		after, reward := game.Moves(b)
		mv = rewards(b, after, func(d int) uint32 { return uint32(game.Reward(reward[d])) })
	}
	res := hintMoves(b, game.DirNames, &mv, s != nil, nil)
	if s != nil && moveTime > 0 && depth < s.Depth() {
		res.Depth, res.within = depth, moveTime // the deadline cut it short
	}
	return res
}

func setupHint(fs *flag.FlagSet, e *env) func([]string) error {
	load := fs.String("load", "weights.td2048", "weights to value the moves with (none: rewards only); a missing default file shows rewards only")
	asJSON := fs.Bool("json", false, "print one JSON object")
	depth := fs.Int("depth", 1, "search depth in plies: 1 values each after-state, 2 and up run expectimax below it")
	cache := byteSize(64 << 20)
	fs.Var(&cache, "cache", "transposition table size (0 turns it off)")
	gameName := fs.String("game", "", "2048 or threes (default: the game of the --load file, else 2048)")
	nextTile := fs.Int("next", 0, "Threes!: the next tile, 1, 2 or 3")
	fs.IntVar(nextTile, "hint", 0, "the next tile (now --next)")
	fs.MarkDeprecated("hint", "use --next (the Threes! next tile; \"hint\" is the move advice)")
	moveTime := fs.Duration("move-time", 10*time.Second, "a deadline for the search: deepen from depth 1 up to --depth until it passes, and answer from the deepest search finished (0: none)")
	return func(args []string) error {
		if len(args) != 1 {
			return usagef("want one BOARD: 16 comma-separated tiles row by row from the top left (0 for empty; 2048 tiles up to 2^31), or 0x and the 64-bit hex packing")
		}
		// Like eval, play and serve, hint uses weights.td2048 unless told
		// otherwise; without weights it still shows the rules' side.
		if *load == "none" {
			*load = ""
		} else if !flagGiven(fs, "load") {
			if _, err := os.Stat(*load); err != nil {
				*load = ""
			}
		}
		if *load != "" && !flagGiven(fs, "game") {
			if h, err := netfile.ReadHeader(*load); err == nil && h.Game != "" {
				*gameName = h.Game
			}
		}
		g, err := gameOf(*gameName)
		if err != nil {
			return err
		}
		if g.Name == "threes" {
			return threesHint(args[0], threesHintArgs{Load: *load, JSON: *asJSON, Depth: *depth, Next: *nextTile, MoveTime: *moveTime}, e)
		}
		if *nextTile != 0 {
			return usagef("--next is the next tile of Threes!; 2048 has none")
		}
		wide, err := board.ParseWide(args[0])
		if err != nil {
			return usagef("%v", err)
		}
		// Tiles past 32768: the moves are those of the board's view, the
		// board the network reads (its large tiles lowered into gaps).
		b, _ := wide.View(0)
		if wide.Ext != 0 && !*asJSON {
			fmt.Fprintf(e.stdout, "tiles past 32768: valued as the board's view, its large tiles lowered into the gaps below them\n%s\n", wide)
		}
		if *depth < 1 || *depth > 12 {
			return usagef("--depth must be 1 to 12")
		}
		var s *search.Searcher
		if *load != "" {
			net, h, err := loadNet(*load, "2048", nil)
			if err != nil {
				return err
			}
			defer net.Free()
			kind, err := learn.ParseKind(h.Learner)
			if err != nil {
				return err
			}
			// --depth caps the search; the deadline may cut it short.
			sf := searchFlags{depth: *depth}
			opt := sf.options(kind)
			opt.MoveTime = *moveTime
			s = search.NewSearcher(net, opt, search.NewTable(int64(cache)))
		}
		res := hint(b, s, *moveTime)
		if *asJSON {
			enc := json.NewEncoder(e.stdout)
			return enc.Encode(res)
		}
		writeHint(e.stdout, b, board.Pow2, res, s != nil)
		return nil
	}
}

// writeHint prints a hint for people, tiles shown by code.
func writeHint(w io.Writer, b board.Board, code board.Code, res hintResult, valued bool) {
	if res.Next > 0 {
		fmt.Fprintf(w, "board %s, next tile %d\n%s\n", res.Board, res.Next, b.Format(code))
	} else {
		fmt.Fprintf(w, "board %s\n%s\n", res.Board, b.Format(code))
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
		if m.Value != nil {
			fmt.Fprintf(w, "  value %.2f  reward+value %.2f", *m.Value, *m.Total)
		}
		fmt.Fprintf(w, "  after %s", *m.After)
		if m.Cells != nil {
			fmt.Fprintf(w, ", %d goes to one of cells %v", res.Next, m.Cells)
		}
		fmt.Fprintln(w)
		for _, line := range strings.Split(strings.TrimRight(m.after.Format(code), "\n"), "\n") {
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
		fmt.Fprintf(w, "searched %d plies deep within %v\n", res.Depth, res.within)
	}
}
