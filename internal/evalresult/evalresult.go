// Package evalresult is the result file of one shard of an evaluation
// (td2048 eval --shard K/N --out part.json), and the merge of a full set
// of shards into the result of the whole evaluation.
//
// A shard K of N of an evaluation of G games plays the contiguous games
// K*G/N .. (K+1)*G/N-1; game i draws its tiles from (seed, i) alone, so
// the shards together play exactly the games of one unsharded run, and
// their merge holds exactly its counts: the per-tile counts, the score
// sum, the best score and the moves are integers, added in any order
// (no float is summed), so the statistics block printed from a merge is
// byte for byte the one the unsharded run prints.
//
// The file is one JSON object, written atomically, whose "checksum" is the
// SHA-256 of the object's canonical encoding with the checksum empty. Its
// fields are those of Result, each documented there; they say what was
// evaluated (the game, network, weights' checksum, seed and search), which
// games (the game count, the shard and its first game), by which build of
// td2048, and the counts the statistics are made of.
//
// A shard under way records the games it has finished in a Progress, a
// file of its own beside the result (progress.go), so that a rerun
// continues from its first unfinished game.
//
// Versions: version 1 lacks the build; version 2 adds it ("build") and
// "mixed_builds". Decode reads both. A field added later is omitted when
// zero, so that an older file's checksum still verifies (the encoding of
// its fields is unchanged), and comes with a new Version, so that an older
// td2048 refuses a file it cannot read whole instead of misreading it.
package evalresult

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/td2048/td2048/internal/buildinfo"
	"github.com/td2048/td2048/internal/jsonerr"
	"github.com/td2048/td2048/internal/safefile"
	"github.com/td2048/td2048/stats"
)

// Format names the file format in Result.Format.
const Format = "td2048-eval-result"

// Version is the format version this package writes; it reads this one
// and every older one (see the package comment).
const Version = 2

// MaxShards bounds N in a shard K/N.
const MaxShards = 1 << 20

// MaxGames bounds the games of an evaluation: 2^40, about 1.1e12, so that
// a shard's range (K*games/N) and the sums of scores and moves stay far
// inside 64 bits.
const MaxGames = 1 << 40

// A Shard is part K (from 0) of N of an evaluation.
type Shard struct{ K, N int }

func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.K, s.N) }

// Games returns the games of the shard in an evaluation of total games:
// first .. first+count-1.
// total is at most MaxGames and s a valid shard (ParseShard's bounds).
func (s Shard) Games(total int) (first, count int) {
	lo := int(int64(s.K) * int64(total) / int64(s.N))
	hi := int(int64(s.K+1) * int64(total) / int64(s.N))
	return lo, hi - lo
}

// ParseShard reads "K/N" with 0 <= K < N <= MaxShards.
func ParseShard(v string) (Shard, error) {
	ks, ns, ok := strings.Cut(v, "/")
	if !ok {
		return Shard{}, fmt.Errorf("shard %q: want K/N (part K, from 0, of N), or auto", v)
	}
	k, err1 := strconv.Atoi(ks)
	n, err2 := strconv.Atoi(ns)
	if err1 != nil || err2 != nil || strings.HasPrefix(ks, "+") || strings.HasPrefix(ns, "+") {
		return Shard{}, fmt.Errorf("shard %q: K and N must be integers (K/N: part K, from 0, of N)", v)
	}
	if n < 1 || n > MaxShards || k < 0 || k >= n {
		return Shard{}, fmt.Errorf("shard %q: want 0 <= K < N <= %d", v, MaxShards)
	}
	return Shard{k, n}, nil
}

