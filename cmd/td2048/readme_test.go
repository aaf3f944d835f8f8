package main

import (
	"bufio"
	"bytes"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/td2048/td2048/games"
)

// readmePath is the README this test follows, from this package's folder.
const readmePath = "../../README.md"

// A readmeCommand is one td2048 command line of a README code block.
type readmeCommand struct {
	section string   // the "## " heading it is under
	line    int      // its line in README.md
	args    []string // the words after "td2048"
}

// readmeCommands returns the td2048 commands of the README's fenced code
// blocks, in order. Other lines of the blocks (git, go install, a sample
// of output) are not td2048's and are left out; a comment after " #" is
// dropped. The commands are split at spaces, so a quote, which a shell
// would read differently, is refused.
func readmeCommands(t *testing.T) []readmeCommand {
	t.Helper()
	f, err := os.Open(readmePath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cmds []readmeCommand
	section, fenced := "", false
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "```"):
			fenced = !fenced
		case !fenced && strings.HasPrefix(line, "## "):
			section = strings.TrimPrefix(line, "## ")
		case fenced && strings.HasPrefix(strings.TrimSpace(line), "td2048 "):
			text := strings.TrimSpace(line)
			if i := strings.Index(text, " #"); i >= 0 {
				text = strings.TrimSpace(text[:i])
			}
			if strings.ContainsAny(text, `"'`+"`") {
				t.Fatalf("README.md:%d: %q: quoted arguments are not split as a shell would split them", n, text)
			}
			cmds = append(cmds, readmeCommand{section, n, strings.Fields(text)[1:]})
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return cmds
}

// The substitutions that keep the README's runs short. They change how
// long a command runs, never whether it is accepted:
//   - train: --episodes N becomes --episodes 300 when N is larger (and is
//     added when absent: the default is 100,000), and --every 100 is added
//     when no --every is given, so that a short run still logs blocks for
//     plot;
//   - eval: --games N becomes --games 10 when N is larger (added when
//     absent: the default is 1000).
const (
	readmeEpisodes = 300
	readmeEvery    = 100
	readmeGames    = 10
)

// shorten returns args with the substitutions above.
func shorten(args []string) []string {
	out := slices.Clone(args)
	switch out[0] {
	case "train":
		out = capFlag(out, "--episodes", readmeEpisodes)
		if !slices.Contains(out, "--every") {
			out = append(out, "--every", strconv.Itoa(readmeEvery))
		}
	case "eval":
		out = capFlag(out, "--games", readmeGames)
	}
	return out
}

// capFlag lowers the value of flag (given as "--flag N") to max, or adds
// the flag with max when it is absent.
func capFlag(args []string, flag string, max int) []string {
	i := slices.Index(args, flag)
	if i < 0 {
		return append(args, flag, strconv.Itoa(max))
	}
	if i+1 < len(args) {
		if n, err := strconv.Atoi(args[i+1]); err == nil && n > max {
			args[i+1] = strconv.Itoa(max)
		}
	}
	return args
}

