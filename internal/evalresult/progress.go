package evalresult

// The progress record of a shard under way.

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/td2048/td2048/internal/safefile"
)

// ProgressFormat names the format of a progress record in
// Progress.Format.
const ProgressFormat = "td2048-eval-progress"

// ProgressVersion is the progress record's format version.
const ProgressVersion = 1

// A Progress is the record of a shard under way: the games it has
// finished, so that a rerun of the shard continues from the first game
// not finished, and its statistics are those of one uninterrupted run.
// Games are independent and game i draws from (seed, i) alone, so the
// finished games are a prefix First .. First+Done.Count-1 of the shard's,
// and their counts are integers that add up exactly.
//
// It is a file of its own beside the result file (td2048 eval writes
// part-K.json.progress), never the result itself: whatever takes an
// existing result file for a finished shard (td2048 merge, the cluster
// scripts) never mistakes a shard under way for a finished one. Like the
// result, it is one JSON object written atomically, whose "checksum" is
// the SHA-256 of the object's encoding with the checksum empty.
type Progress struct {
	Format   string `json:"format"`   // always ProgressFormat
	Version  int    `json:"version"`  // ProgressVersion
	Checksum string `json:"checksum"` // SHA-256 of the encoding with this empty

	// Done is the shard's result so far: what is evaluated, by which
	// build, the shard, and the counts of its games finished, First ..
	// First+Count-1 (Count may be 0 to all of the shard's games). With a
	// statistics file (Threes!), Stats names it (the file it becomes when
	// the shard is finished) and StatsSHA256 is the SHA-256 of the first
	// StatsBytes bytes of the statistics file under way: the lines of
	// those games. Done's own Format and Version are the result format's,
	// its Checksum empty.
	Done       Result `json:"done"`
	StatsBytes int64  `json:"stats_bytes"`
}

// EncodeProgress writes p, checksummed, as indented JSON and a newline.
func EncodeProgress(w io.Writer, p Progress) error {
	p.Format, p.Version = ProgressFormat, ProgressVersion
	p.Done.Format, p.Done.Version, p.Done.Checksum = Format, Version, ""
	return encode(w, &p, &p.Checksum)
}

// WriteProgress saves p at path atomically.
func WriteProgress(path string, p Progress) error {
	return safefile.WriteAtomic(path, func(w io.Writer) error { return EncodeProgress(w, p) })
}

// DecodeProgress reads one progress record, checking its format,
// checksum and counts.
func DecodeProgress(rd io.Reader) (Progress, error) {
	const what = "an evaluation's progress record"
	data, err := readData(rd, what)
	if err != nil {
		return Progress{}, err
	}
	var p Progress
	if err := decode(data, &p, what); err != nil {
		return Progress{}, err
	}
	if p.Format != ProgressFormat {
		return Progress{}, fmt.Errorf("not %s: format %q", what, p.Format)
	}
	if p.Version != ProgressVersion {
		return Progress{}, fmt.Errorf("evaluation progress record version %d: this td2048 reads version %d (a newer td2048 wrote it?)", p.Version, ProgressVersion)
	}
	if sum, err := checksum(&p, &p.Checksum); err != nil || sum != p.Checksum {
		return Progress{}, errors.New("damaged evaluation progress record: checksum does not match")
	}
	if err := p.check(); err != nil {
		return Progress{}, fmt.Errorf("damaged evaluation progress record: %w", err)
	}
	return p, nil
}

// check tests the record for consistency.
func (p *Progress) check() error {
	d := &p.Done
	if d.Format != Format || d.Version != Version || d.Checksum != "" {
		return fmt.Errorf("its result is of format %q version %d", d.Format, d.Version)
	}
	if err := d.checkCounts(true); err != nil {
		return err
	}
	if (d.Stats == "") != (d.StatsSHA256 == "") || d.Stats == "" && p.StatsBytes != 0 || p.StatsBytes < 0 {
		return fmt.Errorf("statistics file %q of %d bytes", d.Stats, p.StatsBytes)
	}
	return nil
}

// ReadProgress reads the progress record at path.
func ReadProgress(path string) (Progress, error) { return readFile(path, DecodeProgress) }

// IsResult reports whether a file's first bytes are those of a result
// file (as Encode writes it).
func IsResult(head []byte) bool {
	return bytes.HasPrefix(head, []byte("{\n  \"format\": \""+Format+"\""))
}

// IsProgress reports whether a file's first bytes are those of a progress
// record (as EncodeProgress writes it).
func IsProgress(head []byte) bool {
	return bytes.HasPrefix(head, []byte("{\n  \"format\": \""+ProgressFormat+"\""))
}