// Result is one shard's evaluation, or the merge of all of them (Shard N
// 1 then, First 0 and Count GamesTotal).
type Result struct {
	Format   string `json:"format"`   // always Format
	Version  int    `json:"version"`  // the format's version: 1 or 2
	Checksum string `json:"checksum"` // SHA-256 of the encoding with this empty

	// What was evaluated: a merge refuses shards that differ in any.
	Game        string  `json:"game"`    // "2048" or "threes"
	Network     string  `json:"network"` // ntuple.Spec.String()
	NetworkText string  `json:"network_text"`
	WeightsSum  string  `json:"weights_checksum"` // netfile.FileSum
	Weights     string  `json:"weights"`          // the path the shard loaded (not compared)
	Trained     int64   `json:"trained_episodes"`
	Learner     string  `json:"learner"`
	Seed        uint64  `json:"seed"`
	Depth       int     `json:"depth"`
	MoveTime    float64 `json:"move_time_s"`
	Cache       int64   `json:"cache_bytes"`
	Search      string  `json:"search"` // as eval prints it
	GamesTotal  int     `json:"games_total"`
	ShardK      int     `json:"shard"`
	ShardN      int     `json:"shards"`
	First       int     `json:"first_game"`
	Count       int     `json:"games"`
	Sum         int64   `json:"score_sum"`
	MaxScore    int     `json:"max_score"`
	Moves       int64   `json:"moves"`
	End         []int   `json:"end"`        // games whose largest tile index was exactly i
	ElapsedMS   int64   `json:"elapsed_ms"` // summed over shards in a merge
	WallMS      int64   `json:"wall_ms"`    // the longest shard's
	Threads     int     `json:"threads"`

	// Threes!: the rest of the course summary, and the statistics file.
	Placements  int64  `json:"placements,omitempty"`
	TimeMS      int64  `json:"time_ms,omitempty"`
	SlideMS     int64  `json:"slide_ms,omitempty"`
	PlaceMS     int64  `json:"place_ms,omitempty"`
	Stats       string `json:"stats,omitempty"` // relative to the result file's folder
	StatsSHA256 string `json:"stats_sha256,omitempty"`

	// Version 2. Build is the td2048 that played the games (of a merge:
	// of all its shards); nil in a version 1 file and in a merge of shards
	// of different builds, which sets MixedBuilds.
	Build       *buildinfo.Info `json:"build,omitempty"`
	MixedBuilds bool            `json:"mixed_builds,omitempty"`
}

// Shard is the result's shard.
func (r *Result) Shard() Shard { return Shard{r.ShardK, r.ShardN} }

// Block is the result's statistics.
func (r *Result) Block() stats.Block {
	b := stats.Block{Games: r.Count, Sum: r.Sum, MaxScore: r.MaxScore, Moves: r.Moves}
	copy(b.End[:], r.End)
	return b
}

// SetBlock sets the result's statistics from b.
func (r *Result) SetBlock(b *stats.Block) {
	r.Count, r.Sum, r.MaxScore, r.Moves = b.Games, b.Sum, b.MaxScore, b.Moves
	n := len(b.End)
	for n > 0 && b.End[n-1] == 0 {
		n--
	}
	r.End = append([]int{}, b.End[:n]...)
}

// Speed is the speed of a result's Threes! games (the course summary's):
// its slides are the Block's moves.
func (r *Result) Speed() stats.Speed {
	return stats.Speed{Slides: r.Moves, Placements: r.Placements, Time: r.TimeMS, SlideTime: r.SlideMS, PlaceTime: r.PlaceMS}
}

// SetSpeed sets the result's speed from sp but its slides, which SetBlock
// sets as the moves.
func (r *Result) SetSpeed(sp *stats.Speed) {
	r.Placements, r.TimeMS, r.SlideMS, r.PlaceMS = sp.Placements, sp.Time, sp.SlideTime, sp.PlaceTime
}

// checksum is the SHA-256 of v's JSON encoding with its checksum field,
// *sum, empty.
func checksum(v any, sum *string) (string, error) {
	keep := *sum
	*sum = ""
	js, err := json.Marshal(v)
	*sum = keep
	if err != nil {
		return "", err
	}
	h := sha256.Sum256(js)
	return hex.EncodeToString(h[:]), nil
}

