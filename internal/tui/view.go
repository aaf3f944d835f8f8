package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/lipgloss"

	"github.com/td2048/td2048/search"
	"github.com/td2048/td2048/stats"
)

// viewBoard draws the board in shape s, framed, as lines.
func (m *Model) viewBoard(s shape) []string {
	h := s.lines
	fr := m.pal.frame
	gap := lipgloss.NewStyle().Background(fr).Width(1).Height(h).Render("")
	var rows []string
	for r := range 4 {
		var cells []string
		for c := range 4 {
			idx := m.g.Cell(4*r + c)
			text := "·"
			if idx > 0 {
				text = fmt.Sprint(m.value(idx))
			}
			if c > 0 {
				cells = append(cells, gap)
			}
			cells = append(cells, m.pal.tile(idx, s.cell, h).Render(text))
		}
		if r > 0 && s.gaps {
			rows = append(rows, lipgloss.NewStyle().Background(fr).Width(4*s.cell+3).Render(""))
		}
		rows = append(rows, lipgloss.JoinHorizontal(lipgloss.Top, cells...))
	}
	return strings.Split(boardStyle.Background(fr).Render(lipgloss.JoinVertical(lipgloss.Left, rows...)), "\n")
}

var arrows = [4]string{"↑ up", "→ right", "↓ down", "← left"}

// viewHint is the block of move values, hintLines lines of width w. The
// values of an earlier position stay, dimmed, while the current one's
// are searched.
func (m *Model) viewHint(w int) []string {
	lines := make([]string, hintLines)
	if !m.hints {
		lines[0] = dimStyle.Render("hints off (t shows them)")
		return lines
	}
	fresh := m.hintOK && m.hintFor == m.g.Board()
	title := fmt.Sprintf("move values, depth %d", m.depth)
	if !fresh {
		if w >= hintWidth {
			title += " (searching…)"
		} else {
			title += " …"
		}
	}
	lines[0] = titleStyle.Render(title)
	best := search.BestOf(&m.hintVals).Dir // -1 before any values, all illegal
	for d, v := range m.hintVals {
		value, reward, mark, star := "…", "", " ", ""
		if m.hintHave {
			value = "illegal"
			if v.Legal {
				value = fmt.Sprintf("%.1f", v.Total)
				if v.Reward > 0 {
					reward = fmt.Sprintf("  (+%d)", v.Reward)
				}
			}
		}
		if d == best {
			mark, star = "▶", "  ★ best"
		}
		line := fmt.Sprintf("%s %-7s %10s", mark, arrows[d], value)
		if w >= hintWidth {
			line += fmt.Sprintf("%-10s", reward)
		}
		line += star
		switch {
		case !fresh || !v.Legal:
			line = dimStyle.Render(line)
		case d == best:
			line = bestStyle.Render(line)
		}
		lines[1+d] = line
	}
	return lines
}

func statLine(name string, b *stats.Block, tiles []int) string {
	if b.Games == 0 {
		return fmt.Sprintf("%-5s %5d", name, 0)
	}
	s := fmt.Sprintf("%-5s %5d %7.0f %7d", name, b.Games, b.Avg(), b.MaxScore)
	for _, t := range tiles {
		s += fmt.Sprintf(" %3.0f%%", 100*b.Reach(t))
	}
	return s
}

// viewStats is the statistics' block with the reach rates of the game's
// first rates rate tiles (games.Game.Rates; the layout fits three at
// most: 2048, 4096 and 8192, or in Threes! 1536, 3072 and 6144).
func (m *Model) viewStats(rates int) []string {
	all := m.agent
	all.Merge(&m.you)
	t := m.info.Rates[:min(rates, 3, len(m.info.Rates))]
	head := fmt.Sprintf("%-5s %5s %7s %7s", "", "games", "avg", "max")
	for _, i := range t {
		head += fmt.Sprintf(" %4d", m.value(i))
	}
	return []string{dimStyle.Render(head), statLine("agent", &m.agent, t), statLine("you", &m.you, t), statLine("all", &all, t)}
}

func (m *Model) viewAgent() string {
	agent := "agent: paused"
	if m.playing {
		agent = "agent: playing"
	}
	speed := "full speed"
	if delay := Speeds[m.speed]; delay > 0 {
		speed = fmt.Sprintf("%v per move", delay)
	}
	return agent + ", " + speed
}

// viewHeader is the title and what is played: the network, the depth and
// the game's seed.
func (m *Model) viewHeader(l *layout) []string {
	title := titleStyle.Render(m.title())
	net := "network " + m.cfg.Network
	rest := fmt.Sprintf("depth %d · game seed %d", m.depth, m.g.Seed())
	if l.header == 1 {
		return []string{title + "  " + dimStyle.Render(net+" · "+rest)}
	}
	return []string{title + "  " + dimStyle.Render(net), dimStyle.Render(rest)}
}

