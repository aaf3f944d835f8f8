package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	flag "github.com/spf13/pflag"

	"github.com/td2048/td2048/internal/train"
)

// rows is the number of rows text takes on a terminal of width columns,
// long lines wrapping.
func rows(text string, width int) int {
	n := 0
	for _, l := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		n += max(1, (len([]rune(l))+width-1)/width)
	}
	return n
}

// flagDescriptions returns, for each flag line of a help text ("  --x"
// or "  -x, --x"), the number of lines its description takes: its own
// and the continuation lines under it.
func flagDescriptions(help string) map[string]int {
	out := map[string]int{}
	last := ""
	flagLine := regexp.MustCompile(`^  (-\w, )?\s*--([\w-]+)`)
	for _, l := range strings.Split(help, "\n") {
		switch m := flagLine.FindStringSubmatch(l); {
		case m != nil:
			last = m[2]
			out[last] = 1
		case last != "" && strings.HasPrefix(l, "      ") && strings.TrimSpace(l) != "":
			out[last]++
		default:
			last = ""
		}
	}
	return out
}

// TestTrainHelpFits: train --help fits a screen of 80 columns: at most 45
// rows, every flag listed once with at most two lines of description,
// the basic flags first, and no line wider than the screen.
func TestTrainHelpFits(t *testing.T) {
	code, out, errs := runCmd(t, "train", "--help")
	if code != 0 || errs != "" {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if n := rows(out, 80); n > 45 {
		t.Errorf("train --help takes %d rows at 80 columns; at most 45:\n%s", n, out)
	}
	for i, l := range strings.Split(out, "\n") {
		if len([]rune(l)) > 80 {
			t.Errorf("line %d is %d columns wide: %q", i+1, len([]rune(l)), l)
		}
	}
	desc := flagDescriptions(out)
	for _, f := range trainFlags() {
		if desc[f] == 0 {
			t.Errorf("--%s is not listed", f)
		}
		if desc[f] > 2 {
			t.Errorf("--%s takes %d lines; at most 2", f, desc[f])
		}
	}
	basic, research, run := strings.Index(out, "Basic flags:"), strings.Index(out, "Research flags"), strings.Index(out, "Run control flags")
	if basic < 0 || research < basic || run < research {
		t.Errorf("groups out of order (basic %d, research %d, run %d):\n%s", basic, research, run, out)
	}
	for _, f := range []string{"episodes", "alpha", "network", "save", "seed", "threads", "plot"} {
		if i := strings.Index(out, "  --"+f+" "); i < basic || i > research {
			t.Errorf("--%s is not among the basic flags", f)
		}
	}
	if strings.Contains(out, "Szubert") {
		t.Error("the recipe catalogue is in train --help; it belongs to --recipe list and td2048 help recipes")
	}
	// eval's flags are grouped the same way.
	if _, out, _ := runCmd(t, "eval", "--help"); !strings.Contains(out, "Search flags (td2048 help search):") {
		t.Errorf("eval --help:\n%s", out)
	}
}

// trainFlags names train's flags, which its help must list.
func trainFlags() []string {
	var n []string
	c, _, _ := root(&env{stdout: &bytes.Buffer{}, stderr: &bytes.Buffer{}, stdin: strings.NewReader("")}).Find([]string{"train"})
	c.InitDefaultHelpFlag()
	c.LocalFlags().VisitAll(func(f *flag.Flag) {
		if !f.Hidden {
			n = append(n, f.Name)
		}
	})
	return n
}

// TestRootHelpFits: td2048's own help, its list of commands and topics,
// fits 80 columns, long descriptions wrapped under their column.
func TestRootHelpFits(t *testing.T) {
	for _, args := range [][]string{{"help"}, {"--help"}} {
		code, out, errs := runCmd(t, args...)
		if code != 0 || errs != "" {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
		for i, l := range strings.Split(out, "\n") {
			if len([]rune(l)) > 80 {
				t.Errorf("%v: line %d is %d columns wide: %q", args, i+1, len([]rune(l)), l)
			}
		}
		if !strings.Contains(out, "\n  plot        draw learning curves") || !strings.Contains(out, "\n              PNG, SVG or PDF\n") {
			t.Errorf("%v: plot's description not wrapped under its column:\n%s", args, out)
		}
	}
}

func TestWrapWords(t *testing.T) {
	for _, c := range []struct {
		in    string
		width int
		want  []string
	}{
		{"a bb ccc", 4, []string{"a bb", "ccc"}},
		{"a bb ccc", 8, []string{"a bb ccc"}},
		{"averylongword b", 4, []string{"averylongword", "b"}},
		{"", 10, []string{""}},
	} {
		t.Run(fmt.Sprintf("%q width %d", c.in, c.width), func(t *testing.T) {
			if got := wrapWords(c.in, c.width); !slices.Equal(got, c.want) {
				t.Errorf("wrapWords(%q, %d) = %q, want %q", c.in, c.width, got, c.want)
			}
		})
	}
}

// TestHelpTopics: td2048 help lists every topic; each topic and alias
// prints its text; and every "td2048 help X" that a command's help or a
// topic names is a topic.
func TestHelpTopics(t *testing.T) {
	code, out, _ := runCmd(t, "help")
	if code != 0 || !strings.Contains(out, "Help topics (td2048 help TOPIC):") {
		t.Fatalf("help: exit %d:\n%s", code, out)
	}
	texts := []string{out}
	for _, tp := range topics {
		if !strings.Contains(out, "\n  "+tp.name+" ") {
			t.Errorf("td2048 help does not list %s", tp.name)
		}
		for _, name := range append([]string{tp.name}, tp.aliases...) {
			code, text, errs := runCmd(t, "help", name)
			if code != 0 || errs != "" || strings.TrimSpace(text) != strings.TrimSpace(tp.long()) {
				t.Errorf("help %s: exit %d, stderr %q:\n%s", name, code, errs, text)
			}
		}
		for i, l := range strings.Split(tp.long(), "\n") {
			if len([]rune(l)) > 80 {
				t.Errorf("topic %s, line %d: %d columns: %q", tp.name, i+1, len([]rune(l)), l)
			}
		}
		texts = append(texts, tp.long())
	}
	for _, n := range names() {
		_, h, _ := runCmd(t, n, "--help")
		texts = append(texts, h)
	}
	ref := regexp.MustCompile(`td2048 help ([a-z]+(?:, [a-z]+)*)`)
	known := map[string]bool{}
	for _, tp := range topics {
		known[tp.name] = true
	}
	for _, n := range names() {
		known[n] = true
	}
	for _, text := range texts {
		for _, m := range ref.FindAllStringSubmatch(strings.Join(strings.Fields(text), " "), -1) {
			for _, name := range strings.Split(m[1], ", ") {
				if !known[name] {
					t.Errorf("%q names no topic %q", m[0], name)
				}
			}
		}
	}
	// The recipe catalogue: --recipe list and the topic print it alike.
	_, list, _ := runCmd(t, "train", "--recipe", "list")
	_, topic, _ := runCmd(t, "help", "recipes")
	if !strings.Contains(topic, list) || !strings.Contains(list, "guei2022: ") || !strings.Contains(list, "flags: --network 8x6@0,16384") {
		t.Errorf("--recipe list:\n%s\nhelp recipes:\n%s", list, topic)
	}
}

// TestCommandReference: the committed command reference (Markdown and man
// pages) is the one the command tree generates; regenerate it with
// go generate ./cmd/td2048.
func TestCommandReference(t *testing.T) {
	dir := t.TempDir()
	if err := genDocs(root(&env{stdout: &bytes.Buffer{}, stderr: &bytes.Buffer{}, stdin: strings.NewReader("")}), dir); err != nil {
		t.Fatal(err)
	}
	const fix = "the command reference is stale: regenerate it with go generate ./cmd/td2048"
	for _, sub := range []string{markdownDir, manDir} {
		want, _ := filepath.Glob(filepath.Join(dir, sub, "*"))
		have, _ := filepath.Glob(filepath.Join(repoRoot, sub, "*"))
		if len(want) < 10 {
			t.Fatalf("%s: %d pages generated", sub, len(want))
		}
		names := map[string]bool{}
		for _, w := range want {
			name := filepath.Base(w)
			names[name] = true
			gen, _ := os.ReadFile(w)
			got, err := os.ReadFile(filepath.Join(repoRoot, sub, name))
			if err != nil || !bytes.Equal(gen, got) {
				t.Errorf("%s: %s (%v)", filepath.Join(sub, name), fix, err)
			}
		}
		for _, h := range have {
			if !names[filepath.Base(h)] {
				t.Errorf("%s: no command has this page; %s", filepath.Join(sub, filepath.Base(h)), fix)
			}
		}
	}
	// The pages carry no date: generated twice, they are the same.
	again := t.TempDir()
	if err := genDocs(root(&env{stdout: &bytes.Buffer{}, stderr: &bytes.Buffer{}, stdin: strings.NewReader("")}), again); err != nil {
		t.Fatal(err)
	}
	page, _ := os.ReadFile(filepath.Join(again, manDir, "td2048-train.1"))
	if !bytes.Contains(page, []byte(`.TH "TD2048-TRAIN" "1" "" "td2048"`)) || bytes.Contains(page, []byte("Auto generated")) {
		t.Errorf("td2048-train.1 carries a date or a stamp:\n%.300s", page)
	}
}

// TestFlagCompletion: the shell completion of flag values, through cobra's
// __complete, offers the recipes, networks, games, update modes, learners
// and shapings, the shells of completion and the help topics.
func TestFlagCompletion(t *testing.T) {
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"train", "--recipe", ""}, []string{"list", "td", "otd-tc", "guei2022", "jaskowski2018"}},
		{[]string{"train", "--recipe", "o"}, []string{"online", "otd", "otd-tc"}},
		{[]string{"train", "--network", "8"}, []string{"8x6", "8x4"}},
		{[]string{"train", "--game", ""}, []string{"2048", "threes"}},
		{[]string{"eval", "--game", "th"}, []string{"threes"}},
		{[]string{"play", "--game", ""}, []string{"2048", "threes"}},
		{[]string{"train", "--update", ""}, []string{"backward", "online", "fast", "forward", "delayed"}},
		{[]string{"train", "--learner", ""}, []string{"after", "state"}},
		{[]string{"train", "--shaping", ""}, []string{"restart", "carousel"}},
		{[]string{"completion", ""}, []string{"bash", "zsh", "fish"}},
		{[]string{"help", ""}, []string{"train", "networks", "updates", "recipes"}},
	} {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			code, out, errs := runCmd(t, append([]string{"__complete"}, c.args...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			var got []string
			for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
				if !strings.HasPrefix(l, ":") {
					v, _, _ := strings.Cut(l, "\t")
					got = append(got, v)
				}
			}
			for _, w := range c.want {
				if !slices.Contains(got, w) {
					t.Errorf("offers %q, not %q", got, w)
				}
			}
			prefix := c.args[len(c.args)-1]
			for _, g := range got {
				if !strings.HasPrefix(g, prefix) {
					t.Errorf("offers %q for %q", g, prefix)
				}
			}
		})
	}
}