// encode writes v, its checksum field *sum set, as indented JSON and a
// newline.
func encode(w io.Writer, v any, sum *string) error {
	s, err := checksum(v, sum)
	if err != nil {
		return err
	}
	*sum = s
	js, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(js, '\n'))
	return err
}

// Encode writes r, checksummed, as indented JSON and a newline.
func Encode(w io.Writer, r Result) error {
	r.Format, r.Version = Format, Version
	return encode(w, &r, &r.Checksum)
}

// Write saves r at path atomically.
func Write(path string, r Result) error {
	return safefile.WriteAtomic(path, func(w io.Writer) error { return Encode(w, r) })
}

// maxFile bounds a result file's size.
const maxFile = 1 << 20

// readData reads a whole file of the package's, what it is to be ("an
// evaluation result") saying what it is not when too large.
func readData(rd io.Reader, what string) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(rd, maxFile+1))
	if err == nil && len(data) > maxFile {
		err = fmt.Errorf("not %s: larger than 1 MiB", what)
	}
	return data, err
}

// decode reads data, one JSON object, into v, refusing unknown fields and
// anything after the object, what saying what it is not if so.
func decode(data []byte, v any, what string) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("not %s: %w", what, jsonerr.Plain(err))
	}
	if dec.More() {
		return fmt.Errorf("not %s: data after the object", what)
	}
	return nil
}

// Decode reads one result, checking its format, checksum and counts.
func Decode(rd io.Reader) (Result, error) {
	data, err := readData(rd, "an evaluation result")
	if err != nil {
		return Result{}, err
	}
	var head struct {
		Format string `json:"format"`
	}
	if json.Unmarshal(data, &head) == nil && head.Format == ProgressFormat {
		return Result{}, errors.New("the progress record of a shard under way, not a result: rerun the shard's command to finish it")
	}
	var r Result
	if err := decode(data, &r, "an evaluation result"); err != nil {
		return Result{}, err
	}
	if r.Format != Format {
		return Result{}, fmt.Errorf("not an evaluation result: format %q", r.Format)
	}
	if r.Version < 1 || r.Version > Version {
		return Result{}, fmt.Errorf("evaluation result version %d: this td2048 reads versions 1 to %d (a newer td2048 wrote it?)", r.Version, Version)
	}
	if sum, err := checksum(&r, &r.Checksum); err != nil || sum != r.Checksum {
		return Result{}, errors.New("damaged evaluation result: checksum does not match")
	}
	if err := r.check(); err != nil {
		return Result{}, fmt.Errorf("damaged evaluation result: %w", err)
	}
	return r, nil
}

// check tests the result's counts for consistency.
func (r *Result) check() error { return r.checkCounts(false) }

// checkCounts tests the counts for consistency: of all the shard's games,
// or with partial of its first r.Count.
func (r *Result) checkCounts(partial bool) error {
	if r.Game != "2048" && r.Game != "threes" {
		return fmt.Errorf("game %q", r.Game)
	}
	if r.GamesTotal < 1 || r.GamesTotal > MaxGames || r.ShardN < 1 || r.ShardN > MaxShards || r.ShardK < 0 || r.ShardK >= r.ShardN {
		return fmt.Errorf("shard %d/%d of %d games", r.ShardK, r.ShardN, r.GamesTotal)
	}
	first, count := r.Shard().Games(r.GamesTotal)
	if partial && r.Count >= 0 && r.Count <= count {
		count = r.Count // the first r.Count games of the shard
	}
	if first != r.First || count != r.Count {
		return fmt.Errorf("shard %s of %d games is games %d..%d, not %d..%d", r.Shard(), r.GamesTotal, first, first+count-1, r.First, r.First+r.Count-1)
	}
	if len(r.End) > stats.Tiles {
		return fmt.Errorf("%d tile counts", len(r.End))
	}
	n := 0
	for _, c := range r.End {
		if c < 0 {
			return errors.New("negative tile count")
		}
		n += c
	}
	if n != r.Count {
		return fmt.Errorf("tile counts add up to %d games, not %d", n, r.Count)
	}
	if r.Sum < 0 || r.MaxScore < 0 || r.Moves < 0 || r.ElapsedMS < 0 || int64(r.MaxScore) > r.Sum {
		return errors.New("negative or inconsistent score, moves or time")
	}
	return nil
}

