package main

import (
	"bytes"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// keyReader gives one key per read, a little apart, as a person types;
// then end of input.
type keyReader struct{ keys []string }

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
	var out, errb bytes.Buffer
	in := &keyReader{keys: []string{"\x1b[D", "\x1b[B", "s", "s", "+", "3", "q"}}
	done := make(chan int, 1)
	go func() {
		done <- run([]string{"play", "--load", w, "--seed", "5"}, &env{stdout: &out, stderr: &errb, stdin: in})
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
	for _, want := range []string{"td2048", "network 8x4", "move values, depth 2", "★ best", "moves 4", "depth 3", "60ms per move", "seed = 5\n"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the screen never showed %q", want)
		}
	}
	if errb.Len() != 0 {
		t.Errorf("stderr: %s", errb.String())
	}
}

func TestPlayBadInvocations(t *testing.T) {
	w := trainedWeights(t)
	oneLine(t, []string{"play", "--load", filepath.Join(t.TempDir(), "none.td2048")}, 1, "not found: train one")
	oneLine(t, []string{"play", "--load", w, "--depth", "5"}, 2, "--depth must be 1 to 4")
	oneLine(t, []string{"play", "--load", w, "--depth", "0"}, 2, "--depth must be 1 to 4")
	oneLine(t, []string{"play", "--load", w, "--move-time", "-1s"}, 2, "--move-time")
	oneLine(t, []string{"play", "--load", w, "x"}, 2, "no arguments")
	oneLine(t, []string{"play", "--load", w + ".none"}, 1, "not found")
	if code, _, _ := runCmd(t, "play", "--load", w, "--seed", "x"); code != 2 {
		t.Errorf("bad seed: exit %d", code)
	}
}

// timedKeys gives its keys one per read, each after its own pause; then
// end of input.
type timedKeys struct {
	keys  []string
	waits []time.Duration
}

func (k *timedKeys) Read(p []byte) (int, error) {
	if len(k.keys) == 0 {
		return 0, io.EOF
	}
	time.Sleep(k.waits[0])
	n := copy(p, k.keys[0])
	k.keys, k.waits = k.keys[1:], k.waits[1:]
	return n, nil
}

func runPlay(t *testing.T, keys []string, waits []time.Duration, args ...string) string {
	t.Helper()
	var out, errb bytes.Buffer
	done := make(chan int, 1)
	go func() {
		done <- run(append([]string{"play"}, args...), &env{stdout: &out, stderr: &errb, stdin: &timedKeys{keys, waits}})
	}()
	select {
	case code := <-done:
		if code != 0 {
			t.Fatalf("play: exit %d: %s", code, errb.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatal("play did not quit on q")
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
		"1536", "3072", "6144", "depth 3", "60ms per move", "seed = 5\n"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the screen never showed %q", want)
		}
	}
	if !strings.Contains(screen, "moves 2") || !strings.Contains(screen, "moves 1") {
		t.Errorf("the moves never counted up")
	}

	// The agent alone, greedy, at full speed: games end, and q prints them.
	screen = runPlay(t, []string{"1", "+", "+", "+", " ", " ", "q"},
		[]time.Duration{ms, ms, ms, ms, ms, 2 * time.Second, 100 * time.Millisecond}, "--load", w, "--seed", "6")
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
