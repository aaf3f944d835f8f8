// Package learn trains n-tuple networks by temporal-difference learning,
// on 2048 and on Threes!: episodes played by the current policy, then TD
// updates of the chosen after-states, by default the course's TD(0) from
// the last step back to the first (Mode names the others: online, n-step,
// TD(lambda)).
//
// The learner core is the Trace: it chooses each move (argmax of reward
// plus value over the candidates the game's episode loop gives it,
// Moves) and learns from the episode, the same for every game. A Worker
// plays each game's episode loop (2048's, with the state learner beside
// it, or Threes!'), and Train runs them: statistics blocks, schedules,
// checkpoints with exact resume, worker threads.
// Playing without learning is package evaluate's.
package learn

import (
	"github.com/td2048/td2048/board"
	"github.com/td2048/td2048/episode"
	"github.com/td2048/td2048/ntuple"
	"github.com/td2048/td2048/rules/game2048"
	"github.com/td2048/td2048/search"
)

// Kind is what the network values: search.Kind, the one kind of value
// function (after-states or states) that search and learning share.
type Kind = search.Kind

// The kinds, as search names them.
const (
	AfterState = search.AfterState
	State      = search.State
)

// ParseKind reads "after" or "state" (search.ParseKind).
func ParseKind(s string) (Kind, error) { return search.ParseKind(s) }

// An Episode is the outcome of one game (episode.Outcome), and what the
// learner keeps of it.
type Episode struct {
	episode.Outcome
	// work is every move played for the episode when that is more than
	// Moves: a shaped episode (restart, carousel) counts its first
	// sub-episode as the game, as TDL2048+ does, but plays them all, and
	// its speed counts them all.
	work int
	// diverged is set when learning drove a value to NaN or infinity (a
	// learning rate far too large): Train stops the run.
	diverged bool
}

// finite reports whether x is a number and not an infinity.
func finite(x float32) bool { return x-x == 0 }

type step struct {
	board  board.Board // after-state (AfterState) or state (State)
	reward float32
}

// A Worker plays and learns episodes with one random generator. It is not
// safe for concurrent use; several workers may share one network when the
// network is Shared.
type Worker struct {
	Net   *ntuple.Network
	Kind  Kind
	Rand  game2048.Rand
	trace *Trace // after-state learning
	// The state learner's path and index buffer.
	path []step
	cand [ntuple.MaxPatterns * 8]uint32
	// stateSearch chooses moves for state networks: reward plus the
	// expectation of V over the random tile, expectimax's chance node.
	stateSearch *search.Searcher
	// promote, when not nil, promotes the weights of a stage first
	// entered (stage.go).
	promote *promotion
	// Shaping cuts after-state episodes into sub-episodes (shaping.go).
	Shaping Shaping
	// sub, in tests, sees each shaped sub-episode's trace once learnt.
	sub func(*Trace)
	// from, in tests, is the first board of every episode instead of a
	// new start.
	from board.Board
	// cur is the after-state episode under way; staged, whether the
	// network has stages.
	cur    afterGame
	staged bool
	// threes: the worker plays Threes! (NewThreesWorker).
	threes bool
}

// start is an episode's first board.
func (w *Worker) start() board.Board {
	if w.from != 0 {
		return w.from
	}
	return game2048.Start(w.Rand)
}

// NewWorker returns a worker for net.
func NewWorker(net *ntuple.Network, kind Kind, rng game2048.Rand) *Worker {
	w := &Worker{Net: net, Kind: kind, Rand: rng, staged: net.Staged()}
	if kind == State {
		w.path = make([]step, 0, 1<<13)
		w.stateSearch = search.NewSearcher(net, search.Options{Depth: 1, Kind: search.State}, nil)
	} else {
		w.trace = NewTrace(net)
	}
	return w
}

// Play plays one episode with the current weights and, with alpha > 0,
// learns from it.
func (w *Worker) Play(alpha float32) Episode {
	switch {
	case w.Kind == State:
		return w.playState(alpha)
	case w.threes:
		return w.playThrees(alpha)
	}
	w.trace.shaped = w.Shaping != (Shaping{})
	switch {
	case w.Shaping.carousel:
		return w.playCarousel(alpha)
	case w.Shaping.restart:
		return w.playRestart(alpha)
	}
	return w.playAfter(alpha)
}