// Read reads the result file at path.
func Read(path string) (Result, error) { return readFile(path, Decode) }

// readFile reads the file at path with read, naming the path in its
// errors.
func readFile[T any](path string, read func(io.Reader) (T, error)) (T, error) {
	f, err := os.Open(path)
	if err != nil {
		var zero T
		return zero, err
	}
	defer f.Close()
	v, err := read(f)
	if err != nil {
		return v, fmt.Errorf("%s: %w", path, err)
	}
	return v, nil
}

// A Part is a shard's result and the file it came from.
type Part struct {
	Path string
	Result
}

// sameAs names the first setting in which a differs from b.
func sameAs(a, b *Result) string {
	switch {
	case a.Game != b.Game:
		return fmt.Sprintf("game %s, not %s", a.Game, b.Game)
	case a.Network != b.Network:
		return fmt.Sprintf("network %s, not %s", a.Network, b.Network)
	case a.WeightsSum != b.WeightsSum:
		return fmt.Sprintf("other weights (%s, %s, not %s, %s)", a.Weights, a.WeightsSum, b.Weights, b.WeightsSum)
	case a.Learner != b.Learner:
		return fmt.Sprintf("learner %s, not %s", a.Learner, b.Learner)
	case a.Seed != b.Seed:
		return fmt.Sprintf("seed %d, not %d", a.Seed, b.Seed)
	case a.Depth != b.Depth || a.MoveTime != b.MoveTime || a.Search != b.Search:
		return fmt.Sprintf("search %q, not %q", a.Search, b.Search)
	case a.GamesTotal != b.GamesTotal:
		return fmt.Sprintf("an evaluation of %d games, not %d", a.GamesTotal, b.GamesTotal)
	case a.ShardN != b.ShardN:
		return fmt.Sprintf("one of %d shards, not %d", a.ShardN, b.ShardN)
	case (a.Stats == "") != (b.Stats == ""):
		return "a statistics file where the other has none, or the reverse"
	}
	return ""
}

// Rerun says how the evaluation of next differs from that of prev, "" when
// next is the same evaluation run again: the same game, network, weights
// (by checksum), learner, seed, search, games and shard, with or without a
// statistics file alike. The build and the times may differ.
func Rerun(prev, next *Result) string {
	n := *next
	n.Stats = prev.Stats
	if d := sameAs(&n, prev); d != "" {
		return d
	}
	if prev.Shard() != next.Shard() {
		return fmt.Sprintf("shard %s, not %s", next.Shard(), prev.Shard())
	}
	return ""
}

// describeBuild names the build of a result.
func describeBuild(r *Result) string {
	switch {
	case r.Build != nil:
		return r.Build.Describe()
	case r.MixedBuilds:
		return "several builds (merged with mixed builds allowed)"
	}
	return "a td2048 that did not record its build (result format version 1)"
}

// MergeOptions are the choices of Merge.
type MergeOptions struct {
	// MixedBuilds merges shards of different builds of td2048, or of
	// builds not recorded; the merge then records no build.
	MixedBuilds bool
}

