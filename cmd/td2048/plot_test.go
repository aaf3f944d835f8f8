package main

import (
	"bytes"
	"encoding/xml"
	"image"
	"image/png"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/td2048/td2048/internal/plot"
	"github.com/td2048/td2048/stats"
)

// writeLog writes a synthetic metrics log of n blocks of 1000 episodes.
func writeLog(t *testing.T, path string, n int, speed float64) {
	t.Helper()
	var b bytes.Buffer
	for i := 1; i <= n; i++ {
		x := float64(i) / 100 * speed
		r := stats.Record{Episodes: int64(1000 * i), Games: 1000, Network: "4x6", Game: "2048",
			Avg:   2000 + 50000*(1-math.Exp(-2*x)),
			Reach: map[string]float64{"2048": min(1, x), "4096": min(1, x/3)}}
		if i > n/2 {
			r.Reach["8192"] = 0.01
		}
		if err := stats.WriteRecord(&b, r); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// svgTextCount counts the <text> elements of an SVG equal to each of want,
// failing if the file is not XML.
func svgTextCount(t *testing.T, path string, want ...string) map[string]int {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	counts := map[string]int{}
	dec := xml.NewDecoder(bytes.NewReader(data))
	in := false
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("%s is not XML: %v", path, err)
		}
		switch tk := tok.(type) {
		case xml.StartElement:
			in = tk.Name.Local == "text"
		case xml.EndElement:
			in = false
		case xml.CharData:
			if in {
				counts[strings.TrimSpace(string(tk))]++
			}
		}
	}
	return counts
}

