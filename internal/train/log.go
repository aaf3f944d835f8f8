package train

// The metrics log of a run, one JSON line per block. The checkpoint
// records the log's length at each checkpoint, so a resumed run cuts the
// log back to it (dropping the blocks it will play again) and refuses a
// log that does not match instead of padding or mixing it; log records that
// could not be written (a full disk) travel in the checkpoint and are
// written at the next chance.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"

	"github.com/td2048/td2048/internal/safefile"
	"github.com/td2048/td2048/stats"
)

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
		return nil, fmt.Errorf("log: %w", err)
	}
	return &Log{path: path, f: f}, nil
}

// ResumeLog opens the log of a resumed run: it must hold at least the
// st.LogOffset bytes the checkpoint recorded, ending with the record of a
// block of this run, and is cut back to them (the blocks after the
// checkpoint are played again); the pending records are written next.
func ResumeLog(path string, st *State) (*Log, error) {
	f, err := openRunLog(path, st, os.O_RDWR)
	if err != nil {
		return nil, err
	}
	if err := f.Truncate(st.LogOffset); err != nil {
		f.Close()
		return nil, fmt.Errorf("log: %w", err)
	}
	return &Log{path: path, f: f, good: st.LogOffset, pending: append([]stats.Record(nil), st.LogPending...)}, nil
}

// ForkLog starts the log at path of a run that goes on from another's
// checkpoint under another name (train --resume A --save B): a copy of
// the log at from up to the checkpoint (checked as ResumeLog checks it,
// and left as it is), then the pending records.
func ForkLog(path, from string, st *State) (*Log, error) {
	src, err := openRunLog(from, st, os.O_RDONLY)
	if err != nil {
		return nil, err
	}
	defer src.Close()
	l, err := CreateLog(path)
	if err != nil {
		return nil, err
	}
	if _, err := io.Copy(l.f, io.NewSectionReader(src, 0, st.LogOffset)); err != nil {
		l.Close()
		return nil, fmt.Errorf("log %s: %w", path, err)
	}
	l.good, l.pending = st.LogOffset, append([]stats.Record(nil), st.LogPending...)
	return l, nil
}

// openRunLog opens the log of the run saved as st with flag, and checks
// that it holds the checkpoint's part: at least st.LogOffset bytes,
// ending with the record of a block of this run.
func openRunLog(path string, st *State, flag int) (*os.File, error) {
	f, err := safefile.OpenFile(path, flag, 0)
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("the run's log %s is missing (the checkpoint expects %d bytes of it): continue with a new log (--log FILE) or none (--log none)", path, st.LogOffset)
	}
	if err != nil {
		return nil, fmt.Errorf("log: %w", err)
	}
	fail := func(format string, a ...any) (*os.File, error) {
		f.Close()
		return nil, fmt.Errorf("the log %s does not match the checkpoint: %s; continue with a new log (--log FILE) or none (--log none)", path, fmt.Sprintf(format, a...))
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("log: %w", err)
	}
	if fi.Size() < st.LogOffset {
		return fail("it has %d bytes, the checkpoint recorded %d", fi.Size(), st.LogOffset)
	}
	if st.LogOffset > 0 {
		last, _, err := lastRecord(f, st.LogOffset)
		if err != nil {
			return fail("%v", err)
		}
		if done := st.Base + int64(st.Done); last.Seed != st.seed() || last.Episodes > done {
			return fail("its record at the checkpoint is of seed %d at %d episodes, the run's is seed %d at %d", last.Seed, last.Episodes, st.seed(), done)
		}
	}
	return f, nil
}

// AppendLog continues the log at path (a run that trains on the weights
// whose log it is): new records go after its last complete one, and a torn
// last line (a killed writer) is cut off.
func AppendLog(path string) (*Log, error) {
	f, err := safefile.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("log: %w", err)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("log: %w", err)
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
		return nil, fmt.Errorf("log: %w", err)
	}
	return &Log{path: path, f: f, good: end}, nil
}

// lastRecord parses the record that ends at offset end of f, and returns
// the offset it starts at.
func lastRecord(f *os.File, end int64) (stats.Record, int64, error) {
	var rec stats.Record
	start := max(0, end-64<<10)
	buf := make([]byte, end-start)
	if _, err := f.ReadAt(buf, start); err != nil && !errors.Is(err, io.EOF) {
		return rec, 0, err
	}
	if len(buf) == 0 || buf[len(buf)-1] != '\n' {
		return rec, 0, errors.New("no complete record ends where the checkpoint says")
	}
	line := buf[:len(buf)-1]
	if i := bytes.LastIndexByte(line, '\n'); i >= 0 {
		line, start = line[i+1:], start+int64(i)+1
	}
	if err := json.Unmarshal(line, &rec); err != nil {
		return rec, 0, fmt.Errorf("its record at the checkpoint is not a statistics block (%w)", err)
	}
	return rec, start, nil
}

// dropClosing takes the record of the closing partial block of the run
// saved as st (a run whose total is not a multiple of its block) off the
// log of the run extended past it: the extended run fills that block and
// logs it whole, where the unbroken run does.
func (l *Log) dropClosing(st *State) error {
	end := st.Base + int64(st.Done)
	if st.Partial.Games == 0 || st.Done%max(st.Every, 1) == 0 {
		return nil
	}
	if n := len(l.pending); n > 0 {
		if l.pending[n-1].Episodes == end {
			l.pending = l.pending[:n-1]
		}
		return nil
	}
	last, start, err := lastRecord(l.f, l.good) // none in an empty log
	if err != nil || last.Episodes != end {
		return nil
	}
	if err := l.f.Truncate(start); err != nil {
		return fmt.Errorf("log: %w", err)
	}
	l.good = start
	return nil
}

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
	return fmt.Errorf("log %s: %w", l.path, safefile.UnwrapPath(err))
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
