package evalresult

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/td2048/td2048/internal/buildinfo"
	"github.com/td2048/td2048/stats"
)

func TestShardGames(t *testing.T) {
	// 10 games in 3 shards: 0..2, 3..5, 6..9.
	want := [][2]int{{0, 3}, {3, 3}, {6, 4}}
	for k, w := range want {
		if f, n := (Shard{k, 3}).Games(10); f != w[0] || n != w[1] {
			t.Errorf("shard %d/3 of 10: games %d+%d, want %d+%d", k, f, n, w[0], w[1])
		}
	}
	// Every game exactly once, in order, for many N and totals.
	for total := 1; total < 40; total++ {
		for n := 1; n < 50; n++ {
			next := 0
			for k := range n {
				f, c := Shard{k, n}.Games(total)
				if f != next || c < 0 {
					t.Fatalf("%d games, shard %d/%d: first %d, want %d", total, k, n, f, next)
				}
				next += c
			}
			if next != total {
				t.Fatalf("%d games in %d shards cover %d", total, n, next)
			}
		}
	}
}

func TestParseShard(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Shard
		err  string
	}{
		{"0/1", Shard{0, 1}, ""},
		{"3/4", Shard{3, 4}, ""},
		{"4/4", Shard{}, "0 <= K < N"},
		{"-1/4", Shard{}, "0 <= K < N"},
		{"1/0", Shard{}, "0 <= K < N"},
		{"1", Shard{}, "want K/N"},
		{"a/b", Shard{}, "integers"},
		{"+1/2", Shard{}, "integers"},
		{"1/2/3", Shard{}, "integers"},
	} {
		t.Run(c.in, func(t *testing.T) {
			s, err := ParseShard(c.in)
			if c.err == "" && (err != nil || s != c.want) {
				t.Errorf("ParseShard(%q) = %v, %v; want %v", c.in, s, err, c.want)
			}
			if c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)) {
				t.Errorf("ParseShard(%q) error %v; want one containing %q", c.in, err, c.err)
			}
		})
	}
}

// parts plays a made-up evaluation of total games in n shards: game i
// scores from (seed, i) alone.
func parts(total, n int, seed uint64) ([]Part, stats.Block) {
	var whole stats.Block
	game := func(i int) (int, int, int) {
		r := rand.New(rand.NewPCG(seed, uint64(i)))
		return r.IntN(100000), 3 + r.IntN(12), r.IntN(5000)
	}
	for i := range total {
		whole.Add(game(i))
	}
	var ps []Part
	for k := range n {
		s := Shard{k, n}
		first, count := s.Games(total)
		var b stats.Block
		for i := first; i < first+count; i++ {
			b.Add(game(i))
		}
		r := Result{Game: "2048", Network: "4x6", WeightsSum: "ab", Seed: seed, Depth: 2, Search: "2-ply", GamesTotal: total,
			ShardK: k, ShardN: n, First: first, ElapsedMS: 10, WallMS: int64(k), Build: testBuild()}
		r.SetBlock(&b)
		ps = append(ps, Part{Path: filepath.Join("d", s.String()), Result: r})
	}
	return ps, whole
}

// testBuild is a build with a clean commit.
func testBuild() *buildinfo.Info {
	return &buildinfo.Info{Version: "v1.2.3", Revision: "0123456789abcdef", Go: "go1.26.8", Platform: "linux/amd64", Executable: "ee"}
}

