package main

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/td2048/td2048/learn"
)

// progress shows how a run goes: on a terminal a live line on stderr
// (episodes, speed, the block under way, time left), redrawn a few times a
// second and cleared before anything else is printed; otherwise one plain
// line on stderr per block.
type progress struct {
	mu         sync.Mutex
	w          io.Writer
	live       bool
	shown      bool
	goal, tile int // the tile index whose reach rate is shown, and its value
}

func newProgress(e *env, goal, tile int) *progress {
	p := &progress{w: e.stderr, goal: goal, tile: tile}
	if f, ok := e.stderr.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 && os.Getenv("TERM") != "dumb" {
			p.live = true
		}
	}
	return p
}

func (p *progress) clear() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.shown {
		fmt.Fprint(p.w, "\r\033[K")
		p.shown = false
	}
}

func (p *progress) tick(s learn.Snapshot) {
	if !p.live {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	sec := max(s.Session.Seconds(), 1e-9)
	line := fmt.Sprintf("%d/%d  %.0f episodes/s  %s moves/s", s.Done, s.Total, float64(s.Played)/sec, rate(s.Moves, s.Session))
	if s.Block.Games > 0 {
		line += fmt.Sprintf("  block avg %.0f  %d %.1f%%", s.Block.Avg(), p.tile, 100*s.Block.Reach(p.goal))
	}
	if s.Played > 0 {
		left := time.Duration(float64(s.Session) / float64(s.Played) * float64(s.Total-s.Done))
		line += "  left " + left.Round(time.Second).String()
	}
	fmt.Fprintf(p.w, "\r\033[K%s", line)
	p.shown = true
}

func (p *progress) block(done, total int, elapsed time.Duration, movesPerSec float64) {
	if p.live {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprintf(p.w, "%d/%d episodes, %s elapsed, %.0f moves/s\n", done, total, elapsed.Round(time.Second), movesPerSec)
}
