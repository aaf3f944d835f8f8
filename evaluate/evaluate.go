// Package evaluate plays games with a network and no learning: 2048's
// games (Run) greedily, by expectimax or by any Policy, several greedy
// games in turn on each thread where that is faster (lanes.go), past
// 32768 and with tile-downgrading (wide.go); Threes! games (RunThrees) with
// the course's records and statistics file. Game i draws its randomness
// from learn.NewRand(seed, i) alone, the generator training uses, so an
// evaluation's statistics do not depend on its threads, and an
// interrupted one is a prefix of the whole.
package evaluate

import (
	"context"
	"errors"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/td2048/td2048/board"
	"github.com/td2048/td2048/game"
	"github.com/td2048/td2048/learn"
	"github.com/td2048/td2048/ntuple"
	"github.com/td2048/td2048/search"
	"github.com/td2048/td2048/stats"
)

// A Policy chooses a move on a board. One policy serves one goroutine.
type Policy func(b board.Board) search.Choice

// PlayGame plays one game from a new start with policy and rng.
func PlayGame(policy Policy, rng game.Rand) learn.Episode {
	ep, _ := playGame(policy, nil, rng, nil, nil)
	return ep
}

// PlayGameFrom plays one game from board w (a move due) with policy and
// rng, its decisions made by sh (see search.Shifter): the game loop of
// every game that goes past 32768 or downgrades.
func PlayGameFrom(policy Policy, sh *search.Shifter, rng game.Rand, w board.Wide) learn.Episode {
	var ep learn.Episode
	playOn(policy, sh, rng, w, &ep, nil, nil)
	return ep
}

// playGame is PlayGame that gives up when stop is set (checked before
// each move; false then) and adds the moves it plays to moves, a few at a
// time, when moves is not nil. With sh not nil the whole game is played
// by the Shifter (downgrading); else on the 4-bit board until a 65536 is
// made, then on a wide board.
func playGame(policy Policy, sh *search.Shifter, rng game.Rand, stop *atomic.Bool, moves *atomic.Int64) (learn.Episode, bool) {
	return playFrom(game.Start(rng), policy, sh, rng, stop, moves)
}

// playFrom is playGame from board b.
func playFrom(b board.Board, policy Policy, sh *search.Shifter, rng game.Rand, stop *atomic.Bool, moves *atomic.Int64) (learn.Episode, bool) {
	var ep learn.Episode
	if sh != nil {
		sh.Reset()
		ok := playOn(policy, sh, rng, board.Wide{Low: b}, &ep, stop, moves)
		return ep, ok
	}
	n := int64(0) // moves not yet added to moves
	defer func() {
		if moves != nil {
			moves.Add(n)
		}
	}()
	for {
		if stop != nil && stop.Load() {
			return ep, false
		}
		c := policy(b)
		if !c.Legal() {
			if stop != nil && stop.Load() {
				return ep, false // the policy may have been cut short
			}
			break
		}
		ep.Moves++
		if n++; n == 64 && moves != nil {
			moves.Add(n)
			n = 0
		}
		ep.Score += c.Points()
		if c.Overflow() {
			ok := overflowOn(policy, b, c, rng, &ep, stop, moves)
			return ep, ok
		}
		b = game.Spawn(c.After, rng)
	}
	ep.MaxTile = b.MaxTile()
	return ep, true
}

