// Package evaluate plays games with a network and no learning, 2048's
// and Threes!' alike (Run): greedily, by expectimax or by any policy,
// several greedy 2048 games in turn on each thread where that is faster
// (lanes.go), 2048 past 32768 and with tile-downgrading (wide.go),
// Threes! with the course's records and statistics file (threes.go).
// Game i draws its randomness from episode.NewRand(seed, i) alone, the
// generator training uses, so an evaluation's statistics do not depend
// on its threads, and an interrupted one is a prefix of the whole.
package evaluate

import (
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/td2048/td2048/board"
	"github.com/td2048/td2048/episode"
	"github.com/td2048/td2048/ntuple"
	"github.com/td2048/td2048/rules/game2048"
	"github.com/td2048/td2048/rules/threes"
	"github.com/td2048/td2048/search"
	"github.com/td2048/td2048/stats"
)

// A Policy chooses a 2048 move on a board. One policy serves one
// goroutine.
type Policy func(b board.Board) search.Choice

// playFrom plays a 2048 game from board b with policy and rng. It gives
// up when stop is set (checked before each move; false then) and adds
// the moves it plays to moves, a few at a time.
// With sh not nil the whole game is played by the Shifter (downgrading);
// else on the 4-bit board until a 65536 is made, then on a wide board.
func playFrom(b board.Board, policy Policy, sh *search.Shifter, rng game2048.Rand, stop *atomic.Bool, moves *atomic.Int64) (episode.Outcome, bool) {
	var ep episode.Outcome
	if sh != nil {
		sh.Reset()
		ok := playOn(policy, sh, rng, board.Wide{Low: b}, &ep, stop, moves)
		return ep, ok
	}
	n := int64(0) // moves not yet added to moves
	defer func() { moves.Add(n) }()
	for {
		if stop.Load() {
			return ep, false
		}
		c := policy(b)
		if !c.Legal() {
			if stop.Load() {
				return ep, false // the policy may have been cut short
			}
			break
		}
		ep.Moves++
		if n++; n == 64 {
			moves.Add(n)
			n = 0
		}
		ep.Score += c.Points()
		if c.Overflow() {
			ok := overflowOn(policy, b, c, rng, &ep, stop, moves)
			return ep, ok
		}
		b = game2048.Spawn(c.After, rng)
	}
	ep.MaxTile = b.MaxTile()
	return ep, true
}

// Config is an evaluation run: 2048 games by NewPolicy's or Greedy's
// policy, or Threes! games by NewThreesPolicy's.
type Config struct {
	Games int
	// First is the index of the first game: the games are First ..
	// First+Games-1 (a shard of a larger evaluation; see evalresult).
	First   int
	Seed    uint64
	Threads int // 0 means all cores
	// NewPolicy makes the 2048 policy of one worker goroutine. Its
	// searches should stop when the evaluation's context is cancelled
	// (search Options.Stop set to ctx.Done()), or an interrupted
	// evaluation waits for the moves under way.
	NewPolicy func() Policy
	// NewThreesPolicy, when set, plays Threes! games instead, each worker
	// goroutine with the policy it makes (its searches stopped as
	// NewPolicy's).
	NewThreesPolicy func() ThreesPolicy
	// Downgrade, when on, plays every 2048 game with tile-downgrading
	// (search.Downgrade, TDL2048+'s -h).
	Downgrade search.Downgrade
	// Greedy, when set, plays every 2048 game greedily with this network
	// (search.Greedy) instead of NewPolicy's policy, Interleave games at a
	// time on each thread (lanes.go): one game's weights load while
	// another's move is decided. The games and their statistics are the
	// same for every Interleave. Downgrading plays one game at a time.
	Greedy *ntuple.Network
	// Interleave is the number of games of Greedy each thread plays in
	// turn; 0 means episode.DefaultInterleave where episode.InterleaveHelps,
	// else 1. Greedy play reads a hundred weights a move from 256 MB and
	// more, and one game's move cannot start before its last one's
	// weights arrive; with two games in turn, one game's weights load
	// while the other's move is decided. Three or four games only add
	// cache pressure (docs/speed.md, "Games in turn").
	Interleave int
	// Stats, when set, receives one line per Threes! game in the course's
	// statistics-file format, in game order.
	Stats io.Writer
	// Tick, when set, is called about every TickEvery (250ms when 0) from
	// a goroutine of its own with the progress: Done (and Played) the
	// games finished, Moves every move played so far (Threes!: slides),
	// those of the games under way included, Block the finished games.
	// It is not called after Run returns.
	Tick      func(episode.Snapshot)
	TickEvery time.Duration
	// Done, when set, is called after each finished game, in game order
	// (after its line went to Stats), with the result of the games
	// finished so far, 0..k: its Block and Speed, not Moves or Elapsed (a
	// shard's record of its progress). It runs while the workers wait to
	// hand on their games, so it should be quick or rare; it must not
	// keep r.
	Done func(r *Result)
}

