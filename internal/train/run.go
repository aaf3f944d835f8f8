package train

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/td2048/td2048/games"
	"github.com/td2048/td2048/internal/plot"
	"github.com/td2048/td2048/internal/safefile"
	"github.com/td2048/td2048/learn"
	"github.com/td2048/td2048/netfile"
	"github.com/td2048/td2048/ntuple"
	"github.com/td2048/td2048/stats"
)

// A Run is a training run, opened (Open): its settings settled, its files
// claimed, its network ready. Train trains it; Close lets go of it.
type Run struct {
	// Spec is the run's settings, settled: a resumed run's are its
	// checkpoint's, by their rules; the seed, the threads and the
	// episodes in turn are the ones it uses.
	Spec   Spec
	Game   *games.Game
	Net    *ntuple.Network
	Loaded netfile.Header // the header of the --load or --resume file
	// State is the checkpoint: as the run starts (with the schedule it
	// trains by), then as last saved.
	State   State
	LogPath string // the metrics log, "" for none
	// Adapt: the run varies its threads and episodes in turn as it
	// measures (learn.Config.AdaptInterleave).
	Adapt bool
	Learning

	netSpec    *ntuple.Spec // the network the spec names, nil when it is the file's
	in         *os.File     // the --load or --resume file
	log        *Log
	forkFrom   string // the parent's log, for a run resumed under another name
	appendLog  bool
	resumeLog  bool
	locks      safefile.Locks
	kept       int // episodes of the run's checkpoint in its save file, -1 for none
	logFailing bool
}

// An Observer sees a run train. Its methods are called one at a time.
type Observer interface {
	// Block is a finished block: done episodes, the block's statistics,
	// its log record and its wall time.
	Block(done int, b *stats.Block, rec stats.Record, wall time.Duration)
	// Tick is the progress, a few times a second.
	Tick(learn.Snapshot)
	// Warn is something going wrong that the run goes on through (a log
	// on a full disk, a plot that could not be drawn), or going right
	// again.
	Warn(msg string)
}

// Result is how a call of Train went.
type Result struct {
	learn.Result
	Done, Total int // episodes of the run done, and its total
	// Interrupted: the context was cancelled; Limited: the spec's
	// Duration ran out. Either way the run is saved.
	Interrupted, Limited bool
}

// Train trains the run until its episodes are done, its Duration runs
// out or ctx is cancelled, checkpointing as its spec says, and saves it.
// A run that diverges keeps its last checkpoint; a checkpoint that cannot
// be written (a full disk) stops the run, and the error says what its file
// still holds and how to go on.
func (r *Run) Train(ctx context.Context, o Observer) (Result, error) {
	s := &r.Spec
	run, timeUp := ctx, context.CancelFunc(func() {})
	if s.Duration > 0 {
		run, timeUp = context.WithTimeout(ctx, time.Duration(s.Duration))
	}
	defer timeUp()
	last := time.Duration(r.State.Elapsed * float64(time.Second)) // at the end of the last block
	cfg := learn.Config{
		Episodes: s.Episodes, Kind: r.Kind, Mode: r.Mode, Seed: *s.Seed, Threads: s.Threads, Interleave: s.Interleave, Every: s.Every,
		AdaptInterleave: r.Adapt, Schedule: r.State.Schedule, CheckpointEvery: s.CheckpointEvery, CheckpointGap: time.Duration(s.CheckpointGap),
		Promote: s.Promote, Shaping: r.Shaping, CoherenceFrom: r.CoherenceFrom,
		Checkpoint: func(rs learn.RunState) error { return r.save(rs, o) },
		Block: func(done int, b *stats.Block, elapsed time.Duration, alpha float32) {
			rec := r.record(done, b, elapsed-last, elapsed, alpha)
			if r.log != nil {
				r.warnLog(r.log.Write(rec), o)
			}
			o.Block(done, b, rec, elapsed-last)
			last = elapsed
		},
		Tick: o.Tick, TickEvery: 250 * time.Millisecond,
	}
	if s.Resume != "" {
		cfg.Resume = &r.State.RunState
	}
	if s.Threads == 1 && s.Interleave > 1 {
		cfg.StopEvery = learn.ExactStops // a stop anywhere resumes exactly
	}
	rs, res, err := r.Game.Train(run, r.Net, cfg)
	out := Result{Result: res, Done: rs.Done, Total: s.Episodes, Interrupted: ctx.Err() != nil, Limited: run.Err() != nil && ctx.Err() == nil}
	if err == nil {
		err = r.save(rs, o)
	}
	if err != nil {
		return out, r.failed(err)
	}
	return out, nil
}

