package tui

import (
	"github.com/charmbracelet/lipgloss"

	"github.com/td2048/td2048/session"
)

// Colours: the familiar 2048 tiles.
var (
	tileBG = []string{"#cdc1b4", "#eee4da", "#ede0c8", "#f2b179", "#f59563", "#f67c5f", "#f65e3b",
		"#edcf72", "#edcc61", "#edc850", "#edc53f", "#edc22e"}
	darkInk  = lipgloss.Color("#776e65")
	lightInk = lipgloss.Color("#f9f6f2")
	frame    = lipgloss.Color("#bbada0")

	titleStyle = lipgloss.NewStyle().Bold(true).Foreground(lipgloss.Color("#edc22e"))
	dimStyle   = lipgloss.NewStyle().Foreground(lipgloss.Color("#8f7a66"))
	bestStyle  = lipgloss.NewStyle().Bold(true).Foreground(lipgloss.Color("#edc22e"))
	overStyle  = lipgloss.NewStyle().Bold(true).Foreground(lightInk).Background(lipgloss.Color("#f65e3b")).Padding(0, 1)
	boardStyle = lipgloss.NewStyle().Background(frame).Padding(0, 1)
)

// tileStyle is the style of a 2048 tile of index idx, w columns wide and
// h lines high.
func tileStyle(idx, w, h int) lipgloss.Style {
	st := lipgloss.NewStyle().Width(w).Height(h).Align(lipgloss.Center, lipgloss.Center).Bold(true)
	bg := "#3c3a32"
	if idx < len(tileBG) {
		bg = tileBG[idx]
	}
	fg := lightInk
	if idx <= 2 {
		fg = darkInk
	}
	return st.Background(lipgloss.Color(bg)).Foreground(fg)
}

// A palette is the colours of a game's board: its frame, and the style of
// a tile of index idx, w columns wide and h lines high.
type palette struct {
	frame lipgloss.Color
	tile  func(idx, w, h int) lipgloss.Style
}

// palettes are the games' colours by name; a game without its own is
// drawn in 2048's.
var palettes = map[string]palette{
	session.Game2048:   {frame, tileStyle},
	session.GameThrees: {threesFrame, threesTileStyle},
}

// Threes! colours, as the original game: 1 blue, 2 red, 3 and up white
// with dark figures, on a pale blue-green board.
var (
	threesFrame = lipgloss.Color("#9fc4c4")
	threesEmpty = lipgloss.Color("#cfe6e6")
	threesBG    = [4]lipgloss.Color{threesEmpty, "#66ccff", "#ff6680", "#ffffff"}
	threesInk   = lipgloss.Color("#262626")
)

// threesTileStyle is the style of a Threes! tile of index idx, w columns
// wide and h lines high.
func threesTileStyle(idx, w, h int) lipgloss.Style {
	st := lipgloss.NewStyle().Width(w).Height(h).Align(lipgloss.Center, lipgloss.Center).Bold(true)
	switch {
	case idx == 0:
		return st.Background(threesEmpty).Foreground(lipgloss.Color("#8fb3b3"))
	case idx <= 2:
		return st.Background(threesBG[idx]).Foreground(lipgloss.Color("#ffffff"))
	}
	return st.Background(threesBG[3]).Foreground(threesInk)
}