// Config is an evaluation run.
type Config struct {
	Games int
	// First is the index of the first game: the games are First ..
	// First+Games-1 (a shard of a larger evaluation; see evalresult).
	First   int
	Seed    uint64
	Threads int // 0 means all cores
	// NewPolicy makes the policy of one worker goroutine. Its searches
	// should stop when the evaluation's context is cancelled (search
	// Options.Stop set to ctx.Done()), or an interrupted evaluation waits
	// for the moves under way.
	NewPolicy func() Policy
	// Downgrade, when on, plays every game with tile-downgrading
	// (search.Downgrade, TDL2048+'s -h).
	Downgrade search.Downgrade
	// Greedy, when set, plays every game greedily with this network
	// (search.Greedy) instead of NewPolicy's policy, Interleave games at a
	// time on each thread (lanes.go): one game's weights load while
	// another's move is decided. The games and their statistics are the
	// same for every Interleave. Downgrading plays one game at a time.
	Greedy *ntuple.Network
	// Interleave is the number of games of Greedy each thread plays in
	// turn; 0 means fastestInterleave(): 2 where that is faster (lanes.go).
	Interleave int
	// Tick, when set, is called about every TickEvery (250ms when 0) from
	// a goroutine of its own with the progress: Done (and Played) the
	// games finished, Moves every move played so far, those of the games
	// under way included, Block the finished games. It is not called
	// after Evaluate returns.
	Tick      func(learn.Snapshot)
	TickEvery time.Duration
	// Done, when set, is called after each finished game, in game order,
	// with the block of the games finished so far, 0..k: a shard's
	// record of its progress. It runs while the workers wait to hand on
	// their games, so it should be quick or rare; it must not keep b.
	Done func(b *stats.Block)
}

