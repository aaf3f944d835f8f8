package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/td2048/td2048/netfile"
	"github.com/td2048/td2048/ntuple"
)

var update = flag.Bool("update", false, "rewrite golden files")

// runCmd runs td2048 in-process and returns its exit status and output.
func runCmd(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, &env{stdout: &out, stderr: &errb, stdin: strings.NewReader("")})
	return code, out.String(), errb.String()
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		os.WriteFile(path, []byte(got), 0o644)
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs:\ngot:\n%s\nwant:\n%s", name, got, want)
	}
}

// testWeights writes a small network with known weights: every weight of
// pattern p at index i is (i%7 - 3) / 4 + p.
func testWeights(t *testing.T) string {
	t.Helper()
	net := ntuple.MustNew("0123,4567")
	for p := range 2 {
		tab := net.StageTable(0, p)
		for i := range tab {
			tab[i] = float32(i%7-3)/4 + float32(p)
		}
	}
	path := filepath.Join(t.TempDir(), "w.td2048")
	if err := netfile.Save(path, net, netfile.Header{Episodes: 5}); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestHintJSONGolden(t *testing.T) {
	w := testWeights(t)
	code, out, errs := runCmd(t, "hint", "2,2,0,4,0,8,0,0,0,0,0,0,0,0,0,2", "--load", w, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	golden(t, "hint.json", out)
	code, out, _ = runCmd(t, "hint", "--json", "0x1")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	golden(t, "hint-noload.json", out)
	code, out, _ = runCmd(t, "hint", "2,2,0,4,0,8,0,0,0,0,0,0,0,0,0,2", "--load", w)
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	golden(t, "hint.txt", out)
}

func TestHintBadBoards(t *testing.T) {
	for _, bad := range []string{"2,2", "0xzz", "3,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0", "4294967296,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0", "0x12345678123456789"} {
		t.Run(bad, func(t *testing.T) {
			code, out, errs := runCmd(t, "hint", bad)
			if code != 2 {
				t.Errorf("hint %s: exit %d, want 2", bad, code)
			}
			if out != "" || strings.Count(errs, "\n") != 1 {
				t.Errorf("hint %s: want one error line, got stdout %q stderr %q", bad, out, errs)
			}
		})
	}
	if code, _, _ := runCmd(t, "hint"); code != 2 {
		t.Errorf("hint without a board: exit %d", code)
	}
	// An empty board is no position, not a game over.
	for _, args := range [][]string{{"hint", "0x0"}, {"hint", "--game", "threes", "--next", "1", "0x0"}} {
		if code, out, errs := runCmd(t, args...); code != 2 || out != "" || !strings.Contains(errs, "an empty board is not a position of") {
			t.Errorf("%v: exit %d: %s%s", args, code, out, errs)
		}
	}
}

func TestUnknownAndBadFlags(t *testing.T) {
	if code, _, _ := runCmd(t, "nosuch"); code != 2 {
		t.Errorf("unknown command: exit %d", code)
	}
	if code, _, _ := runCmd(t, "train", "--nosuch"); code != 2 {
		t.Errorf("bad flag: exit %d", code)
	}
	if code, _, errs := runCmd(t, "train", "--network", "4x9"); code != 2 || !strings.Contains(errs, "4x9") {
		t.Errorf("bad network: exit %d %q", code, errs)
	}
	if code, out, _ := runCmd(t, "help"); code != 0 || !strings.Contains(out, "train") {
		t.Errorf("help: exit %d", code)
	}
	// A help topic or a shell that does not exist: one line naming those
	// that do, exit 2; those that do still answer.
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"help", "nosuch"}, `td2048 help: unknown help topic "nosuch": want a command (bench, completion, `},
		{[]string{"help", "train", "nosuch"}, `unknown help topic "train nosuch"`},
		{[]string{"completion", "tcsh"}, `td2048 completion: unsupported shell "tcsh": want bash, fish, powershell, zsh`},
	} {
		if code, out, errs := runCmd(t, c.args...); code != 2 || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, c.want) ||
			!strings.Contains(errs, "networks") && c.args[0] == "help" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", c.args, code, out, errs)
		}
	}
	for _, args := range [][]string{{"help", "networks"}, {"help", "completion", "bash"}, {"completion", "fish"}, {"completion"}} {
		if code, out, errs := runCmd(t, args...); code != 0 || out == "" {
			t.Errorf("%v: exit %d: %s", args, code, errs)
		}
	}
}