// playAfter plays an episode choosing argmax r + V(s') and learns from it
// by the Trace's mode: begin, then fetch and advance until the game ends,
// then finish. An interleaving worker steps several Workers so, fetching
// every game's move before advancing any (lanes.go).
func (w *Worker) playAfter(alpha float32) Episode {
	w.begin(alpha)
	for {
		w.fetch()
		if !w.advance() {
			return w.finish()
		}
	}
}

// afterGame is an after-state episode under way, played by playAfter's steps.
type afterGame struct {
	b     board.Board
	m     Moves
	ep    Episode
	over  uint8 // the directions of m that merge two 32768s
	alpha float32
}

// begin starts an episode learnt with rate alpha.
func (w *Worker) begin(alpha float32) {
	w.trace.Reset(alpha)
	w.cur = afterGame{b: w.start(), alpha: alpha}
}

// fetch computes the candidates of the episode's board and asks for their
// weights.
func (w *Worker) fetch() {
	p := &w.cur
	p.over = fillMoves(&p.m, p.b, false)
	w.trace.fetch(&p.m)
}

// advance makes the move fetch prepared: the best candidate, learnt as the
// Trace's mode says, and a new tile. It reports whether the game goes on.
func (w *Worker) advance() bool {
	p, tr := &w.cur, w.trace
	d := tr.pick(&p.m)
	if d < 0 {
		p.ep.MaxTile = p.b.MaxTile()
		return false
	}
	p.ep.Moves++
	p.ep.Score += int(p.m.Reward[d])
	tr.Push(&p.m, d)
	if w.staged {
		p.m.stage = w.rise(&p.m, d, p.m.stage)
	}
	if p.over>>d&1 != 0 { // 65536: on on the wide board (wide.go)
		p.ep.Overflow = true
		w.afterOn(tr, game2048.SpawnWide(game2048.AfterWide(p.b, d), w.Rand), &p.ep, p.m.stage)
		return false
	}
	p.b = game2048.Spawn(p.m.After[d], w.Rand)
	return true
}

// finish learns what is left to learn of the ended episode and returns it.
func (w *Worker) finish() Episode {
	p := &w.cur
	if p.alpha > 0 {
		p.ep.diverged = !w.trace.Learn(p.alpha, 0)
	}
	return p.ep
}

// fillMoves sets m to the candidates of 2048 board b (its stage is left
// as it is) and returns the directions that merge two 32768s (65536).
// With final, those end the (sub-)episode (their after-states are Final:
// worth their reward alone), as TDL2048+'s stage, block and restart modes
// have it; else the game goes on past them (wide.go).
func fillMoves(m *Moves, b board.Board, final bool) (over uint8) {
	var reward [4]uint32
	game2048.MovesTo(b, &m.After, &reward)
	m.Legal, m.Final = 0, 0
	for d := range 4 {
		m.Reward[d] = float32(game2048.Reward(reward[d]))
		if m.After[d] != b {
			m.Legal |= 1 << d
			if game2048.Overflow(reward[d]) {
				over |= 1 << d
			}
		}
	}
	if final {
		m.Final = over
	}
	return over
}

func (w *Worker) playState(alpha float32) Episode {
	net := w.Net
	b := w.start()
	path := w.path[:0]
	var ep Episode
	for {
		c := w.stateSearch.Best(b)
		if !c.Legal() {
			break
		}
		ep.Moves++
		r := c.Points()
		ep.Score += r
		path = append(path, step{b, float32(r)})
		if c.Overflow() { // 65536: on on the wide board (wide.go)
			ep.Overflow = true
			path, b = w.stateOn(path, game2048.SpawnWide(game2048.AfterWide(b, c.Dir), w.Rand), &ep)
			break
		}
		b = game2048.Spawn(c.After, w.Rand)
	}
	if !ep.Overflow {
		ep.MaxTile = b.MaxTile()
	}
	w.path = path
	if alpha > 0 {
		// The state where the game ended is worth 0.
		x := net.Index(b, w.cand[:])
		next := net.Add(x, -alpha*net.Sum(x))
		ep.diverged = !finite(w.learnState(path, next, alpha))
	}
	return ep
}

// learnState: for t from the last step down, V(s_t) moves toward
// r_t + V(s_{t+1}), next being the updated value of s_{t+1}.
func (w *Worker) learnState(path []step, next, alpha float32) float32 {
	net := w.Net
	for t := len(path) - 1; t >= 0; t-- {
		x := net.Index(path[t].board, w.cand[:])
		next = net.Add(x, alpha*(path[t].reward+next-net.Sum(x)))
	}
	return next
}
