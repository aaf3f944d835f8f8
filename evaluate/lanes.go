package evaluate

import (
	"sync/atomic"

	"github.com/td2048/td2048/board"
	"github.com/td2048/td2048/episode"
	"github.com/td2048/td2048/ntuple"
	"github.com/td2048/td2048/rules/game2048"
	"github.com/td2048/td2048/search"
)

// A greedyLane is one game of greedyLanes.
type greedyLane struct {
	i   int // the game's index, -1 for none
	b   board.Board
	rng game2048.Rand
	ep  episode.Outcome
	p   search.Pending
}

// greedyLanes is the worker that plays k games of search.Greedy with net
// in turn: each game's move is fetched (search.Pending) and then decided
// after the other games' moves, so that the loads of its weights overlap
// their work. Game i starts from start(rng(i)) and draws from rng(i)
// alone, so each game is the one a single-game player plays, move for
// move; a game that merges two 32768s goes on alone (overflowOn).
func greedyLanes(net *ntuple.Network, k int, rng func(i int) game2048.Rand, start func(game2048.Rand) board.Board,
	stop *atomic.Bool, moves *atomic.Int64) worker {
	return func(take func() (int, bool), put func(int, played) bool) {
		n := int64(0) // moves not yet added to moves
		defer func() { moves.Add(n) }()
		lanes := make([]greedyLane, k)
		// begin starts lane l's next game, if there is one.
		begin := func(l *greedyLane) {
			i, ok := take()
			if !ok {
				l.i = -1
				return
			}
			l.i, l.rng, l.ep = i, rng(i), episode.Outcome{}
			l.b = start(l.rng)
			l.p.Fetch(net, l.b)
		}
		for j := range lanes {
			begin(&lanes[j])
		}
		for live := true; live; {
			live = false
			for j := range lanes {
				l := &lanes[j]
				if l.i < 0 {
					continue
				}
				live = true
				finished := false // given up, when stop is set
				if !stop.Load() {
					c := l.p.Choose(net)
					if !c.Legal() {
						l.ep.MaxTile, finished = l.b.MaxTile(), true
					} else {
						l.ep.Moves++
						l.ep.Score += c.Points()
						if n++; n == 64 {
							moves.Add(n)
							n = 0
						}
						if !c.Overflow() {
							l.b = game2048.Spawn(c.After, l.rng)
							l.p.Fetch(net, l.b)
							continue
						}
						finished = overflowOn(greedy(net), l.b, c, l.rng, &l.ep, stop, moves)
					}
				}
				switch ok := put(l.i, played{ep: l.ep, finished: finished}); {
				case !finished:
					l.i = -1
				case !ok:
					return
				default:
					begin(l)
				}
			}
		}
	}
}
