// Package plot draws learning curves from training metrics logs (one
// stats.Record per statistics block) as PNG, SVG or PDF, with gonum/plot.
//
// The figure has two panels over a shared episode axis: the mean score of
// each block, and below it the share of games of each block that reached
// 2048, 4096, 8192 and every larger tile that occurs in the logs. Several
// runs share the figure, one colour each, named in a legend; with one run
// each tile has its own colour. Ticks read like people write numbers:
// 50k, 1.5M, 20k, 0%..100%.
//
// Drawing a figure of a few hundred blocks takes milliseconds, so a
// training run can refresh its figure at every checkpoint with Save, which
// replaces the file atomically. Each figure carries a mark that Drawn
// recognises, so that commands replace their own figures and nothing else.
package plot

import (
	"bufio"
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"github.com/td2048/td2048/games"
	"image/color"
	"image/png"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgpdf"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/td2048/td2048/internal/safefile"
	"github.com/td2048/td2048/stats"
)

// A Series is one run's learning curve: its statistics blocks in order.
type Series struct {
	Label   string
	Records []stats.Record
	// Tiles, when not nil, are the only tiles whose reach shares the
	// records know (TDL2048+ prints the winning tile's alone); a tile
	// missing from a record's Reach is otherwise a share of 0.
	Tiles []int
}

// knows reports whether the series' records know the reach share of tile.
func (s *Series) knows(tile int) bool { return s.Tiles == nil || slices.Contains(s.Tiles, tile) }

// Size of the figure.
var (
	Width  = 9 * vg.Inch
	Height = 7.5 * vg.Inch
)

// Options adjust a figure; the zero value is the default figure.
type Options struct {
	// Title replaces the figure's title ("Learning curve: run (network
	// 4x6)", or "Learning curves" for several runs).
	Title string
	// DPI is the resolution of a PNG figure in dots per inch, 96 when 0;
	// the figure keeps its size in inches (9 x 7.5), so 300 makes a
	// 2700 x 2250 image for print. SVG and PDF are vector formats.
	DPI int
}

// DefaultDPI is the resolution of a PNG figure when Options.DPI is 0.
const DefaultDPI = 96

// Format returns the image format for path from its extension: "png",
// "svg" or "pdf".
func Format(path string) (string, error) {
	switch ext := strings.ToLower(filepath.Ext(path)); ext {
	case ".png", ".svg", ".pdf":
		return ext[1:], nil
	case "":
		return "", fmt.Errorf("%s has no extension: want .png, .svg or .pdf", path)
	default:
		return "", fmt.Errorf("%s: unknown image format %s: want .png, .svg or .pdf", path, ext)
	}
}

// Games lists the games of the series' logs, in order of first
// appearance ("2048", "threes"); a log that does not name its game is
// 2048's, as logs were before Threes!.
func Games(series []Series) []string {
	var names []string
	for _, s := range series {
		for _, r := range s.Records {
			if g := cmp.Or(r.Game, games.Default); !slices.Contains(names, g) {
				names = append(names, g)
			}
		}
	}
	return names
}

// ReadLog reads the metrics log at path as a series labelled label (the
// file's base name without extension when label is empty). The file is
// td2048's metrics log (JSON lines), the printed output of a training run
// of the course demo or of td2048 train (ReadCourse), or that of TDL2048+
// (ReadTDL): a log starts with a JSON object, and the first line of a
// printed output that starts a statistics block tells the other two
// apart.
func ReadLog(path, label string) (Series, error) {
	f, err := os.Open(path)
	if err != nil {
		return Series{}, err
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, tdlSniff)
	head, _ := br.Peek(tdlSniff)
	var s Series
	empty := "no statistics blocks"
	switch {
	case !IsTDL(head):
		s.Records, err = stats.ReadLog(br)
	case sniffCourse(head):
		s.Records, err = ReadCourse(br)
		empty = "no complete statistics block (N avg = A max = M, then a line per tile)"
	default:
		s.Records, err = ReadTDL(br)
		s.Tiles = []int{}
		for _, r := range s.Records {
			for k := range r.Reach {
				if t, err := strconv.Atoi(k); err == nil && !slices.Contains(s.Tiles, t) {
					s.Tiles = append(s.Tiles, t)
				}
			}
		}
		empty = "no statistics blocks: neither a td2048 metrics log (JSON lines), nor the printed output of the course demo or td2048 train (N avg = A max = M), nor TDL2048+ training output (III/NNN Tms Rops, local: avg=...)"
	}
	if err != nil {
		return Series{}, fmt.Errorf("%s: %w", path, err)
	}
	if len(s.Records) == 0 {
		return Series{}, fmt.Errorf("%s: %s", path, empty)
	}
	if label == "" {
		label = strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	}
	s.Label = label
	return s, nil
}

