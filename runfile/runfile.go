// Package runfile keeps a training run's files: the weight file that is
// also its checkpoint (the weights and, in its header, the run's state),
// and the metrics log. It is what td2048 train uses to start, checkpoint
// and resume a run, as a library a user can call.
//
// What it guarantees: the checkpoint is replaced atomically and carries a
// checksum (netfile); the run's files are locked against a second writer
// (safefile); the log's length at each checkpoint is recorded, so a resumed
// run cuts the log back to it (dropping the blocks it will play again) and
// refuses a log that does not match instead of padding or mixing it; log
// records that could not be written (a full disk) travel in the checkpoint
// and are written at the next chance.
package runfile

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/td2048/td2048/learn"
	"github.com/td2048/td2048/netfile"
	"github.com/td2048/td2048/ntuple"
	"github.com/td2048/td2048/safefile"
	"github.com/td2048/td2048/stats"
)

// State is what a checkpoint records of its run, beside learn.RunState.
type State struct {
	learn.RunState
	Base int64 `json:"base"` // episodes the weights had before this run
	// Log is the metrics log ("" for none), relative to the checkpoint's
	// folder when LogRel is set (older files: to the run's working folder).
	// LogDefault marks the default log (the weight file's name with
	// .jsonl): a copied or renamed checkpoint then looks for its own log
	// rather than writing into the original run's.
	Log        string `json:"log"`
	LogRel     bool   `json:"log_rel,omitempty"`
	LogDefault bool   `json:"log_default,omitempty"`
	// LogOffset is the log's length when the checkpoint was written, and
	// LogPending the records not yet in it then (a failed write).
	LogOffset  int64          `json:"log_offset"`
	LogPending []stats.Record `json:"log_pending,omitempty"`
	// The run's settings that a resume keeps unless told otherwise.
	CheckpointEvery int    `json:"checkpoint_every,omitempty"`
	CheckpointGap   string `json:"checkpoint_gap,omitempty"` // a time.Duration's String
	Plot            string `json:"plot,omitempty"`           // relative to the checkpoint's folder
	Threads         int    `json:"threads,omitempty"`
}

// ReadState returns the run state in a weight file's header; ok is false
// when the file holds weights but no run.
func ReadState(h netfile.Header) (st State, ok bool, err error) {
	if len(h.Run) == 0 {
		return st, false, nil
	}
	if err := json.Unmarshal(h.Run, &st); err != nil || st.Schedule == nil || len(st.Schedule.Steps) == 0 {
		return st, true, errors.New("damaged run state")
	}
	return st, true, nil
}

// Rel expresses path relative to the folder of the checkpoint at save
// (absolute when that is not possible).
func Rel(save, path string) string {
	if path == "" {
		return ""
	}
	ab, err1 := filepath.Abs(path)
	dir, err2 := filepath.Abs(filepath.Dir(save))
	if err1 != nil || err2 != nil {
		return path
	}
	if r, err := filepath.Rel(dir, ab); err == nil {
		return r
	}
	return ab
}

// Resolve turns a path stored relative to the checkpoint at save back into
// one usable from the working folder.
func Resolve(save, rel string) string {
	if rel == "" || filepath.IsAbs(rel) {
		return rel
	}
	return filepath.Join(filepath.Dir(save), rel)
}

// LogPath returns the resumed run's log path, as usable from here.
func (st *State) LogPath(save string) string {
	if st.LogDefault {
		return DefaultLog(save)
	}
	if st.LogRel {
		return Resolve(save, st.Log)
	}
	return st.Log
}

// DefaultLog is the log of a run saved at save: its name with .jsonl.
func DefaultLog(save string) string {
	return strings.TrimSuffix(save, filepath.Ext(save)) + ".jsonl"
}

// Save writes the checkpoint: the weights with hdr, the run state st in
// its header. It refuses weights that are not finite, so that a diverged
// run never replaces its last good checkpoint.
func Save(path string, net *ntuple.Network, hdr netfile.Header, st State) error {
	if i := net.FirstNonFinite(); i >= 0 {
		return &DivergedError{Index: i}
	}
	js, err := json.Marshal(st)
	if err != nil {
		return err
	}
	hdr.Run = js
	return netfile.Save(path, net, hdr)
}

// DivergedError says that training drove a weight to NaN or infinity.
type DivergedError struct{ Index int }

func (e *DivergedError) Error() string {
	return fmt.Sprintf("the weights diverged (weight %d is not a finite number)", e.Index)
}

// A Log is the metrics log of a run, one JSON line per block.
type Log struct {
	path    string
	f       *os.File
	good    int64          // length of the log's complete records
	pending []stats.Record // records a failed write left for later
}

// CreateLog starts a new, empty log at path.
func CreateLog(path string) (*Log, error) {
	f, err := safefile.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o666)
	if err != nil {
		return nil, fmt.Errorf("log: %v", err)
	}
	return &Log{path: path, f: f}, nil
}

