package stats

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// A Record is one statistics block as a line of the metrics log (JSON
// lines: one object per block, written by train --log).
type Record struct {
	Episodes int64   `json:"episodes"` // episodes done at the block's end
	Games    int     `json:"games"`    // games in the block
	Avg      float64 `json:"avg"`
	Max      int     `json:"max"`
	// Reach and End map a tile value ("2048") to the share (0..1) of the
	// block's games whose largest tile was at least, or exactly, that tile.
	Reach       map[string]float64 `json:"reach"`
	End         map[string]float64 `json:"end"`
	Alpha       float64            `json:"alpha"`
	MovesPerSec float64            `json:"moves_per_sec"`
	Elapsed     float64            `json:"elapsed_s"` // seconds since the run (or resumed run) began
	Seed        uint64             `json:"seed"`
	Network     string             `json:"network"`
	Game        string             `json:"game"` // "2048" or "threes"
}

// NewRecord describes block b; value maps tile indices to tile values.
func NewRecord(episodes int64, b *Block, value func(int) int) Record {
	r := Record{Episodes: episodes, Games: b.Games, Avg: b.Avg(), Max: b.MaxScore,
		Reach: map[string]float64{}, End: map[string]float64{}}
	for t := range Tiles {
		if b.Reached(t) > 0 && value(t) > 0 {
			k := strconv.Itoa(value(t))
			r.Reach[k] = b.Reach(t)
			r.End[k] = b.endRate(t)
		}
	}
	return r
}

// ReachOf returns the reach share of a tile value (0 when absent).
func (r *Record) ReachOf(tile int) float64 { return r.Reach[strconv.Itoa(tile)] }

// WriteRecord writes r as one line.
func WriteRecord(w io.Writer, r Record) error {
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// maxScore bounds the scores of a record: far above any game's (2048's
// best possible is under 4 million, Threes!' under 10 million).
const maxScore = 1 << 40

// Check reports what makes r a record no run writes: episodes not
// positive, a negative count, a number that is not finite, a score
// outside 0 to 2^40 or a mean above the best, a tile share outside 0 to 1
// or an end share above its reach share.
func (r *Record) Check() error {
	for _, x := range []float64{r.Avg, r.Alpha, r.MovesPerSec, r.Elapsed} {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("%v is not a finite number", x)
		}
	}
	switch {
	case r.Episodes < 1:
		return fmt.Errorf("a block at %d episodes: episodes count from 1", r.Episodes)
	case r.Games < 0 || r.Max < 0 || r.MovesPerSec < 0 || r.Elapsed < 0:
		return errors.New("a negative count of games, score, speed or time")
	case !(r.Avg >= 0 && r.Avg <= maxScore):
		return fmt.Errorf("mean score %g outside 0 to 2^40 (more than any game scores)", r.Avg)
	case int64(r.Max) > maxScore:
		return fmt.Errorf("best score %d above 2^40 (more than any game scores)", r.Max)
	case r.Max > 0 && r.Avg > float64(r.Max):
		return fmt.Errorf("mean score %g above the best score %d", r.Avg, r.Max)
	}
	for _, m := range []map[string]float64{r.Reach, r.End} {
		for k, x := range m {
			if t, err := strconv.Atoi(k); err != nil || t < 1 {
				return fmt.Errorf("tile %q is not a tile value", k)
			}
			if !(x >= 0 && x <= 1) {
				return fmt.Errorf("share %v of tile %s outside 0 to 1", x, k)
			}
			if x > r.Reach[k] {
				return fmt.Errorf("tile %s: more games end on it (%v) than reach it (%v)", k, x, r.Reach[k])
			}
		}
	}
	return nil
}

// ReadLog reads a metrics log. A last line without its newline (a run
// killed while writing) is ignored; any other bad line is an error that
// names its line number: one that is not a record, a record no run writes
// (Record.Check), or one whose episodes do not follow the line before's.
func ReadLog(r io.Reader) ([]Record, error) {
	br := bufio.NewReader(r)
	var recs []Record
	for n := 1; ; n++ {
		line, err := br.ReadString('\n')
		if err == io.EOF {
			return recs, nil // a partial last line, or none
		}
		if err != nil {
			return recs, err
		}
		if strings.TrimSpace(line) == "" {
			continue
		}
		var rec Record
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			return recs, fmt.Errorf("line %d: %w", n, err)
		}
		if err := rec.Check(); err != nil {
			return recs, fmt.Errorf("line %d: %w", n, err)
		}
		if k := len(recs); k > 0 && rec.Episodes <= recs[k-1].Episodes {
			return recs, fmt.Errorf("line %d: a block at %d episodes after one at %d: the logs of two runs?", n, rec.Episodes, recs[k-1].Episodes)
		}
		recs = append(recs, rec)
	}
}