// Evaluate plays cfg.Games games without learning. Game i (counted from
// cfg.First) draws its randomness from learn.NewRand(cfg.Seed, i) alone, so the statistics do not
// depend on the number of threads.
//
// Cancelling ctx abandons the games under way at their next move: the
// block holds the games 0..k-1 finished before the first abandoned one
// (so an interrupted evaluation is a prefix of the whole, exactly: a game
// that ends after the cancellation is abandoned too, its last moves being
// perhaps those of searches cut short), and Result.Moves counts every
// move played, abandoned games' included.
func Run(ctx context.Context, cfg Config) (stats.Block, learn.Result) {
	rng := func(i int) game.Rand { return learn.NewRand(cfg.Seed, uint64(cfg.First+i)) }
	lanes := cfg.Interleave
	if lanes == 0 {
		lanes = fastestInterleave()
	}
	newWorker := func(stop *atomic.Bool, moves *atomic.Int64) worker[played[learn.Episode]] {
		if cfg.Greedy != nil && lanes > 1 && !cfg.Downgrade.On() {
			return greedyLanes(cfg.Greedy, lanes, rng, game.Start, stop, moves)
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
		return oneAtATime(asPlayed(func(i int) (learn.Episode, bool) { return playGame(policy, sh, rng(i), stop, moves) }))
	}
	total, moves, elapsed, _ := evaluate(ctx, cfg.Games, cfg.Threads, cfg.Tick, cfg.TickEvery, newWorker,
		func(ep learn.Episode, b *stats.Block) error {
			b.Add(ep.Score, ep.MaxTile, ep.Moves)
			if cfg.Done != nil {
				cfg.Done(b)
			}
			return nil
		})
	return total, learn.Result{Episodes: total.Games, Moves: moves, Elapsed: elapsed}
}

// A worker plays games on one goroutine: it takes their indices from take
// until take says there are none left, and hands each game's result to
// put, stopping when put returns false. It may hold several games at once
// and finish them out of order.
type worker[R any] func(take func() (int, bool), put func(i int, r R) bool)

// played is a game of an evaluation as its workers hand it on: finished
// false when it was given up.
type played[G any] struct {
	g        G
	finished bool
}

// oneAtATime is the worker of a player of one game at a time.
func oneAtATime[R any](play func(i int) R) worker[R] {
	return func(take func() (int, bool), put func(int, R) bool) {
		for i, ok := take(); ok && put(i, play(i)); i, ok = take() {
		}
	}
}

// asPlayed makes a player of games that reports whether each finished
// into one of played games.
func asPlayed[G any](play func(i int) (G, bool)) func(i int) played[G] {
	return func(i int) played[G] {
		g, finished := play(i)
		return played[G]{g, finished}
	}
}

// greedy is the policy of search.Greedy with net.
func greedy(net *ntuple.Network) Policy {
	return func(b board.Board) search.Choice { return search.Greedy(net, b) }
}

// evaluate is what the evaluations of every game share: games 0..games-1
// played on threads goroutines by the workers newWorker makes (one per
// goroutine; a worker gives up its games when stop is set, and adds the
// moves it plays to moves), the finished games handed in order to add
// with the block of those before them, until the first abandoned game or
// add's first error, and the progress ticks. It returns the block, the
// moves played (abandoned games' included) and the wall time.
func evaluate[G any](ctx context.Context, games, threads int, tick func(learn.Snapshot), every time.Duration,
	newWorker func(stop *atomic.Bool, moves *atomic.Int64) worker[played[G]],
	add func(g G, b *stats.Block) error) (stats.Block, int64, time.Duration, error) {
	start := time.Now()
	var (
		mu    sync.Mutex // guards total for tick
		total stats.Block
		moves atomic.Int64
		stop  atomic.Bool
	)
	defer context.AfterFunc(ctx, func() { stop.Store(true) })()
	if ctx.Err() != nil {
		stop.Store(true)
	}
	defer startTicks(tick, every, func() learn.Snapshot {
		mu.Lock()
		defer mu.Unlock()
		d := time.Since(start)
		return learn.Snapshot{Done: total.Games, Total: games, Played: total.Games, Moves: moves.Load(), Elapsed: d, Session: d, Block: total}
	})()
	err := runGames(ctx, games, threads, func() worker[played[G]] {
		return newWorker(&stop, &moves)
	}, func(_ int, g played[G]) error {
		// A game handed on after the cancellation counts as abandoned
		// even when it ended: its last moves may come from searches cut
		// short (search.Options.Stop), before its worker saw stop.
		if !g.finished || ctx.Err() != nil {
			return errAbandoned
		}
		mu.Lock()
		defer mu.Unlock()
		return add(g.g, &total)
	})
	if err == errAbandoned {
		err = nil
	}
	return total, moves.Load(), time.Since(start), err
}

// errAbandoned stops PlayGames at the first game given up.
var errAbandoned = errors.New("game abandoned")

// startTicks calls tick with snap() every every (250ms when 0), from a
// goroutine of its own, until the function it returns is called, which
// waits for a tick under way, and ticks once itself if none came (a phase
// faster than its first tick still reports): evaluations report their
// progress with it. A nil tick starts nothing.
func startTicks(tick func(learn.Snapshot), every time.Duration, snap func() learn.Snapshot) (stop func()) {
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

// PlayGames plays games 0..games-1 on threads goroutines (0: all cores),
// each with a player newPlayer makes for it, and hands each result to done
// in game order, one call at a time. It stops early when ctx is cancelled
// or done returns an error, which it returns; done has then seen a prefix
// of the games.
func PlayGames[R any](ctx context.Context, games, threads int, newPlayer func() func(i int) R, done func(i int, r R) error) error {
	return runGames(ctx, games, threads, func() worker[R] { return oneAtATime(newPlayer()) }, done)
}

// runGames is PlayGames with workers that may hold several games at once:
// each goroutine runs one worker newWorker makes, which takes game indices
// from take until it says there are none left (all taken, ctx cancelled)
// and hands each result to put, in any order, stopping when put returns
// false (done failed). The results reach done in game order.
func runGames[R any](ctx context.Context, games, threads int, newWorker func() worker[R], done func(i int, r R) error) error {
	if threads <= 0 {
		threads = runtime.GOMAXPROCS(0)
	}
	var (
		next    atomic.Int64
		mu      sync.Mutex
		pending = map[int]R{} // results waiting for their predecessors
		handed  int           // results handed to done
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
	put := func(i int, r R) bool {
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
