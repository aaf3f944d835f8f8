package stats

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// A Summary is a statistics block as JSON, the one shape the metrics
// log's records, eval --json and judge --json share: its games, their mean
// and best score, and the shares of games that reached each tile, or ended
// with it as their largest.
type Summary struct {
	Games int     `json:"games"` // games in the block
	Avg   float64 `json:"avg"`
	Max   int     `json:"max"`
	// Reach and End map a tile value ("2048") to the share (0..1) of the
	// block's games whose largest tile was at least, or exactly, that tile.
	Reach map[string]float64 `json:"reach"`
	End   map[string]float64 `json:"end"`
}

// NewSummary describes block b; value maps tile indices to tile values.
func NewSummary(b *Block, value func(int) int) Summary {
	r := Summary{Games: b.Games, Avg: b.Avg(), Max: b.MaxScore, Reach: map[string]float64{}, End: map[string]float64{}}
	for t := range Tiles {
		if b.Reached(t) > 0 && value(t) > 0 {
			k := strconv.Itoa(value(t))
			r.Reach[k] = b.Reach(t)
			r.End[k] = b.endRate(t)
		}
	}
	return r
}

// A Record is one statistics block as a line of the metrics log (JSON
// lines: one object per block, written by train --log).
type Record struct {
	Episodes int64 `json:"episodes"` // episodes done at the block's end
	Summary
	Alpha       float64 `json:"alpha"`
	MovesPerSec float64 `json:"moves_per_sec"`
	Elapsed     float64 `json:"elapsed_s"` // seconds since the run (or resumed run) began
	Seed        uint64  `json:"seed"`
	Network     string  `json:"network"`
	Game        string  `json:"game"` // "2048" or "threes"
}

// NewRecord describes block b; value maps tile indices to tile values.
func NewRecord(episodes int64, b *Block, value func(int) int) Record {
	return Record{Episodes: episodes, Summary: NewSummary(b, value)}
}

// ReachOf returns the reach share of a tile value (0 when absent).
func (r *Summary) ReachOf(tile int) float64 { return r.Reach[strconv.Itoa(tile)] }

// WriteRecord writes r as one line.
func WriteRecord(w io.Writer, r Record) error {
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// ReadLog reads a metrics log. A last line without its newline (a run
// killed while writing) is ignored; any other bad line is an error that
// names its line number.
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
		recs = append(recs, rec)
	}
}
