package plot

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"image/png"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/td2048/td2048/stats"
)

// synth makes n blocks of a plausible run: scores rising to about 60k,
// 2048 reached first, 4096 and 8192 later.
func synth(label string, n, every int, speed float64) Series {
	s := Series{Label: label}
	for i := 1; i <= n; i++ {
		x := float64(i*every) / 100000 * speed
		r := stats.Record{Episodes: int64(i * every), Network: "4x6", Game: "2048", Summary: stats.Summary{Games: every,
			Avg:   3000 + 60000*(1-math.Exp(-2*x)) + 1000*math.Sin(float64(i)),
			Reach: map[string]float64{"1024": 1, "2048": min(1, x*1.5)}}}
		if x > 0.3 {
			r.Reach["4096"] = min(1, x-0.3)
		}
		if x > 0.8 {
			r.Reach["8192"] = (x - 0.8) / 4
		}
		s.Records = append(s.Records, r)
	}
	return s
}

func TestHuman(t *testing.T) {
	for v, want := range map[float64]string{
		0: "0", 5: "5", 950: "950", 1000: "1k", 2500: "2.5k", 20000: "20k", 50000: "50k",
		100000: "100k", 1e6: "1M", 1.5e6: "1.5M", 12.5e6: "12.5M", 2e9: "2G", -20000: "-20k",
		0.25: "0.25", 60000.00000001: "60k", 2e12: "2T", 1e15: "1e+15", 1.5e300: "1.5e+300",
	} {
		t.Run(fmt.Sprint(v), func(t *testing.T) {
			if got := Human(v); got != want {
				t.Errorf("Human(%v) = %q, want %q", v, got, want)
			}
		})
	}
}

// TestTicks wants round, short labels on every range a run can have.
func TestTicks(t *testing.T) {
	good := regexp.MustCompile(`^-?(0|[1-9][0-9]{0,2})(\.[0-9]{1,2})?[kMG]?$`)
	for _, max := range []float64{1, 7, 10, 999, 1000, 2000, 5000, 12345, 50000, 100000, 150000, 333333, 1e6, 1.5e6, 2e6, 7.7e6, 1e8} {
		ts := humanTicks{}.Ticks(0, max)
		labels := 0
		for _, tk := range ts {
			if tk.Value < 0 || tk.Value > max*(1+1e-9) {
				t.Errorf("range 0..%v: tick at %v", max, tk.Value)
			}
			if tk.Label == "" {
				continue
			}
			labels++
			if !good.MatchString(tk.Label) {
				t.Errorf("range 0..%v: tick label %q", max, tk.Label)
			}
		}
		if labels < 3 || labels > 11 {
			t.Errorf("range 0..%v: %d labelled ticks %v", max, labels, ts)
		}
	}
	var labels []string
	for _, tk := range (percentTicks{}).Ticks(0, 100) {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	if strings.Join(labels, " ") != "0% 25% 50% 75% 100%" {
		t.Errorf("percent ticks %v", labels)
	}
	if got := Human(niceCeil(59123)); got != "60k" {
		t.Errorf("niceCeil(59123) = %s", got)
	}
}

func TestReachTiles(t *testing.T) {
	got := reachTiles([]Series{synth("a", 100, 1000, 1), synth("b", 10, 1000, 1)})
	if len(got) != 3 || got[0] != 2048 || got[1] != 4096 || got[2] != 8192 {
		t.Errorf("tiles %v", got)
	}
	if got := reachTiles([]Series{synth("a", 2, 1000, 1)}); len(got) != 1 || got[0] != 2048 {
		t.Errorf("tiles of a short run %v, want [2048]", got)
	}
}

// svgTexts returns the texts of an SVG figure, checking it is XML.
func svgTexts(t *testing.T, data []byte) []string {
	t.Helper()
	var texts []string
	dec := xml.NewDecoder(bytes.NewReader(data))
	inText := false
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("SVG is not well-formed XML: %v", err)
		}
		switch tk := tok.(type) {
		case xml.StartElement:
			inText = tk.Name.Local == "text"
		case xml.EndElement:
			inText = false
		case xml.CharData:
			if inText {
				texts = append(texts, strings.TrimSpace(string(tk)))
			}
		}
	}
	return texts
}

