package train

import (
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"

	"github.com/td2048/td2048/learn"
	"github.com/td2048/td2048/netfile"
	"github.com/td2048/td2048/ntuple"
	"github.com/td2048/td2048/stats"
)

// State is what a checkpoint records of its run, as JSON in its weight
// file's header: the run's settings (Spec; its keys are the ones
// checkpoints have always used, so older checkpoints read into it), where
// the run is (learn.RunState), and its files.
type State struct {
	Spec
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
	Plot       string         `json:"plot,omitempty"` // relative to the checkpoint's folder
}

// seed is the run's seed (0 when it has none).
func (st *State) seed() uint64 {
	if st.Seed == nil {
		return 0
	}
	return *st.Seed
}

// ReadState returns the run state in a weight file's header; ok is false
// when the file holds weights but no run. The settings an older
// checkpoint does not record are Default's.
func ReadState(h netfile.Header) (st State, ok bool, err error) {
	if len(h.Run) == 0 {
		return st, false, nil
	}
	st.Spec = Default()
	if err := json.Unmarshal(h.Run, &st); err != nil || st.Schedule == nil || len(st.Schedule.Steps) == 0 {
		return st, true, errors.New("damaged run state")
	}
	return st, true, nil
}

// Saved is the spec of the run st describes, saved at path with header
// h: its settings, with the files as they are named from here.
func (st *State) Saved(h netfile.Header, path string) Spec {
	s := st.Spec
	s.Game, s.Network, s.Learner = h.Game, h.Network, h.Learner
	s.Interleave = max(s.Interleave, 1)
	s.Threads = len(st.Rands) / s.Interleave
	s.Promote = s.Promote || st.Promoted != nil
	s.Coherence = h.Coherence && s.CoherenceFrom == ""
	s.Log, s.Plot, s.Load = "none", Resolve(path, st.Plot), Resolve(path, s.Load)
	if st.Log != "" {
		s.Log = st.LogPath(path)
	}
	return s
}

// Rel expresses path relative to the folder of the checkpoint (or
// evaluation result) at save, absolute when that is not possible.
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

// Resolve turns a path stored relative to the checkpoint (or evaluation
// result) at save back into one usable from the working folder.
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
		return &learn.DivergedError{Episode: -1, Weight: i}
	}
	js, err := json.Marshal(st)
	if err != nil {
		return err
	}
	hdr.Run = js
	return netfile.Save(path, net, hdr)
}
