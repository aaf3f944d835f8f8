package stats

import (
	"bytes"
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
	WriteRecord(&buf, r)
	buf.WriteString(`{"episodes":30`) // killed mid-line
	recs, err := ReadLog(&buf)
	if err != nil || len(recs) != 2 {
		t.Fatalf("%d records, %v", len(recs), err)
	}
	got := recs[1]
	if got.Episodes != 2000 || got.Avg != 20000 || got.ReachOf(2048) != 0.5 || got.ReachOf(1024) != 1 || got.End["1024"] != 0.5 || got.ReachOf(4096) != 0 {
		t.Fatalf("record %+v", got)
	}
	if _, err := ReadLog(strings.NewReader("{}\nnot json\n")); err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Fatalf("bad line: %v", err)
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