// sniffCourse reports whether head, the start of a printed output, is the
// course format's: a course block line comes before any line of TDL2048+
// (a block line or a recipe line), or the course demo's or td2048 train's
// first line heads it.
func sniffCourse(head []byte) bool {
	for i, line := range strings.Split(string(head), "\n") {
		line = strings.TrimRight(line, " \r")
		switch {
		case i == 0 && (line == "TDL2048-Demo" || strings.HasPrefix(line, "td2048 train")):
			return true
		case courseBlockLine.MatchString(line):
			return true
		case isTDLIndex(line), strings.HasPrefix(line, "optimize:"), strings.HasPrefix(line, "evaluate:"):
			return false
		}
	}
	return false
}

// Save draws the figure of series to path, PNG, SVG or PDF by its
// extension, replacing the file atomically.
func Save(path string, opt Options, series ...Series) error {
	format, err := Format(path)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := Curves(&buf, format, opt, series); err != nil {
		return err
	}
	return safefile.WriteAtomic(path, func(w io.Writer) error {
		_, err := w.Write(buf.Bytes())
		return err
	})
}

// Curves draws the figure of series to w in format "png", "svg" or "pdf".
func Curves(w io.Writer, format string, opt Options, series []Series) error {
	if opt.DPI < 0 || opt.DPI > 2400 {
		return fmt.Errorf("resolution %d dpi: want 1 to 2400", opt.DPI)
	}
	var c vg.CanvasSizer
	switch format {
	case "png":
		c = vgimg.NewWith(vgimg.UseWH(Width, Height), vgimg.UseDPI(cmp.Or(opt.DPI, DefaultDPI)))
	case "svg":
		c = vgsvg.New(Width, Height)
	case "pdf":
		c = vgpdf.New(Width, Height)
	default:
		return fmt.Errorf("unknown image format %q: want png, svg or pdf", format)
	}
	plots, err := figure(series)
	if err != nil {
		return err
	}
	if opt.Title != "" {
		plots[0].Title.Text = opt.Title
	}
	dc := draw.New(c)
	tiles := draw.Tiles{Rows: 2, Cols: 1, PadX: vg.Millimeter, PadY: 4 * vg.Millimeter,
		PadTop: 2 * vg.Millimeter, PadBottom: 2 * vg.Millimeter, PadLeft: 2 * vg.Millimeter, PadRight: 4 * vg.Millimeter}
	canvases := gplot.Align([][]*gplot.Plot{{plots[0]}, {plots[1]}}, tiles, dc)
	plots[0].Draw(canvases[0][0])
	plots[1].Draw(canvases[1][0])
	var buf bytes.Buffer
	if img, ok := c.(*vgimg.Canvas); ok {
		// Fast compression: a figure is refreshed at every checkpoint.
		err = (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&buf, img.Image())
	} else {
		_, err = c.(io.WriterTo).WriteTo(&buf)
	}
	if err != nil {
		return err
	}
	data, err := markFigure(format, buf.Bytes())
	if err != nil {
		return err
	}
	_, err = w.Write(data)
	return err
}

// palette: distinct colours that read on white (Tableau 10).
var palette = []color.Color{
	rgb(0x1f77b4), rgb(0xff7f0e), rgb(0x2ca02c), rgb(0xd62728), rgb(0x9467bd),
	rgb(0x8c564b), rgb(0xe377c2), rgb(0x7f7f7f), rgb(0xbcbd22), rgb(0x17becf),
}

func rgb(x uint32) color.Color {
	return color.RGBA{uint8(x >> 16), uint8(x >> 8), uint8(x), 0xff}
}

var dashes = [][]vg.Length{nil, {vg.Points(6), vg.Points(3)}, {vg.Points(2), vg.Points(2)},
	{vg.Points(8), vg.Points(3), vg.Points(2), vg.Points(3)}, {vg.Points(12), vg.Points(4)}}