func TestMergeIsTheWhole(t *testing.T) {
	for _, n := range []int{1, 2, 3, 7, 40} {
		ps, whole := parts(37, n, 9)
		rand.New(rand.NewPCG(1, uint64(n))).Shuffle(len(ps), func(i, j int) { ps[i], ps[j] = ps[j], ps[i] })
		m, err := Merge(ps, MergeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var a, b bytes.Buffer
		mb := m.Block()
		mb.Write(&a, mb.Games, stats.Pow2)
		whole.Write(&b, whole.Games, stats.Pow2)
		if a.String() != b.String() || mb != whole {
			t.Errorf("%d shards: merged block\n%s\nwant\n%s", n, a.String(), b.String())
		}
		if m.ShardN != 1 || m.Count != 37 || m.ElapsedMS != int64(10*n) || m.WallMS != int64(n-1) {
			t.Errorf("%d shards: merged %+v", n, m)
		}
	}
}

func TestMergeRefuses(t *testing.T) {
	ps, _ := parts(20, 4, 1)
	other := func(f func(r *Result)) []Part {
		qs := append([]Part{}, ps...)
		f(&qs[2].Result)
		return qs
	}
	for _, c := range []struct {
		parts []Part
		err   string
	}{
		{ps[:3], "3 of 4 shards given; missing 3/4 (games 15..19)"},
		{append(append([]Part{}, ps...), ps[1]), "shard 1/4 given twice: d/1/4 and d/1/4"},
		{other(func(r *Result) { r.Seed = 2 }), "d/2/4 is not a shard of the evaluation of d/0/4: seed 2, not 1"},
		{other(func(r *Result) { r.WeightsSum = "cd" }), "other weights"},
		{other(func(r *Result) { r.Depth = 3 }), "search"},
		{other(func(r *Result) { r.GamesTotal = 21 }), "21 games, not 20"},
		{other(func(r *Result) { r.Game = "threes" }), "game threes"},
		{nil, "no shards"},
	} {
		t.Run(c.err, func(t *testing.T) {
			_, err := Merge(c.parts, MergeOptions{})
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("Merge error %v; want one containing %q", err, c.err)
			}
		})
	}
}

// TestMergeBuilds: shards of different builds, or of a build not recorded
// (a version 1 file), are refused with both named, unless MixedBuilds,
// which merges them into a result that records no build. Builds whose
// commit does not tell the code are told apart by their executables.
func TestMergeBuilds(t *testing.T) {
	ps, _ := parts(20, 4, 1)
	with := func(f func(b *buildinfo.Info)) []Part {
		qs := append([]Part{}, ps...)
		b := *testBuild()
		f(&b)
		qs[2].Build = &b
		return qs
	}
	for _, c := range []struct {
		name  string
		parts []Part
		err   string // "" for a merge
	}{
		{"same build", ps, ""},
		{"other commit", with(func(b *buildinfo.Info) { b.Revision = "fedcba" }), "d/0/4 and d/2/4 come from different builds of td2048 (v1.2.3 (commit 0123456789ab), go1.26.8, linux/amd64; v1.2.3 (commit fedcba), go1.26.8, linux/amd64)"},
		{"other toolchain", with(func(b *buildinfo.Info) { b.Go = "go1.27" }), "different builds"},
		{"other platform", with(func(b *buildinfo.Info) { b.Platform = "linux/arm64" }), "different builds"},
		{"same clean commit, other executable", with(func(b *buildinfo.Info) { b.Executable = "ff" }), ""},
		{"modified checkout, other executable", func() []Part {
			qs := append([]Part{}, ps...)
			for i := range qs {
				b := *testBuild()
				b.Modified, b.Executable = true, fmt.Sprint(i%2)
				qs[i].Build = &b
			}
			return qs
		}(), "executable 1"},
		{"version 1 shard", func() []Part {
			qs := append([]Part{}, ps...)
			qs[3].Build = nil
			return qs
		}(), "d/3/4 was written by a td2048 that did not record its build (result format version 1)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, err := Merge(c.parts, MergeOptions{})
			if c.err == "" {
				if err != nil || m.Build == nil || m.MixedBuilds {
					t.Fatalf("Merge = build %v mixed %v, %v", m.Build, m.MixedBuilds, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), c.err) || !strings.Contains(err.Error(), "--mixed-builds") {
				t.Fatalf("Merge error %v; want one containing %q", err, c.err)
			}
			m, err = Merge(c.parts, MergeOptions{MixedBuilds: true})
			if err != nil || m.Build != nil || !m.MixedBuilds {
				t.Fatalf("Merge with mixed builds = build %v mixed %v, %v", m.Build, m.MixedBuilds, err)
			}
			// The merge records that it mixed builds, and is refused as a
			// shard of a merge with another build.
			var buf bytes.Buffer
			Encode(&buf, m)
			if !strings.Contains(buf.String(), `"mixed_builds": true`) {
				t.Fatalf("merged file: %s", buf.String())
			}
		})
	}
	// A whole evaluation of a version 1 file merges alone.
	one, _ := parts(5, 1, 2)
	one[0].Build = nil
	if _, err := Merge(one, MergeOptions{}); err != nil {
		t.Fatal(err)
	}
}