// A Result is what Run found: the finished games, a prefix 0..k-1 of all
// when it was interrupted.
type Result struct {
	Block stats.Block // score, largest tile (Threes!: its index), moves (slides)
	// Speed is the speed part of the course summary of Threes! games
	// (stats.Block.WriteThrees); nil for 2048.
	Speed   *stats.Speed
	Moves   int64 // every move played, abandoned games' included
	Elapsed time.Duration
}

// A played game is one game of an evaluation as its worker hands it on:
// finished false when it was given up.
type played struct {
	ep       episode.Outcome
	speed    stats.Speed // Threes!: its slides, placements and times
	line     []byte      // Threes!: its record, when Config.Stats is set
	finished bool
}

// Run plays cfg.Games games without learning. Game i (counted from
// cfg.First) draws its randomness from episode.NewRand(cfg.Seed, i) alone,
// so the statistics do not depend on the number of threads. It stops at
// the first error writing the statistics file, which it returns.
//
// Cancelling ctx abandons the games under way at their next move: the
// result (and the statistics file) holds the games 0..k-1 finished
// before the first abandoned one (so an interrupted evaluation is a
// prefix of the whole, exactly: a game that ends after the cancellation
// is abandoned too, its last moves being perhaps those of searches cut
// short), and Result.Moves counts every move played, abandoned games'
// included.
func Run(ctx context.Context, cfg Config) (Result, error) {
	start := time.Now()
	var (
		mu    sync.Mutex // guards res for tick
		res   Result
		sofar Result // what Done sees
		speed stats.Speed
		moves atomic.Int64
		stop  atomic.Bool
	)
	if cfg.NewThreesPolicy != nil {
		res.Speed = new(stats.Speed)
	}
	defer context.AfterFunc(ctx, func() { stop.Store(true) })()
	if ctx.Err() != nil {
		stop.Store(true)
	}
	defer startTicks(cfg.Tick, cfg.TickEvery, func() episode.Snapshot {
		mu.Lock()
		defer mu.Unlock()
		d := time.Since(start)
		return episode.Snapshot{Done: res.Block.Games, Total: cfg.Games, Played: res.Block.Games, Moves: moves.Load(), Elapsed: d, Session: d, Block: res.Block}
	})()
	err := runGames(ctx, cfg.Games, cfg.Threads, func() worker { return cfg.worker(&stop, &moves) }, func(_ int, g played) error {
		// A game handed on after the cancellation counts as abandoned
		// even when it ended: its last moves may come from searches cut
		// short (search.Options.Stop), before its worker saw stop.
		if !g.finished || ctx.Err() != nil {
			return errAbandoned
		}
		mu.Lock()
		defer mu.Unlock()
		res.Block.Add(g.ep.Score, g.ep.MaxTile, g.ep.Moves)
		if res.Speed != nil {
			res.Speed.Add(&g.speed)
		}
		if cfg.Stats != nil {
			if _, err := cfg.Stats.Write(g.line); err != nil {
				return err
			}
		}
		if cfg.Done != nil {
			sofar = Result{Block: res.Block}
			if res.Speed != nil {
				speed, sofar.Speed = *res.Speed, &speed
			}
			cfg.Done(&sofar)
		}
		return nil
	})
	if err == errAbandoned {
		err = nil
	}
	res.Moves, res.Elapsed = moves.Load(), time.Since(start)
	return res, err
}

