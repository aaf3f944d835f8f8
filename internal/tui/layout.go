package tui

import (
	"slices"

	"github.com/charmbracelet/lipgloss"
)

// A shape is a way to draw the board: tiles cell columns wide (5 holds
// 65536) and lines high (5, 3 or 1), with a line of the frame between
// rows of tiles or none. A terminal's cell is about twice as high as it
// is wide, so 11 by 5 and 7 by 3 look about square.
type shape struct {
	cell, lines int
	gaps        bool
}

// shapes are the board's shapes, largest first: the first two fill a
// large terminal, the rest fit 80x24 and smaller ones.
var shapes = []shape{{11, 5, true}, {9, 5, true}, {7, 3, true}, {5, 3, true}, {7, 1, true}, {5, 1, true}, {7, 1, false}, {5, 1, false}}

func (s shape) width() int { return 4*s.cell + 3 + 2 }

func (s shape) height() int {
	h := 4 * s.lines
	if s.gaps {
		h += 3
	}
	return h
}

// The move values' block: a title and a line per move, as wide as
// hintWidth (with the rewards) or narrowHintWidth (without).
const (
	hintLines       = 5
	hintWidth       = 38
	narrowHintWidth = 28
)

// The statistics' block: a head and three lines, statsWidth wide and a
// rate column wider for each of the rates shown.
const (
	statsLines = 4
	statsWidth = 27
	rateWidth  = 5
)

// agentWidth is the width of the agent's line.
const agentWidth = len("agent: playing, 500ms per move")

// The terminal's size until it tells its own, or when it cannot.
const (
	defaultWidth  = 80
	defaultHeight = 24
)

// The widest the numbers on the score line get, for the layout: a score
// of 7 digits, moves of 6, a tile of 5.
const maxScoreLine = len("score 1234567   moves 123456   best tile 65536")

// nextWidth is the width of the next tile's cell on the score line.
const nextWidth = 3

// A layout places the parts of the screen for one terminal size; it
// depends on the size alone (and the game and the network's name), never
// on what the screen shows, so that nothing moves from frame to frame.
type layout struct {
	header, score int // lines of each: 1, or 2 on a narrow terminal
	board         shape
	side          bool // the panel beside the board, else under it
	gap           int  // columns between the board and the panel beside it

	// The panel's parts shown: the move values (hintW wide), the agent's
	// line, the statistics (with rates of the rate tiles).
	hints, agent, stats bool
	hintW, rates        int
	panelW              int

	outer, inner bool // blank lines between the screen's parts; between the body's
	bodyH        int  // lines of the board and the panel, or the help
	height       int  // lines of the whole screen
	width        int  // columns of the header, the score and the body at their widest
}

// panel is the number of the panel's parts shown, for the layout's
// choice: values before the agent's line before the statistics.
func (l *layout) panel() int { return b2i(l.hints) + b2i(l.agent) + b2i(l.stats) }

// better reports whether l is to be preferred to o: more of the panel
// shown, then a larger board, then the panel beside the board, then blank
// lines around the parts.
func (l *layout) better(o *layout) bool {
	rank := func(l *layout) []int {
		return []int{l.panel(), l.board.height(), l.board.cell, b2i(l.side), b2i(l.outer), b2i(l.inner)}
	}
	return slices.Compare(rank(l), rank(o)) > 0
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// size is the terminal's size.
func (m *Model) size() (w, h int) {
	w, h = m.width, m.height
	if w <= 0 {
		w = defaultWidth
	}
	if h <= 0 {
		h = defaultHeight
	}
	return w, h
}

// title is the header's title: the program and the game's title.
func (m *Model) title() string { return "td2048 · " + m.info.Title }

// layout chooses the best layout that fits a terminal of w x h: every
// part of the panel that fits, the largest board, the panel beside the
// board if there is room. When nothing fits, the smallest.
func (m *Model) layout(w, h int) layout {
	var base layout
	base.header, base.score = 1, 1
	// The header at its widest: the largest depth and seed.
	title, rest := m.title()+"  network "+m.cfg.Network, "depth 4 · game seed 18446744073709551615"
	headerW := lipgloss.Width(title + " · " + rest)
	if headerW > w {
		base.header, headerW = 2, max(lipgloss.Width(title), lipgloss.Width(rest))
	}
	scoreW := maxScoreLine
	if m.g.Next() != 0 {
		scoreW += len("   next tile ") + nextWidth
	}
	if scoreW > w {
		base.score, scoreW = 2, len("score 1234567   moves 123456")
	}
	// The smallest, unless something fits: whatever fits is as good at
	// least (better ranks it no lower).
	best := base
	best.board = shapes[len(shapes)-1]
	best.fit(w, 1<<20)
	for _, s := range shapes {
		for _, parts := range [][3]bool{{true, true, true}, {true, true, false}, {false, true, false}, {false, false, false}} {
			for _, side := range []bool{true, false} {
				for _, outer := range []bool{true, false} {
					for _, inner := range []bool{true, false} {
						l := base
						l.board, l.side, l.outer, l.inner = s, side, outer, inner
						l.hints, l.agent, l.stats = parts[0], parts[1], parts[2]
						if l.fit(w, h) && l.better(&best) {
							best = l
						}
					}
				}
			}
		}
	}
	body := best.panelW // under the board, else beside it
	if best.side {
		body += best.board.width() + best.gap
	}
	best.width = max(headerW, scoreW, best.board.width(), body)
	return best
}

// fit sizes the panel for a terminal w wide and reports whether the
// layout fits in w x h.
func (l *layout) fit(w, h int) bool {
	if l.panel() == 0 && l.side {
		return false // one of the two is enough
	}
	avail := w
	if l.side {
		avail = w - l.board.width() - 2
	}
	l.hintW, l.rates, l.panelW = 0, 0, 0
	if l.hints {
		switch {
		case avail >= hintWidth:
			l.hintW = hintWidth
		case avail >= narrowHintWidth:
			l.hintW = narrowHintWidth
		default:
			return false
		}
		l.panelW = max(l.panelW, l.hintW)
	}
	if l.agent {
		if avail < agentWidth {
			return false
		}
		l.panelW = max(l.panelW, agentWidth)
	}
	if l.stats {
		if avail < statsWidth {
			return false
		}
		l.rates = min(3, (avail-statsWidth)/rateWidth)
		l.panelW = max(l.panelW, statsWidth+l.rates*rateWidth)
	}
	panelH := hintLines*b2i(l.hints) + b2i(l.agent) + statsLines*b2i(l.stats)
	if n := l.panel(); n > 1 && l.inner {
		panelH += n - 1 // the blank lines between the parts
	}
	if l.side {
		l.gap = 2
		if l.board.width()+3+l.panelW <= w {
			l.gap = 3
		}
		l.bodyH = max(l.board.height(), panelH)
	} else {
		if l.board.width() > w {
			return false
		}
		l.bodyH = l.board.height() + panelH
		if panelH > 0 && l.inner {
			l.bodyH++
		}
	}
	// The status line and the footer, and the blank lines between the parts.
	l.height = l.header + l.score + l.bodyH + 2 + 3*b2i(l.outer)
	return l.height <= h
}
