// Command td2048 trains n-tuple networks by temporal-difference learning to
// play 2048 and Threes!, plays them with expectimax search, and shows what
// they learned.
//
//	td2048 train    learn weights, print statistics blocks, log, checkpoint
//	td2048 eval     play games with saved weights (greedy or n-ply), statistics
//	td2048 hint     the value of each move on one board
//	td2048 play     watch the agent, or play with its hints, in the terminal
//	td2048 serve    the same in a browser
//	td2048 plot     learning curves from metrics logs, PNG, SVG or PDF
//	td2048 bench    speed on a fixed workload, and a signature of its results
//	td2048 convert  weights to and from the course demo's and TDL2048+'s formats
//	td2048 judge    replay a Threes! statistics file and check every action
//	td2048 merge    merge the shards of an evaluation (eval --shard K/N --out) exactly
//	td2048 sweep    train and evaluate a plan's configurations, a job array task each
//	td2048 version  the module version and commit of this build
//
// Run "td2048 help COMMAND" for a command's flags and examples, "td2048
// help TOPIC" for the long explanations (td2048 help lists the topics),
// and "td2048 completion bash|zsh|fish" for shell completion, which also
// completes the values of flags like --recipe, --network and --game. The
// same help is in docs/reference/commands and docs/man, generated
// (go generate ./cmd/td2048).
//
// The command line is cobra's (with pflag): it gives the conventions users of
// Go tools expect (GNU --flag spelling, nested help on stdout, suggestions for
// a mistyped command, completion scripts for bash, zsh and fish) without a
// hand-written copy of each.
package main

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"

	"github.com/spf13/cobra"
	flag "github.com/spf13/pflag"

	"github.com/td2048/td2048/internal/buildinfo"
)

// A command is one subcommand: its flags are defined on fs by setup, which
// returns the function that runs it with the positional arguments.
type command struct {
	name, args, short string
	long, example     string
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
	keepOnClosedPipe()
	os.Exit(run(os.Args[1:], &env{stdout: os.Stdout, stderr: os.Stderr, stdin: os.Stdin}))
}

// keepOnClosedPipe makes output to a closed pipe (td2048 train | head)
// fail as a write error, which the commands go on through, rather than
// kill the process before it saves.
func keepOnClosedPipe() { signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE) }

func names() []string { return slices.Sorted(maps.Keys(commands)) }

// buildVersion, when set at link time (go build -ldflags "-X
// main.buildVersion=v1.2.3", as deploy/k8s/Dockerfile does, its build
// context having no VCS information), is the version this build reports.
var buildVersion string

// The version stamped at link time is the one results record too.
func init() { buildinfo.Stamp(buildVersion) }

// root builds the command tree for one invocation (fresh flags each time, so
// that tests can run many invocations in one process).
func root(e *env) *cobra.Command {
	r := &cobra.Command{
		Use:   "td2048",
		Short: "td2048 teaches computers to play 2048 and Threes! by TD learning of n-tuple networks",
		Long: `td2048 teaches computers to play 2048 and Threes! by temporal-difference
learning of n-tuple networks, and plays them with expectimax search.

Start with "td2048 train" (the course's 4x6 network, 100,000 episodes, saved
to weights.td2048), then "td2048 eval" or "td2048 play".`,
		Version:       buildinfo.Version(),
		SilenceUsage:  true,
		SilenceErrors: true,
		// Suggestions for a mistyped command ("trian" -> "train").
		SuggestionsMinimumDistance: 2,
	}
	r.SetOut(e.stdout)
	r.SetErr(e.stderr)
	r.SetIn(e.stdin)
	r.SetVersionTemplate("td2048 {{.Version}}\n")
	// -V too, as many tools spell it (cobra's own is -v, --version).
	upperV := r.Flags().BoolP("V", "V", false, "print the version")
	r.Flags().MarkHidden("V")
	version := func(*cobra.Command, []string) error {
		fmt.Fprintf(e.stdout, "td2048 %s\n", buildinfo.Version())
		return nil
	}
	r.RunE = func(c *cobra.Command, args []string) error {
		if *upperV {
			return version(c, args)
		}
		return c.Help()
	}
	r.SetFlagErrorFunc(flagError)
	r.SetUsageTemplate(usageTemplate)
	r.AddCommand(&cobra.Command{
		Use:   "version",
		Short: "print the module version and commit of this build",
		Args:  cobra.NoArgs,
		RunE:  version,
	})
	for _, n := range names() {
		cmd := commands[n]
		c := &cobra.Command{
			Use:     strings.TrimSpace(cmd.name + " [flags] " + cmd.args),
			Short:   cmd.short,
			Long:    cmp.Or(cmd.long, cmd.short),
			Example: cmd.example,
		}
		runFn := cmd.setup(c.Flags(), e)
		c.RunE = func(_ *cobra.Command, args []string) error { return runFn(args) }
		c.Flags().SortFlags = false
		completeFlags(c)
		r.AddCommand(c)
	}
	addTopics(r)
	addGenDocs(r)
	addCompletion(r)
	addHelpCheck(r)
	return r
}

