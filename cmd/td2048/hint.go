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
	"github.com/td2048/td2048/games"
	"github.com/td2048/td2048/netfile"
	"github.com/td2048/td2048/search"
	"github.com/td2048/td2048/session"
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

// hintMoves completes res with the four moves of p in game g: legality,
// after-state, reward, and when valued the value and reward+value; the
// best is search.BestOf's (by reward alone when not valued). In a game
// with a next tile each move lists where it may go.
func hintMoves(g *games.Game, p session.Position, mv *[4]search.MoveValue, valued bool, res hintResult) hintResult {
	b := p.Board
	res.Board, res.Next = b.Hex(), p.Next
	for d := range 4 {
		m := hintMove{Dir: session.DirNames[d], Legal: mv[d].Legal, after: b}
		if m.Legal {
			h, r := mv[d].After.Hex(), int(mv[d].Reward)
			m.After, m.Reward, m.after = &h, &r, mv[d].After
			if g.HasNext {
				m.Cells = g.Cells(mv[d].After, d)
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

func setupHint(fs *flag.FlagSet, e *env) func([]string) error {
	load := fs.String("load", "", loadHelp("weights to value the moves with; none, or no default file: rewards only"))
	asJSON := fs.Bool("json", false, "print one JSON object")
	depth := fs.Int("depth", 1, "search depth in plies: 1 values each after-state, 2 and up run expectimax below it")
	cache := byteSize(64 << 20)
	fs.Var(&cache, "cache", "transposition table size (0 turns it off)")
	gameName := fs.String("game", "", "2048 or threes (default: the loaded file's, else 2048)")
	nextTile := fs.Int("next", 0, "Threes!: the next tile, 1, 2 or 3, as the game shows it (needed for Threes!)")
	fs.IntVar(nextTile, "hint", 0, "the next tile (now --next)")
	fs.MarkDeprecated("hint", "use --next (the Threes! next tile; \"hint\" is the move advice)")
	moveTime := fs.Duration("move-time", 10*time.Second, "a deadline for the search: deepen from depth 1 up to --depth until it passes, and answer from the deepest search finished (0: none)")
	return func(args []string) error {
		if len(args) != 1 {
			return usagef("want one BOARD: 16 comma-separated tiles row by row from the top left (0 for empty; 2048 tiles up to 2^31), or 0x and the 64-bit hex packing")
		}
		// Like eval, play and serve, hint uses the game's file unless told
		// otherwise; without weights it still shows the rules' side.
		if *load == "none" {
			*load = ""
		} else if !flagGiven(fs, "load") {
			if err := defaultLoad(fs, load, *gameName); err != nil {
				return err
			}
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
		b, note, err := g.Parse(args[0])
		if err != nil {
			return usagef("%v", err)
		}
		if note != "" && !*asJSON {
			fmt.Fprintln(e.stdout, note)
		}
		p, err := g.Position(b, *nextTile)
		if err != nil && g.HasNext && !flagGiven(fs, "next") && !flagGiven(fs, "hint") {
			return usagef("%s needs the next tile, shown beside the board: give it with --next (%v)", g.Title, err)
		}
		if err != nil {
			return usagef("--next %d: %v", *nextTile, err)
		}
		if *depth < 1 || *depth > 12 {
			return usagef("--depth must be 1 to 12")
		}
		if *moveTime < 0 {
			return usagef("--move-time must not be negative")
		}
		mv, valued := g.RuleValues(p.Board), false
		res := hintResult{}
		if *load != "" {
			net, _, kind, err := loadFor(*load, g)
			if err != nil {
				return err
			}
			defer net.Free()
			// --depth caps the search; the deadline may cut it short.
			a := g.NewAdvisor(net, search.Options{Depth: *depth, MoveTime: *moveTime, Kind: kind}, search.NewTable(int64(cache)))
			var done int
			mv, done = a.Values(p)
			valued = true
			if *moveTime > 0 && done < *depth {
				res.Depth, res.within = done, *moveTime // the deadline cut it short
			}
		}
		res = hintMoves(g, p, &mv, valued, res)
		if *asJSON {
			return json.NewEncoder(e.stdout).Encode(res)
		}
		writeHint(e.stdout, p.Board, g.Code, res, valued)
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