// tileFloor is the smallest tile whose reach rate is drawn: the smallest
// of the rate tiles its games name (2048 in 2048, 1536 in Threes!).
func tileFloor(series []Series) int {
	floor := 0
	for _, s := range series {
		for _, r := range s.Records {
			g, err := games.Lookup(r.Game)
			if err != nil || len(g.Rates) == 0 {
				continue
			}
			if v := g.Value(g.Rates[0]); floor == 0 || v < floor {
				floor = v
			}
		}
	}
	if floor == 0 {
		return games.MustLookup(games.Default).GoalValue()
	}
	return floor
}

// reachTiles lists the tiles to draw: the floor, and every larger tile
// reached in some block.
func reachTiles(series []Series) []int {
	floor := tileFloor(series)
	tiles := []int{floor}
	for _, s := range series {
		for _, t := range s.Tiles {
			if !slices.Contains(tiles, t) {
				tiles = append(tiles, t)
			}
		}
		for _, r := range s.Records {
			for k, v := range r.Reach {
				t, err := strconv.Atoi(k)
				if err == nil && t > floor && v > 0 && !slices.Contains(tiles, t) {
					tiles = append(tiles, t)
				}
			}
		}
	}
	slices.Sort(tiles)
	return tiles
}

// MaxScore bounds the mean scores a figure draws: far above any game's
// (a 2048 game ends below 4 million), and far below the values whose
// axis the drawing cannot lay out. A log with a larger one is refused.
const MaxScore = 1e15

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// figure makes the figure's two panels for series: the mean score above,
// the reach rates below.
func figure(series []Series) ([2]*gplot.Plot, error) {
	if err := checkSeries(series); err != nil {
		return [2]*gplot.Plot{}, err
	}
	score, reach := panels(series)
	tiles := reachTiles(series)
	many := len(series) > 1
	var scoreLines, reachLines []plotter.XYs
	for i := range series {
		s := &series[i]
		sl, rl, err := addSeries(score, reach, s, palette[i%len(palette)], tiles, many)
		if err != nil {
			return [2]*gplot.Plot{}, fmt.Errorf("%s: %w", s.Label, err)
		}
		scoreLines = append(scoreLines, sl)
		reachLines = append(reachLines, rl...)
	}
	// The score axis ends at the next labelled tick above the best block.
	score.Y.Max = niceCeil(score.Y.Max)
	if many {
		for j, t := range tiles {
			reach.Legend.Add(strconv.Itoa(t), legendLine{color.Black, dashes[j%len(dashes)]})
		}
		chars := 0
		for _, s := range series {
			chars = max(chars, len(s.Label))
		}
		placeLegend(score, scoreLines, len(series), chars)
	}
	placeLegend(reach, reachLines, len(tiles), 5)
	return [2]*gplot.Plot{score, reach}, nil
}

// checkSeries refuses series that make no figure: none, one without
// blocks, or a mean score that no game scores.
func checkSeries(series []Series) error {
	if len(series) == 0 {
		return errors.New("no logs to plot")
	}
	for _, s := range series {
		if len(s.Records) == 0 {
			return fmt.Errorf("%s: no statistics blocks", s.Label)
		}
		for _, r := range s.Records {
			if finite(r.Avg) && (r.Avg < 0 || r.Avg > MaxScore) {
				return fmt.Errorf("%s: the block at %d episodes has a mean score of %g, which no game scores (0 to %g): a damaged log?",
					s.Label, r.Episodes, r.Avg, float64(MaxScore))
			}
		}
	}
	return nil
}