// TestRerun: a result is the same evaluation as another when everything
// but the build, the times and the statistics file's presence agree.
func TestRerun(t *testing.T) {
	ps, _ := parts(20, 4, 1)
	prev := ps[1].Result
	for _, c := range []struct {
		name string
		f    func(r *Result)
		want string
	}{
		{"same", func(r *Result) {}, ""},
		{"other build and times", func(r *Result) { r.Build = nil; r.ElapsedMS, r.WallMS, r.Threads = 99, 99, 7 }, ""},
		{"with statistics", func(r *Result) { r.Stats = "s.txt" }, ""},
		{"seed", func(r *Result) { r.Seed = 99 }, "seed 99, not 1"},
		{"weights", func(r *Result) { r.WeightsSum = "cd" }, "other weights"},
		{"search", func(r *Result) { r.Search = "3-ply" }, `search "3-ply", not "2-ply"`},
		{"games", func(r *Result) { r.GamesTotal = 3 }, "an evaluation of 3 games, not 20"},
		{"shard", func(r *Result) { r.ShardK = 2 }, "shard 2/4, not 1/4"},
		{"shards", func(r *Result) { r.ShardK, r.ShardN = 0, 1 }, "one of 1 shards, not 4"},
	} {
		t.Run(c.name, func(t *testing.T) {
			next := prev
			c.f(&next)
			if got := Rerun(&prev, &next); (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
				t.Fatalf("Rerun = %q, want %q", got, c.want)
			}
		})
	}
}

// TestVersion1: a file of format version 1 (no build) still reads, with
// its checksum checked; a version newer than this td2048's is refused.
func TestVersion1(t *testing.T) {
	ps, _ := parts(20, 4, 1)
	r := ps[0].Result
	r.Build = nil
	r.Format, r.Version = Format, 1
	sum, err := checksum(&r, &r.Checksum)
	js, _ := json.Marshal(r)
	if err != nil || strings.Contains(string(js), "build") {
		t.Fatalf("%v %s", err, js)
	}
	r.Checksum = sum
	v1, _ := json.MarshalIndent(r, "", "  ")
	got, err := Decode(bytes.NewReader(v1))
	if err != nil || got.Version != 1 || got.Build != nil || got.Block() != r.Block() {
		t.Fatalf("version 1: %+v, %v", got, err)
	}
	newer := bytes.Replace(v1, []byte(`"version": 1`), []byte(`"version": 3`), 1)
	if _, err := Decode(bytes.NewReader(newer)); err == nil || !strings.Contains(err.Error(), "version 3: this td2048 reads versions 1 to 2") {
		t.Fatalf("version 3: %v", err)
	}
}

// TestGamesBound: every shard of the largest evaluation has its games in
// range, and a result of more games is refused.
func TestGamesBound(t *testing.T) {
	for _, n := range []int{1, 3, 4, MaxShards - 1, MaxShards} {
		next := 0
		for _, k := range []int{0, 1, n / 2, n - 2, n - 1} {
			if k < 0 || k >= n {
				continue
			}
			first, count := Shard{k, n}.Games(MaxGames)
			if first < 0 || count < 0 || first+count > MaxGames || first < next && k > 0 {
				t.Fatalf("shard %d/%d of %d games: %d+%d", k, n, MaxGames, first, count)
			}
			next = first
		}
	}
	ps, _ := parts(20, 1, 1)
	r := ps[0].Result
	r.GamesTotal, r.Count = MaxGames+1, MaxGames+1
	if err := r.check(); err == nil || !strings.Contains(err.Error(), "shard 0/1 of 1099511627777 games") {
		t.Fatalf("check of %d games: %v", r.GamesTotal, err)
	}
}