func count(xs []string, x string) int {
	n := 0
	for _, y := range xs {
		if y == x {
			n++
		}
	}
	return n
}

func TestCurvesSVG(t *testing.T) {
	series := []Series{synth("fast <a&b>", 100, 1000, 1.5), synth("slow", 150, 1000, 0.7), synth("third", 1, 1000, 1)}
	var b bytes.Buffer
	if err := Curves(&b, "svg", Options{}, series); err != nil {
		t.Fatal(err)
	}
	texts := svgTexts(t, b.Bytes())
	for _, s := range series {
		if n := count(texts, s.Label); n != 1 {
			t.Errorf("legend entry %q appears %d times", s.Label, n)
		}
	}
	for _, want := range []string{"2048", "4096", "8192", "episodes", "mean score (block avg)", "reach rate", "0%", "100%", "50k", "100k", "150k"} {
		if count(texts, want) == 0 {
			t.Errorf("no text %q in %v", want, texts)
		}
	}
	for _, x := range texts {
		if strings.Contains(x, ".00") || len(x) > 40 {
			t.Errorf("text %q", x)
		}
	}
	// One run: no run legend, one legend entry per tile, the run in the title.
	b.Reset()
	if err := Curves(&b, "svg", Options{}, series[1:2]); err != nil {
		t.Fatal(err)
	}
	texts = svgTexts(t, b.Bytes())
	if count(texts, "slow") != 0 || count(texts, "Learning curve: slow (network 4x6)") != 1 || count(texts, "4096") != 1 {
		t.Errorf("one run: texts %v", texts)
	}
}

func TestCurvesPNG(t *testing.T) {
	var b bytes.Buffer
	if err := Curves(&b, "png", Options{}, []Series{synth("a", 100, 1000, 1)}); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&b)
	if err != nil {
		t.Fatal(err)
	}
	if r := img.Bounds(); r.Dx() != 864 || r.Dy() != 720 {
		t.Errorf("image %v", r)
	}
}

// A PDF figure, a PNG at a chosen resolution (the same 9 x 7.5 inches),
// a title of one's own.
func TestCurvesPDFDPIAndTitle(t *testing.T) {
	series := []Series{synth("a", 100, 1000, 1)}
	var b bytes.Buffer
	if err := Curves(&b, "pdf", Options{}, series); err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(b.Bytes(), []byte("%PDF-")) || !bytes.Contains(b.Bytes(), []byte("%%EOF")) {
		t.Fatalf("not a PDF: %.40q", b.Bytes())
	}
	b.Reset()
	if err := Curves(&b, "png", Options{DPI: 300}, series); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&b)
	if err != nil {
		t.Fatal(err)
	}
	if r := img.Bounds(); r.Dx() != 2700 || r.Dy() != 2250 {
		t.Errorf("300 dpi image %v", r)
	}
	b.Reset()
	if err := Curves(&b, "svg", Options{Title: "4x6, alpha 0.1 <seed 1>"}, series); err != nil {
		t.Fatal(err)
	}
	texts := svgTexts(t, b.Bytes())
	if count(texts, "4x6, alpha 0.1 <seed 1>") != 1 || count(texts, "Learning curve: a (network 4x6)") != 0 {
		t.Errorf("title: texts %v", texts)
	}
	if err := Curves(io.Discard, "png", Options{DPI: -1}, series); err == nil {
		t.Error("a negative resolution accepted")
	}
}

func TestGames(t *testing.T) {
	a, b := synth("a", 2, 1000, 1), synth("b", 2, 1000, 1)
	b.Records[1].Game = "threes"
	a.Records[0].Game = "" // an old log: 2048's
	if g := Games([]Series{a}); !slices.Equal(g, []string{"2048"}) {
		t.Errorf("games %v", g)
	}
	if g := Games([]Series{b, a}); !slices.Equal(g, []string{"2048", "threes"}) {
		t.Errorf("games %v", g)
	}
}