// ResumeLog opens the log of a resumed run: it must hold at least the
// st.LogOffset bytes the checkpoint recorded, ending with the record of a
// block of this run, and is cut back to them (the blocks after the
// checkpoint are played again); the pending records are written next.
func ResumeLog(path string, st *State) (*Log, error) {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("the run's log %s is missing (the checkpoint expects %d bytes of it): continue with a new log (--log FILE) or none (--log none)", path, st.LogOffset)
	}
	if err != nil {
		return nil, fmt.Errorf("log: %v", err)
	}
	fail := func(format string, a ...any) (*Log, error) {
		f.Close()
		return nil, fmt.Errorf("the log %s does not match the checkpoint: %s; continue with a new log (--log FILE) or none (--log none)", path, fmt.Sprintf(format, a...))
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("log: %v", err)
	}
	if fi.Size() < st.LogOffset {
		return fail("it has %d bytes, the checkpoint recorded %d", fi.Size(), st.LogOffset)
	}
	if st.LogOffset > 0 {
		last, err := lastRecord(f, st.LogOffset)
		if err != nil {
			return fail("%v", err)
		}
		if done := st.Base + int64(st.Done); last.Seed != st.Seed || last.Episodes > done {
			return fail("its record at the checkpoint is of seed %d at %d episodes, the run's is seed %d at %d", last.Seed, last.Episodes, st.Seed, done)
		}
	}
	if err := f.Truncate(st.LogOffset); err != nil {
		f.Close()
		return nil, fmt.Errorf("log: %v", err)
	}
	l := &Log{path: path, f: f, good: st.LogOffset, pending: append([]stats.Record(nil), st.LogPending...)}
	return l, nil
}

// AppendLog continues the log at path (a run that trains on the weights
// whose log it is): new records go after its last complete one, and a torn
// last line (a killed writer) is cut off.
func AppendLog(path string) (*Log, error) {
	f, err := safefile.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("log: %v", err)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("log: %v", err)
	}
	end := fi.Size()
	// Back up to the end of the last complete line.
	var buf [4096]byte
	for end > 0 {
		start := max(0, end-int64(len(buf)))
		n, _ := f.ReadAt(buf[:end-start], start)
		if i := bytes.LastIndexByte(buf[:n], '\n'); i >= 0 {
			end = start + int64(i) + 1
			break
		}
		end = start
	}
	if err := f.Truncate(end); err != nil {
		f.Close()
		return nil, fmt.Errorf("log: %v", err)
	}
	return &Log{path: path, f: f, good: end}, nil
}

// lastRecord parses the record that ends at offset end of f.
func lastRecord(f *os.File, end int64) (stats.Record, error) {
	var rec stats.Record
	start := max(0, end-64<<10)
	buf := make([]byte, end-start)
	if _, err := f.ReadAt(buf, start); err != nil && !errors.Is(err, io.EOF) {
		return rec, err
	}
	if len(buf) == 0 || buf[len(buf)-1] != '\n' {
		return rec, errors.New("no complete record ends where the checkpoint says")
	}
	line := buf[:len(buf)-1]
	if i := bytes.LastIndexByte(line, '\n'); i >= 0 {
		line = line[i+1:]
	}
	if err := json.Unmarshal(line, &rec); err != nil {
		return rec, fmt.Errorf("its record at the checkpoint is not a statistics block (%v)", err)
	}
	return rec, nil
}

// Path is the log's file name.
func (l *Log) Path() string { return l.path }

// Write appends rec after any pending records. When a write fails (a full
// disk) the log is cut back to its last complete record, rec is kept
// pending for the next write or checkpoint, and the error is returned for
// the caller to report; training can go on.
func (l *Log) Write(rec stats.Record) error {
	l.pending = append(l.pending, rec)
	return l.flush()
}

func (l *Log) flush() error {
	if len(l.pending) == 0 {
		return nil
	}
	var b bytes.Buffer
	for _, r := range l.pending {
		if err := stats.WriteRecord(&b, sanitize(r)); err != nil {
			return err
		}
	}
	n, err := l.f.WriteAt(b.Bytes(), l.good)
	if err == nil && n == b.Len() {
		l.good += int64(n)
		l.pending = l.pending[:0]
		return nil
	}
	l.f.Truncate(l.good)
	if err == nil {
		err = io.ErrShortWrite
	}
	var pe *os.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Errorf("log %s: %v", l.path, err)
}

// sanitize keeps a record encodable: JSON has no NaN or infinity.
func sanitize(r stats.Record) stats.Record {
	fix := func(x *float64) {
		if math.IsNaN(*x) || math.IsInf(*x, 0) {
			*x = 0
		}
	}
	fix(&r.Avg)
	fix(&r.Alpha)
	fix(&r.MovesPerSec)
	fix(&r.Elapsed)
	return r
}

// Sync retries pending records and flushes the log to disk; it returns
// the log's length and the records still pending, for the checkpoint.
func (l *Log) Sync() (int64, []stats.Record, error) {
	err := l.flush()
	if serr := l.f.Sync(); err == nil && serr != nil {
		err = fmt.Errorf("log %s: %v", l.path, serr)
	}
	return l.good, append([]stats.Record(nil), l.pending...), err
}

// Close closes the log.
func (l *Log) Close() error { return l.f.Close() }

// ReadRecords reads the complete records of the log at path.
func ReadRecords(path string) ([]stats.Record, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return stats.ReadLog(bufio.NewReader(f))
}
