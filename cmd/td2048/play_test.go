package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// keyReader gives one key per read, a little apart, as a person types;
// then end of input. It stands for a terminal.
type keyReader struct{ keys []string }

// fakeScreen is a fake terminal's screen: what play writes, kept, and
// safe to read while play writes.
type fakeScreen struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (f *fakeScreen) Write(p []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.buf.Write(p)
}

func (f *fakeScreen) String() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.buf.String()
}

// waitFor waits until the screen shows want, for up to a minute.
func (f *fakeScreen) waitFor(want string) bool {
	for end := time.Now().Add(time.Minute); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		if strings.Contains(f.String(), want) {
			return true
		}
	}
	return false
}

func (*keyReader) Terminal() bool  { return true }
func (*fakeScreen) Terminal() bool { return true }

func (k *keyReader) Read(p []byte) (int, error) {
	if len(k.keys) == 0 {
		return 0, io.EOF
	}
	time.Sleep(30 * time.Millisecond)
	n := copy(p, k.keys[0])
	k.keys = k.keys[1:]
	return n, nil
}

// TestPlayCommand runs play in-process on a fake terminal: an arrow, a
// step of the agent, a faster agent, then q.
func TestPlayCommand(t *testing.T) {
	w := trainedWeights(t)
	var out fakeScreen
	var errb bytes.Buffer
	in := &keyReader{keys: []string{"\x1b[D", "\x1b[B", "s", "s", "+", "3", "q"}}
	done := make(chan int, 1)
	go func() {
		done <- run([]string{"play", "--load", w, "--seed", "1"}, &env{stdout: &out, stderr: &errb, stdin: in})
	}()
	select {
	case code := <-done:
		if code != 0 {
			t.Fatalf("play: exit %d: %s", code, errb.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatal("play did not quit on q")
	}
	screen := out.String()
	for _, want := range []string{"td2048", "network 8x4", "move values, depth 2", "★ best", "moves 4", "depth 3", "60ms per move", "game seed 1", "seed = 1\n"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the screen never showed %q", want)
		}
	}
	if errb.Len() != 0 {
		t.Errorf("stderr: %s", errb.String())
	}
}

// playLine runs play on a fake terminal that gives no keys and expects
// it to fail at once with exit status code and one line with want.
func playLine(t *testing.T, args []string, code int, want string) {
	t.Helper()
	var out fakeScreen
	var errb bytes.Buffer
	got := run(append([]string{"play"}, args...), &env{stdout: &out, stderr: &errb, stdin: &keyReader{}})
	if got != code || !strings.Contains(errb.String(), want) || strings.Count(errb.String(), "\n") != 1 {
		t.Errorf("%v: exit %d, stderr %q; want exit %d and one line with %q", args, got, errb.String(), code, want)
	}
}

func TestPlayBadInvocations(t *testing.T) {
	w := trainedWeights(t)
	playLine(t, []string{"--load", filepath.Join(t.TempDir(), "none.td2048")}, 1, "not found: train one")
	playLine(t, []string{"--load", w + ".none"}, 1, "not found")
	oneLine(t, []string{"play", "--load", w, "--depth", "5"}, 2, "--depth must be 1 to 4")
	oneLine(t, []string{"play", "--load", w, "--depth", "0"}, 2, "--depth must be 1 to 4")
	oneLine(t, []string{"play", "--load", w, "--move-time", "-1s"}, 2, "--move-time")
	oneLine(t, []string{"play", "--load", w, "x"}, 2, "no arguments")
	if code, _, _ := runCmd(t, "play", "--load", w, "--seed", "x"); code != 2 {
		t.Errorf("bad seed: exit %d", code)
	}
}

// TestPlayNeedsTerminal: without a terminal on stdin and stdout (a pipe,
// a file, a script's reader), play says so in one line and exits 1 at
// once, before it loads any weights, instead of starting a screen that
// cannot read keys.
func TestPlayNeedsTerminal(t *testing.T) {
	w := trainedWeights(t)
	const want = "td2048 play: needs a terminal (stdin and stdout); use td2048 eval for games without one\n"
	done := make(chan struct{})
	go func() {
		defer close(done)
		code, out, errs := runCmd(t, "play", "--load", w)
		if code != 1 || errs != want || out != "" {
			t.Errorf("no terminal: exit %d, stderr %q, stdout %q; want exit 1 and %q", code, errs, out, want)
		}
		// The weights are not loaded first: a missing file is not what
		// it reports.
		if code, _, errs := runCmd(t, "play", "--load", w+".none"); code != 1 || errs != want {
			t.Errorf("no terminal, no weights: exit %d, stderr %q", code, errs)
		}
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("play without a terminal is still running after 10 s")
	}

	// Real files that are not terminals: a pipe in, a file out, and the
	// other way round.
	r, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer pw.Close()
	f, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, e := range []*env{{stdin: r, stdout: f}, {stdin: &keyReader{}, stdout: f}, {stdin: r, stdout: &fakeScreen{}}} {
		var errb bytes.Buffer
		e.stderr = &errb
		if code := run([]string{"play", "--load", w}, e); code != 1 || errb.String() != want {
			t.Errorf("stdin %T, stdout %T: exit %d, stderr %q", e.stdin, e.stdout, code, errb.String())
		}
	}
}

// TestPlayKeyBurst: keys that arrive together (typed fast, or pasted)
// reach play as one message; every key counts and q quits, also while
// the agent searches at depth 4, and also as "qq" when nothing runs.
func TestPlayKeyBurst(t *testing.T) {
	w := trainedWeights(t)
	ms := 30 * time.Millisecond
	screen := runPlay(t, []string{"4", " ", "++++q"}, []time.Duration{ms, ms, 200 * time.Millisecond}, "--load", w, "--seed", "5")
	if !strings.Contains(screen, "full speed") || !strings.Contains(screen, "seed = 5\n") {
		t.Errorf("++++q: no full speed, or no statistics:\n%.400s", screen[max(0, len(screen)-400):])
	}
	runPlay(t, []string{"qq"}, []time.Duration{ms}, "--load", w, "--seed", "5")
}

// timedKeys gives its keys one per read, each after its own pause; then
// end of input. It stands for a terminal. Where until names a text for a
// key, the key waits for the screen to show it rather than for its wait:
// what the agent reaches depends on the machine's load, what it shows
// does not.
type timedKeys struct {
	keys   []string
	waits  []time.Duration
	until  map[int]string
	screen *fakeScreen
	sent   int
}

func (*timedKeys) Terminal() bool { return true }

func (k *timedKeys) Read(p []byte) (int, error) {
	if len(k.keys) == 0 {
		return 0, io.EOF
	}
	if want, ok := k.until[k.sent]; ok {
		k.screen.waitFor(want)
	} else {
		time.Sleep(k.waits[0])
	}
	n := copy(p, k.keys[0])
	k.keys, k.waits, k.sent = k.keys[1:], k.waits[1:], k.sent+1
	return n, nil
}

func runPlay(t *testing.T, keys []string, waits []time.Duration, args ...string) string {
	t.Helper()
	return runPlayUntil(t, keys, waits, nil, args...)
}

// runPlayUntil is runPlay where the keys numbered in until wait for the
// screen to show their text.
func runPlayUntil(t *testing.T, keys []string, waits []time.Duration, until map[int]string, args ...string) string {
	t.Helper()
	var out fakeScreen
	var errb bytes.Buffer
	done := make(chan int, 1)
	go func() {
		done <- run(append([]string{"play"}, args...), &env{stdout: &out, stderr: &errb, stdin: &timedKeys{keys: keys, waits: waits, until: until, screen: &out}})
	}()
	select {
	case code := <-done:
		if code != 0 {
			t.Fatalf("play: exit %d: %s", code, errb.String())
		}
	case <-time.After(2 * time.Minute):
		t.Fatalf("play did not quit on q: %q", keys)
	}
	if errb.Len() != 0 {
		t.Errorf("stderr: %s", errb.String())
	}
	return out.String()
}

// TestPlayThrees: play with Threes! weights plays Threes!: the next tile
// shown, the arrows and the agent's steps, hints at the chosen depth;
// then the agent plays whole games at full speed and quitting prints
// their statistics with the 3072 rate.
func TestPlayThrees(t *testing.T) {
	w := trainedThreesWeights(t)
	ms := 30 * time.Millisecond
	screen := runPlay(t, []string{"\x1b[D", "\x1b[B", "\x1b[C", "s", "s", "+", "3", "q"},
		[]time.Duration{ms, ms, ms, ms, ms, ms, ms, 300 * time.Millisecond}, "--load", w, "--seed", "5")
	for _, want := range []string{"td2048 · Threes!", "network 0123,4567,89ab,cdef+hint", "next tile", "move values, depth 2", "★ best",
		"1536", "3072", "6144", "depth 3", "60ms per move", "game seed 5", "seed = 5\n"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the screen never showed %q", want)
		}
	}
	if !strings.Contains(screen, "moves 2") || !strings.Contains(screen, "moves 1") {
		t.Errorf("the moves never counted up")
	}

	// The agent alone, greedy, at full speed: games end (the agent is
	// paused once the screen shows one over), and q prints them.
	screen = runPlayUntil(t, []string{"1", "+", "+", "+", " ", " ", "q"},
		[]time.Duration{ms, ms, ms, ms, ms, 0, 100 * time.Millisecond}, map[int]string{5: "GAME OVER: score "}, "--load", w, "--seed", "6")
	if !strings.Contains(screen, "GAME OVER: score ") {
		t.Errorf("no game over screen")
	}
	i := strings.LastIndex(screen, "seed = 6\n")
	if i < 0 {
		t.Fatalf("no statistics after quitting:\n%.300s", screen[max(0, len(screen)-300):])
	}
	summary := screen[i:]
	if !strings.HasPrefix(summary, "seed = 6\nagent: ") || !strings.Contains(summary, " games, avg ") || !strings.Contains(summary, ", 3072 rate ") ||
		strings.Contains(summary, "you:") {
		t.Errorf("statistics: %q", summary)
	}
}
