// Package bench is td2048's fixed workload: train the 4x6 network from zero
// for a set number of episodes, then play fixed games greedily and with
// 2-ply expectimax, with the float32 weights and with their compact
// (16-bit) copy, as the commands play, and with Monte Carlo tree search at
// the course's settings. It reports speed (moves per second of each phase)
// and three signatures, checksums of everything the workload computed,
// that change exactly when the rules, the network, learning or search
// change: one of training and float32 play, one of compact play, one of
// MCTS play.
package bench

import (
	"cmp"
	"context"
	"encoding/binary"
	"fmt"
	"hash"
	"hash/crc32"
	"math"
	"time"
	"unsafe"

	"github.com/td2048/td2048/evaluate"
	"github.com/td2048/td2048/learn"
	"github.com/td2048/td2048/ntuple"
	"github.com/td2048/td2048/search"
	"github.com/td2048/td2048/stats"
)

// Config sizes the workload.
type Config struct {
	Episodes  int // training episodes of the 4x6 network from zero
	Games     int // greedy games with the trained weights
	DeepGames int // 2-ply games
	MCTSGames int // games of MCTS at the course's settings (float32 weights)
	// MCTSIterations are the MCTS games' iterations a move (the course's
	// 500 in Default).
	MCTSIterations int
	Threads        int // for every phase; training with more than one is not repeatable
	TableBytes     int64
	// Tick, when set, is called about every 250ms with the phase under way
	// (TrainPhase, GreedyPhase or DeepPhase) and its progress: episodes
	// in training, games in play. TickEvery is 250ms when 0.
	Tick      func(phase string, s learn.Snapshot)
	TickEvery time.Duration
}

// The phases' names.
const (
	TrainPhase         = "train 4x6 TD(0)"
	GreedyPhase        = "greedy (1-ply) play"
	DeepPhase          = "2-ply expectimax play"
	GreedyCompactPhase = "greedy play, 16-bit"
	DeepCompactPhase   = "2-ply play, 16-bit"
	MCTSPhase          = "MCTS play"
)

// Default is the full workload; Short a quick one for CI.
var (
	Default = Config{Episodes: 10000, Games: 1000, DeepGames: 20, MCTSGames: 4, MCTSIterations: search.DefaultIterations, Threads: 1, TableBytes: 64 << 20}
	Short   = Config{Episodes: 500, Games: 100, DeepGames: 2, MCTSGames: 1, MCTSIterations: 50, Threads: 1, TableBytes: 16 << 20}
)

// A Phase is one part of the workload.
type Phase struct {
	Name    string
	Moves   int64
	Elapsed time.Duration
}

// MovesPerSec is the phase's speed.
func (p Phase) MovesPerSec() float64 { return float64(p.Moves) / max(p.Elapsed.Seconds(), 1e-9) }

// Result is what a bench run measured.
type Result struct {
	Phases    []Phase
	Signature uint32 // valid when Repeatable
	// CompactSignature is the checksum of compact play: the compact
	// weights and the games played with them (valid when Repeatable).
	CompactSignature uint32
	// MCTSSignature is the checksum of the MCTS games (valid when
	// Repeatable and there were some).
	MCTSSignature uint32
	// Repeatable is false when training ran on several threads, whose
	// lock-free updates interleave differently from run to run.
	Repeatable bool
}

