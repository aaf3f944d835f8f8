package tui

import (
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/td2048/td2048/rules/game2048"
)

// keyDirs are the keys that slide the board: the arrows, and vi's hjkl.
var keyDirs = map[string]int{
	"up": game2048.Up, "right": game2048.Right, "down": game2048.Down, "left": game2048.Left,
	"k": game2048.Up, "l": game2048.Right, "j": game2048.Down, "h": game2048.Left,
}

// keys handles a key message. Keys that arrive together, typed fast or
// pasted, come as one message of several runes ("++++q"): each rune is a
// key, in order, and a q among them quits at once.
func (m *Model) keys(k tea.KeyMsg) tea.Cmd {
	names := []string{k.String()}
	if k.Type == tea.KeyRunes && !k.Alt && (len(k.Runes) > 1 || k.Paste) {
		names = strings.Split(string(k.Runes), "")
	}
	var cmds []tea.Cmd
	for _, s := range names {
		cmd, quit := m.key(s)
		if quit {
			m.Stop()
			return tea.Quit
		}
		cmds = append(cmds, cmd)
	}
	return tea.Batch(cmds...)
}

// key handles the key named s (as tea.Key.String names it); it reports
// whether the key quits.
func (m *Model) key(s string) (tea.Cmd, bool) {
	if d, ok := keyDirs[s]; ok {
		m.setPlaying(false)
		return m.apply(d, false), false
	}
	switch s {
	case "q", "ctrl+c":
		return nil, true
	case "esc":
		if !m.help {
			return nil, true
		}
		m.help = false
	case "?":
		m.help = !m.help
	case " ", "p":
		if m.g.Over() && !m.playing {
			m.newGame()
			return tea.Batch(m.setPlaying(true), m.askHint()), false
		}
		return m.setPlaying(!m.playing), false
	case "s", ".":
		m.setPlaying(false)
		if m.g.Over() || m.thinking {
			return nil, false
		}
		m.thinking = true
		return m.think(true), false
	case "+", "=", "f":
		m.speed = min(m.speed+1, len(Speeds)-1)
	case "-", "_":
		m.speed = max(m.speed-1, 0)
	case "1", "2", "3", "4":
		m.depth = int(s[0] - '0')
		m.hintOK = false
		return m.askHint(), false
	case "t":
		m.hints = !m.hints
		m.hintOK = false
		return m.askHint(), false
	case "n", "r":
		m.newGame()
		m.thinking = false
		return tea.Batch(m.askHint(), m.next(0)), false
	}
	return nil, false
}
