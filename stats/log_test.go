package stats

import (
	"bytes"
	"math"
	"strings"
	"testing"
)

func TestLogRoundTrip(t *testing.T) {
	var b Block
	b.Add(30000, 11, 1500)
	b.Add(10000, 10, 700)
	r := NewRecord(2000, &b, Pow2)
	r.Alpha, r.Seed, r.Network, r.Game = 0.1, 7, "4x6", "2048"
	var buf bytes.Buffer
	WriteRecord(&buf, r)
	r.Episodes = 4000
	WriteRecord(&buf, r)
	buf.WriteString(`{"episodes":30`) // killed mid-line
	recs, err := ReadLog(&buf)
	if err != nil || len(recs) != 2 {
		t.Fatalf("%d records, %v", len(recs), err)
	}
	got := recs[1]
	if got.Episodes != 4000 || got.Avg != 20000 || got.ReachOf(2048) != 0.5 || got.ReachOf(1024) != 1 || got.End["1024"] != 0.5 || got.ReachOf(4096) != 0 {
		t.Fatalf("record %+v", got)
	}
	if _, err := ReadLog(strings.NewReader("{\"episodes\":1}\nnot json\n")); err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Fatalf("bad line: %v", err)
	}
}

// TestLogRefused: a record no run writes is refused with its line number:
// shares outside 0..1, episodes that do not grow, scores out of range.
func TestLogRefused(t *testing.T) {
	ok := `{"episodes":1000,"games":1000,"avg":100,"max":200,"reach":{"2048":0.5},"end":{"2048":0.25}}`
	for _, c := range []struct{ line, want string }{
		{`{"episodes":2000,"avg":100,"max":200,"reach":{"2048":5}}`, "share 5 of tile 2048"},
		{`{"episodes":2000,"avg":100,"max":200,"reach":{"2048":-0.1}}`, "share -0.1"},
		{`{"episodes":2000,"avg":100,"max":200,"reach":{"2048":0.5},"end":{"2048":0.6}}`, "tile 2048: more games end on it (0.6) than reach it (0.5)"},
		{`{"episodes":2000,"avg":100,"max":200,"reach":{"x":0.5}}`, `tile "x"`},
		{`{"episodes":1000,"avg":100,"max":200}`, "at 1000 episodes after one at 1000"},
		{`{"episodes":500,"avg":100,"max":200}`, "at 500 episodes after one at 1000"},
		{`{"episodes":-5,"avg":100,"max":200}`, "episodes count from 1"},
		{`{"episodes":2000,"avg":1.7e308,"max":200}`, "mean score 1.7e+308 outside 0 to 2^40"},
		{`{"episodes":2000,"avg":1,"max":2000000000000}`, "best score 2000000000000 above 2^40"},
		{`{"episodes":2000,"avg":-1,"max":200}`, "mean score -1 "},
		{`{"episodes":2000,"avg":300,"max":200}`, "mean score 300 above the best score 200"},
		{`{"episodes":2000,"games":-1}`, "negative"},
		{`{"episodes":2000,"avg":1e999}`, "line 2"},
	} {
		t.Run(c.want, func(t *testing.T) {
			_, err := ReadLog(strings.NewReader(ok + "\n" + c.line + "\n"))
			if err == nil || !strings.Contains(err.Error(), "line 2: ") || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s: %v", c.line, err)
			}
		})
	}
	r := Record{Episodes: 1, Avg: math.NaN()}
	if err := r.Check(); err == nil || !strings.Contains(err.Error(), "not a finite number") {
		t.Errorf("NaN mean: %v", err)
	}
}

func FuzzReadLog(f *testing.F) {
	var b Block
	b.Add(2048, 11, 100)
	var buf bytes.Buffer
	WriteRecord(&buf, NewRecord(1, &b, Pow2))
	f.Add(buf.Bytes())
	f.Add([]byte("{}\n{\"episodes\":"))
	f.Add([]byte("\n\n[1,2]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		recs, err := ReadLog(bytes.NewReader(data))
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("multi-line error %q", err)
			}
			return
		}
		// What reads back writes and reads again to the same records.
		var out bytes.Buffer
		for _, r := range recs {
			if err := WriteRecord(&out, r); err != nil {
				return // values JSON cannot hold (NaN) are the writer's to refuse
			}
		}
		again, err := ReadLog(&out)
		if err != nil || len(again) != len(recs) {
			t.Fatalf("re-read %d of %d records: %v", len(again), len(recs), err)
		}
	})
}
