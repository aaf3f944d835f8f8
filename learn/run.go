package learn

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"
	"time"

	"github.com/td2048/td2048/ntuple"
	"github.com/td2048/td2048/stats"
)

// Mix derives a well-spread 64-bit seed from a seed and a stream number
// (splitmix64 of both), so that nearby seeds and streams give unrelated
// generators.
func Mix(seed, stream uint64) uint64 {
	z := seed + 0x9e3779b97f4a7c15*(stream+1)
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// NewRand returns the generator of stream number stream under seed.
func NewRand(seed, stream uint64) *rand.PCG {
	// Each generator on a cache line of its own: games draw tiles from
	// them at every move, and the 16-byte generators of different threads
	// side by side made one line that both wrote.
	p := new(struct {
		rand.PCG
		_ [48]byte
	})
	p.PCG = *rand.NewPCG(Mix(seed, stream), Mix(^seed, stream))
	return &p.PCG
}

// A Player plays one episode at a time on one goroutine, learning from it
// with rate alpha (none when alpha is 0). Worker is 2048's; other games
// bring their own to Train through Config.NewPlayer.
type Player interface{ Play(alpha float32) Episode }

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
	// apply (CheckInterleave; players of other games, Config.NewPlayer).
	Interleave int
	// AdaptInterleave, on several threads, lets the run vary how many of
	// its Interleave episodes each worker plays at once (1 or all) and
	// whether all its threads play or half of them, by which it measures
	// faster (laneControl). One thread never adapts, so that a run repeats from
	// its seed.
	AdaptInterleave bool
	Every           int // games per statistics block
	// Schedule gives each episode's learning rate; nil means 0.1. Train
	// updates its plateau state as blocks finish.
	Schedule *Schedule
	// Resume continues a run from a checkpoint's state.
	Resume *RunState
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
	// NewPlayer makes the player of one worker goroutine from its
	// generator; nil means a 2048 Worker of Kind.
	NewPlayer func(rng *rand.PCG) Player
	// Promote turns on weight promotion for a multi-stage network: a stage
	// first entered in the run starts from the stage below's weights.
	Promote bool
	// Shaping cuts 2048 after-state episodes into sub-episodes: restart
	// or carousel shaping (shaping.go).
	Shaping Shaping
	// Unpacked keeps a coherent network's weights and accumulators apart
	// while it trains, instead of packing them (ntuple.Network.Pack): the
	// same values, bit for bit, slower; for tests.
	Unpacked bool
	// CoherenceFrom, when positive, is the episode from which the network
	// learns by temporal coherence (OTD then TC in one run): all workers
	// pause there while its accumulators are made (phase.go).
	CoherenceFrom int
}

// RunState is what continues a run exactly: saved in checkpoints.
type RunState struct {
	Done    int      `json:"done"` // episodes finished
	Total   int      `json:"total"`
	Seed    uint64   `json:"seed"`
	Every   int      `json:"every"`
	Learner string   `json:"learner"`
	Update  string   `json:"update,omitempty"` // Mode, "" for backward TD(0)
	Rands   [][]byte `json:"rands"`            // each worker's generator (each lane's: worker k's lane j is k*Interleave+j)
	// Interleave is Config.Interleave, 0 for 1.
	Interleave int         `json:"interleave,omitempty"`
	Partial    stats.Block `json:"partial"` // the unfinished block
	Schedule   *Schedule   `json:"schedule"`
	Elapsed    float64     `json:"elapsed_s"` // seconds of training so far
	Moves      int64       `json:"moves"`     // moves played so far
	// Promoted lists, with weight promotion, which stages the run has
	// entered (and so promoted).
	Promoted []bool `json:"promoted,omitempty"`
	// Shaping is Config.Shaping (ParseShaping), "" for none.
	Shaping string `json:"shaping,omitempty"`
	// CoherenceFrom is Config.CoherenceFrom.
	CoherenceFrom int `json:"coherence_from,omitempty"`
}

// A Snapshot is the progress of a run.
type Snapshot struct {
	Done, Total int
	Played      int   // episodes of this session
	Moves       int64 // moves of this session
	Elapsed     time.Duration
	Session     time.Duration // time of this session
	Block       stats.Block   // the block under way
	Alpha       float32
}

