package learn

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"
	"time"

	"github.com/td2048/td2048/episode"
	"github.com/td2048/td2048/ntuple"
	"github.com/td2048/td2048/stats"
)

// NewRand returns the generator of stream number stream under seed
// (episode.NewRand).
func NewRand(seed, stream uint64) *rand.PCG { return episode.NewRand(seed, stream) }

// Config is a training run.
type Config struct {
	Episodes int // the run's total: episodes Resume.Done..Episodes-1 are played
	Kind     Kind
	// Mode is how after-state learners update (Trace.Mode): backward TD(0)
	// when zero.
	Mode    Mode
	Seed    uint64
	Threads int // worker goroutines sharing the network; 0 means all cores
	// Interleave is how many episodes each worker plays in turn (lanes.go),
	// each with its own generator; 0 means 1 (FastestInterleave gives the
	// train command's default). More than 1 is refused where it cannot
	// apply (CheckInterleave; Threes!, TrainThrees).
	Interleave int
	// AdaptInterleave, on several threads, lets the run vary how many of
	// its Interleave episodes each worker plays at once (1 or all) and
	// whether all its threads play or half of them, by which it measures
	// faster (laneControl). One thread never adapts: a run repeats.
	AdaptInterleave bool
	Every           int // games per statistics block
	// Schedule gives each episode's learning rate; nil means 0.1. Train
	// updates its plateau state as blocks finish.
	Schedule *Schedule
	// Resume continues a run from a checkpoint's state.
	Resume *RunState
	// StopEvery, when positive, makes the workers pause every StopEvery
	// episodes as at a checkpoint (their episodes in turn drain, then start
	// again in order), and a cancelled run stop only at such a pause or a
	// checkpoint's: a run of one thread with episodes in turn then resumes
	// from a stop exactly as it would have gone on (ExactStops).
	StopEvery int
	// Checkpoint, when set, is called every CheckpointEvery episodes with
	// all workers paused, so that the network and the state agree. An error
	// stops the run.
	CheckpointEvery int
	Checkpoint      func(RunState) error
	// CheckpointGap, when positive, skips the checkpoints that would come
	// sooner than this after the last one (or the start of the call): the
	// workers still pause at every boundary, so what is learnt is the same,
	// but a short run spends its time learning rather than writing weights.
	CheckpointGap time.Duration
	// Block is called with each finished block, in order, one call at a
	// time: done is the number of episodes finished, alpha the rate of
	// the block's last episode.
	Block func(done int, b *stats.Block, elapsed time.Duration, alpha float32)
	// Tick, when set, is called about every TickEvery with the progress.
	Tick      func(Snapshot)
	TickEvery time.Duration
	// threes: the workers play Threes! (TrainThrees).
	threes bool
	// Promote turns on weight promotion for a multi-stage network: a stage
	// first entered in the run starts from the stage below's weights.
	Promote bool
	// Shaping cuts 2048 after-state episodes into sub-episodes: restart
	// or carousel shaping (shaping.go).
	Shaping Shaping
	// unpacked keeps a coherent network's weights and accumulators apart
	// while it trains, instead of packing them (ntuple.Network.Pack): the
	// same values, bit for bit, slower; for tests.
	unpacked bool
	// CoherenceFrom, when positive, is the episode from which the network
	// learns by temporal coherence: OTD then TC in one run (docs/methods.md
	// sections 2, 3 and 9). All workers pause there, as for a checkpoint,
	// while the accumulators are made; TC's rate is the Schedule's to set.
	CoherenceFrom int
}

// RunState is where a run is: what continues it exactly, saved in
// checkpoints beside the run's settings (the Config it was started with).
type RunState struct {
	Done     int         `json:"done"`    // episodes finished
	Rands    [][]byte    `json:"rands"`   // each worker's generator (each lane's: worker k's lane j is k*Interleave+j)
	Partial  stats.Block `json:"partial"` // the unfinished block
	Schedule *Schedule   `json:"schedule"`
	Elapsed  float64     `json:"elapsed_s"` // seconds of training so far
	Moves    int64       `json:"moves"`     // moves played so far
	// Promoted lists, with weight promotion, which stages the run has
	// entered (and so promoted).
	Promoted []bool `json:"promoted,omitempty"`
}

// A Snapshot is the progress of a run (episode.Snapshot).
type Snapshot = episode.Snapshot

// DivergedError stops a run whose learning drove a value to NaN or
// infinity: the weights are no longer usable, so the run keeps its last
// checkpoint instead of saving them. Episode and Alpha say where learning
// found it; Episode is -1 where weights were found so when saved (Weight,
// the first weight that is not a finite number).
type DivergedError struct {
	Episode int
	Alpha   float32
	Weight  int
}