// viewScore is the score line, or two.
func (m *Model) viewScore(l *layout) []string {
	a := fmt.Sprintf("score %d   moves %d", m.g.Score(), m.g.Len())
	b := fmt.Sprintf("best tile %d", m.value(m.g.MaxTile()))
	if next := m.g.Next(); next != 0 { // a game that shows its next tile: Threes!
		b += "   next tile " + m.pal.tile(next, nextWidth, 1).Render(fmt.Sprint(next))
	}
	if l.score == 1 {
		return []string{a + "   " + b}
	}
	return []string{a, b}
}

// viewStatus is the line under the board: the end of the game, or what
// became of the last key.
func (m *Model) viewStatus(w int) string {
	if !m.g.Over() {
		return m.status
	}
	return fitting(overStyle, w,
		fmt.Sprintf("GAME OVER: score %d in %d moves, best tile %d", m.g.Score(), m.g.Len(), m.value(m.g.MaxTile())),
		fmt.Sprintf("GAME OVER: score %d", m.g.Score()),
		"GAME OVER")
}

// fitting is the first of texts, longest first, whose rendering in st
// fits in w columns, else the last.
func fitting(st lipgloss.Style, w int, texts ...string) string {
	for _, t := range texts {
		if r := st.Render(t); lipgloss.Width(r) <= w {
			return r
		}
	}
	return st.Render(texts[len(texts)-1])
}

// Footers, the longest that fits the terminal shown.
var (
	footers = []string{
		"←↑→↓/hjkl move · space agent play/pause · s step · +/- speed · 1-4 depth · t values · n new game · ? help · q quit",
		"←↑→↓ move · space agent · s step · +/- speed · ? help · q quit",
		"←↑→↓ move · space play · ? help · q quit",
		"? help · q quit",
	}
	overFooters = []string{
		"n new game · space the agent plays on · ? help · q quit",
		"n new · space play on · ? help · q quit",
		"? help · q quit",
	}
)

func (m *Model) viewFooter(w int) string {
	fs := footers
	if m.g.Over() {
		fs = overFooters
	}
	return fitting(dimStyle, w, fs...)
}

// help lists the keys.
var help = []string{
	"keys",
	"←↑→↓ hjkl  your move (the agent pauses)",
	"space p    the agent plays or pauses",
	"s .        the agent makes one move",
	"+ -        the agent faster, slower",
	"1 to 4     search depth",
	"t          move values shown or not",
	"n          a new game",
	"?  esc     this help shown, hidden",
	"q ctrl+c   quit, printing statistics",
}

// viewHelp is the help, in place of the board and the panel.
func (m *Model) viewHelp() []string {
	return append([]string{titleStyle.Render(help[0])}, help[1:]...)
}

// viewBody is the board and the panel beside or under it, bodyH lines.
func (m *Model) viewBody(l *layout) []string {
	if m.help {
		return m.viewHelp()
	}
	var panel []string
	add := func(block []string, w int) {
		if len(panel) > 0 && l.inner {
			panel = append(panel, "")
		}
		for _, s := range block {
			panel = append(panel, pad(s, w))
		}
	}
	if l.hints {
		add(m.viewHint(l.hintW), l.panelW)
	}
	if l.agent {
		add([]string{m.viewAgent()}, l.panelW)
	}
	if l.stats {
		add(m.viewStats(l.rates), l.panelW)
	}
	board := m.viewBoard(l.board)
	if !l.side {
		if len(panel) > 0 && l.inner {
			board = append(board, "")
		}
		return append(board, panel...)
	}
	n := max(len(board), len(panel))
	board = append(board, make([]string, n-len(board))...)
	panel = append(panel, make([]string, n-len(panel))...)
	for i := range board {
		board[i] = pad(board[i], l.board.width()) + strings.Repeat(" ", l.gap) + panel[i]
	}
	return board
}

// pad fills s with spaces to w columns.
func pad(s string, w int) string {
	if n := w - lipgloss.Width(s); n > 0 {
		return s + strings.Repeat(" ", n)
	}
	return s
}

// View draws the screen: never a line wider than the terminal nor more
// lines than it has, and the same lines in every frame. On a terminal
// larger than the screen, the screen stands in its middle; the margins
// depend on the terminal's size alone, like the layout.
func (m *Model) View() string {
	w, h := m.size()
	l := m.layout(w, h)
	left, top := max(0, (w-l.width)/2), max(0, (h-l.height)/2)
	lines := make([]string, top)
	blank := func() {
		if l.outer {
			lines = append(lines, "")
		}
	}
	lines = append(lines, m.viewHeader(&l)...)
	blank()
	lines = append(lines, m.viewScore(&l)...)
	blank()
	body := m.viewBody(&l)
	body = append(body, make([]string, max(0, l.bodyH-len(body)))...)
	lines = append(lines, body[:l.bodyH]...)
	blank()
	lines = append(lines, m.viewStatus(w-left), m.viewFooter(w-left))
	lines = lines[:min(len(lines), h)]
	clip := lipgloss.NewStyle().MaxWidth(w)
	margin := strings.Repeat(" ", left)
	for i, s := range lines {
		if s != "" {
			s = margin + s
		}
		if lipgloss.Width(s) > w {
			s = clip.Render(s)
		}
		lines[i] = strings.TrimRight(s, " ")
	}
	return strings.Join(lines, "\n")
}
