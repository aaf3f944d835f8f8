package learn

import (
	"errors"
	"fmt"
	"sync"

	"github.com/td2048/td2048/ntuple"
)

// Multi-stage learning (docs/methods.md section 1). A 2048 game starts in
// stage 0 and rises as TDL2048+'s rule says (ntuple.Network.Rise): after a
// move whose reward passes the next threshold's filter and whose
// after-state reaches it. Every candidate after-state of a move is valued
// by the game's current stage; an after-state that makes the stage rise
// is valued by the lower stage when chosen (and so is the target of the
// after-state before it) but learns in the higher stage, as do all later
// ones. In the backward modes its predecessor's target is its value in
// the higher stage, as in TDL2048+'s stage-backward mode.

// CheckStages refuses what 2048's multi-stage learning does not do:
// promotion without stages, stages for state values.
func CheckStages(spec ntuple.Spec, kind Kind, promote bool) error {
	switch staged := spec.StageThresholds() != nil; {
	case !staged && promote:
		return errors.New("weight promotion is for multi-stage networks (like 4x6@0,16384)")
	case staged && kind == State:
		return errors.New("multi-stage networks learn after-state values only")
	}
	return nil
}

// checkConfig refuses a run of Train that cannot be learnt: more
// episodes in turn than MaxInterleave or than the learner and shaping
// allow (CheckInterleave), shaping or stages the learner or network
// cannot use, and for Threes! (whose stages are its next tiles) episodes
// in turn, shaping or a network it cannot play.
func checkConfig(net *ntuple.Network, cfg Config) error {
	if cfg.Interleave > MaxInterleave {
		return fmt.Errorf("interleave %d: at most %d episodes per worker", cfg.Interleave, MaxInterleave)
	}
	if err := CheckInterleave(cfg.Interleave, cfg.Kind, cfg.Shaping); err != nil {
		return err
	}
	if cfg.threes {
		switch {
		case cfg.Interleave > 1:
			return fmt.Errorf("interleave %d: this game's training plays one episode at a time on each thread", cfg.Interleave)
		case cfg.Shaping != (Shaping{}):
			return errors.New("restart and carousel shaping are for 2048")
		}
		return CheckThreesSpec(net.Spec())
	}
	if err := CheckShaping(cfg.Shaping, net.Spec(), cfg.Kind); err != nil {
		return err
	}
	return CheckStages(net.Spec(), cfg.Kind, cfg.Promote)
}

// rise moves the game to the stage after direction d of m, pushed last,
// in stage k, and returns it: when it rises, the pushed after-state is
// moved to the new stage (promoting its weights first when asked).
func (w *Worker) rise(m *Moves, d, k int) int {
	nk := w.Net.Rise(k, m.After[d], uint32(m.Reward[d]))
	if nk != k {
		w.trace.flush() // the move before's update, in the tables a promotion copies
		w.promote.enter(w.Net, nk)
		w.trace.restageLast(nk)
		m.stage = nk
	}
	return nk
}

// restageLast moves the last step to stage k: it will learn there, from
// its value there now.
func (t *Trace) restageLast(k int) {
	t.flush()
	i := len(t.steps) - 1
	s := &t.steps[i]
	s.stage = int32(k)
	if !t.direct {
		t.net.IndexStage(k, s.after, t.idx[i*t.lookups:(i+1)*t.lookups])
	}
	s.value = t.value(i)
}

// A promotion is weight promotion (Config.Promote): the first time any
// game of the run enters a stage, that stage's tables become a copy of the
// stage below's. Safe for concurrent use.
type promotion struct {
	mu      sync.Mutex
	entered []bool // stage k has been entered (stage 0 always)
}

// newPromotion returns the promotion state of a run, nil without
// promotion; entered is a resumed run's (nil for a new one).
func newPromotion(net *ntuple.Network, on bool, entered []bool) *promotion {
	if !on || !net.Staged() {
		return nil
	}
	p := &promotion{entered: make([]bool, net.StageCount())}
	copy(p.entered, entered)
	p.entered[0] = true
	return p
}

// enter promotes stage k when no game entered it before. A nil promotion
// does nothing.
func (p *promotion) enter(net *ntuple.Network, k int) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.entered[k] {
		net.CopyStage(k, k-1)
		p.entered[k] = true
	}
}

// state is what a checkpoint keeps: the stages entered, nil without
// promotion.
func (p *promotion) state() []bool {
	if p == nil {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]bool(nil), p.entered...)
}
