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