// TestTrainEvalEndToEnd trains a small network, saves, evaluates.
func TestTrainEvalEndToEnd(t *testing.T) {
	dir := t.TempDir()
	w := filepath.Join(dir, "w.td2048")
	code, out, errs := runCmd(t, "train", "--network", "8x4", "--episodes", "400", "--every", "200", "--seed", "5", "--save", w)
	if code != 0 {
		t.Fatalf("train: exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "seed = 5\n") || strings.Count(out, "\tavg = ") != 2 || !strings.Contains(out, "\n200\tavg = ") {
		t.Fatalf("train output:\n%s", out)
	}
	code, out, errs = runCmd(t, "eval", "--load", w, "--games", "50", "--seed", "1")
	if code != 0 {
		t.Fatalf("eval: exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "\n50\tavg = ") || !strings.Contains(out, "2048 rate = ") {
		t.Fatalf("eval output:\n%s", out)
	}
	// Continue training from the file; a different network is refused.
	code, _, errs = runCmd(t, "train", "--load", w, "--episodes", "10", "--save", w)
	if code != 0 {
		t.Fatalf("train --load: exit %d: %s", code, errs)
	}
	h, _ := netfile.ReadHeader(w)
	if h.Episodes != 410 || h.Network != "8x4" {
		t.Fatalf("header after resume: %+v", h)
	}
	code, _, errs = runCmd(t, "train", "--load", w, "--network", "2x4", "--episodes", "1", "--save", filepath.Join(dir, "x.td2048"))
	if code == 0 || !strings.Contains(errs, "made for network 8x4, not 2x4") {
		t.Fatalf("wrong network accepted: %d %s", code, errs)
	}
	code, _, errs = runCmd(t, "train", "--network", "2x4", "--episodes", "1", "--save", w)
	if code == 0 || !strings.Contains(errs, "holds trained 2048 weights (8x4 network, 410 episodes)") {
		t.Fatalf("overwrite of another network accepted: %d %s", code, errs)
	}
	// A damaged file is refused with a one-line message.
	data, _ := os.ReadFile(w)
	data[len(data)/2] ^= 0x40
	os.WriteFile(w, data, 0o644)
	code, _, errs = runCmd(t, "eval", "--load", w, "--games", "1")
	if code != 1 || !strings.Contains(errs, "checksum") || strings.Count(errs, "\n") != 1 {
		t.Fatalf("damaged file: exit %d %q", code, errs)
	}
}

// TestHintLoadsDefaultWeights: like eval, play and serve, hint values the
// moves with weights.td2048 when it is there; --load none shows rewards only.
func TestHintLoadsDefaultWeights(t *testing.T) {
	w := testWeights(t)
	t.Chdir(filepath.Dir(w))
	board := "2,2,0,4,0,8,0,0,0,0,0,0,0,0,0,2"
	if _, out, _ := runCmd(t, "hint", board); strings.Contains(out, "value") {
		t.Fatalf("values without weights:\n%s", out)
	}
	os.Rename(w, "weights.td2048")
	if _, out, _ := runCmd(t, "hint", board); !strings.Contains(out, "reward+value") {
		t.Fatalf("weights.td2048 not used:\n%s", out)
	}
	if _, out, _ := runCmd(t, "hint", board, "--load", "none"); strings.Contains(out, "value") {
		t.Fatalf("--load none valued the moves:\n%s", out)
	}
	if code, _, errs := runCmd(t, "hint", board, "--load", "missing.td2048"); code == 0 || !strings.Contains(errs, "missing.td2048 not found") {
		t.Fatalf("a named missing file: %d %s", code, errs)
	}
}

// TestCommandLineConventions: version, completion, help on stdout with
// examples, suggestions for mistyped commands and flags.
func TestCommandLineConventions(t *testing.T) {
	for _, args := range [][]string{{"version"}, {"--version"}, {"-v"}, {"-V"}} {
		if code, out, _ := runCmd(t, args...); code != 0 || !strings.HasPrefix(out, "td2048 ") || !strings.Contains(out, "go1.") {
			t.Errorf("%v: %d %q", args, code, out)
		}
	}
	for _, sh := range []string{"bash", "zsh", "fish"} {
		if code, out, _ := runCmd(t, "completion", sh); code != 0 || !strings.Contains(out, "td2048") || len(out) < 1000 {
			t.Errorf("completion %s: exit %d, %d bytes", sh, code, len(out))
		}
	}
	for _, n := range names() {
		code, out, errs := runCmd(t, n, "--help")
		// train's help fits a screen; its examples are in its topics.
		examples := strings.Contains(out, "Examples:") || n == "train" && strings.Contains(out, "td2048 help")
		if code != 0 || errs != "" || !examples || !strings.Contains(out, "td2048 "+n) || !strings.Contains(out, "--") {
			t.Errorf("%s --help: exit %d, stderr %q, stdout:\n%s", n, code, errs, out)
		}
	}
	if code, _, errs := runCmd(t, "trian"); code != 2 || !strings.Contains(errs, "did you mean: train") || strings.Count(errs, "\n") != 1 {
		t.Errorf("mistyped command: %d %q", code, errs)
	}
	if code, _, errs := runCmd(t, "eval", "--gmaes", "5"); code != 2 || !strings.Contains(errs, "did you mean --games?") || !strings.Contains(errs, "(see 'td2048 eval --help')") {
		t.Errorf("mistyped flag: %d %q", code, errs)
	}
	if code, _, errs := runCmd(t, "-Q"); code != 2 || errs != "td2048: unknown shorthand flag: 'Q' in -Q (see 'td2048 --help')\n" {
		t.Errorf("unknown flag of td2048 itself: %d %q", code, errs)
	}
}
