package main

import (
	"bufio"
	"errors"
	"fmt"
	flag "github.com/spf13/pflag"
	"io"
	"os"
	"strings"

	"github.com/td2048/td2048/game/threes"
)

func init() {
	register(&command{
		name:  "judge",
		args:  "FILE",
		short: "replay a Threes! statistics file (the course's format) and check every action",
		setup: setupJudge,
	})
}

func setupJudge(fs *flag.FlagSet, e *env) func([]string) error {
	return func(args []string) error {
		if len(args) != 1 {
			return usagef("want one FILE: a Threes! statistics file, one game a line (eval --game threes --stats FILE writes one)")
		}
		f, err := os.Open(args[0])
		if err != nil {
			return err
		}
		defer f.Close()
		sum, err := judge(f)
		if err != nil {
			return fmt.Errorf("%s: %v", args[0], err)
		}
		sum.Write(e.stdout)
		fmt.Fprintln(e.stdout, "Judging the actions... Passed")
		return nil
	}
}

// judge reads a statistics file, replays every game and returns the
// course's summary of them. The error names the first fault: its game
// (the line, counting from 1) and action (counting from 1), then in
// brackets the same in the numbering of the course's threes-judge (both
// from 0: "at 1 #52").
//
// It checks more than the course judge: that each placement is on the
// edge opposite the slide before it (the course judge accepts any empty
// cell and fails only when a later action becomes illegal), that each
// recorded reward is the action's, and that the winner is the placer.
func judge(r io.Reader) (threes.Summary, error) {
	var sum threes.Summary
	br := bufio.NewReaderSize(r, 1<<20)
	blank := 0 // line number of a blank line, allowed only at the end
	for n := 1; ; n++ {
		line, err := br.ReadString('\n')
		if err != nil && err != io.EOF {
			return sum, err
		}
		if line == "" && err == io.EOF {
			break
		}
		line = strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r")
		if line == "" {
			if blank == 0 {
				blank = n
			}
		} else {
			if blank != 0 {
				return sum, fmt.Errorf("line %d is blank, and games follow it", blank)
			}
			rec, perr := threes.ParseRecord(line)
			if perr != nil {
				return sum, fmt.Errorf("game %d: cannot read %v", n, perr)
			}
			rp, rerr := rec.Replay()
			if rerr != nil {
				// The course judge counts games and actions from 0: its
				// words follow ours, so that the two can be compared.
				var ie *threes.IllegalError
				switch {
				case !errors.As(rerr, &ie) || ie.Action < 0:
					return sum, fmt.Errorf("game %d: %v", n, rerr)
				case ie.Action >= len(rec.Steps):
					return sum, fmt.Errorf("game %d: %v [course judge numbering: at %d]", n, rerr, n-1)
				}
				return sum, fmt.Errorf("game %d, %v [course judge numbering: at %d #%d]", n, rerr, n-1, ie.Action)
			}
			sum.Add(rp.GameStats)
		}
		if err == io.EOF {
			break
		}
	}
	if sum.Games == 0 {
		return sum, fmt.Errorf("no games")
	}
	return sum, nil
}