func TestCurvesErrors(t *testing.T) {
	if err := Curves(io.Discard, "gif", Options{}, []Series{synth("a", 3, 1000, 1)}); err == nil {
		t.Error("gif accepted")
	}
	if err := Curves(io.Discard, "png", Options{}, nil); err == nil {
		t.Error("no series accepted")
	}
	if err := Curves(io.Discard, "png", Options{}, []Series{{Label: "empty"}}); err == nil || !strings.Contains(err.Error(), "empty") {
		t.Errorf("empty series: %v", err)
	}
	for path, ok := range map[string]bool{"a.png": true, "A.SVG": true, "a.pdf": true, "a.jpg": false, "a": false, "x.png.txt": false} {
		t.Run(path, func(t *testing.T) {
			if _, err := Format(path); (err == nil) != ok {
				t.Errorf("Format(%q): %v", path, err)
			}
		})
	}
}

// A mean score past any game's is refused with a message naming its
// block; one up to MaxScore draws. Such logs once kept the drawing in an
// endless loop, so each figure is bounded by a deadline that only a hang
// can reach.
func TestCurvesHugeScores(t *testing.T) {
	for _, c := range []struct {
		avg float64
		ok  bool
	}{{1e14, true}, {MaxScore, true}, {1.01 * MaxScore, false}, {1e150, false}, {1e200, false}, {1e300, false}, {math.MaxFloat64, false}, {-1, false}} {
		t.Run(fmt.Sprint(c.avg), func(t *testing.T) {
			s := Series{Label: "h", Records: []stats.Record{{Episodes: 1000, Summary: stats.Summary{Games: 1000, Avg: c.avg}}, {Episodes: 2000, Summary: stats.Summary{Games: 1000, Avg: 5}}}}
			done := make(chan error, 1)
			go func() { done <- Curves(io.Discard, "png", Options{}, []Series{s}) }()
			select {
			case err := <-done:
				if c.ok && err != nil {
					t.Fatal(err)
				}
				if !c.ok && (err == nil || !strings.Contains(err.Error(), "h: the block at 1000 episodes has a mean score of")) {
					t.Fatalf("got %v, want a refusal", err)
				}
			case <-time.After(2 * time.Minute):
				t.Fatal("the figure is still being drawn after two minutes")
			}
		})
	}
}

func TestSaveAndReadLog(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "run-7.jsonl")
	var b bytes.Buffer
	for _, r := range synth("x", 20, 500, 1).Records {
		stats.WriteRecord(&b, r)
	}
	os.WriteFile(log, b.Bytes(), 0o644)
	s, err := ReadLog(log, "")
	if err != nil || s.Label != "run-7" || len(s.Records) != 20 {
		t.Fatalf("%v %q %d", err, s.Label, len(s.Records))
	}
	out := filepath.Join(dir, "curve.png")
	for range 2 { // the second replaces the first
		if err := Save(out, Options{}, s); err != nil {
			t.Fatal(err)
		}
	}
	f, _ := os.Open(out)
	defer f.Close()
	if _, err := png.Decode(f); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("files left: %v", entries)
	}
	if err := Save(filepath.Join(dir, "c.bmp"), Options{}, s); err == nil {
		t.Error("bmp accepted")
	}
	os.WriteFile(log, []byte("{\"episodes\":1}\nnot json\n"), 0o644)
	if _, err := ReadLog(log, ""); err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("bad line: %v", err)
	}
	os.WriteFile(log, nil, 0o644)
	if _, err := ReadLog(log, ""); err == nil || !strings.Contains(err.Error(), "no statistics blocks") {
		t.Errorf("empty log: %v", err)
	}
}

func BenchmarkCurves(b *testing.B) {
	series := []Series{synth("a", 300, 1000, 1)}
	for b.Loop() {
		if err := Curves(io.Discard, "png", Options{}, series); err != nil {
			b.Fatal(err)
		}
	}
}