func TestPlotCommand(t *testing.T) {
	dir := t.TempDir()
	logs := []string{filepath.Join(dir, "base.jsonl"), filepath.Join(dir, "fast.jsonl"), filepath.Join(dir, "long-run.jsonl")}
	writeLog(t, logs[0], 100, 1)
	writeLog(t, logs[1], 60, 1.6)
	writeLog(t, logs[2], 150, 0.7)

	out := filepath.Join(dir, "curve.png")
	code, stdout, errs := runCmd(t, append([]string{"plot"}, append(logs, "-o", out)...)...)
	if code != 0 {
		t.Fatalf("plot: exit %d: %s", code, errs)
	}
	if !strings.Contains(stdout, "3 logs, 310 blocks") {
		t.Errorf("stdout %q", stdout)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(f)
	f.Close()
	if err != nil || img.Bounds().Dx() < 600 {
		t.Fatalf("PNG: %v %v", err, img)
	}

	svg := filepath.Join(dir, "curve.svg")
	if code, _, errs := runCmd(t, append([]string{"plot", "-o", svg}, logs...)...); code != 0 {
		t.Fatalf("plot svg: exit %d: %s", code, errs)
	}
	c := svgTextCount(t, svg)
	for _, l := range []string{"base", "fast", "long-run", "2048", "4096", "8192"} {
		if c[l] != 1 {
			t.Errorf("legend entry %q appears %d times", l, c[l])
		}
	}
	if c["50k"] == 0 || c["100%"] == 0 || c["episodes"] != 2 {
		t.Errorf("ticks and labels: %v", c)
	}

	if code, _, errs := runCmd(t, "plot", "--label", "alpha 0.1, alpha 0.2", logs[0], logs[1], "-o", svg); code != 0 {
		t.Fatalf("--label: exit %d: %s", code, errs)
	}
	c = svgTextCount(t, svg)
	if c["alpha 0.1"] != 1 || c["alpha 0.2"] != 1 || c["base"] != 0 {
		t.Errorf("labels: %v", c)
	}
	// The default output name.
	t.Chdir(dir)
	if code, _, errs := runCmd(t, "plot", logs[0]); code != 0 {
		t.Fatalf("default -o: exit %d: %s", code, errs)
	}
	if _, err := os.Stat(filepath.Join(dir, "curve.png")); err != nil {
		t.Error(err)
	}
}

// PDF, --dpi and --title; a warning when one figure mixes games.
func TestPlotFormatsAndWarning(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl")
	writeLog(t, a, 20, 1)
	writeLog(t, b, 20, 1)
	pdf := filepath.Join(dir, "c.pdf")
	code, _, errs := runCmd(t, "plot", a, b, "-o", pdf)
	if code != 0 || errs != "" {
		t.Fatalf("pdf: exit %d: %q", code, errs)
	}
	if data, _ := os.ReadFile(pdf); !bytes.HasPrefix(data, []byte("%PDF-")) {
		t.Fatalf("%s is not a PDF: %.20q", pdf, data)
	}
	png200 := filepath.Join(dir, "c.png")
	if code, _, errs := runCmd(t, "plot", a, "-o", png200, "--dpi", "200"); code != 0 {
		t.Fatalf("--dpi: exit %d: %s", code, errs)
	}
	f, _ := os.Open(png200)
	img, err := png.Decode(f)
	f.Close()
	if err != nil || img.Bounds().Dx() != 1800 || img.Bounds().Dy() != 1500 {
		t.Fatalf("200 dpi: %v %v", err, img.Bounds())
	}
	svg := filepath.Join(dir, "c.svg")
	if code, _, errs := runCmd(t, "plot", a, "-o", svg, "--title", "Figure 3: 4x6 from zero"); code != 0 {
		t.Fatalf("--title: exit %d: %s", code, errs)
	}
	if c := svgTextCount(t, svg); c["Figure 3: 4x6 from zero"] != 1 {
		t.Errorf("title: %v", c)
	}
	for _, args := range [][]string{{"-o", svg, "--dpi", "300"}, {"-o", pdf, "--dpi", "300"}, {"-o", png200, "--dpi", "0"}} {
		if code, _, errs := runCmd(t, append([]string{"plot", a}, args...)...); code != 2 || !strings.Contains(errs, "--dpi") {
			t.Errorf("%v: exit %d, %q", args, code, errs)
		}
	}
	// A Threes! log beside 2048 logs: drawn, with a warning naming them.
	th := filepath.Join(dir, "threes-run.jsonl")
	var buf bytes.Buffer
	stats.WriteRecord(&buf, stats.Record{Episodes: 1000, Games: 1000, Avg: 3000, Game: "threes", Reach: map[string]float64{"1536": 0.1}})
	os.WriteFile(th, buf.Bytes(), 0o644)
	code, _, errs = runCmd(t, "plot", a, th, b, "-o", svg)
	if code != 0 || errs != "td2048 plot: warning: one figure mixes the games 2048 (a, b) and Threes! (threes-run): their scores and tiles do not compare\n" {
		t.Errorf("mixed games: exit %d, stderr %q", code, errs)
	}
}

func TestPlotBadInput(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.jsonl")
	writeLog(t, good, 5, 1)
	bad := filepath.Join(dir, "bad.jsonl")
	os.WriteFile(bad, []byte("{\"episodes\":1000,\"avg\":10,\"max\":20}\n{\"episodes\":2000,\"avg\":oops}\n"), 0o644)
	// Logs no run writes: a share of 5 (500%), episodes negative or
	// repeated, a score of 1.7e308.
	absurd := map[string]string{
		"share.jsonl":    `{"episodes":1000,"avg":10,"max":20,"reach":{"2048":0.5}}` + "\n" + `{"episodes":2000,"avg":10,"max":20,"reach":{"2048":5}}`,
		"negative.jsonl": `{"episodes":-1000,"avg":10,"max":20}`,
		"repeated.jsonl": `{"episodes":1000,"avg":10,"max":20}` + "\n" + `{"episodes":2000,"avg":10,"max":20}` + "\n" + `{"episodes":2000,"avg":10,"max":20}`,
		"huge.jsonl":     `{"episodes":1000,"avg":1.7e308,"max":20}`,
	}
	for name, text := range absurd {
		os.WriteFile(filepath.Join(dir, name), []byte(text+"\n"), 0o644)
	}
	empty := filepath.Join(dir, "empty.jsonl")
	os.WriteFile(empty, nil, 0o644)
	out := filepath.Join(dir, "x.png")
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"plot", filepath.Join(dir, "missing.jsonl"), "-o", out}, 1, "no such file"},
		{[]string{"plot", good, bad, "-o", out}, 1, "bad.jsonl: line 2"},
		{[]string{"plot", empty, "-o", out}, 1, "no statistics blocks"},
		{[]string{"plot", filepath.Join(dir, "share.jsonl"), "-o", out}, 1, "share.jsonl: line 2: share 5 of tile 2048 outside 0 to 1"},
		{[]string{"plot", filepath.Join(dir, "negative.jsonl"), "-o", out}, 1, "negative.jsonl: line 1: a block at -1000 episodes"},
		{[]string{"plot", filepath.Join(dir, "repeated.jsonl"), "-o", out}, 1, "repeated.jsonl: line 3: a block at 2000 episodes after one at 2000"},
		{[]string{"plot", filepath.Join(dir, "huge.jsonl"), "-o", out}, 1, "huge.jsonl: line 1: mean score 1.7e+308"},
		{[]string{"plot", good, "-o", filepath.Join(dir, "x.gif")}, 2, "unknown image format .gif"},
		{[]string{"plot", good, "-o", filepath.Join(dir, "x")}, 2, "no extension"},
		{[]string{"plot", good, "--label", "a,b", "-o", out}, 2, "2 labels for 1 log"},
		{[]string{"plot", "-o", out}, 2, "no metrics log"},
		{[]string{"plot", good, "-o", filepath.Join(dir, "nodir", "x.png")}, 2, "nodir"},
	} {
		t.Run(c.want, func(t *testing.T) {
			code, stdout, errs := runCmd(t, c.args...)
			if code != c.code || stdout != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, c.want) {
				t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit %d and one line with %q", c.args[1:], code, stdout, errs, c.code, c.want)
			}
		})
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a figure was written from bad input")
	}
}

