//go:build unix

package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
)

// ptyRun runs td2048 with args in a process of its own on a pseudo-terminal
// of cols columns (its stdin, stdout and stderr), as a person at a terminal
// of that width would. It calls at with each live redraw as the terminal
// receives it until at returns true, then interrupts the command as
// Ctrl-C does, and returns all the terminal received.
func ptyRun(t *testing.T, dir string, cols int, at func(redraws []string, tty *os.File) bool, args ...string) []byte {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Dir = dir
	// TERM=screen: the terminal library's start-up query of the background
	// colour is not made under screen, and no pseudo-terminal here answers
	// it (it would wait five seconds).
	cmd.Env = append(os.Environ(), "TD2048_BE_MAIN=1", "TERM=screen")
	tty, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 24, Cols: uint16(cols)})
	if err != nil {
		t.Fatal(err)
	}
	defer tty.Close()
	var (
		mu   sync.Mutex
		out  []byte
		done = make(chan struct{})
	)
	go func() {
		defer close(done)
		buf := make([]byte, 4096)
		for {
			n, err := tty.Read(buf)
			mu.Lock()
			out = append(out, buf[:n]...)
			mu.Unlock()
			if err != nil {
				return // EIO once the command has exited
			}
		}
	}()
	deadline := time.After(2 * time.Minute)
	for stop := false; !stop; {
		select {
		case <-done:
			t.Fatalf("td2048 %v ended before the test saw what it waited for; the terminal's last:\n%q", args, out[max(0, len(out)-2000):])
		case <-deadline:
			mu.Lock()
			t.Fatalf("td2048 %v: not seen in two minutes; the terminal's last:\n%q", args, out[max(0, len(out)-2000):])
		case <-time.After(50 * time.Millisecond):
		}
		mu.Lock()
		redraws := liveRedraws(out)
		mu.Unlock()
		stop = at(redraws, tty)
	}
	cmd.Process.Signal(syscall.SIGINT)
	err = cmd.Wait()
	<-done
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatal(err)
	}
	return out
}

// liveRedraws are the live progress lines in what a terminal received:
// the text after each "\r\033[K" up to the next carriage return or line
// feed (the next redraw's "\r\033[K"), complete ones only. The first line
// of a block printed after a clear is among them; it is short.
func liveRedraws(out []byte) []string {
	parts := strings.Split(string(out), "\r\033[K")
	var lines []string
	for k, p := range parts[1:] {
		i := strings.IndexAny(p, "\r\n")
		switch {
		case i >= 0:
			p = p[:i]
		case k == len(parts)-2:
			continue // the last, still being written
		}
		if p != "" {
			lines = append(lines, p)
		}
	}
	return lines
}

// widest follows the cursor of a terminal of cols columns over out and
// returns the widest any line got (tabs to the next stop of 8, escape
// sequences taking no room), and whether a line ever went past the last
// column, which the terminal wraps.
func widest(out []byte, cols int) (int, bool) {
	col, most, wrapped := 0, 0, false
	for i := 0; i < len(out); i++ {
		c := out[i]
		switch {
		case c == '\r' || c == '\n':
			col = 0
		case c == '\t':
			col = (col/8 + 1) * 8
		case c == 0x1b && i+1 < len(out) && out[i+1] == '[':
			i += 2
			for i < len(out) && (out[i] < 0x40 || out[i] > 0x7e) {
				i++
			}
		case c < 0x20 || c&0xc0 == 0x80: // other controls; UTF-8 continuation bytes
		default:
			col++
		}
		most = max(most, col)
		wrapped = wrapped || col > cols
	}
	return most, wrapped
}

// Progress lines fit a terminal of 80 columns (at most 79, so that none
// reaches the last column) for train, Threes!'s train, eval and bench;
// the lines they drew before were 81 to 87 columns, and each redraw left
// a cut copy above it.
func TestProgressFitsTheTerminal(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("drives terminals")
	}
	dir := t.TempDir()
	for _, args := range [][]string{
		{"train", "--network", "2x4", "--episodes", "3000", "--seed", "1", "--save", filepath.Join(dir, "w.td2048")},
		{"train", "--game", "threes", "--network", "0123+hint", "--episodes", "600", "--seed", "1", "--save", filepath.Join(dir, "t.td2048")},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			if code, _, errs := runCmd(t, args...); code != 0 {
				t.Fatalf("%v: %s", args, errs)
			}
		})
	}
	for _, c := range []struct {
		name string
		args []string
	}{
		{"train", []string{"train", "--network", "4x6", "--episodes", "100000000", "--every", "100", "--seed", "2", "--save", "long.td2048", "--threads", "1"}},
		{"Threes!", []string{"train", "--load", "t.td2048", "--episodes", "100000000", "--every", "100", "--seed", "2", "--save", "longt.td2048", "--threads", "1"}},
		{"eval", []string{"eval", "--load", "w.td2048", "--games", "100000000", "--threads", "1", "--depth", "2"}},
		{"Threes! eval", []string{"eval", "--load", "t.td2048", "--games", "100000000", "--threads", "1"}},
		{"bench", []string{"bench", "--threads", "1"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel() // each waits on its redraws: together, not in turn
			var lines []string
			ptyRun(t, dir, 80, func(redraws []string, _ *os.File) bool {
				lines = lines[:0]
				for _, l := range redraws {
					if strings.Contains(l, "/100000000") || strings.Contains(l, "/s") {
						lines = append(lines, l) // a progress line, not a block's first line
					}
				}
				return len(lines) >= 4
			}, c.args...)
			for _, l := range lines {
				if n, _ := widest([]byte(l), 80); n > 79 {
					t.Errorf("a progress line of %d columns: %q", n, l)
				}
			}
		})
	}
}

// A resized terminal gets lines of its new width from the next redraw:
// at 120 columns the line shows everything, at 40 it keeps what tells
// most (the count, the time left) and drops the rest.
func TestProgressFollowsResize(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("drives a terminal")
	}
	dir := t.TempDir()
	resized, after := -1, 0
	var wide, narrow []string
	ptyRun(t, dir, 120, func(redraws []string, tty *os.File) bool {
		if resized < 0 {
			// Once the first blocks are in, the line has all its parts.
			for _, l := range redraws {
				if strings.Contains(l, "block avg") && strings.Contains(l, "left") {
					wide = append(wide, l)
				}
			}
			if len(wide) >= 2 {
				if err := pty.Setsize(tty, &pty.Winsize{Rows: 24, Cols: 40}); err != nil {
					t.Fatal(err)
				}
				resized = len(redraws)
			}
			return false
		}
		// Lines drawn before the resize may still be on their way; from
		// the first that fits 40 columns on, every line must.
		narrow = narrow[:0]
		for _, l := range redraws[resized:] {
			if strings.Contains(l, "avg =") {
				continue // a block's first line, printed after a clear
			}
			if n, _ := widest([]byte(l), 40); n <= 39 || len(narrow) > 0 {
				narrow = append(narrow, l)
			}
		}
		after = len(narrow)
		return after >= 4
	}, "train", "--network", "4x6", "--episodes", "100000000", "--every", "100", "--seed", "3", "--save", "r.td2048", "--threads", "1")
	if !strings.Contains(wide[0], "episodes/s") || !strings.Contains(wide[0], "moves/s") {
		t.Errorf("at 120 columns the line left out parts: %q", wide[0])
	}
	for _, l := range narrow {
		if n, _ := widest([]byte(l), 40); n > 39 || !strings.Contains(l, "/100000000") || !strings.HasSuffix(l, " left") {
			t.Errorf("at 40 columns: %q (%d columns)", l, n)
		}
	}
}