// DivergedError stops a run whose learning drove a value to NaN or
// infinity: the weights are no longer usable, so the run keeps its last
// checkpoint instead of saving them.
type DivergedError struct {
	Episode int
	Alpha   float32
}

func (e *DivergedError) Error() string {
	return fmt.Sprintf("training diverged at episode %d: a value became NaN or infinite (learning rate %g is too large)", e.Episode+1, e.Alpha)
}

// DefaultInterleave is the number of episodes a worker plays in turn
// where that trains fastest (FastestInterleave). Config.Interleave's zero
// value is 1: a run stopped anywhere then resumes exactly, where
// interleaved runs resume exactly only from their checkpoints.
const DefaultInterleave = 2

// InterleaveHelps reports whether games in turn (Config.Interleave,
// EvalConfig.Interleave) make this processor faster than one game at a
// time, as measured on the two processors this project has run on. On an
// AMD EPYC (Zen 5) they did: one core there keeps many misses in flight
// (about two dozen), more than one game's move asks for at once, so the
// other game's work fills the wait. On an Intel Xeon (Cascade Lake) they
// did not: one game's prefetches already fill the core's few miss buffers
// (perf puts 39% of training on PREFETCHT0s waiting for one), so a second
// game only adds cache pressure. There, one thread, alternating rounds
// (2026-11-26): greedy play on TDL2048+'s 100k 4x6 weights, 3000 games,
// one at a time was faster in 7 of 8 rounds and level in the eighth
// (1.56-2.07M against 1.45-1.79M moves/s, median ratio 1.09x); 4x6 from
// zero, 30k episodes online, one at a time was faster in 4 of 6 rounds
// (median 1.05x, on a machine whose times for the same run spread over
// 22-34 s), and in all 4 of the course's 100k-episode rounds (1.03-1.18x).
// Other processors get one game at a time, the plain choice, until
// measured.
func InterleaveHelps() bool { return ntuple.Vendor() == "AuthenticAMD" }

// FastestInterleave is the number of episodes each worker, on any number
// of threads, should play in turn to train net fastest with kind and
// shaping on this processor (the train command's default):
// DefaultInterleave where InterleaveHelps and for networks of at most 40
// weights a board (4x6, 5x6, staged 4x6), 1 elsewhere. On the AMD EPYC,
// one thread (2026-11-25): 100k episodes of 4x6 from zero, 5 alternating
// rounds online, took 60.0 s at 2 against 72.0 s at 1; backward, 3
// rounds, 66.7 s against 78.9 s; 5k episodes of 5x6 1.31-1.33 s against
// 1.30-1.51 s. Two threads (2026-11-26): 30k episodes of 4x6 from zero, 10
// alternating rounds each, two in turn were faster in 17 of 20 pairs, by a
// median 1.07x online and 1.15x backward (the threads' shared weights make
// that machine's two-thread times bimodal, 6-7 s or 10-14 s, for one at a
// time as for two in turn and for TDL2048+ alike; the pairs where both ran
// fast gave 1.05x and 1.10x). A move of 8x6 asks for 64 weights a board,
// enough to fill the processor's outstanding misses alone: two in turn
// took 2.78-2.94 s against 2.60-2.65 s for 5k episodes on one thread. On
// several threads neither choice always wins (docs/speed.md), so the
// train command lets such runs adapt it (Config.AdaptInterleave).
func FastestInterleave(net *ntuple.Network, kind Kind, s Shaping) int {
	if InterleaveHelps() && net.Lookups() <= 40 && CheckInterleave(DefaultInterleave, kind, s) == nil {
		return DefaultInterleave
	}
	return 1
}

// MaxInterleave bounds Config.Interleave.
const MaxInterleave = 64

