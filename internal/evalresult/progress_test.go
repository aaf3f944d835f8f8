package evalresult

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/td2048/td2048/stats"
)

// progress is a record of the first done games of shard 1 of 4 of a
// 20-game evaluation (games 5..9), with a statistics file.
func progress(done int) Progress {
	ps, _ := parts(20, 4, 1)
	r := ps[1].Result
	var b stats.Block
	for i := range done {
		b.Add(100*(i+1), 5, 50)
	}
	r.SetBlock(&b)
	r.Stats, r.StatsSHA256 = "stats-1.txt", strings.Repeat("ab", 32)
	return Progress{Done: r, StatsBytes: int64(30 * done)}
}

func TestProgressEncodeDecode(t *testing.T) {
	for _, done := range []int{0, 2, 5} {
		var buf bytes.Buffer
		if err := EncodeProgress(&buf, progress(done)); err != nil {
			t.Fatal(err)
		}
		if !IsProgress(buf.Bytes()) || IsResult(buf.Bytes()) {
			t.Errorf("%d games: IsProgress %v, IsResult %v", done, IsProgress(buf.Bytes()), IsResult(buf.Bytes()))
		}
		p, err := DecodeProgress(bytes.NewReader(buf.Bytes()))
		want := progress(done)
		if err != nil || p.Done.Count != done || p.Done.First != 5 || p.StatsBytes != int64(30*done) || p.Done.Block() != want.Done.Block() {
			t.Fatalf("%d games: decoded %+v, %v", done, p, err)
		}
		// Never taken for a result.
		if _, err := Decode(bytes.NewReader(buf.Bytes())); err == nil || !strings.Contains(err.Error(), "the progress record of a shard under way, not a result") {
			t.Errorf("Decode of a progress record: %v", err)
		}
	}
	var buf bytes.Buffer
	EncodeProgress(&buf, progress(2))
	bad := bytes.Replace(buf.Bytes(), []byte(`"stats_bytes": 60`), []byte(`"stats_bytes": 90`), 1)
	if _, err := DecodeProgress(bytes.NewReader(bad)); err == nil || !strings.Contains(err.Error(), "checksum") {
		t.Errorf("changed stats_bytes: %v", err)
	}
	var res bytes.Buffer
	Encode(&res, progress(5).Done)
	if !IsResult(res.Bytes()) || IsProgress(res.Bytes()) {
		t.Error("a result file not told from a progress record")
	}
	if _, err := DecodeProgress(bytes.NewReader(res.Bytes())); err == nil || !strings.Contains(err.Error(), "not an evaluation's progress record") {
		t.Errorf("DecodeProgress of a result: %v", err)
	}
}

// Inconsistent records are refused even with a good checksum.
func TestProgressCheck(t *testing.T) {
	for _, c := range []struct {
		name string
		edit func(p *Progress)
		want string
	}{
		{"more games than the shard's", func(p *Progress) { p.Done = progress(6).Done }, "is games 5..9, not 5..10"},
		{"another first game", func(p *Progress) { p.Done.First = 4 }, "not 4..5"},
		{"tiles", func(p *Progress) { p.Done.End[5]++ }, "tile counts add up to 3 games, not 2"},
		{"stats without a name", func(p *Progress) { p.Done.Stats = "" }, "statistics file"},
		{"bytes without stats", func(p *Progress) { p.Done.Stats, p.Done.StatsSHA256 = "", "" }, `statistics file "" of 60 bytes`},
		{"negative bytes", func(p *Progress) { p.StatsBytes = -1 }, "of -1 bytes"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := progress(2)
			c.edit(&p)
			var buf bytes.Buffer
			if err := EncodeProgress(&buf, p); err != nil {
				t.Fatal(err)
			}
			if _, err := DecodeProgress(&buf); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("DecodeProgress: %v; want %q", err, c.want)
			}
		})
	}
}

func TestProgressWriteRead(t *testing.T) {
	path := filepath.Join(t.TempDir(), "part-1.json.progress")
	if err := WriteProgress(path, progress(3)); err != nil {
		t.Fatal(err)
	}
	if p, err := ReadProgress(path); err != nil || p.Done.Count != 3 {
		t.Fatalf("ReadProgress = %+v, %v", p, err)
	}
	if _, err := Read(path); err == nil || !strings.HasPrefix(err.Error(), path+": the progress record") {
		t.Errorf("Read of a progress record: %v", err)
	}
}

func FuzzDecodeProgress(f *testing.F) {
	var buf bytes.Buffer
	EncodeProgress(&buf, progress(3))
	f.Add(buf.Bytes())
	f.Add([]byte("{}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := DecodeProgress(bytes.NewReader(data))
		if err != nil {
			return
		}
		// What DecodeProgress accepts is consistent and round-trips.
		if err := p.check(); err != nil {
			t.Fatal(err)
		}
		first, count := p.Done.Shard().Games(p.Done.GamesTotal)
		if p.Done.First != first || p.Done.Count > count {
			t.Fatalf("games %d+%d of shard games %d+%d", p.Done.First, p.Done.Count, first, count)
		}
		var out bytes.Buffer
		if err := EncodeProgress(&out, p); err != nil {
			t.Fatal(err)
		}
		if p2, err := DecodeProgress(&out); err != nil || p2.Checksum != p.Checksum {
			t.Fatalf("round trip: %v", err)
		}
	})
}
