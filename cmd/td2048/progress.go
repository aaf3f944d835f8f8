package main

import (
	"cmp"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"golang.org/x/term"

	"github.com/td2048/td2048/learn"
	"github.com/td2048/td2048/stats"
)

// progress shows how a long command goes. On a terminal it keeps a live
// line on stderr (done and total, speed, the block or the games so far,
// time left), redrawn a few times a second and cleared before anything
// else is printed. The line fits the terminal: its width is measured at
// every redraw, so a resized window gets lines of its new width at once,
// and what does not fit is left out, the least telling part first (the
// episodes per second, then the moves per second, the reach rate, the
// mean score; the time left and the count stay). A line as wide as the
// terminal would wrap, and its redraw would leave the cut copy above.
// When stderr is not a terminal (a file, a pipe, /dev/null) it writes
// plain lines instead: training one per block (block), evaluations one
// every tenth of their games or every minute (tick).
type progress struct {
	mu         sync.Mutex
	w          io.Writer
	live       bool
	width      func() int // the terminal's columns, on a terminal
	shown      bool
	goal, tile int // the tile index whose reach rate is shown, and its value

	eval  bool   // an evaluation: games of a fixed policy, no blocks
	name  string // the command, first on plain lines ("eval")
	unit  string // what Done counts: episodes or games
	moves string // what Moves counts: moves or slides
	eta   eta

	plainAt   time.Duration // Elapsed of the last plain line
	plainDone int           // Done at the last plain line
}

// isTerminal reports whether w is a terminal that can redraw a line.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd())) && os.Getenv("TERM") != "dumb"
}

// columns measures the width of the terminal w is, 0 when it is none.
func columns(w io.Writer) int {
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		if cols, _, err := term.GetSize(int(f.Fd())); err == nil {
			return cols
		}
	}
	return 0
}

// newProgress is training's progress: episodes and their moves.
func newProgress(e *env, goal, tile int) *progress {
	return &progress{w: e.stderr, live: isTerminal(e.stderr), width: func() int { return cmp.Or(columns(e.stderr), 80) }, goal: goal, tile: tile,
		unit: "episodes", moves: "moves"}
}

// newEvalProgress is an evaluation's: games of name (a command, or a
// phase of bench) and their moves (or slides, in Threes!).
func newEvalProgress(e *env, name string, goal, tile int, moves string) *progress {
	p := newProgress(e, goal, tile)
	p.eval, p.name, p.unit, p.moves = true, name, "games", moves
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

// tick takes a snapshot of the run: on a terminal it redraws the line;
// otherwise an evaluation writes a plain line now and then.
func (p *progress) tick(s learn.Snapshot) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.eta.add(s)
	if !p.live {
		if p.eval && p.plainDue(s) {
			fmt.Fprintln(p.w, p.name+": "+join(p.parts(s, false), ", "))
			p.plainAt, p.plainDone = s.Elapsed, s.Done
		}
		return
	}
	// One column short of the width: a line that fills the last column
	// wraps on some terminals.
	fmt.Fprintf(p.w, "\r\033[K%s", fit(p.parts(s, true), p.width()-1))
	p.shown = true
}

// plainDue: a plain line for every tenth of the games, or a minute after
// the last one when games are slow.
func (p *progress) plainDue(s learn.Snapshot) bool {
	step := max(s.Total/10, 1)
	return s.Done/step > p.plainDone/step && s.Done < s.Total || s.Elapsed-p.plainAt >= time.Minute
}

// A part of a progress line, and how long it stays as the line narrows:
// a part of a lower rank goes first.
type part struct {
	text string
	rank int
}

// The ranks of the parts of a progress line.
const (
	rankEpisodeSpeed = iota
	rankMoveSpeed
	rankRate
	rankMean
	rankElapsed
	rankLeft
	rankCount
)

// parts are the parts of the progress line of snapshot s, in order.
func (p *progress) parts(s learn.Snapshot, live bool) []part {
	sec := max(s.Session.Seconds(), 1e-9)
	var parts []part
	add := func(rank int, format string, a ...any) { parts = append(parts, part{fmt.Sprintf(format, a...), rank}) }
	mean := "block avg"
	if p.eval {
		add(rankCount, "%d/%d %s", s.Done, s.Total, p.unit)
		mean = "avg"
	} else {
		add(rankCount, "%d/%d", s.Done, s.Total)
		add(rankEpisodeSpeed, "%.0f %s/s", float64(s.Played)/sec, p.unit)
	}
	add(rankMoveSpeed, "%s %s/s", rate(s.Moves, s.Session), p.moves)
	if s.Block.Games > 0 {
		add(rankMean, mean+" %.0f", s.Block.Avg())
		add(rankRate, "%d %.1f%%", p.tile, 100*s.Block.Reach(p.goal))
	}
	if !live {
		add(rankElapsed, "%s elapsed", s.Elapsed.Round(time.Second))
	}
	if left, ok := p.eta.left(s, p.eval); ok {
		add(rankLeft, "%s left", left.Round(time.Second))
	}
	return parts
}