// worker makes the worker of one goroutine of Run: it gives up its games
// when stop is set, and adds the moves it plays to moves.
func (cfg *Config) worker(stop *atomic.Bool, moves *atomic.Int64) worker {
	rng := func(i int) *rand.PCG { return episode.NewRand(cfg.Seed, uint64(cfg.First+i)) }
	if cfg.NewThreesPolicy != nil {
		policy := cfg.NewThreesPolicy()
		var rec *threes.Record // with Stats, each finished game carries its line
		if cfg.Stats != nil {
			rec = new(threes.Record)
		}
		return oneAtATime(func(i int) played {
			g := playThreesGame(policy, rng(i), rec, stop, moves)
			if rec != nil && g.finished {
				g.line = append(rec.AppendText(make([]byte, 0, 8*len(rec.Steps))), '\n')
			}
			return g
		})
	}
	lanes := cfg.Interleave
	if lanes == 0 && episode.InterleaveHelps() {
		lanes = episode.DefaultInterleave
	}
	if cfg.Greedy != nil && lanes > 1 && !cfg.Downgrade.On() {
		return greedyLanes(cfg.Greedy, lanes, func(i int) game2048.Rand { return rng(i) }, game2048.Start, stop, moves)
	}
	var policy Policy
	if cfg.Greedy != nil {
		policy = greedy(cfg.Greedy)
	} else {
		policy = cfg.NewPolicy()
	}
	var sh *search.Shifter
	if cfg.Downgrade.On() {
		sh = search.NewShifter(cfg.Downgrade)
	}
	return oneAtATime(func(i int) played {
		r := rng(i)
		ep, ok := playFrom(game2048.Start(r), policy, sh, r, stop, moves)
		return played{ep: ep, finished: ok}
	})
}

// A worker plays games on one goroutine: it takes their indices from take
// until take says there are none left, and hands each game to put,
// stopping when put returns false. It may hold several games at once and
// finish them out of order.
type worker func(take func() (int, bool), put func(i int, g played) bool)

// oneAtATime is the worker of a player of one game at a time.
func oneAtATime(play func(i int) played) worker {
	return func(take func() (int, bool), put func(int, played) bool) {
		for i, ok := take(); ok && put(i, play(i)); i, ok = take() {
		}
	}
}

// greedy is the policy of search.Greedy with net.
func greedy(net *ntuple.Network) Policy {
	return func(b board.Board) search.Choice { return search.Greedy(net, b) }
}

// errAbandoned stops Run at the first game given up.
var errAbandoned = errors.New("game abandoned")

// startTicks calls tick with snap() every every (250ms when 0), from a
// goroutine of its own, until the function it returns is called, which
// waits for a tick under way, and ticks once itself if none came (a phase
// faster than its first tick still reports): evaluations report their
// progress with it. A nil tick starts nothing.
func startTicks(tick func(episode.Snapshot), every time.Duration, snap func() episode.Snapshot) (stop func()) {
	if tick == nil {
		return func() {}
	}
	if every <= 0 {
		every = 250 * time.Millisecond
	}
	quit, done := make(chan struct{}), make(chan struct{})
	ticked := false
	go func() {
		defer close(done)
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				tick(snap())
				ticked = true
			case <-quit:
				return
			}
		}
	}()
	return func() {
		close(quit)
		<-done
		if !ticked {
			tick(snap())
		}
	}
}

// runGames plays games 0..games-1 on threads goroutines (0: all cores),
// each running one worker newWorker makes, which takes game indices from
// take until it says there are none left (all taken, ctx cancelled) and
// hands each game to put, in any order, stopping when put returns false
// (done failed). The games reach done in game order, one call at a time;
// runGames returns done's first error, done having then seen a prefix of
// the games.
func runGames(ctx context.Context, games, threads int, newWorker func() worker, done func(i int, g played) error) error {
	if threads <= 0 {
		threads = runtime.GOMAXPROCS(0)
	}
	var (
		next    atomic.Int64
		mu      sync.Mutex
		pending = map[int]played{} // results waiting for their predecessors
		handed  int                // results handed to done
		failed  error
		wg      sync.WaitGroup
	)
	take := func() (int, bool) {
		if ctx.Err() != nil {
			return 0, false
		}
		i := int(next.Add(1) - 1)
		return i, i < games
	}
	put := func(i int, r played) bool {
		mu.Lock()
		defer mu.Unlock()
		if failed != nil {
			return false
		}
		pending[i] = r
		for r, ok := pending[handed]; ok && failed == nil; r, ok = pending[handed] {
			delete(pending, handed)
			failed = done(handed, r)
			handed++
		}
		return failed == nil
	}
	for range threads {
		wg.Add(1)
		go func() {
			defer wg.Done()
			newWorker()(take, put)
		}()
	}
	wg.Wait()
	return failed
}
