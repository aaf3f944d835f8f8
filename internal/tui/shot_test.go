package tui

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"codeberg.org/go-fonts/dejavu/dejavusansmono"
	"codeberg.org/go-fonts/dejavu/dejavusansmonobold"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/mattn/go-runewidth"
	"github.com/muesli/termenv"
	"golang.org/x/image/font"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"

	"github.com/td2048/td2048/session"
)

// shotDir is where screenshots go: $TD2048_SHOTS when set (to look at
// them), else a temporary folder.
func shotDir(t *testing.T) string {
	if d := os.Getenv("TD2048_SHOTS"); d != "" {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		return d
	}
	return t.TempDir()
}

// A cell of a terminal screen.
type cell struct {
	r      rune
	fg, bg color.Color
	bold   bool
}

var (
	termFG = color.RGBA{0xdd, 0xdd, 0xdd, 0xff}
	termBG = color.RGBA{0x1e, 0x1e, 0x1e, 0xff}
)

// screen lays out what a terminal of w x h shows of s, the lines of a view
// with ANSI colours (24-bit SGR, bold, reset).
func screen(s string, w, h int) [][]cell {
	grid := make([][]cell, h)
	for y := range grid {
		grid[y] = make([]cell, w)
		for x := range grid[y] {
			grid[y][x] = cell{' ', termFG, termBG, false}
		}
	}
	fg, bg, bold := color.Color(termFG), color.Color(termBG), false
	for y, line := range strings.Split(s, "\n") {
		if y >= h {
			break
		}
		x := 0
		for i := 0; i < len(line); {
			if strings.HasPrefix(line[i:], "\x1b[") {
				j := i + 2
				for j < len(line) && (line[j] < 0x40 || line[j] > 0x7e) {
					j++
				}
				if j < len(line) && line[j] == 'm' {
					fg, bg, bold = sgr(line[i+2:j], fg, bg, bold)
				}
				i = j + 1
				continue
			}
			r, n := []rune(line[i:])[0], len(string([]rune(line[i:])[0]))
			i += n
			if x < w {
				grid[y][x] = cell{r, fg, bg, bold}
			}
			x += max(runewidth.RuneWidth(r), 1)
		}
	}
	return grid
}

// sgr applies the parameters of a Select Graphic Rendition sequence.
func sgr(params string, fg, bg color.Color, bold bool) (color.Color, color.Color, bool) {
	ps := strings.Split(params, ";")
	for k := 0; k < len(ps); k++ {
		n, _ := strconv.Atoi(ps[k])
		switch {
		case n == 0:
			fg, bg, bold = termFG, termBG, false
		case n == 1:
			bold = true
		case n == 22:
			bold = false
		case n == 39:
			fg = termFG
		case n == 49:
			bg = termBG
		case (n == 38 || n == 48) && k+4 < len(ps) && ps[k+1] == "2":
			r, _ := strconv.Atoi(ps[k+2])
			g, _ := strconv.Atoi(ps[k+3])
			b, _ := strconv.Atoi(ps[k+4])
			c := color.RGBA{uint8(r), uint8(g), uint8(b), 0xff}
			if n == 38 {
				fg = c
			} else {
				bg = c
			}
			k += 4
		}
	}
	return fg, bg, bold
}

// shotPNG draws a screen as a terminal would, DejaVu Sans Mono on a dark
// background, one cell 9 by 18 pixels.
func shotPNG(t *testing.T, grid [][]cell, path string) {
	t.Helper()
	face := func(ttf []byte) font.Face {
		f, err := opentype.Parse(ttf)
		if err != nil {
			t.Fatal(err)
		}
		fc, err := opentype.NewFace(f, &opentype.FaceOptions{Size: 14.5, DPI: 72, Hinting: font.HintingFull})
		if err != nil {
			t.Fatal(err)
		}
		return fc
	}
	regular, bold := face(dejavusansmono.TTF), face(dejavusansmonobold.TTF)
	const cw, ch = 9, 18
	img := image.NewRGBA(image.Rect(0, 0, cw*len(grid[0]), ch*len(grid)))
	for y, row := range grid {
		for x, c := range row {
			draw.Draw(img, image.Rect(x*cw, y*ch, (x+1)*cw, (y+1)*ch), image.NewUniform(c.bg), image.Point{}, draw.Src)
		}
		for x, c := range row {
			if c.r == ' ' || c.r == 0 {
				continue
			}
			d := font.Drawer{Dst: img, Src: image.NewUniform(c.fg), Face: regular, Dot: fixed.P(x*cw, y*ch+14)}
			if c.bold {
				d.Face = bold
			}
			d.DrawString(string(c.r))
		}
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := png.Encode(f, img); err != nil {
		t.Fatal(err)
	}
}

// plain is a screen's text without its colours.
func plain(grid [][]cell) string {
	var b strings.Builder
	for _, row := range grid {
		var l strings.Builder
		for _, c := range row {
			if c.r != 0 {
				l.WriteRune(c.r)
			}
		}
		b.WriteString(strings.TrimRight(l.String(), " ") + "\n")
	}
	return b.String()
}

// TestScreenshots takes the screens of play at 80x24 and 120x40, 2048's
// and Threes!'s, in the middle of a game with the move values shown, as
// text and as PNG pictures, for people to look at: in $TD2048_SHOTS when
// set, else in a temporary folder (the paths are logged).
func TestScreenshots(t *testing.T) {
	was := lipgloss.ColorProfile()
	lipgloss.SetColorProfile(termenv.TrueColor)
	defer lipgloss.SetColorProfile(was)
	dir := shotDir(t)
	for _, g := range []string{session.Game2048, session.GameThrees} {
		m := newModel(func(c *Config) { c.Depth = 2 })
		if g == session.GameThrees {
			m = newThreesModel(func(c *Config) { c.Depth = 2 })
		}
		pump(t, m, m.Init(), nil)
		for range 40 {
			key(t, m, runes("s"))
		}
		for _, tm := range []struct{ w, h int }{{80, 24}, {120, 40}} {
			t.Run(fmt.Sprintf("%dx%d", tm.w, tm.h), func(t *testing.T) {
				m.Update(tea.WindowSizeMsg{Width: tm.w, Height: tm.h})
				grid := screen(m.View(), tm.w, tm.h)
				base := filepath.Join(dir, fmt.Sprintf("play-%s-%dx%d", g, tm.w, tm.h))
				if err := os.WriteFile(base+".txt", []byte(plain(grid)), 0o644); err != nil {
					t.Fatal(err)
				}
				shotPNG(t, grid, base+".png")
				t.Logf("screenshot %s.png (and .txt)", base)
			})
		}
	}
}