// Merge merges the results of all the shards of one evaluation, given in
// any order, into the result of the whole (shard 0/1). It refuses a set
// with a shard missing or given twice, shards of different evaluations,
// or, unless opt.MixedBuilds, of different or unrecorded builds, naming
// the files. The merged Stats is empty: the caller concatenates the
// shards' statistics files (Threes!) in the order of Ordered.
func Merge(parts []Part, opt MergeOptions) (Result, error) {
	if len(parts) == 0 {
		return Result{}, errors.New("no shards to merge")
	}
	ps := Ordered(parts)
	first := &ps[0]
	seen := make(map[int]string, len(ps))
	for i := range ps {
		p := &ps[i]
		if d := sameAs(&p.Result, &first.Result); d != "" {
			return Result{}, fmt.Errorf("%s is not a shard of the evaluation of %s: %s", p.Path, first.Path, d)
		}
		if prev, dup := seen[p.ShardK]; dup {
			return Result{}, fmt.Errorf("shard %s given twice: %s and %s", p.Shard(), prev, p.Path)
		}
		seen[p.ShardK] = p.Path
	}
	if len(seen) != first.ShardN {
		var missing []string
		for k := 0; k < first.ShardN && len(missing) < 10; k++ {
			if _, ok := seen[k]; !ok {
				fst, n := Shard{k, first.ShardN}.Games(first.GamesTotal)
				missing = append(missing, fmt.Sprintf("%d/%d (games %d..%d)", k, first.ShardN, fst, fst+n-1))
			}
		}
		more := ""
		if n := first.ShardN - len(seen); n > len(missing) {
			more = fmt.Sprintf(" and %d more", n-len(missing))
		}
		return Result{}, fmt.Errorf("%d of %d shards given; missing %s%s", len(seen), first.ShardN, strings.Join(missing, ", "), more)
	}
	mixed, err := mixedBuilds(ps, opt)
	if err != nil {
		return Result{}, err
	}
	m := first.Result
	m.Checksum, m.ShardK, m.ShardN, m.First, m.Count = "", 0, 1, 0, m.GamesTotal
	m.Stats, m.StatsSHA256 = "", ""
	if mixed {
		m.Build, m.MixedBuilds = nil, true
	}
	b, sp := first.Block(), first.Speed()
	for _, p := range ps[1:] {
		pb, psp := p.Block(), p.Speed()
		b.Merge(&pb)
		sp.Add(&psp)
		m.ElapsedMS += p.ElapsedMS
		m.WallMS = max(m.WallMS, p.WallMS)
	}
	m.SetBlock(&b)
	m.SetSpeed(&sp)
	if err := m.check(); err != nil {
		return Result{}, err
	}
	return m, nil
}

// mixedBuilds reports whether the shards come from different builds, or
// from builds not recorded, and refuses them unless opt.MixedBuilds.
func mixedBuilds(ps []Part, opt MergeOptions) (bool, error) {
	if len(ps) < 2 {
		return false, nil
	}
	first := &ps[0]
	for i := range ps {
		p := &ps[i]
		if p.Build != nil && first.Build != nil && buildinfo.Same(*p.Build, *first.Build) {
			continue
		}
		if opt.MixedBuilds {
			return true, nil
		}
		for _, q := range []*Part{first, p} {
			if q.Build == nil {
				return false, fmt.Errorf("%s was written by %s: its build cannot be compared with the other shards'; rerun it with this td2048, or merge with --mixed-builds if the builds are known to play alike", q.Path, describeBuild(&q.Result))
			}
		}
		return false, fmt.Errorf("%s and %s come from different builds of td2048 (%s; %s): rerun the shards with one build, or merge with --mixed-builds", first.Path, p.Path, describeBuild(&first.Result), describeBuild(&p.Result))
	}
	return false, nil
}

// Ordered returns the parts sorted by their first game.
func Ordered(parts []Part) []Part {
	ps := slices.Clone(parts)
	slices.SortStableFunc(ps, func(a, b Part) int { return cmp.Or(cmp.Compare(a.First, b.First), cmp.Compare(a.ShardK, b.ShardK)) })
	return ps
}

// HashFile is the SHA-256 of the file at path, in hex.
func HashFile(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