// Run runs the workload. Its randomness is fixed: seed 1 for training,
// 2 and 3 for the games.
func Run(ctx context.Context, cfg Config) (Result, error) {
	net, err := ntuple.New(mustSpec("4x6"))
	if err != nil {
		return Result{}, err
	}
	defer net.Free()
	res := Result{Repeatable: cfg.Threads == 1}
	sig := crc32.NewIEEE()
	add := func(v ...uint64) { put(sig, v...) }

	every := cfg.TickEvery
	if every <= 0 {
		every = 250 * time.Millisecond
	}
	tick := func(phase string) func(learn.Snapshot) {
		if cfg.Tick == nil {
			return nil
		}
		return func(s learn.Snapshot) { cfg.Tick(phase, s) }
	}
	// One thread plays two episodes in turn on every processor, whatever
	// the train command's default there (learn.InterleaveHelps), so that
	// the signature is the same everywhere; several threads (no
	// signature) train as the command does.
	lanes := learn.DefaultInterleave
	if cfg.Threads != 1 {
		lanes = fastest(net)
	}
	st, tr, err := learn.Train(ctx, net, learn.Config{Episodes: cfg.Episodes, Seed: 1, Threads: cfg.Threads, Interleave: lanes, AdaptInterleave: true, Every: max(cfg.Episodes, 1),
		Tick: tick(TrainPhase), TickEvery: every})
	if err := cmp.Or(err, ctx.Err()); err != nil {
		return res, err
	}
	if cfg.Episodes > 0 {
		res.Phases = append(res.Phases, Phase{Name: TrainPhase, Moves: tr.Moves, Elapsed: tr.Elapsed})
	}
	add(uint64(st.Done), uint64(tr.Moves))
	// The weights in canonical order (the same whatever order ntuple
	// stores them in) as their little-endian bytes (float32 bits are
	// little-endian in memory on every machine Go targets but s390x).
	net.EachCanonical(false, func(w []float32) error { return words(sig, w) })

	// play runs a phase of games with net, greedily (its games
	// interleaved, evaluate.Config.Greedy) or at 2 plies with the table
	// tt, adding its results to the checksum h.
	play := func(name string, net *ntuple.Network, games int, seed uint64, deep bool, h hash.Hash32) {
		if games <= 0 || ctx.Err() != nil {
			return
		}
		ec := evaluate.Config{Games: games, Seed: seed, Threads: cfg.Threads, Tick: tick(name), TickEvery: every}
		if name == MCTSPhase {
			opt := search.Options{Method: search.MethodMCTS, MCTS: search.DefaultMCTS(), Stop: ctx.Done()}
			opt.MCTS.Seed, opt.MCTS.Iterations = seed, max(cfg.MCTSIterations, 1)
			ec.NewPolicy = func() evaluate.Policy { return search.NewMCTS(net, opt).Best }
		} else if deep {
			tt := search.NewTable(cfg.TableBytes)
			ec.NewPolicy = func() evaluate.Policy {
				return search.NewSearcher(net, search.Options{Depth: 2, Stop: ctx.Done()}, tt).Best
			}
		} else {
			ec.Greedy = net
		}
		r, _ := evaluate.Run(ctx, ec)
		if ctx.Err() != nil {
			return // an abandoned phase has no speed
		}
		res.Phases = append(res.Phases, Phase{Name: name, Moves: r.Moves, Elapsed: r.Elapsed})
		put(h, uint64(r.Block.Sum), uint64(r.Block.Moves), uint64(r.Block.MaxScore))
	}
	play(GreedyPhase, net, cfg.Games, 2, false, sig)
	play(DeepPhase, net, cfg.DeepGames, 3, true, sig)
	res.Signature = sig.Sum32()
	msig := crc32.NewIEEE()
	play(MCTSPhase, net, cfg.MCTSGames, 4, false, msig)
	res.MCTSSignature = msig.Sum32()
	// The same games with the compact weights the commands play with.
	if (cfg.Games > 0 || cfg.DeepGames > 0) && ctx.Err() == nil {
		c, err := net.ToCompact()
		if err != nil {
			return res, err
		}
		defer c.Free()
		csig := crc32.NewIEEE()
		c.EachCanonicalQ(func(_ int, q []int16) error { return words(csig, q) })
		for _, s := range c.Scales() {
			put(csig, uint64(math.Float32bits(s)))
		}
		play(GreedyCompactPhase, c, cfg.Games, 2, false, csig)
		play(DeepCompactPhase, c, cfg.DeepGames, 3, true, csig)
		res.CompactSignature = csig.Sum32()
	}
	return res, ctx.Err()
}

// put adds the little-endian bytes of each of v to the checksum h.
func put(h hash.Hash32, v ...uint64) {
	for _, x := range v {
		h.Write(binary.LittleEndian.AppendUint64(nil, x))
	}
}

// words adds the bytes of w as they are in memory to the checksum h.
func words[T float32 | int16](h hash.Hash32, w []T) error {
	if len(w) > 0 {
		h.Write(unsafe.Slice((*byte)(unsafe.Pointer(&w[0])), len(w)*int(unsafe.Sizeof(w[0]))))
	}
	return nil
}

// CourseEpisodes is the course's training target: 100,000 episodes of the
// 4x6 network from zero (the lab's "train 100k+ episodes").
const CourseEpisodes = 100000

// A Course is the time to the course's result with some threads: the
// wall time of training the 4x6 network from zero for the episodes, and
// the last block's statistics (its thousand episodes), the result a
// student reads.
type Course struct {
	Threads  int
	Episodes int
	Moves    int64
	Elapsed  time.Duration
	Last     stats.Block
}

// TimeToResult trains a fresh 4x6 network for episodes episodes (seed 1,
// the course's alpha 0.1) on threads threads and times it: the number a
// student feels. tick, when set, sees the progress.
func TimeToResult(ctx context.Context, episodes, threads int, tick func(learn.Snapshot)) (Course, error) {
	net, err := ntuple.New(mustSpec("4x6"))
	if err != nil {
		return Course{}, err
	}
	defer net.Free()
	c := Course{Threads: threads, Episodes: episodes}
	every := min(1000, max(episodes, 1))
	_, r, err := learn.Train(ctx, net, learn.Config{Episodes: episodes, Seed: 1, Threads: threads, Interleave: fastest(net), AdaptInterleave: true, Every: every, Tick: tick,
		Block: func(_ int, b *stats.Block, _ time.Duration, _ float32) { c.Last = *b }})
	c.Moves, c.Elapsed = r.Moves, r.Elapsed
	return c, cmp.Or(err, ctx.Err())
}

// fastest is the train command's default interleaving for course training
// of net, on any number of threads (where, as in the command, several
// threads adapt it as they run: learn.Config.AdaptInterleave).
func fastest(net *ntuple.Network) int {
	return learn.FastestInterleave(net, learn.AfterState, learn.Shaping{})
}

func mustSpec(s string) ntuple.Spec {
	spec, err := ntuple.ParseSpec(s)
	if err != nil {
		panic(fmt.Sprint(err))
	}
	return spec
}
