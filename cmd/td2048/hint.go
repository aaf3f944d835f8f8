package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"

	"td2048/board"
	"td2048/game"
	"td2048/learn"
	"td2048/ntuple"
	"td2048/search"
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
	Value  *float32 `json:"value,omitempty"`
	Total  *float32 `json:"total,omitempty"`

	after board.Board
}

type hintResult struct {
	Board string     `json:"board"`
	Moves []hintMove `json:"moves"`
	Best  *string    `json:"best"`
}

// hint computes the moves of b; with net, their values by the learner kind.
func hint(b board.Board, net *ntuple.Network, kind learn.Kind) hintResult {
	res := hintResult{Board: b.Hex()}
	after, reward := game.Moves(b)
	best := -1
	var bestTotal float32
	for d := range 4 {
		m := hintMove{Dir: game.DirNames[d], Legal: after[d] != b, after: after[d]}
		if m.Legal {
			h, r := after[d].Hex(), game.Reward(reward[d])
			m.After, m.Reward = &h, &r
			total := float32(r)
			if net != nil {
				var v float32
				if kind == learn.State {
					v = search.Expect(net, after[d])
				} else {
					v = net.Estimate(after[d])
				}
				total += v
				m.Value, m.Total = &v, &total
			}
			if best < 0 || total > bestTotal {
				best, bestTotal = d, total
			}
		}
		res.Moves = append(res.Moves, m)
	}
	if best >= 0 {
		res.Best = &res.Moves[best].Dir
	}
	return res
}

func setupHint(fs *flag.FlagSet, e *env) func([]string) error {
	load := fs.String("load", "", "weights to value the moves with")
	asJSON := fs.Bool("json", false, "print one JSON object")
	return func(args []string) error {
		if len(args) != 1 {
			return usagef("want one BOARD: 16 comma-separated tiles row by row from the top left (0 for empty), or 0x and the 64-bit hex packing")
		}
		b, err := board.Parse(args[0])
		if err != nil {
			return usagef("%v", err)
		}
		var net *ntuple.Network
		kind := learn.AfterState
		if *load != "" {
			n, h, err := loadNet(*load, "2048", nil)
			if err != nil {
				return err
			}
			defer n.Free()
			net = n
			if kind, err = learn.ParseKind(h.Learner); err != nil {
				return err
			}
		}
		res := hint(b, net, kind)
		if *asJSON {
			enc := json.NewEncoder(e.stdout)
			return enc.Encode(res)
		}
		writeHint(e.stdout, b, res, net != nil)
		return nil
	}
}

func writeHint(w io.Writer, b board.Board, res hintResult, valued bool) {
	fmt.Fprintf(w, "board %s\n%s\n", res.Board, b)
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
		fmt.Fprintf(w, "  after %s\n", *m.After)
		for _, line := range strings.Split(strings.TrimRight(m.after.String(), "\n"), "\n") {
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
}