// A TDL2048+ training output (internal/plot/testdata, a real one) beside a td2048
// log: one figure, its blocks counted, both in the legend.
func TestPlotTDL(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "td.jsonl")
	writeLog(t, log, 5, 1)
	svg := filepath.Join(dir, "cmp.svg")
	code, stdout, errs := runCmd(t, "plot", log, "../../internal/plot/testdata/tdl-train.txt", "--label", "td2048,TDL2048+", "-o", svg)
	if code != 0 || !strings.Contains(stdout, "2 logs, 8 blocks") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, errs)
	}
	c := svgTextCount(t, svg)
	if c["td2048"] != 1 || c["TDL2048+"] != 1 || c["2048"] != 1 {
		t.Errorf("legend: %v", c)
	}
}

// train's printed output is the course demo's format: plot draws it as it
// draws the run's metrics log, and beside the course demo's own output.
func TestPlotCourseOutput(t *testing.T) {
	demo, err := filepath.Abs("../../internal/plot/testdata/demo-train.txt")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	out := mustTrain(t, "--episodes", "300", "--every", "100", "--network", "2x4", "--seed", "1", "--threads", "1", "--save", "w.td2048")
	os.WriteFile("train.txt", []byte(out), 0o644)
	printed, err := plot.ReadLog("train.txt", "")
	if err != nil {
		t.Fatal(err)
	}
	logged, err := plot.ReadLog("w.jsonl", "")
	if err != nil {
		t.Fatal(err)
	}
	if len(printed.Records) != 3 || len(logged.Records) != 3 {
		t.Fatalf("%d blocks printed, %d logged", len(printed.Records), len(logged.Records))
	}
	for i, p := range printed.Records {
		l := logged.Records[i]
		if p.Episodes != l.Episodes || p.Games != l.Games || math.Abs(p.Avg-l.Avg) > 0.01*l.Avg || p.Max != l.Max ||
			p.Network != "2x4" || p.Game != "2048" || p.Seed != 1 {
			t.Errorf("block %d printed %+v, logged %+v", i+1, p, l)
		}
		for k, v := range l.Reach {
			if math.Abs(p.Reach[k]-v) > 1e-6 {
				t.Errorf("block %d: reach of %s printed %v, logged %v", i+1, k, p.Reach[k], v)
			}
		}
	}
	code, stdout, errs := runCmd(t, "plot", "train.txt", demo, "w.jsonl", "--label", "printed,C++ demo,logged", "-o", "both.svg")
	if code != 0 || stdout != "both.svg: 3 logs, 9 blocks\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, errs)
	}
	if c := svgTextCount(t, "both.svg"); c["C++ demo"] != 1 || c["printed"] != 1 || c["logged"] != 1 {
		t.Errorf("legend: %v", c)
	}
	if code, stdout, _ := runCmd(t, "plot", "w.jsonl", "-o", "one.png"); code != 0 || stdout != "one.png: 1 log, 3 blocks\n" {
		t.Errorf("one log: exit %d, %q", code, stdout)
	}
}

