package plot

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/td2048/td2048/stats"
)

// testdata/tdl-train.txt is the real output of
// `2048 -n 4x6patt -t 3x200 -e 1x100 -s 7 -tt backward` (TDL2048+ a99f620):
// three training blocks of 200 episodes, then an evaluation of 100.
func TestReadTDLCaptured(t *testing.T) {
	f, err := os.Open("testdata/tdl-train.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := ReadTDL(f)
	if err != nil {
		t.Fatal(err)
	}
	want := []stats.Record{
		{Episodes: 200, Summary: stats.Summary{Games: 200, Avg: 3938, Max: 12416, Reach: map[string]float64{"2048": 0}}, MovesPerSec: 765189.87, Elapsed: 0.079, Alpha: 0.1},
		{Episodes: 400, Summary: stats.Summary{Games: 200, Avg: 6605, Max: 22720, Reach: map[string]float64{"2048": 0.005}}, MovesPerSec: 710116.28, Elapsed: 0.208, Alpha: 0.1},
		{Episodes: 600, Summary: stats.Summary{Games: 200, Avg: 7698, Max: 16072, Reach: map[string]float64{"2048": 0}}, MovesPerSec: 714191.78, Elapsed: 0.354, Alpha: 0.1},
	}
	if len(recs) != len(want) {
		t.Fatalf("%d records, want %d (the evaluation block skipped): %+v", len(recs), len(want), recs)
	}
	for i, w := range want {
		r := recs[i]
		if r.Episodes != w.Episodes || r.Games != w.Games || r.Avg != w.Avg || r.Max != w.Max ||
			len(r.Reach) != 1 || math.Abs(r.Reach["2048"]-w.Reach["2048"]) > 1e-12 ||
			math.Abs(r.MovesPerSec-w.MovesPerSec) > 1e-6 || math.Abs(r.Elapsed-w.Elapsed) > 1e-9 || r.Alpha != w.Alpha {
			t.Errorf("block %d: %+v, want %+v", i+1, r, w)
		}
	}

	s, err := ReadLog("testdata/tdl-train.txt", "")
	if err != nil || s.Label != "tdl-train" || len(s.Records) != 3 || !slices.Equal(s.Tiles, []int{2048}) {
		t.Fatalf("ReadLog: %v %q %d %v", err, s.Label, len(s.Records), s.Tiles)
	}
}

const tdlBlocks = `optimize: 2x100 unit=100 win=1024

001/002 20ms 926700.00ops
local:  avg=2029 max=6236 tile=512 win=10.00%
total:  avg=2029 max=6236 tile=512 win=10.00%

002/002 22ms 912681.82ops
local:  avg=2253 max=5820 tile=1024 win=1.50%
total:  avg=2141 max=6236 tile=1024 win=5.75%
`

// Units and winning tiles from the recipe line, recipes one after
// another, evaluation skipped, a cut-off last block ignored.
func TestReadTDLRecipes(t *testing.T) {
	in := "alpha = 1.0\n" + tdlBlocks + "\noptimize: 1:4096\n\n001/001 5ms 1.5ops\nlocal:  avg=7 max=8 tile=16 win=0.00%\n" +
		"\nevaluate: 2x10\n\n001/002 1ms 2.00ops\nlocal:  avg=1 max=2 tile=4 win=0.00%\n" +
		"\noptimize: 3x10\n001/003 1ms 3.00ops\n"
	recs, err := ReadTDL(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range recs {
		for k, v := range r.Reach {
			got = append(got, fmt.Sprintf("%d %d %g %s %g %g", r.Episodes, r.Games, r.Avg, k, v, r.Alpha))
		}
	}
	want := []string{"100 100 2029 1024 0.1 1", "200 100 2253 1024 0.015 1", "1200 1000 7 4096 0 1"}
	if !slices.Equal(got, want) {
		t.Errorf("records %q, want %q", got, want)
	}
}

func TestReadTDLBad(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"001/001 20ms 926700.00ops [0]\nlocal:  avg=1 max=2 tile=4 win=0.00%\n", "no header line thread = Px"},
		{"thread = 2x\n001/001 20ms 926700.00ops [2]\n", "naming more than 2"},
		{"thread = 2x\n001/001 20ms 926700.00ops\n", "without its thread"},
		{"thread = 2x\n001/002 1ms 1ops [1]\nlocal:  avg=1 max=2 tile=4 win=0%\n002/002 1ms 1ops [1]\nlocal:  avg=1 max=2 tile=4 win=0%\n002/002 1ms 1ops [0]\n", "block 2 of thread 0 where block 1"},
		{"thread = 0x\n", "P from 1"},
		{"001/001 1ms 1ops [x]\n", "not a TDL2048+ block line"},
		{"001/001 20ms 1ops\ntotal:  avg=1 max=2 tile=4 win=0.00%\n", "line 2"},
		{"001/001 20ms 1ops\nlocal:  avg=9 max=2 tile=4 win=0.00%\n", "above the best"},
		{"001/001 20ms 1ops\nlocal:  avg=1 max=2 tile=4 win=101%\n", "line 2"},
		{"001/002 1ms 1ops\nlocal:  avg=1 max=2 tile=4 win=0%\n003/003 1ms 1ops\n", "block 3 where block 2"},
		{"002/001 1ms 1ops\n", "line 1"},
		{"1/2 1ms -1ops\n", "not a TDL2048+ block line"},
		{"optimize: 10x0\n", "unit 0"},
		{"optimize: 10:1000\n", "power of two"},
		{"optimize: 10 win=x\n", "bad winning tile"},
		{strings.Repeat("x", 2<<20), "longer than 1 MiB"},
	} {
		t.Run(c.want, func(t *testing.T) {
			if _, err := ReadTDL(strings.NewReader(c.in)); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%.40q: %v, want an error with %q", c.in, err, c.want)
			}
		})
	}
	// A command line echoed in the header is not a block.
	recs, err := ReadTDL(strings.NewReader("2048 -n 4x6patt=320000/norm -t 1\n" + tdlBlocks))
	if err != nil || len(recs) != 2 {
		t.Errorf("header: %v %d", err, len(recs))
	}
}

