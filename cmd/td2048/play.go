package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	flag "github.com/spf13/pflag"
	"golang.org/x/term"

	"github.com/td2048/td2048/games"
	"github.com/td2048/td2048/internal/evalrun"
	"github.com/td2048/td2048/internal/train"
	"github.com/td2048/td2048/internal/tui"
	"github.com/td2048/td2048/stats"
)

func init() {
	register(&command{
		name:  "play",
		short: "watch the network play 2048 or Threes! in the terminal, or play yourself with its hints",
		example: `  td2048 play                                    # watch weights.td2048 play (space starts, ? for help)
  td2048 play --load threes.td2048 --auto --depth 3`,
		setup: setupPlay,
	})
}

func setupPlay(fs *flag.FlagSet, e *env) func([]string) error {
	p := evalrun.Play{Search: evalrun.DefaultSearch(2, 64<<20, 250*time.Millisecond), Compact: true}
	p.AddFlags(fs, map[string]string{
		"load":      "weights to play and advise with; their game is the one played",
		"depth":     "search depth of the agent and the hints, 1 to 4 (keys 1-4 change it)",
		"move_time": "time budget of the agent's move at depth 2 and up (0: none)",
		"cache":     "transposition table size (0 turns it off)",
	})
	auto := fs.Bool("auto", false, "start with the agent playing")
	seed := train.NewSeed()
	fs.Var(seed, "seed", "seed of the first game, shown on screen; each new game takes the next (random when not given)")
	threads := moveThreadsFlag(fs)
	return func(args []string) error {
		if len(args) != 0 {
			return usagef("play takes no arguments, only flags (got %q)", args[0])
		}
		if err := checkThreads(*threads); err != nil {
			return err
		}
		given := evalrun.GivenFlags(fs)
		if err := p.Check(given, tui.MaxDepth); err != nil {
			return usageOf(err)
		}
		if !playTerminal(e.stdin) || !playTerminal(e.stdout) {
			return errNoTerminal
		}
		p.Complete(given)
		l, err := p.Open(given)
		if err != nil {
			return usageOf(err)
		}
		net, g := l.Net, l.Game
		writeNotes(e.stderr, l.Note, net, p.Downgrading())
		cfg := tui.Config{Net: net, Game: g.Name, Network: l.Header.Network, Depth: p.Depth, MoveTime: time.Duration(p.MoveTime),
			TableBytes: int64(p.Cache), Seed: seed.Value(), Auto: *auto, Threads: evalrun.ThreadCount(*threads), Downgrade: p.Downgrading(), Kind: l.Kind}
		p.Apply(&cfg.MCTS, cfg.Seed, true, given)
		m := tui.New(cfg)
		defer func() {
			// q has cut the searches short; whatever else ended the
			// program does so here. None reads the weights once Wait
			// returns, a few milliseconds later.
			m.Stop()
			m.Wait()
			net.Free()
		}()
		opts := []tea.ProgramOption{tea.WithAltScreen()}
		if e.stdin != os.Stdin {
			opts = append(opts, tea.WithInput(e.stdin))
		}
		if e.stdout != os.Stdout {
			opts = append(opts, tea.WithOutput(e.stdout))
		}
		if _, err := tea.NewProgram(m, opts...).Run(); err != nil {
			return fmt.Errorf("terminal: %v", err)
		}
		agent, you := m.Stats()
		fmt.Fprintf(e.stdout, "seed = %d\n", cfg.Seed)
		summary(e.stdout, "agent", &agent, g)
		summary(e.stdout, "you", &you, g)
		return nil
	}
}

var errNoTerminal = errors.New("needs a terminal (stdin and stdout); use td2048 eval for games without one")

// playTerminal reports whether f, play's stdin or stdout, is a terminal: a
// file on a terminal device, or a stand-in that says it is one (the tests'
// fake terminals). Without one bubbletea can neither read keys nor draw,
// and it fails with a raw "could not open a new TTY" or draws into a file.
func playTerminal(f any) bool {
	switch f := f.(type) {
	case interface{ Terminal() bool }:
		return f.Terminal()
	case interface{ Fd() uintptr }:
		return term.IsTerminal(int(f.Fd()))
	}
	return false
}

// summary prints a line of a player's finished games, with the rate of
// the game's headline tile (2048, or 3072 in Threes!).
func summary(w io.Writer, who string, b *stats.Block, g *games.Game) {
	if b.Games == 0 {
		return
	}
	fmt.Fprintf(w, "%s: %d games, avg %s, max %d, %d rate %s%%\n", who, b.Games, stats.Num(b.Avg()), b.MaxScore, g.Value(g.Goal), stats.Num(100*b.Reach(g.Goal)))
}