func TestEncodeDecode(t *testing.T) {
	ps, _ := parts(20, 4, 1)
	var buf bytes.Buffer
	if err := Encode(&buf, ps[1].Result); err != nil {
		t.Fatal(err)
	}
	r, err := Decode(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	want := ps[1].Result
	want.Format, want.Version, want.Checksum = Format, Version, r.Checksum
	if r.Block() != want.Block() || r.First != want.First || r.Seed != want.Seed || r.Checksum == "" {
		t.Errorf("decoded %+v, want %+v", r, want)
	}
	// One digit changed: the checksum catches it.
	bad := bytes.Replace(buf.Bytes(), []byte(`"seed": 1`), []byte(`"seed": 2`), 1)
	if _, err := Decode(bytes.NewReader(bad)); err == nil || !strings.Contains(err.Error(), "checksum") {
		t.Errorf("changed seed: %v", err)
	}
	// A file cut short or not JSON is said to be so in plain words.
	for in, want := range map[string]string{
		buf.String()[:buf.Len()/2]: "not an evaluation result: the JSON ends early (cut short?)",
		"td2048\n{}":               "not an evaluation result: not valid JSON at byte 2",
		"[1]":                      "not an evaluation result: the JSON value: a list, want an object",
	} {
		if _, err := Decode(strings.NewReader(in)); err == nil || err.Error() != want {
			t.Errorf("Decode(%.40q): %v, want %s", in, err, want)
		}
	}
	for _, in := range []string{"", "{}", `{"format":"x"}`, "[1]", buf.String() + "{}"} {
		if _, err := Decode(strings.NewReader(in)); err == nil {
			t.Errorf("Decode(%.40q) accepted", in)
		}
	}
}

func TestWriteRead(t *testing.T) {
	ps, _ := parts(5, 1, 3)
	path := filepath.Join(t.TempDir(), "r.json")
	if err := Write(path, ps[0].Result); err != nil {
		t.Fatal(err)
	}
	r, err := Read(path)
	if err != nil || r.Block() != ps[0].Block() {
		t.Fatalf("Read = %+v, %v", r, err)
	}
}

func FuzzParseShard(f *testing.F) {
	for _, s := range []string{"0/1", "3/4", "9/8", "-1/2", "a/b", "1048575/1048576", "", "/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sh, err := ParseShard(s)
		if err != nil {
			return
		}
		if sh.K < 0 || sh.K >= sh.N || sh.N > MaxShards {
			t.Fatalf("ParseShard(%q) = %v", s, sh)
		}
		if back, err := ParseShard(sh.String()); err != nil || back != sh {
			t.Fatalf("round trip of %v: %v, %v", sh, back, err)
		}
	})
}

func FuzzDecode(f *testing.F) {
	ps, _ := parts(20, 4, 1)
	var buf bytes.Buffer
	Encode(&buf, ps[3].Result)
	f.Add(buf.Bytes())
	f.Add([]byte("{}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := Decode(bytes.NewReader(data))
		if err != nil {
			return
		}
		// What Decode accepts is consistent and round-trips.
		if err := r.check(); err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		if err := Encode(&out, r); err != nil {
			t.Fatal(err)
		}
		r2, err := Decode(&out)
		if err != nil || r.Version == Version && r2.Checksum != r.Checksum {
			t.Fatalf("round trip: %v", err)
		}
		if _, err := Merge([]Part{{"a", r}}, MergeOptions{}); err != nil && r.ShardN == 1 {
			t.Fatalf("a whole evaluation does not merge alone: %v", err)
		}
	})
}