// record is the log record of a finished block.
func (r *Run) record(done int, b *stats.Block, wall, elapsed time.Duration, alpha float32) stats.Record {
	rec := stats.NewRecord(r.State.Base+int64(done), b, r.Game.Value)
	rec.Alpha, _ = strconv.ParseFloat(strconv.FormatFloat(float64(alpha), 'g', -1, 32), 64)
	rec.MovesPerSec = float64(b.Played()) / max(wall.Seconds(), 1e-9) // as the final line counts
	rec.Elapsed = elapsed.Seconds()
	rec.Seed, rec.Network, rec.Game = *r.Spec.Seed, r.Net.Spec().String(), r.Game.Name
	return rec
}

// warnLog tells of a log that fails, once, and of one that works again.
func (r *Run) warnLog(err error, o Observer) {
	switch {
	case err != nil && !r.logFailing:
		o.Warn(fmt.Sprintf("warning: %v; training goes on, and the blocks are kept for the log", err))
	case err == nil && r.logFailing:
		o.Warn("the log is written again, with the blocks it missed")
	}
	r.logFailing = err != nil
}

// save writes the checkpoint of the run at rs, and redraws the plot.
func (r *Run) save(rs learn.RunState, o Observer) error {
	st, s := &r.State, &r.Spec
	st.RunState = rs
	if r.log != nil {
		off, pending, err := r.log.Sync()
		r.warnLog(err, o)
		st.LogOffset, st.LogPending = off, pending
	}
	h := r.Loaded
	h.Episodes = st.Base + int64(rs.Done)
	h.Learner, h.Game = r.Kind.String(), r.Game.Name
	if err := Save(s.Save, r.Net, h, *st); err != nil {
		return &saveError{err}
	}
	r.kept = rs.Done
	if s.Plot != "" && r.LogPath != "" {
		series, err := plot.ReadLog(r.LogPath, strings.TrimSuffix(filepath.Base(s.Save), filepath.Ext(s.Save)))
		if err == nil && len(series.Records) > 0 {
			err = plot.Save(s.Plot, plot.Options{}, series)
		}
		if err != nil {
			o.Warn(fmt.Sprintf("warning: plot: %v", err))
		}
	}
	return nil
}

// A saveError is a checkpoint that could not be written.
type saveError struct{ err error }

func (e *saveError) Error() string { return e.err.Error() }
func (e *saveError) Unwrap() error { return e.err }

// failed is the error of a run stopped by err, saying what its file
// still holds and how to go on.
func (r *Run) failed(err error) error {
	save := r.Spec.Save
	kept := save + " was left as it was"
	if r.kept >= 0 {
		kept = fmt.Sprintf("%s keeps the last checkpoint (%d episodes)", save, r.kept)
	}
	switch se, saving := errors.AsType[*saveError](err); {
	case errors.As(err, new(*learn.DivergedError)):
		return fmt.Errorf("%v; %s; lower --alpha", err, kept)
	case saving && r.kept >= 0:
		return fmt.Errorf("checkpoint: %w; %s, intact: continue the run with td2048 train --resume %s once the problem is fixed", se.err, kept, save)
	case saving:
		return fmt.Errorf("checkpoint: %w; %s: nothing of this run is saved", se.err, kept)
	}
	return err
}

// Close lets go of the run: its log, network, files and locks.
func (r *Run) Close() error {
	var err error
	if r.log != nil {
		err = r.log.Close()
	}
	if r.Net != nil {
		r.Net.Free()
	}
	if r.in != nil {
		r.in.Close()
	}
	r.locks.Release()
	return err
}