func TestShorten(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"train", "train --episodes 300 --every 100"},
		{"train --network 4x5 --episodes 5000 --save q.td2048", "train --network 4x5 --episodes 300 --save q.td2048 --every 100"},
		{"train --episodes 50 --every 10", "train --episodes 50 --every 10"},
		{"eval --games 1000 --depth 2", "eval --games 10 --depth 2"},
		{"eval --load x.td2048", "eval --load x.td2048 --games 10"},
		{"hint 0x1", "hint 0x1"},
	} {
		t.Run(c.in, func(t *testing.T) {
			if got := strings.Join(shorten(strings.Fields(c.in)), " "); got != c.want {
				t.Errorf("shorten(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

// TestReadmeCommands follows README.md as a newcomer would: every td2048
// command of its code blocks, in order, in one empty folder, each README
// section a subtest, with the episode and game counts of shorten. A
// refusal or any non-zero exit fails it. The commands run as processes of
// their own in that folder, so that the test runs beside the others; the
// interactive ones run for real, briefly: play in-process on a fake
// terminal that steps the agent once and quits with q (exit 0 wanted),
// its files named from the folder; serve on a free loopback port (the
// README's flags, then --addr 127.0.0.1:0), asked for /api/info, then
// stopped by SIGINT as Ctrl-C would (exit 0 wanted).
func TestReadmeCommands(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("trains several networks; not in -short")
	}
	cmds := readmeCommands(t)
	if len(cmds) == 0 {
		t.Fatal("no td2048 commands in the README's code blocks")
	}
	dir := t.TempDir()
	for len(cmds) > 0 {
		section := cmds[0].section
		n := 1
		for n < len(cmds) && cmds[n].section == section {
			n++
		}
		block := cmds[:n]
		cmds = cmds[n:]
		t.Run(section, func(t *testing.T) {
			for _, c := range block {
				runReadmeCommand(t, dir, c)
			}
		})
	}
}

// runReadmeCommand runs one README command (shortened) in dir and fails
// the test unless it exits 0.
func runReadmeCommand(t *testing.T, dir string, c readmeCommand) {
	t.Helper()
	args := shorten(c.args)
	where := "README.md:" + strconv.Itoa(c.line) + ": td2048 " + strings.Join(args, " ")
	switch args[0] {
	case "play":
		var out fakeScreen
		var errb bytes.Buffer
		done := make(chan int, 1)
		go func() {
			done <- run(inFolder(dir, args), &env{stdout: &out, stderr: &errb, stdin: &keyReader{keys: []string{"s", "q"}}})
		}()
		select {
		case code := <-done:
			if code != 0 {
				t.Fatalf("%s: exit %d: %s", where, code, errb.String())
			}
		case <-time.After(60 * time.Second):
			t.Fatalf("%s: did not quit on q", where)
		}
	case "serve":
		cmd, out, errb := startMainIn(t, dir, "serving ", append([]string{"serve"}, append(args[1:], "--addr", "127.0.0.1:0")...)...)
		base, _, _ := strings.Cut(strings.TrimPrefix(out.String()[strings.Index(out.String(), "serving "):], "serving "), " ")
		resp, err := http.Get(base + "api/info")
		if err != nil {
			cmd.Process.Kill()
			t.Fatalf("%s: %v", where, err)
		}
		resp.Body.Close()
		cmd.Process.Signal(os.Interrupt)
		if code := waitExit(t, cmd, 20*time.Second); resp.StatusCode != 200 || code != 0 {
			t.Fatalf("%s: /api/info %d, exit %d: %s", where, resp.StatusCode, code, errb)
		}
	default:
		cmd := exec.Command(os.Args[0], args...)
		cmd.Dir, cmd.Env = dir, append(os.Environ(), "TD2048_BE_MAIN=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v: %s", where, err, out)
		}
	}
}

// inFolder is play's args with its weights named from dir: --load's file
// there, or, without --load, the game's own file there.
func inFolder(dir string, args []string) []string {
	out := slices.Clone(args)
	if i := slices.Index(out, "--load"); i >= 0 && i+1 < len(out) {
		out[i+1] = filepath.Join(dir, out[i+1])
		return out
	}
	game := ""
	if i := slices.Index(out, "--game"); i >= 0 && i+1 < len(out) {
		game = out[i+1]
	}
	return append(out, "--load", filepath.Join(dir, games.MustLookup(game).File))
}

// TestReadmeFrontDoor: README.md stays a front door of at most 200 lines,
// and the course lab's first command is on its first screen.
func TestReadmeFrontDoor(t *testing.T) {
	data, err := os.ReadFile(readmePath)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	if len(lines) > 200 {
		t.Errorf("README.md has %d lines; at most 200", len(lines))
	}
	first := -1
	for i, l := range lines {
		if strings.HasPrefix(l, "td2048 train") {
			first = i + 1
			break
		}
	}
	if first < 0 || first > 50 {
		t.Errorf("the first td2048 train command is on line %d of README.md; the lab's commands belong on the first screen (50 lines)", first)
	}
}
