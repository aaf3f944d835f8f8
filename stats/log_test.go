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