func (e *DivergedError) Error() string {
	if e.Episode < 0 {
		return fmt.Sprintf("the weights diverged (weight %d is not a finite number)", e.Weight)
	}
	return fmt.Sprintf("training diverged at episode %d: a value became NaN or infinite (learning rate %g is too large)", e.Episode+1, e.Alpha)
}

// DefaultInterleave is the number of episodes a worker plays in turn by
// default (FastestInterleave; episode.DefaultInterleave).
const DefaultInterleave = episode.DefaultInterleave

// ExactStops is the train command's Config.StopEvery for a run of one
// thread with episodes in turn: a stop (a signal, a time limit) waits for
// the next multiple of 100 episodes, a few seconds at most, and the run
// resumes from it exactly.
const ExactStops = 100

// FastestInterleave is the number of episodes each worker plays in turn
// to train net with kind and shaping by default (the train command's):
// DefaultInterleave for networks of at most 40 weights a board (4x6, 5x6),
// 1 elsewhere (8x6's 64 fill the outstanding misses alone). It is the same
// on every processor, so that a seeded run of one thread gives the same
// weights on all of them; runs of several threads adapt it
// (Config.AdaptInterleave; docs/speed.md, "Threads").
func FastestInterleave(net *ntuple.Network, kind Kind, s Shaping) int {
	if net.Lookups() <= 40 && CheckInterleave(DefaultInterleave, kind, s) == nil {
		return DefaultInterleave
	}
	return 1
}

// MaxInterleave bounds Config.Interleave.
const MaxInterleave = 64

// Result sums up a run.
type Result struct {
	Episodes int // episodes played in this call
	Moves    int64
	Elapsed  time.Duration
	// Choices is how the time went among the threads and episodes in
	// turn that an adapting run (Config.AdaptInterleave) tried, the
	// longest first; nil for a run that does not adapt.
	Choices []ChoiceTime
}

// Train plays and learns on net until cfg.Episodes episodes are done or
// ctx is cancelled, and returns the state to continue from. Worker k draws
// its randomness from NewRand(cfg.Seed, k) (or its saved generator); with
// one thread a run, stopped and resumed or not, is exactly repeatable.
// Cancelling ctx stops it after the episodes under way.
func Train(ctx context.Context, net *ntuple.Network, cfg Config) (RunState, Result, error) {
	t, err := newTrainer(ctx, net, cfg)
	if err != nil {
		return t.st, Result{}, err
	}
	return t.run()
}

// A trainer is one call of Train: the workers take episodes from it and
// hand them back finished, under its lock.
type trainer struct {
	ctx   context.Context
	net   *ntuple.Network
	cfg   Config
	every int
	sched *Schedule
	st    RunState // the run as it starts
	promo *promotion
	lanes int
	rands []*rand.PCG
	start time.Time
	prior time.Duration // training time before this call

	mu       sync.Mutex
	wake     *sync.Cond
	next     int // next episode to hand out
	inflight int
	done     int
	moves    int64
	blocks   map[int]*stats.Block
	shown    int // blocks reported
	boundary int // no episode at or past it is handed out until a checkpoint
	failed   error
	lastTick time.Time
	lastSave time.Time // of the last checkpoint (CheckpointGap)
}

// newTrainer checks cfg and readies a run of it.
func newTrainer(ctx context.Context, net *ntuple.Network, cfg Config) (*trainer, error) {
	t := &trainer{ctx: ctx, net: net, cfg: cfg, every: max(cfg.Every, 1), sched: cmp.Or(cfg.Schedule, Constant(0.1)), lanes: max(cfg.Interleave, 1)}
	if err := checkConfig(net, cfg); err != nil {
		return t, err
	}
	threads := cmp.Or(max(cfg.Threads, 0), runtime.GOMAXPROCS(0))
	if threads > 1 {
		net.Share()
	}
	if r := cfg.Resume; r != nil {
		t.st = *r
		if err := r.Check(threads, t.lanes); err != nil {
			return t, err
		}
	}
	t.st.Schedule = t.sched
	t.promo = newPromotion(net, cfg.Promote, t.st.Promoted)
	t.rands = make([]*rand.PCG, threads*t.lanes)
	for k := range t.rands {
		t.rands[k] = NewRand(cfg.Seed, uint64(k))
		if cfg.Resume != nil {
			t.rands[k].UnmarshalBinary(cfg.Resume.Rands[k]) // Check read it
		}
	}
	return t, nil
}