// panels makes the score and reach panels, titled and styled, with
// their grids and axes but no lines yet.
func panels(series []Series) (score, reach *gplot.Plot) {
	score, reach = gplot.New(), gplot.New()
	title := "Learning curve"
	if len(series) > 1 {
		title = "Learning curves"
	} else if r := series[0].Records[0]; r.Network != "" {
		title += fmt.Sprintf(": %s (network %s)", series[0].Label, r.Network)
	} else {
		title += ": " + series[0].Label
	}
	score.Title.Text = title
	score.Title.TextStyle.Font.Size = vg.Points(14)
	score.Y.Label.Text = "mean score (block avg)"
	reach.Y.Label.Text = "reach rate"
	for _, p := range []*gplot.Plot{score, reach} {
		for _, st := range []*text.Style{&p.Title.TextStyle, &p.X.Label.TextStyle, &p.Y.Label.TextStyle,
			&p.X.Tick.Label, &p.Y.Tick.Label, &p.Legend.TextStyle} {
			st.Font.Variant = "Sans"
		}
		p.X.Label.Text = "episodes"
		p.X.Tick.Marker = humanTicks{}
		p.X.Min = 0
		grid := draw.LineStyle{Color: color.Gray{0xe0}, Width: vg.Points(0.5)}
		p.Add(&plotter.Grid{Vertical: grid, Horizontal: grid})
		p.Legend.TextStyle.Font.Size = vg.Points(10)
		p.Legend.ThumbnailWidth = vg.Points(28)
	}
	score.Y.Min = 0
	score.Y.Tick.Marker = humanTicks{}
	reach.Y.Min, reach.Y.Max = 0, 100
	reach.Y.Tick.Marker = percentTicks{}
	return score, reach
}

// addSeries adds s's lines in colour col: its mean score to the score
// panel, and its reach share of each of tiles that it knows to the reach
// panel, one colour per tile for a single series (many false) and one
// dash per tile for several. It returns the lines' points.
func addSeries(score, reach *gplot.Plot, s *Series, col color.Color, tiles []int, many bool) (
	scoreLine plotter.XYs, reachLines []plotter.XYs, err error) {
	for _, r := range s.Records {
		if finite(r.Avg) {
			scoreLine = append(scoreLine, plotter.XY{X: float64(r.Episodes), Y: r.Avg})
		}
	}
	if err := addLine(score, scoreLine, draw.LineStyle{Color: col, Width: vg.Points(1.5)}); err != nil {
		return nil, nil, err
	}
	if many {
		score.Legend.Add(s.Label, legendLine{col, nil})
	}
	for j, t := range tiles {
		if !s.knows(t) {
			continue // unknown, not 0
		}
		var pts plotter.XYs
		for _, r := range s.Records {
			if v := r.ReachOf(t); finite(v) {
				pts = append(pts, plotter.XY{X: float64(r.Episodes), Y: 100 * v})
			}
		}
		sty := draw.LineStyle{Color: palette[j%len(palette)], Width: vg.Points(1.5)}
		if many {
			sty = draw.LineStyle{Color: col, Width: vg.Points(1.5), Dashes: dashes[j%len(dashes)]}
		}
		reachLines = append(reachLines, pts)
		if err := addLine(reach, pts, sty); err != nil {
			return nil, nil, err
		}
		if !many {
			reach.Legend.Add(strconv.Itoa(t), legendLine{sty.Color, nil})
		}
	}
	return scoreLine, reachLines, nil
}

// placeLegend puts the legend in the corner of the panel that the lines
// cross least: of about entries lines of text of up to chars characters.
func placeLegend(p *gplot.Plot, lines []plotter.XYs, entries, chars int) {
	// The legend's share of the panel, from the figure's size: a panel
	// is about Width-80pt wide and Height/2-90pt high.
	w := (p.Legend.ThumbnailWidth.Points() + 12 + 6*float64(chars)) / (Width.Points() - 80)
	h := (12*float64(entries) + 10) / (Height.Points()/2 - 90)
	w, h = min(w+0.03, 0.9), min(h+0.04, 0.9)
	nx := func(x float64) float64 { return (x - p.X.Min) / max(p.X.Max-p.X.Min, 1e-12) }
	ny := func(y float64) float64 { return (y - p.Y.Min) / max(p.Y.Max-p.Y.Min, 1e-12) }
	type corner struct{ top, left bool }
	best, bestHits := corner{true, true}, -1
	for _, c := range []corner{{true, true}, {true, false}, {false, false}, {false, true}} {
		hits := 0
		in := func(x, y float64) bool {
			inX := c.left && x < w || !c.left && x > 1-w
			inY := c.top && y > 1-h || !c.top && y < h
			return inX && inY
		}
		for _, l := range lines {
			for i := range l {
				// The point, and nine more along the segment to the next.
				steps, next := 10, i+1
				if next == len(l) {
					steps, next = 1, i
				}
				x, y := nx(l[i].X), ny(l[i].Y)
				dx, dy := nx(l[next].X)-x, ny(l[next].Y)-y
				for k := range steps {
					if f := float64(k) / 10; in(x+f*dx, y+f*dy) {
						hits++
					}
				}
			}
		}
		if bestHits < 0 || hits < bestHits {
			best, bestHits = c, hits
		}
	}
	p.Legend.Top, p.Legend.Left = best.top, best.left
	p.Legend.XOffs = vg.Millimeter * 2
	if !best.left {
		p.Legend.XOffs = -vg.Millimeter * 2
	}
	p.Legend.YOffs = -vg.Millimeter * 2
	if !best.top {
		p.Legend.YOffs = vg.Millimeter * 2
	}
}

