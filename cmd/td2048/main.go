// Command td2048 trains n-tuple networks by temporal-difference learning to
// play 2048 and Threes!, plays them with expectimax search, and shows what
// they learned.
//
//	td2048 train    learn weights, print statistics blocks, log, checkpoint
//	td2048 eval     play games with saved weights (greedy or n-ply), statistics
//	td2048 hint     the value of each move on one board
//	td2048 play     watch the agent, or play with its hints, in the terminal
//	td2048 serve    the same in a browser
//	td2048 plot     learning curves from metrics logs, PNG or SVG
//	td2048 bench    speed on a fixed workload, and a signature of its results
//	td2048 convert  weights to and from the course demo's and TDL2048+'s formats
//	td2048 judge    replay a Threes! statistics file and check every action
//
// Run "td2048 help COMMAND" for a command's flags.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// A command is one subcommand: its flags are defined on fs by setup, which
// returns the function that runs it with the positional arguments.
type command struct {
	name, args, short string
	setup             func(fs *flag.FlagSet, env *env) func(args []string) error
}

var commands = map[string]*command{}

func register(c *command) { commands[c.name] = c }

// env is what a command may touch of the world, so that tests can run
// commands in-process.
type env struct {
	stdout, stderr io.Writer
	stdin          io.Reader
}

// usageError is a bad invocation: exit status 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, a ...any) error { return usageError{fmt.Sprintf(format, a...)} }

func main() {
	os.Exit(run(os.Args[1:], &env{stdout: os.Stdout, stderr: os.Stderr, stdin: os.Stdin}))
}

func names() []string {
	var n []string
	for k := range commands {
		n = append(n, k)
	}
	sort.Strings(n)
	return n
}

func topUsage(w io.Writer) {
	fmt.Fprintln(w, "td2048 teaches computers to play 2048 by TD learning of n-tuple networks.")
	fmt.Fprintln(w, "\nUsage: td2048 COMMAND [flags]\n\nCommands:")
	for _, n := range names() {
		c := commands[n]
		fmt.Fprintf(w, "  %-8s %s\n", c.name, c.short)
	}
	fmt.Fprintln(w, "\nRun 'td2048 help COMMAND' (or 'td2048 COMMAND -h') for its flags.")
}

// run runs one invocation and returns the exit status.
func run(args []string, e *env) int {
	if len(args) == 0 {
		topUsage(e.stderr)
		return 2
	}
	name := args[0]
	if name == "help" || name == "-h" || name == "--help" || name == "-help" {
		if len(args) > 1 && commands[args[1]] != nil {
			return run([]string{args[1], "-h"}, e)
		}
		topUsage(e.stdout)
		return 0
	}
	c := commands[name]
	if c == nil {
		fmt.Fprintf(e.stderr, "td2048: unknown command %q (commands: %s)\n", name, strings.Join(names(), ", "))
		return 2
	}
	fs := flag.NewFlagSet("td2048 "+name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	runFn := c.setup(fs, e)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: td2048 %s [flags] %s\n\n%s\n\nFlags:\n", name, c.args, c.short)
		fs.PrintDefaults()
	}
	pos, err := parseInterspersed(fs, args[1:])
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		return 2 // the flag package has printed the error and usage
	}
	if err := runFn(pos); err != nil {
		fmt.Fprintf(e.stderr, "td2048 %s: %v\n", name, err)
		var ue usageError
		if errors.As(err, &ue) {
			return 2
		}
		return 1
	}
	return 0
}

// parseInterspersed parses flags that may come before or after positional
// arguments ("hint BOARD --load w"); "--" ends the flags.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if len(args) > len(rest) && args[len(args)-len(rest)-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}