// Check reports whether the run state can continue a run of threads
// workers playing interleave episodes in turn: one readable generator for
// each of its episodes in turn. Train checks it; a caller checks it before
// touching the files of a resumed run.
func (r *RunState) Check(threads, interleave int) error {
	interleave = max(interleave, 1)
	if len(r.Rands) != threads*interleave {
		return fmt.Errorf("resume: the run has %d generators, not one for each of %d threads x %d episodes in turn", len(r.Rands), threads, interleave)
	}
	for k, b := range r.Rands {
		var g rand.PCG
		if err := g.UnmarshalBinary(b); err != nil {
			return fmt.Errorf("resume: generator %d: %w", k, err)
		}
	}
	return nil
}

// run plays the episodes on the workers and returns the run's state.
func (t *trainer) run() (RunState, Result, error) {
	cfg := t.cfg
	t.next, t.done, t.shown = t.st.Done, t.st.Done, t.st.Done/t.every
	t.startCoherence()
	t.net.Prefault()
	t.start = time.Now()
	t.prior = time.Duration(t.st.Elapsed * float64(time.Second))
	t.wake = sync.NewCond(&t.mu)
	t.blocks = map[int]*stats.Block{}
	t.lastTick, t.lastSave = t.start, t.start
	if t.st.Partial.Games > 0 {
		p := t.st.Partial
		t.blocks[t.shown] = &p
	}
	t.nextBoundary()

	threads := len(t.rands) / t.lanes
	var ctl *laneControl
	if cfg.AdaptInterleave && threads > 1 {
		ctl = &laneControl{over: func() bool {
			t.mu.Lock()
			defer t.mu.Unlock()
			return t.ended()
		}}
		choices := laneChoices(threads, t.lanes)
		ctl.set(choices[0])
		quit := make(chan struct{})
		defer close(quit)
		go ctl.run(quit, choices, laneTimes)
	}
	var wg sync.WaitGroup
	stop := context.AfterFunc(t.ctx, func() {
		t.mu.Lock()
		t.wake.Broadcast()
		t.mu.Unlock()
	})
	defer stop()
	for k := range threads {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t.work(k, ctl)
		}()
	}
	wg.Wait()
	var choices []ChoiceTime
	if ctl != nil {
		choices = ctl.times() // before Unpack, which copies the weights for seconds
	}
	t.net.Unpack()
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.state(), Result{Episodes: t.done - t.st.Done, Moves: t.moves, Elapsed: time.Since(t.start), Choices: choices}, t.failed
}

// work is worker k: it plays episodes until the run hands out no more,
// in turn on its lanes (interleave) or one at a time. With a control,
// worker k parks while ctl.lanes(k) is 0, and counts its moves.
func (t *trainer) work(k int, ctl *laneControl) {
	cfg := t.cfg
	ws := make([]stepper, t.lanes)
	var w *Worker
	for j := range t.lanes {
		w = NewWorker(t.net, cfg.Kind, t.rands[k*t.lanes+j])
		if w.trace != nil {
			w.trace.Mode, w.trace.interleaved = cfg.Mode, t.lanes > 1
		}
		w.promote, w.Shaping, w.threes = t.promo, cfg.Shaping, cfg.threes
		ws[j] = w
	}
	if t.lanes > 1 {
		interleave(ws, t.take, t.finish, ctl, k)
		return
	}
	for ctl == nil || ctl.lanes(k) > 0 || ctl.park(k) {
		i, alpha, ok := t.take(true)
		if !ok {
			return
		}
		ep := w.Play(alpha)
		if ctl != nil {
			ctl.moves.Add(int64(max(ep.Moves, ep.work)))
		}
		t.finish(i, ep, alpha)
	}
}

// nextBoundary sets the episode before which the workers pause next: a
// checkpoint, the start of temporal coherence or the end. mu held.
func (t *trainer) nextBoundary() {
	cfg := t.cfg
	t.boundary = cfg.Episodes
	if cfg.Checkpoint != nil && cfg.CheckpointEvery > 0 {
		t.boundary = min(cfg.Episodes, (t.done/cfg.CheckpointEvery+1)*cfg.CheckpointEvery)
	}
	if cfg.CoherenceFrom > t.done && !t.net.Coherent() {
		t.boundary = min(t.boundary, cfg.CoherenceFrom)
	}
	if k := cfg.StopEvery; k > 0 {
		t.boundary = min(t.boundary, (t.done/k+1)*k)
	}
}