// TestCacheSizeMessage: a table larger than half the memory is refused
// with the half it may take, and the whole it is half of.
func TestCacheSizeMessage(t *testing.T) {
	total := train.PhysicalMemory()
	if total <= 0 {
		t.Skip("this system does not tell its memory")
	}
	var b byteSize
	size := fmt.Sprintf("%dM", total/2>>20+1)
	want := fmt.Sprintf("size %s: at most %s, half of this machine's memory of %s", size, mib(total/2), mib(total))
	if err := b.Set(size); err == nil || err.Error() != want {
		t.Errorf("--cache %s: %v, want %q", size, err, want)
	}
}

// TestOptionsCacheDefault: options.md's default of --cache is the one the
// flags have: eval's by depth (autoCache), the others' the flag's default.
func TestOptionsCacheDefault(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(repoRoot, "docs", "reference", "options.md"))
	if err != nil {
		t.Fatal(err)
	}
	var others []string
	for _, name := range []string{"hint", "play", "serve"} {
		c, _, _ := root(&env{stdout: &bytes.Buffer{}, stderr: &bytes.Buffer{}, stdin: strings.NewReader("")}).Find([]string{name})
		others = append(others, c.Flags().Lookup("cache").DefValue)
	}
	if others[1] != others[0] || others[2] != others[0] {
		t.Fatalf("hint, play and serve default to tables of %v; options.md gives them one", others)
	}
	if autoCache(1, 0) != 0 || autoCache(2, 0) != 0 || autoCache(2, time.Millisecond) != autoCache(3, 0) {
		t.Fatal("eval's default table is no longer none at 1-2 plies and the same deeper or with --move-time: options.md says so")
	}
	deep := autoCache(3, 0)
	want := fmt.Sprintf("| `--cache` | `eval`: none at 1-2 plies, `%s` deeper or with `--move-time`; `hint`, `play`, `serve`: `%s` |", deep.String(), others[0])
	if !strings.Contains(string(data), want) {
		t.Errorf("options.md's --cache row does not begin %q", want)
	}
}