// play plays one episode at a time on p until take has none to give. With
// a control, worker k parks while ctl.lanes(k) is 0, and counts its moves.
func play(p Player, take func(wait bool) (int, float32, bool), finish func(int, Episode, float32), ctl *laneControl, k int) {
	for {
		if ctl != nil && ctl.lanes(k) == 0 && !ctl.park(k) {
			return
		}
		i, alpha, ok := take(true)
		if !ok {
			return
		}
		ep := p.Play(alpha)
		if ctl != nil {
			ctl.moves.Add(int64(max(ep.Moves, ep.Work)))
		}
		finish(i, ep, alpha)
	}
}

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
	threads := cfg.Threads
	if threads <= 0 {
		threads = runtime.GOMAXPROCS(0)
	}
	if threads > 1 {
		net.Share()
	}
	if err := checkConfig(net, cfg); err != nil {
		return RunState{}, Result{}, err
	}
	every := max(cfg.Every, 1)
	sched := cfg.Schedule
	if sched == nil {
		sched = Constant(0.1)
	}
	st := RunState{Total: cfg.Episodes, Seed: cfg.Seed, Every: every, Learner: cfg.Kind.String(), Schedule: sched,
		CoherenceFrom: cfg.CoherenceFrom, Shaping: cfg.Shaping.String()}
	if cfg.Mode != (Mode{}) {
		st.Update = cfg.Mode.String()
	}
	if r := cfg.Resume; r != nil {
		if r.Every != every {
			return st, Result{}, fmt.Errorf("resume: blocks of %d episodes, not %d", r.Every, every)
		}
		st.Done, st.Partial, st.Elapsed, st.Moves = r.Done, r.Partial, r.Elapsed, r.Moves
	}
	var promoted []bool
	if cfg.Resume != nil {
		promoted = cfg.Resume.Promoted
	}
	promo := newPromotion(net, cfg.Promote, promoted)
	lanes := cfg.Interleave
	if lanes > MaxInterleave {
		return st, Result{}, fmt.Errorf("interleave %d: at most %d episodes per worker", lanes, MaxInterleave)
	}
	if err := CheckInterleave(lanes, cfg.Kind, cfg.Shaping); err != nil {
		return st, Result{}, err
	}
	if lanes > 1 && cfg.NewPlayer != nil {
		return st, Result{}, fmt.Errorf("interleave %d: this game's training plays one episode at a time on each thread", lanes)
	}
	lanes = max(lanes, 1)
	if lanes > 1 {
		st.Interleave = lanes
	}
	if r := cfg.Resume; r != nil && max(r.Interleave, 1) != lanes {
		return st, Result{}, fmt.Errorf("resume: the run interleaves %d episodes per worker, not %d", max(r.Interleave, 1), lanes)
	}
	rands := make([]*rand.PCG, threads*lanes)
	for k := range rands {
		rands[k] = NewRand(cfg.Seed, uint64(k))
		if cfg.Resume != nil && k < len(cfg.Resume.Rands) {
			if err := rands[k].UnmarshalBinary(cfg.Resume.Rands[k]); err != nil {
				return st, Result{}, fmt.Errorf("resume: generator %d: %v", k, err)
			}
		}
	}
	startCoherence(net, cfg, st.Done)
	net.Prefault()
	start := time.Now()
	prior := time.Duration(st.Elapsed * float64(time.Second))

	var (
		mu       sync.Mutex
		wake     = sync.NewCond(&mu)
		next     = st.Done // next episode to hand out
		inflight int
		done     = st.Done
		moves    int64
		blocks   = map[int]*stats.Block{}
		shown    = st.Done / every // blocks reported
		boundary = cfg.Episodes    // no episode at or past it is handed out until a checkpoint
		failed   error
		lastTick = start
		lastSave = start // of the last checkpoint (CheckpointGap)
	)
	if st.Partial.Games > 0 {
		p := st.Partial
		blocks[shown] = &p
	}
	nextBoundary := func() {
		boundary = cfg.Episodes
		if cfg.Checkpoint != nil && cfg.CheckpointEvery > 0 {
			boundary = min(cfg.Episodes, (done/cfg.CheckpointEvery+1)*cfg.CheckpointEvery)
		}
		boundary = coherenceBoundary(net, cfg, done, boundary)
	}
	nextBoundary()
	// state describes the run; mu held, all workers idle.
	state := func() RunState {
		s := st
		s.Done = done
		s.Partial = stats.Block{}
		if b := blocks[done/every]; b != nil {
			s.Partial = *b
		}
		s.Elapsed = (prior + time.Since(start)).Seconds()
		s.Moves = st.Moves + moves
		s.Promoted = promo.state()
		s.Rands = make([][]byte, len(rands))
		for k, r := range rands {
			s.Rands[k], _ = r.MarshalBinary()
		}
		return s
	}
	// take hands out the next episode; at a boundary it waits, or with
	// wait false, returns none.
	// ended reports, with mu held, whether the run hands out no more
	// episodes: all given, one diverged, or cancelled.
	ended := func() bool { return next >= cfg.Episodes || failed != nil || ctx.Err() != nil }
	take := func(wait bool) (int, float32, bool) {
		mu.Lock()
		defer mu.Unlock()
		for wait && next >= boundary && !ended() {
			wake.Wait()
		}
		if next >= boundary || ended() {
			return 0, 0, false
		}
		i := next
		next++
		inflight++
		return i, sched.Alpha(i), true
	}
	finish := func(i int, ep Episode, alpha float32) {
		mu.Lock()
		defer mu.Unlock()
		inflight--
		if ep.Diverged && failed == nil {
			failed = &DivergedError{Episode: i, Alpha: alpha}
			wake.Broadcast()
		}
		done++
		moves += int64(max(ep.Moves, ep.Work))
		k := i / every
		b := blocks[k]
		if b == nil {
			b = &stats.Block{}
			blocks[k] = b
		}
		b.Add(ep.Score, ep.MaxTile, ep.Moves)
		b.AddWork(ep.Moves, ep.Work)
		// Report every block that is complete and whose predecessors are.
		for {
			b := blocks[shown]
			size := min(every, cfg.Episodes-shown*every)
			if b == nil || b.Games < size {
				break
			}
			delete(blocks, shown)
			shown++
			sched.Observe(b.Avg())
			if cfg.Block != nil {
				cfg.Block(min(shown*every, cfg.Episodes), b, prior+time.Since(start), alpha)
			}
		}
		if cfg.Tick != nil && time.Since(lastTick) >= cfg.TickEvery {
			lastTick = time.Now()
			s := Snapshot{Done: done, Total: cfg.Episodes, Played: done - st.Done, Moves: moves, Elapsed: prior + time.Since(start),
				Session: time.Since(start), Alpha: alpha}
			if b := blocks[shown]; b != nil {
				s.Block = *b
			}
			cfg.Tick(s)
		}
		if inflight == 0 && next == boundary && boundary < cfg.Episodes && failed == nil {
			// All workers wait at the boundary: the network and the
			// generators are consistent, save them.
			startCoherence(net, cfg, done)
			if cfg.Checkpoint != nil && cfg.CheckpointEvery > 0 && done%cfg.CheckpointEvery == 0 &&
				(cfg.CheckpointGap <= 0 || time.Since(lastSave) >= cfg.CheckpointGap) {
				if err := cfg.Checkpoint(state()); err != nil {
					failed = err
				}
				lastSave = time.Now()
			}
			nextBoundary()
			wake.Broadcast()
		}
	}

	var ctl *laneControl
	if cfg.AdaptInterleave && threads > 1 {
		ctl = &laneControl{over: func() bool {
			mu.Lock()
			defer mu.Unlock()
			return ended()
		}}
		choices := laneChoices(threads, lanes)
		ctl.set(choices[0])
		quit := make(chan struct{})
		defer close(quit)
		go ctl.run(quit, choices, laneTimes)
	}
	var wg sync.WaitGroup
	stop := context.AfterFunc(ctx, func() {
		mu.Lock()
		wake.Broadcast()
		mu.Unlock()
	})
	defer stop()
	for k := range threads {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if cfg.NewPlayer != nil {
				play(cfg.NewPlayer(rands[k]), take, finish, ctl, k)
				return
			}
			ws := make([]stepper, lanes)
			var w *Worker
			for j := range lanes {
				w = NewWorker(net, cfg.Kind, rands[k*lanes+j])
				if w.trace != nil {
					w.trace.Mode, w.trace.interleaved = cfg.Mode, lanes > 1
				}
				w.promote, w.Shaping = promo, cfg.Shaping
				ws[j] = w
			}
			if lanes == 1 {
				play(w, take, finish, ctl, k)
				return
			}
			interleave(ws, take, finish, ctl, k)
		}()
	}
	wg.Wait()
	var choices []ChoiceTime
	if ctl != nil {
		choices = ctl.times() // before Unpack, which copies the weights for seconds
	}
	net.Unpack()
	mu.Lock()
	defer mu.Unlock()
	return state(), Result{Episodes: done - st.Done, Moves: moves, Elapsed: time.Since(start), Choices: choices}, failed
}
