package plot

import (
	"bytes"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/td2048/td2048/games"
	"github.com/td2048/td2048/stats"
)

// testdata/demo-train.txt is the real output of the course demo's 2048.cpp
// with total = 3000 (its 100000 cut down): three blocks of 1000 episodes
// between its header and its save messages.
func TestReadCourseDemo(t *testing.T) {
	s, err := ReadLog("testdata/demo-train.txt", "")
	if err != nil {
		t.Fatal(err)
	}
	if s.Label != "demo-train" || s.Tiles != nil || len(s.Records) != 3 {
		t.Fatalf("%q tiles %v, %d records", s.Label, s.Tiles, len(s.Records))
	}
	want := []struct {
		episodes int64
		avg      float64
		max      int
		reach    map[string]float64
	}{
		{1000, 7848.38, 27040, map[string]float64{"2": 1, "64": 1, "128": 0.995, "1024": 0.225, "2048": 0.006, "4096": -1}},
		{2000, 11458.9, 33508, map[string]float64{"64": 1, "128": 1, "512": 0.917, "2048": 0.033}},
		{3000, 13187.5, 36324, map[string]float64{"256": 0.994, "2048": 0.063, "4096": -1}},
	}
	for i, w := range want {
		r := s.Records[i]
		if r.Episodes != w.episodes || r.Games != 1000 || r.Avg != w.avg || r.Max != w.max || r.Game != "2048" || r.Alpha != 0.1 {
			t.Errorf("block %d: %+v", i+1, r)
		}
		for k, v := range w.reach {
			got, ok := r.Reach[k]
			if v < 0 && ok || v >= 0 && (!ok || math.Abs(got-v) > 1e-9) {
				t.Errorf("block %d: reach of %s %v (%v), want %v", i+1, k, got, ok, v)
			}
		}
	}
	if e := s.Records[0].End["2048"]; math.Abs(e-0.006) > 1e-9 {
		t.Errorf("end share of 2048 %v", e)
	}
}

// testdata/demo-train-py.txt is the real output of the course demo's
// 2048.py, stopped after its first block: Python prints the mean with all
// its digits and the shares with one decimal.
func TestReadCourseDemoPython(t *testing.T) {
	s, err := ReadLog("testdata/demo-train-py.txt", "")
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Records) != 1 {
		t.Fatalf("%d records", len(s.Records))
	}
	r := s.Records[0]
	if r.Episodes != 1000 || r.Avg != 7928.632 || r.Max != 29816 || r.Reach["2048"] != 0.005 || r.Reach["1024"] != 0.248 || r.End["1024"] != 0.243 {
		t.Errorf("%+v", r)
	}
}

// The blocks td2048 train prints, 2048's and Threes!'s, read back as the
// records its metrics log holds for the same blocks.
func TestReadCourseRoundTrip(t *testing.T) {
	for _, name := range games.Names() {
		t.Run(name, func(t *testing.T) {
			g := games.MustLookup(name)
			rng := rand.New(rand.NewPCG(1, 2))
			var out bytes.Buffer
			out.WriteString("td2048 train\ngame = " + g.Title + "\nnetwork = 4x6 (012345 ...)\nalpha = 0.025\nseed = 9\n")
			var want []stats.Record
			for k := 1; k <= 4; k++ {
				var b stats.Block
				for range 500 {
					top := 6 + rng.IntN(8)
					b.Add(rng.IntN(100000), top, 100)
				}
				if err := g.WriteBlock(&out, 500*k, &b, time.Second); err != nil {
					t.Fatal(err)
				}
				want = append(want, stats.NewRecord(int64(500*k), &b, g.Value))
			}
			out.WriteString("2000 episodes in 3s; saved weights.td2048\n")
			recs, err := ReadCourse(&out)
			if err != nil {
				t.Fatal(err)
			}
			if len(recs) != len(want) {
				t.Fatalf("%d records, want %d", len(recs), len(want))
			}
			for i, w := range want {
				r := recs[i]
				if r.Episodes != w.Episodes || r.Games != 500 || math.Abs(r.Avg-w.Avg) > 1 || r.Max != w.Max ||
					r.Game != g.Name || r.Network != "4x6" || r.Alpha != 0.025 || r.Seed != 9 {
					t.Errorf("block %d: %+v, want %+v", i+1, r, w)
				}
				for j := 1; j < 16; j++ {
					k := strconv.Itoa(g.Value(j))
					if w.Reach[k] > 0 && w.Reach[k] < 1 && math.Abs(r.Reach[k]-w.Reach[k]) > 1e-6 {
						t.Errorf("block %d: reach of %s %v, want %v", i+1, k, r.Reach[k], w.Reach[k])
					}
				}
			}
		})
	}
}

// A tile no game ended on has the reach of the next tile listed above it
// (all games' below the first listed); no tile is made up above the
// largest listed.
func TestReadCourseFillsTiles(t *testing.T) {
	for _, c := range []struct{ name, in, tile, next string }{
		{"2048", "1000\tavg = 5\tmax = 9\n\t1024\t50%\t(10%)\n\t4096\t40%\t(40%)\n", "2048", "8192"},
		{"spaces, Python's digits", "1000  avg = 5.25  max = 9\n    1024    50.0%    (10.0%)\n    4096    40.0%    (40.0%)\n", "2048", "8192"},
		{"Threes!", "200\tavg = 5, max = 9, ops = 1 (1|1)\n\t2\t100%\t(10%)\n\t6\t90%\t(90%)\n", "3", "12"},
	} {
		t.Run(c.name, func(t *testing.T) {
			recs, err := ReadCourse(strings.NewReader(c.in))
			if err != nil || len(recs) != 1 {
				t.Fatalf("%v %+v", err, recs)
			}
			r := recs[0]
			if v, ok := r.Reach[c.tile]; !ok || v != 0.4 && v != 0.9 {
				t.Errorf("reach of %s: %v %v (%v)", c.tile, v, ok, r.Reach)
			}
			if _, ok := r.Reach[c.next]; ok {
				t.Errorf("reach of %s made up: %v", c.next, r.Reach)
			}
			if _, ok := r.End[c.tile]; ok {
				t.Errorf("end share of %s made up: %v", c.tile, r.End)
			}
		})
	}
}