// addLine draws pts as a line, with dots where the points are few enough
// to tell apart (a single block is only a dot).
func addLine(p *gplot.Plot, pts plotter.XYs, sty draw.LineStyle) error {
	if len(pts) == 0 {
		return nil
	}
	l, err := plotter.NewLine(pts)
	if err != nil {
		return err
	}
	l.LineStyle = sty
	p.Add(l)
	if len(pts) <= 30 {
		s, err := plotter.NewScatter(pts)
		if err != nil {
			return err
		}
		s.GlyphStyle = draw.GlyphStyle{Color: sty.Color, Radius: vg.Points(2), Shape: draw.CircleGlyph{}}
		p.Add(s)
	}
	return nil
}

// legendLine is a legend sample: a line of a colour and dash pattern.
type legendLine struct {
	col    color.Color
	dashes []vg.Length
}

func (l legendLine) Thumbnail(c *draw.Canvas) {
	y := c.Center().Y
	c.StrokeLine2(draw.LineStyle{Color: l.col, Width: vg.Points(2), Dashes: l.dashes}, c.Min.X, y, c.Max.X, y)
}

// Human writes a number as people write counts and scores: 0, 950,
// 2.5k, 50k, 1.5M, 2T; from 10^15 on, 1e+15.
func Human(v float64) string {
	a := math.Abs(v)
	switch {
	case a >= 1e15 || !finite(a):
		return strconv.FormatFloat(v, 'g', 3, 64)
	case a >= 1e12:
		return trim(v/1e12) + "T"
	case a >= 1e9:
		return trim(v/1e9) + "G"
	case a >= 1e6:
		return trim(v/1e6) + "M"
	case a >= 1e3:
		return trim(v/1e3) + "k"
	}
	return trim(v)
}

func trim(x float64) string {
	s := strconv.FormatFloat(math.Round(x*100)/100, 'f', -1, 64)
	if s == "-0" {
		return "0"
	}
	return s
}

// humanTicks label about six round values (steps of 1, 2, 2.5 or 5 times
// a power of ten) by Human, with unlabelled minor ticks between them.
type humanTicks struct{}

func (humanTicks) Ticks(min, max float64) []gplot.Tick {
	step := niceStep(max - min)
	minor := step / 5
	if m := step / math.Pow(10, math.Floor(math.Log10(step))); math.Abs(m-2) < 1e-9 {
		minor = step / 4
	}
	var ts []gplot.Tick
	for i := math.Ceil(min/minor - 1e-9); i*minor <= max+minor*1e-9; i++ {
		v := i * minor
		t := gplot.Tick{Value: v}
		if r := math.Abs(math.Remainder(v, step)); r < minor*1e-6 {
			t.Label = Human(v)
		}
		ts = append(ts, t)
	}
	return ts
}

// niceStep is the round step that cuts span into about six parts.
func niceStep(span float64) float64 {
	if !(span > 0) || !finite(span) {
		return 1
	}
	raw := span / 6
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if m*p >= raw {
			return m * p
		}
	}
	return 10 * p
}

// niceCeil rounds x up to a multiple of the tick step for [0, x].
func niceCeil(x float64) float64 {
	if !(x > 0) || !finite(x) {
		return 1
	}
	step := niceStep(x)
	return math.Ceil(x/step-1e-9) * step
}

// percentTicks mark 0% to 100% every 25%, with minor ticks every 5%.
type percentTicks struct{}

func (percentTicks) Ticks(min, max float64) []gplot.Tick {
	var ts []gplot.Tick
	for v := 0; v <= 100; v += 5 {
		t := gplot.Tick{Value: float64(v)}
		if v%25 == 0 {
			t.Label = strconv.Itoa(v) + "%"
		}
		ts = append(ts, t)
	}
	return ts
}