// Only td2048's own figures are replaced without --force: a photo, a
// drawing or a paper's PDF under a plot's name is refused by plot, by
// train --plot and by sweep report, before any work, and kept.
func TestPlotReplacesOnlyItsOwnFigures(t *testing.T) {
	t.Chdir(t.TempDir())
	writeLog(t, "run.jsonl", 5, 1)
	var photo bytes.Buffer
	png.Encode(&photo, image.NewGray(image.Rect(0, 0, 4, 4)))
	foreign := map[string][]byte{
		"photo.png":   photo.Bytes(),
		"drawing.svg": []byte("<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"/>\n"),
		"thesis.pdf":  []byte("%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n"),
	}
	for name, data := range foreign {
		t.Run(name, func(t *testing.T) {
			os.WriteFile(name, data, 0o644)
			kind := map[string]string{".png": "a PNG image", ".svg": "an SVG image", ".pdf": "a PDF image"}[filepath.Ext(name)]
			oneLine(t, []string{"plot", "run.jsonl", "-o", name}, 1, name+" holds "+kind+" that td2048 did not draw; not overwriting it")
			oneLine(t, []string{"train", "--episodes", "10", "--network", "2x4", "--save", "x.td2048", "--plot", name}, 1, name+" holds "+kind+" that td2048 did not draw")
			if got := fileBytes(t, name); !bytes.Equal(got, data) {
				t.Errorf("%s changed", name)
			}
			if _, err := os.Stat("x.td2048"); err == nil {
				t.Fatalf("train --plot %s trained before refusing", name)
			}
			if code, _, errs := runCmd(t, "plot", "run.jsonl", "-o", name, "--force"); code != 0 {
				t.Errorf("--force over %s: %s", name, errs)
			}
			if drawn, err := plot.Drawn(name); !drawn || err != nil {
				t.Errorf("%s drawn over is not td2048's: %v", name, err)
			}
			// Now td2048's own: replaced again without --force.
			if code, _, errs := runCmd(t, "plot", "run.jsonl", "-o", name); code != 0 {
				t.Errorf("replacing td2048's %s: %s", name, errs)
			}
		})
	}
	os.MkdirAll("sweep/task-000", 0o755)
	os.WriteFile("sweep/task-000/task.json", []byte(`{"task":0,"label":"alpha=0.1"}`), 0o644)
	writeLog(t, "sweep/task-000/weights.jsonl", 5, 1)
	os.WriteFile("sweep/curves.png", photo.Bytes(), 0o644)
	oneLine(t, []string{"sweep", "report", "sweep"}, 1, "curves.png holds a PNG image that td2048 did not draw")
	if code, out, errs := runCmd(t, "sweep", "report", "sweep", "--plot", "sweep/mine.svg"); code != 0 || !strings.Contains(out, "curves = sweep/mine.svg") {
		t.Errorf("sweep report --plot: exit %d, %q, %q", code, out, errs)
	}
	if code, _, errs := runCmd(t, "sweep", "report", "sweep", "--plot", "sweep/mine.svg"); code != 0 {
		t.Errorf("sweep report over its own figure: %s", errs)
	}
	if !bytes.Equal(fileBytes(t, "sweep/curves.png"), photo.Bytes()) {
		t.Error("sweep report replaced the photo")
	}
}