func TestReadCourseBad(t *testing.T) {
	block := func(n int) string { return strconv.Itoa(n) + "\tavg = 5\tmax = 9\n\t2\t100%\t(60%)\n\t4\t40%\t(40%)\n" }
	for _, c := range []struct{ name, in, err string }{
		{"a block short of its games", "1000\tavg = 5\tmax = 9\n\t2\t100%\t(60%)\n" + block(2000), "line 3: the block of line 1 stops"},
		{"episodes going back", block(2000) + block(1000), "line 4: a block at 1000 episodes after one at 2000"},
		{"shares out of order", "1000\tavg = 5\tmax = 9\n\t2\t30%\t(60%)\n", "line 2: not a tile line"},
		{"tiles out of order", "1000\tavg = 5\tmax = 9\n\t4\t100%\t(60%)\n\t2\t40%\t(40%)\n", "line 3: tile 2 after tile 4"},
		{"a bad mean", "1000\tavg = 5x\tmax = 9\n", "line 1: not a statistics block's line"},
		{"an infinite mean", "1000\tavg = +Inf\tmax = 9\n", "line 1: not a statistics block's line"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if _, err := ReadCourse(strings.NewReader(c.in)); err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("got %v, want %q", err, c.err)
			}
		})
	}
	// A rate that is not a finite number is read as none, in either
	// printed output.
	recs, err := ReadCourse(strings.NewReader("td2048 train\nalpha = NaN\n" + block(1000)))
	if err != nil || len(recs) != 1 || recs[0].Alpha != 0 {
		t.Errorf("alpha = NaN: %v %+v", err, recs)
	}
	if recs, err := ReadTDL(strings.NewReader("alpha = +Inf\n" + tdlBlocks)); err != nil || len(recs) == 0 || recs[0].Alpha != 0 {
		t.Errorf("TDL2048+ alpha = +Inf: %v %+v", err, recs)
	}
	// A run still going: its last block cut off, or its last line.
	for _, tail := range []string{"3000\tavg = 5\tmax = 9\n\t2\t100%\t(60%)\n", "3000\tavg = 5\tmax = 9\n\t2\t100%\t(60%)\n\t4\t40%\t(40", "3000\tavg"} {
		recs, err := ReadCourse(strings.NewReader(block(1000) + block(2000) + tail))
		if err != nil || len(recs) != 2 {
			t.Errorf("%q: %v, %d records", tail, err, len(recs))
		}
	}
}

// ReadLog tells the course format from TDL2048+'s and a log, and one
// figure holds a course demo run beside a td2048 log.
func TestReadLogCourseBesideLog(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "mine.txt")
	os.WriteFile(p, []byte("my own program\nepisode 1 done\n1000 avg = 5 max = 9\n\t2\t100%\t(100%)\n"), 0o644)
	s, err := ReadLog(p, "")
	if err != nil || len(s.Records) != 1 || s.Records[0].Reach["2"] != 1 {
		t.Fatalf("%v %+v", err, s)
	}
	os.WriteFile(p, []byte("TDL2048-Demo\ntotal = 1000\n"), 0o644)
	if _, err := ReadLog(p, ""); err == nil || !strings.Contains(err.Error(), "no complete statistics block") {
		t.Errorf("a demo output without blocks: %v", err)
	}
	demo, err := ReadLog("testdata/demo-train.txt", "C++ demo")
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := Curves(&b, "svg", Options{}, []Series{demo, synth("td2048", 10, 1000, 20)}); err != nil {
		t.Fatal(err)
	}
	texts := svgTexts(t, b.Bytes())
	for _, l := range []string{"C++ demo", "td2048", "2048", "4096"} {
		if count(texts, l) != 1 {
			t.Errorf("legend %q appears %d times in %q", l, count(texts, l), texts)
		}
	}
}

func FuzzReadCourse(f *testing.F) {
	data, err := os.ReadFile("testdata/demo-train.txt")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	f.Add([]byte("game = Threes!\n200\tavg = 5, max = 9, ops = 1 (1|1)\n\t2\t100%\t(10%)\n\t6\t90%\t(90%)\n\n"))
	f.Add([]byte("1000  avg = 5.25  max = 9\n    1024    50.0%    (10.0%)\n    4096    40.0%    (40.0%)\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		recs, _ := ReadCourse(bytes.NewReader(in))
		prev := int64(-1)
		for _, r := range recs {
			if r.Episodes <= prev || !finite(r.Avg) || r.Game == "" {
				t.Fatalf("record %+v after %d episodes", r, prev)
			}
			for _, m := range []map[string]float64{r.Reach, r.End} {
				for _, v := range m {
					if !(v >= 0 && v <= 1) {
						t.Fatalf("shares %v", m)
					}
				}
			}
			prev = r.Episodes
		}
	})
}