// join joins the texts of parts, sep between them.
func join(parts []part, sep string) string {
	var texts []string
	for _, pt := range parts {
		texts = append(texts, pt.text)
	}
	return strings.Join(texts, sep)
}

// fit joins the parts of a live line, two spaces apart, leaving out the
// parts of the lowest rank (each rank is one part's) until the line is at
// most width columns; a single part still too wide is cut.
func fit(parts []part, width int) string {
	width = max(width, 1)
	for rank := 0; len(parts) > 1 && utf8.RuneCountInString(join(parts, "  ")) > width; rank++ {
		parts = slices.DeleteFunc(slices.Clone(parts), func(pt part) bool { return pt.rank == rank })
	}
	line := join(parts, "  ")
	if r := []rune(line); len(r) > width {
		line = string(r[:width])
	}
	return line
}

// block writes training's plain line for a finished block. Its speed is
// the block's own, named so: the final line's is the whole run's, and the
// two differ as episodes lengthen.
func (p *progress) block(done, total int, elapsed time.Duration, movesPerSec float64) {
	if p.live {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprintf(p.w, "%d/%d %s, %s elapsed, %.0f %s/s in this block\n", done, total, p.unit, elapsed.Round(time.Second), movesPerSec, p.moves)
}

// eta estimates the time a run has left from its recent pace, not from
// its average since the start: in training, episodes lengthen as the
// agent improves (a block of 1000 episodes takes ten times longer at
// 100,000 episodes than at 1,000), so the average pace says far too
// little time is left. The recent window is the last quarter of the
// session (at least 5 seconds). Over it eta measures the speed in moves
// per second and the moves per episode in each half, and so how fast
// episodes lengthen; the episodes left are taken to run at the recent
// speed, each as long as the recent ones plus that growth carried a third
// of the way into what is left (at most doubling, at least half): learning
// curves flatten, so carrying it further overshoots. On the course run's
// learning curve the estimate is within 5% of the truth from a fifth of
// the run on (20% low at a tenth), where the average pace says 72% low at
// a tenth, 44% at half and 33% at nine tenths.
//
// An evaluation plays one policy throughout, so its games keep their
// length: the moves left are the games left times the mean length of the
// games finished, less the moves of the games under way.
type eta struct {
	samples []learn.Snapshot // oldest first, Block not used
}

func (e *eta) add(s learn.Snapshot) {
	s.Block = stats.Block{}
	e.samples = append(e.samples, s)
	// Keep the window and the newest sample before it.
	window := max(s.Session/4, 5*time.Second)
	i := 0
	for i+1 < len(e.samples) && s.Session-e.samples[i+1].Session >= window {
		i++
	}
	e.samples = slices.Delete(e.samples, 0, i)
}

func (e *eta) left(s learn.Snapshot, eval bool) (time.Duration, bool) {
	if len(e.samples) < 2 || s.Done >= s.Total {
		return 0, false
	}
	a, c := e.samples[0], e.samples[len(e.samples)-1]
	dt := (c.Session - a.Session).Seconds()
	if dt <= 0 || c.Moves <= a.Moves {
		return 0, false
	}
	speed := float64(c.Moves-a.Moves) / dt // moves per second, recently
	left := func(moves float64) (time.Duration, bool) {
		return time.Duration(max(moves, 0) / speed * float64(time.Second)), true
	}
	if eval {
		if s.Block.Games == 0 {
			return 0, false
		}
		mean := float64(s.Block.Moves) / float64(s.Block.Games)
		return left(float64(s.Total)*mean - float64(c.Moves))
	}
	if c.Done <= a.Done {
		return 0, false
	}
	// The sample nearest the middle of the window splits it in halves.
	b := a
	for _, x := range e.samples {
		if x.Session-a.Session <= c.Session-x.Session {
			b = x
		}
	}
	m := float64(c.Moves-a.Moves) / float64(c.Done-a.Done) // moves per episode, recently
	growth := 0.0
	if b.Done > a.Done && c.Done > b.Done {
		m1 := float64(b.Moves-a.Moves) / float64(b.Done-a.Done)
		m2 := float64(c.Moves-b.Moves) / float64(c.Done-b.Done)
		n1, n2 := float64(a.Done+b.Done)/2, float64(b.Done+c.Done)/2
		m = m2
		rest := float64(s.Total - c.Done)
		growth = (m2 - m1) / (n2 - n1) * (float64(c.Done) + rest/3 - n2)
		growth = min(max(growth, -m/2), m)
	}
	return left(float64(s.Total-c.Done) * (m + growth))
}

// rate formats moves per second.
func rate(moves int64, d time.Duration) string {
	r := float64(moves) / max(d.Seconds(), 1e-9)
	switch {
	case r >= 1e6:
		return fmt.Sprintf("%.2fM", r/1e6)
	case r >= 1e3:
		return fmt.Sprintf("%.1fk", r/1e3)
	}
	return fmt.Sprintf("%.0f", r)
}
