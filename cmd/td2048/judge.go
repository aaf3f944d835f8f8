package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"os"

	flag "github.com/spf13/pflag"

	"github.com/td2048/td2048/rules/threes"
	"github.com/td2048/td2048/stats"
)

func init() {
	register(&command{
		name:  "judge",
		args:  "FILE",
		short: "replay a Threes! statistics file (the course's format) and check every action",
		long: `Replay a Threes! statistics file (the course's format, one game a line)
and check every action. Like the course's judge it prints the course's
summary of the games first, then its verdict: "Judging the actions...
Passed", or "Failed" with the first fault (exit status 1), named by game
(the line) and action counting from 1, and in brackets in the course
judge's numbering (from 0). A game with a fault counts in the summary as
replayed up to its first fault; a line that cannot be read does not count.`,
		example: `  td2048 judge stats.txt                         # replay every action of a Threes! statistics file`,
		setup:   setupJudge,
	})
}

func setupJudge(fs *flag.FlagSet, e *env) func([]string) error {
	asJSON := fs.Bool("json", false, "print one JSON object (verdict, first fault, summary) instead of text")
	return func(args []string) error {
		if len(args) != 1 {
			return usagef("want one FILE: a Threes! statistics file, one game a line (eval --game threes --stats FILE writes one)")
		}
		f, err := os.Open(args[0])
		if err != nil {
			return err
		}
		defer f.Close()
		sum, fault, err := judge(f)
		if err != nil {
			return fmt.Errorf("%s: %w", args[0], err)
		}
		if *asJSON {
			r := judgeJSON{File: args[0], Passed: fault == nil, Fault: fault}
			if sum.Games > 0 {
				r.Summary = newSummaryJSON(&sum)
			}
			if err := writeJSON(e.stdout, r); err != nil {
				return err
			}
		} else {
			if sum.Games > 0 {
				sum.WriteThrees(e.stdout, sum.Games, threes.TileValue, sum.speed)
			}
			verdict := "Passed"
			if fault != nil {
				verdict = "Failed"
			}
			fmt.Fprintln(e.stdout, "Judging the actions... "+verdict)
		}
		if fault != nil {
			return fmt.Errorf("%s: %s", args[0], fault.Message)
		}
		return nil
	}
}

// A judgeFault is the first fault judge found in a file.
type judgeFault struct {
	// Game is the line, counting from 1, and Action the action in it,
	// counting from 1; Action is null when the fault is not one action's
	// (the names, the times, the winner, the game's end), both are null
	// when it is no game's (a file of no games).
	Game   *int `json:"game"`
	Action *int `json:"action"`
	// Course is the same place in the course judge's numbering, from 0:
	// "at 1 #20" for game 2, action 21.
	Course  string `json:"course,omitempty"`
	Message string `json:"message"`
}

// judge reads a statistics file, replays every game and returns the
// course's summary of them and the first fault. Its message names the
// fault's game (the line, counting from 1) and action (counting from 1),
// then in brackets the same in the numbering of the course's threes-judge
// (both from 0: "at 1 #52"). After a fault it reads on, for the summary:
// a faulty game counts as replayed up to its first fault, a line that
// cannot be read not at all.
//
// It checks more than the course judge: that each placement is on the
// edge opposite the slide before it (the course judge accepts any empty
// cell and fails only when a later action becomes illegal), that each
// recorded reward is the action's, and that the winner is the placer.
// The error is for failures to read the file.
func judge(r io.Reader) (threesSummary, *judgeFault, error) {
	var (
		sum   threesSummary
		fault *judgeFault
	)
	fail := func(game, action int, course, format string, a ...any) {
		if fault != nil {
			return
		}
		fault = &judgeFault{Course: course, Message: fmt.Sprintf(format, a...)}
		if game > 0 {
			fault.Game = &game
		}
		if action > 0 {
			fault.Action = &action
		}
	}
	blank := 0 // line number of a blank line, allowed only at the end
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), math.MaxInt) // a game's line may be long
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" {
			if blank == 0 {
				blank = n
			}
			continue
		}
		if blank != 0 {
			fail(blank, 0, "", "line %d is blank, and games follow it", blank)
		}
		rec, err := threes.ParseRecord(line)
		if err != nil {
			fail(n, 0, "", "game %d: cannot read %v", n, err)
			continue
		}
		// A game with a fault counts as its legal actions left it.
		rp, err := rec.Replay()
		sum.Add(rp.Score, rp.MaxTile, rp.Slides)
		sum.speed.Add(&stats.Speed{Slides: int64(rp.Slides), Placements: int64(rp.Placements), Time: rp.Time, SlideTime: rp.SlideTime, PlaceTime: rp.PlaceTime})
		if err == nil {
			continue
		}
		// The course judge counts games and actions from 0: its words
		// follow ours, so that the two can be compared.
		switch ie, ok := errors.AsType[*threes.IllegalError](err); {
		case !ok || ie.Action < 0:
			fail(n, 0, "", "game %d: %v", n, err)
		case ie.Action >= len(rec.Steps):
			fail(n, 0, fmt.Sprintf("at %d", n-1), "game %d: %v [course judge numbering: at %d]", n, err, n-1)
		default:
			fail(n, ie.Action+1, fmt.Sprintf("at %d #%d", n-1, ie.Action),
				"game %d, %v [course judge numbering: at %d #%d]", n, err, n-1, ie.Action)
		}
	}
	if err := sc.Err(); err != nil {
		return sum, fault, err
	}
	if sum.Games == 0 && fault == nil {
		fail(0, 0, "", "no games")
	}
	return sum, fault, nil
}

// judgeJSON is judge --json's object.
type judgeJSON struct {
	File    string       `json:"file"`
	Passed  bool         `json:"passed"`
	Fault   *judgeFault  `json:"error"`   // the first fault; null when passed
	Summary *summaryJSON `json:"summary"` // null when no game could be read
}

// summaryJSON is the course's summary as JSON.
type summaryJSON struct {
	stats.Summary          // its avg the mean score; the text rounds it down
	Slides        int64    `json:"slides"`
	Placements    int64    `json:"placements"`
	Time          int64    `json:"time_ms"`
	SlideTime     int64    `json:"slide_ms"`
	PlaceTime     int64    `json:"place_ms"`
	Ops           *opsJSON `json:"ops"`
}

func newSummaryJSON(s *threesSummary) *summaryJSON {
	sp := s.speed
	return &summaryJSON{Summary: stats.NewSummary(&s.Block, threes.TileValue),
		Slides: sp.Slides, Placements: sp.Placements, Time: sp.Time, SlideTime: sp.SlideTime, PlaceTime: sp.PlaceTime, Ops: newOpsJSON(sp)}
}

// A threesSummary is the course's summary of Threes! games, the block the
// framework prints after its games and judge after reading a statistics
// file (stats.Block.WriteThrees): their statistics block and speed.
type threesSummary struct {
	stats.Block
	speed stats.Speed
}
