// Package episode is the vocabulary of playing many games, which learning
// (package learn) and evaluation (package evaluate) share: one game's
// outcome (Outcome), the progress of many (Snapshot), the random stream of
// game i (NewRand), and how many games a thread plays in turn
// (DefaultInterleave, InterleaveHelps).
package episode

import (
	"math/rand/v2"
	"time"

	"github.com/td2048/td2048/ntuple"
	"github.com/td2048/td2048/session"
	"github.com/td2048/td2048/stats"
)

// An Outcome is the outcome of one game.
type Outcome struct {
	Score    int
	MaxTile  int // exponent: 11 is 2048, 16 is 65536
	Moves    int
	Overflow bool // went past 32768 (a 32768+32768 merge), on a wide board
}

// A Snapshot is the progress of a run of games.
type Snapshot struct {
	Done, Total int
	Played      int   // episodes of this session
	Moves       int64 // moves of this session
	Elapsed     time.Duration
	Session     time.Duration // time of this session
	Block       stats.Block   // the block under way
	Alpha       float32
}

// NewRand returns the generator of stream number stream under seed:
// session.Stream's, the replay rule's, so that nearby seeds and streams
// give unrelated generators and a game replays from its seed.
func NewRand(seed, stream uint64) *rand.PCG {
	// Each generator on a cache line of its own: games draw tiles from
	// them at every move (docs/speed.md, "Measurements behind the code").
	p := new(struct {
		rand.PCG
		_ [48]byte
	})
	p.PCG = *session.Stream(seed, int(stream))
	return &p.PCG
}

// DefaultInterleave is the number of episodes a learner's worker plays in
// turn by default on every processor (learn.FastestInterleave), and of
// greedy games an evaluation's thread plays in turn where that plays
// fastest (package evaluate). learn.Config.Interleave's zero value is 1.
const DefaultInterleave = 2

// InterleaveHelps reports whether games in turn make this processor
// faster than one game at a time: where one core keeps more misses in
// flight than one game's move asks for (docs/speed.md, "Games in turn").
func InterleaveHelps() bool { return Vendor() == "AuthenticAMD" }

// Vendor is the processor's vendor (ntuple.Vendor); a variable, so that a
// test can pose as another processor.
var Vendor = ntuple.Vendor