// A run of two threads (-p 2): each block index of both threads makes a
// record at twice the unit, whichever thread prints first; a block only
// one thread finished is left out.
func TestReadTDLThreads(t *testing.T) {
	in := "thread = 2x\n\noptimize: 6 mode=forward\n\n" +
		"001/003 3600ms 200000.00ops [0]\nlocal:  avg=100 max=300 tile=256 win=10.00%\ntotal:  avg=100 max=300 tile=256 win=10.00%\n\n" +
		"001/003 4400ms 100000.00ops [1]\nlocal:  avg=200 max=500 tile=512 win=30.00%\ntotal:  avg=200 max=500 tile=512 win=30.00%\n\n" +
		"002/003 1000ms 300000.00ops [1]\nlocal:  avg=400 max=900 tile=512 win=50.00%\n\n" +
		"002/003 3000ms 250000.00ops [0]\nlocal:  avg=300 max=700 tile=512 win=40.00%\n\n" +
		"003/003 1000ms 1.00ops [0]\nlocal:  avg=1 max=9 tile=8 win=0.00%\n"
	recs, err := ReadTDL(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	want := []stats.Record{
		{Episodes: 2000, Summary: stats.Summary{Games: 2000, Avg: 150, Max: 500, Reach: map[string]float64{"2048": 0.2}}, MovesPerSec: 300000, Elapsed: 4},
		{Episodes: 4000, Summary: stats.Summary{Games: 2000, Avg: 350, Max: 900, Reach: map[string]float64{"2048": 0.45}}, MovesPerSec: 550000, Elapsed: 6},
	}
	if len(recs) != len(want) {
		t.Fatalf("%d records, want %d: %+v", len(recs), len(want), recs)
	}
	for i, w := range want {
		r := recs[i]
		if r.Episodes != w.Episodes || r.Games != w.Games || r.Avg != w.Avg || r.Max != w.Max ||
			math.Abs(r.Reach["2048"]-w.Reach["2048"]) > 1e-12 || r.MovesPerSec != w.MovesPerSec || math.Abs(r.Elapsed-w.Elapsed) > 1e-9 {
			t.Errorf("record %d: %+v, want %+v", i, r, w)
		}
	}
	// A second recipe goes on from the first's last record.
	recs, err = ReadTDL(strings.NewReader(in + "\noptimize: 2\n001/001 1ms 1ops [1]\nlocal:  avg=5 max=9 tile=8 win=0%\n001/001 1ms 1ops [0]\nlocal:  avg=7 max=9 tile=8 win=0%\n"))
	if err != nil || len(recs) != 3 || recs[2].Episodes != 6000 || recs[2].Avg != 6 {
		t.Errorf("two recipes: %v %+v", err, recs)
	}
}

// ReadLog tells the formats apart; a TDL2048+ series draws only the
// tile it knows, beside a td2048 log's.
func TestReadLogFormats(t *testing.T) {
	dir := t.TempDir()
	tdl := filepath.Join(dir, "tdl.txt")
	os.WriteFile(tdl, []byte(tdlBlocks), 0o644)
	s, err := ReadLog(tdl, "ref")
	if err != nil || s.Label != "ref" || len(s.Records) != 2 || !slices.Equal(s.Tiles, []int{1024}) {
		t.Fatalf("%v %+v", err, s)
	}
	if s.knows(2048) || !s.knows(1024) {
		t.Error("knows")
	}
	js := synth("js", 10, 1000, 20)
	if !js.knows(8192) {
		t.Error("a td2048 log knows every tile")
	}
	if got := reachTiles([]Series{s, js}); !slices.Equal(got, []int{1024, 2048, 4096, 8192}) {
		t.Errorf("reach tiles %v", got)
	}
	var b bytes.Buffer
	if err := Curves(&b, "svg", Options{}, []Series{s, js}); err != nil {
		t.Fatal(err)
	}
	texts := svgTexts(t, b.Bytes())
	for _, l := range []string{"ref", "js", "1024", "2048", "4096", "8192"} {
		if count(texts, l) != 1 {
			t.Errorf("legend %q appears %d times in %q", l, count(texts, l), texts)
		}
	}
	os.WriteFile(tdl, []byte("hello\nworld\n"), 0o644)
	if _, err := ReadLog(tdl, ""); err == nil || !strings.Contains(err.Error(), "neither a td2048 metrics log") {
		t.Errorf("text: %v", err)
	}
}

func FuzzReadTDL(f *testing.F) {
	data, err := os.ReadFile("testdata/tdl-train.txt")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	f.Add([]byte(tdlBlocks))
	f.Add([]byte("optimize: 1x1:2\n1/1 0ms 0ops\nlocal: avg=0 max=0 tile=0 win=0%\n"))
	f.Add([]byte("001/001 20ms 926700.00ops [0]\n"))
	f.Add([]byte("thread = 2x\noptimize: 2\n001/001 1ms 1ops [1]\nlocal:  avg=5 max=9 tile=8 win=0%\n001/001 1ms 1ops [0]\nlocal:  avg=7 max=9 tile=8 win=0%\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		recs, _ := ReadTDL(bytes.NewReader(in))
		prev := int64(0)
		for _, r := range recs {
			if r.Episodes <= prev || r.Games < 1 || r.Avg < 0 || r.Avg > float64(r.Max) ||
				!finite(r.MovesPerSec) || r.MovesPerSec < 0 || len(r.Reach) != 1 {
				t.Fatalf("record %+v after %d episodes", r, prev)
			}
			for _, v := range r.Reach {
				if !(v >= 0 && v <= 1) {
					t.Fatalf("reach %v", r.Reach)
				}
			}
			prev = r.Episodes
		}
	})
}