// flagError turns pflag's errors into usage errors, suggesting the nearest
// flag for an unknown one.
func flagError(c *cobra.Command, err error) error {
	msg := plainFlagError(err.Error())
	if name, ok := strings.CutPrefix(msg, "unknown flag: --"); ok {
		if s := nearestFlag(c, name); s != "" {
			msg += fmt.Sprintf(" (did you mean --%s?)", s)
		}
	}
	return usagef("%s (see '%s --help')", msg, c.CommandPath())
}

// plainFlagError says what a flag's value should have been, for pflag's
// `invalid argument "abc" for "--alpha" flag: strconv.ParseFloat: ...`
// and its like, of every command's numbers and times.
func plainFlagError(msg string) string {
	head, cause, ok := strings.Cut(msg, " flag: ")
	if !ok || !strings.HasPrefix(head, "invalid argument ") {
		return msg
	}
	switch {
	case strings.Contains(cause, "value out of range"):
		return head + ": out of range"
	case strings.HasPrefix(cause, "strconv.ParseFloat"):
		return head + ": not a number"
	case strings.HasPrefix(cause, "strconv.ParseInt"), strings.HasPrefix(cause, "strconv.ParseUint"):
		return head + ": not a whole number"
	case strings.HasPrefix(cause, "strconv.ParseBool"):
		return head + ": want true or false"
	case strings.HasPrefix(cause, "time: "):
		return head + ": want a time like 90s or 1h30m"
	}
	return head + ": " + cause
}

func nearestFlag(c *cobra.Command, name string) string {
	best, bestD := "", 3
	c.Flags().VisitAll(func(f *flag.Flag) {
		d := levenshtein(name, f.Name)
		if strings.HasPrefix(f.Name, name) {
			d = 1
		}
		if d < bestD {
			best, bestD = f.Name, d
		}
	})
	return best
}

func levenshtein(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

// run runs one invocation and returns the exit status.
func run(args []string, e *env) int {
	r := root(e)
	r.SetArgs(args)
	c, err := r.ExecuteC()
	if err == nil {
		return 0
	}
	name := "td2048"
	if c != nil && c != r {
		name += " " + c.Name()
	}
	msg, empty := plainPathError(err)
	var ue usageError
	usage := errors.As(err, &ue) || empty
	if strings.HasPrefix(msg, "unknown command") || strings.Contains(msg, "accepts 0 arg") {
		// cobra's own messages: keep them to one line.
		usage = true
		msg = strings.Join(strings.Fields(strings.ReplaceAll(msg, "\n\nDid you mean this?\n", "; did you mean:")), " ")
		msg += fmt.Sprintf(" (commands: %s)", strings.Join(names(), ", "))
	}
	fmt.Fprintf(e.stderr, "%s: %s\n", name, msg)
	if usage {
		return 2
	}
	return 1
}

// plainPathError is err's message with the system's words about a file
// ("open X: no such file or directory", "read X: is a directory") put as
// "cannot open X: no such file or directory", "cannot read X: is a
// directory", once, whichever command read the file; empty is true when
// the file name given was empty, a usage error.
func plainPathError(err error) (msg string, empty bool) {
	msg = err.Error()
	pe, ok := errors.AsType[*os.PathError](err)
	if !ok {
		return msg, false
	}
	verb := map[string]string{"open": "open", "stat": "open", "lstat": "open", "read": "read", "write": "write"}[pe.Op]
	sys := pe.Error()
	i := strings.Index(msg, sys)
	if verb == "" || i < 0 {
		return msg, false
	}
	plain := fmt.Sprintf("cannot %s %s: %v", verb, pe.Path, pe.Err)
	if pe.Path == "" {
		plain = "a file name given is empty"
	}
	head := strings.TrimSuffix(msg[:i], pe.Path+": ") // "X: read X: ..." names X once
	return head + plain + msg[i+len(sys):], pe.Path == ""
}