// startCoherence turns temporal coherence on once the episodes done reach
// Config.CoherenceFrom, and packs a coherent network; all workers idle.
func (t *trainer) startCoherence() {
	if t.cfg.CoherenceFrom > 0 && t.done >= t.cfg.CoherenceFrom && !t.net.Coherent() {
		t.net.EnableCoherence()
	}
	if !t.cfg.unpacked {
		t.net.Pack() // a coherent network trains packed (ntuple.Network.Pack)
	}
}

// state describes the run; mu held, all workers idle.
func (t *trainer) state() RunState {
	s := t.st
	s.Done = t.done
	s.Partial = stats.Block{}
	if b := t.blocks[t.done/t.every]; b != nil {
		s.Partial = *b
	}
	s.Elapsed = (t.prior + time.Since(t.start)).Seconds()
	s.Moves = t.st.Moves + t.moves
	s.Promoted = t.promo.state()
	s.Rands = make([][]byte, len(t.rands))
	for k, r := range t.rands {
		s.Rands[k], _ = r.MarshalBinary()
	}
	return s
}

// ended reports, with mu held, whether the run hands out no more
// episodes: all given, one diverged, or cancelled.
func (t *trainer) ended() bool {
	return t.next >= t.cfg.Episodes || t.failed != nil || t.ctx.Err() != nil && (t.cfg.StopEvery <= 0 || t.next == t.boundary)
}

// take hands out the next episode and its rate; at a boundary it waits,
// or with wait false, returns none.
func (t *trainer) take(wait bool) (int, float32, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for wait && t.next >= t.boundary && !t.ended() {
		t.wake.Wait()
	}
	if t.next >= t.boundary || t.ended() {
		return 0, 0, false
	}
	i := t.next
	t.next++
	t.inflight++
	return i, t.sched.Alpha(i), true
}

// finish takes episode i back, played at rate alpha: it counts it into
// its block, reports the blocks complete, ticks, and at a boundary with
// every worker idle checkpoints.
func (t *trainer) finish(i int, ep Episode, alpha float32) {
	t.mu.Lock()
	defer t.mu.Unlock()
	cfg := t.cfg
	t.inflight--
	if ep.diverged && t.failed == nil {
		t.failed = &DivergedError{Episode: i, Alpha: alpha}
		t.wake.Broadcast()
	}
	t.done++
	t.moves += int64(max(ep.Moves, ep.work))
	k := i / t.every
	b := t.blocks[k]
	if b == nil {
		b = &stats.Block{}
		t.blocks[k] = b
	}
	b.Add(ep.Score, ep.MaxTile, ep.Moves)
	b.AddWork(ep.Moves, ep.work)
	t.report(alpha)
	if cfg.Tick != nil && time.Since(t.lastTick) >= cfg.TickEvery {
		t.lastTick = time.Now()
		s := Snapshot{Done: t.done, Total: cfg.Episodes, Played: t.done - t.st.Done, Moves: t.moves, Elapsed: t.prior + time.Since(t.start),
			Session: time.Since(t.start), Alpha: alpha}
		if b := t.blocks[t.shown]; b != nil {
			s.Block = *b
		}
		cfg.Tick(s)
	}
	if t.inflight == 0 && t.next == t.boundary && t.boundary < cfg.Episodes && !t.ended() {
		// All workers wait at the boundary: the network and the
		// generators are consistent, save them.
		t.startCoherence()
		if cfg.Checkpoint != nil && cfg.CheckpointEvery > 0 && t.done%cfg.CheckpointEvery == 0 &&
			(cfg.CheckpointGap <= 0 || time.Since(t.lastSave) >= cfg.CheckpointGap) {
			if err := cfg.Checkpoint(t.state()); err != nil {
				t.failed = err
			}
			t.lastSave = time.Now()
		}
		t.nextBoundary()
		t.wake.Broadcast()
	}
}

// report reports every block that is complete and whose predecessors
// are, in order; mu held.
func (t *trainer) report(alpha float32) {
	for {
		b := t.blocks[t.shown]
		size := min(t.every, t.cfg.Episodes-t.shown*t.every)
		if b == nil || b.Games < size {
			return
		}
		if size == t.every {
			delete(t.blocks, t.shown)
			t.sched.Observe(b.Avg())
		}
		// A run's closing partial block stays the state's Partial, and
		// the schedule does not see it: a run extended past it goes on
		// filling the block, and learns as the unbroken run would.
		t.shown++
		if t.cfg.Block != nil {
			t.cfg.Block(min(t.shown*t.every, t.cfg.Episodes), b, t.prior+time.Since(t.start), alpha)
		}
	}
}
