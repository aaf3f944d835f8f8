package learn

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/td2048/td2048/board"
	"github.com/td2048/td2048/ntuple"
	"github.com/td2048/td2048/rules/game2048"
)

// Shaping cuts a 2048 training episode into sub-episodes that start from
// boards the policy reaches late, so that they are trained more often:
// TDL2048+'s restart and carousel modes, docs/methods.md section 5. Each
// sub-episode is learnt as an episode of the Trace's Mode; statistics
// count the first sub-episode only, which is an ordinary game.
//
// Shaping is for 2048: a Threes! after-state does not hold the game (its
// next tile and bag), so a sub-episode cannot restart from one, and the
// carousel's tile sums are 2048's.
type Shaping struct {
	// restart (Matsuzaki's restart, TDL2048+'s -tt restart): a sub-episode
	// of at least L moves is followed by one that restarts from its chosen
	// after-state number floor((moves-1) x At), counting from 0.
	restart bool
	l       int
	at      float64
	// carousel (TDL2048+'s -b BLOCK LIMIT, Jaskowski's carousel shaping):
	// sub-episodes start from boards edited to hold ever larger sums of
	// tiles, in steps of Block, until the sum reaches Limit.
	carousel     bool
	block, limit int
}

// ShapingNames are the kinds of shaping ParseShaping reads (for help and
// completion).
var ShapingNames = []string{"restart", "carousel"}

// ParseShaping reads "" or "none", "restart" with optional ",L=N" and
// ",at=F" (default L=10, at=0.5), or "carousel" with optional ",block=N"
// and ",limit=N" (default 2048 and 65536).
func ParseShaping(s string) (Shaping, error) {
	parts := strings.Split(strings.TrimSpace(s), ",")
	var sh Shaping
	bad := func(format string, a ...any) (Shaping, error) {
		return Shaping{}, fmt.Errorf("shaping %q: %s", s, fmt.Sprintf(format, a...))
	}
	switch parts[0] {
	case "", "none":
		if len(parts) > 1 {
			return bad("options without restart or carousel")
		}
		return sh, nil
	case "restart":
		sh = Shaping{restart: true, l: 10, at: 0.5}
	case "carousel":
		sh = Shaping{carousel: true, block: 2048, limit: 65536}
	default:
		return bad("want none, restart[,L=N][,at=F] or carousel[,block=N][,limit=N]")
	}
	for _, p := range parts[1:] {
		k, v, _ := strings.Cut(strings.TrimSpace(p), "=")
		switch {
		case sh.restart && k == "L":
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 || n > 1<<20 {
				return bad("L wants a number of moves from 1")
			}
			sh.l = n
		case sh.restart && k == "at":
			f, err := strconv.ParseFloat(v, 64)
			if err != nil || !(f >= 0 && f < 1) {
				return bad("at wants a fraction from 0 up to (not including) 1")
			}
			sh.at = f
		case sh.carousel && (k == "block" || k == "limit"):
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 || n > 1<<17 {
				return bad("%s wants a tile sum from 1 to 131072", k)
			}
			if k == "block" {
				sh.block = n
			} else {
				sh.limit = n
			}
		default:
			return bad("unknown option %q", p)
		}
	}
	return sh, nil
}

// String is the shaping as ParseShaping reads it ("" for none).
func (s Shaping) String() string {
	switch {
	case s.restart:
		return "restart,L=" + strconv.Itoa(s.l) + ",at=" + strconv.FormatFloat(s.at, 'g', -1, 64)
	case s.carousel:
		return "carousel,block=" + strconv.Itoa(s.block) + ",limit=" + strconv.Itoa(s.limit)
	}
	return ""
}

// Describe is the shaping in words, for a run's header.
func (s Shaping) Describe() string {
	switch {
	case s.restart:
		return fmt.Sprintf("restart: a sub-episode of %d moves or more is played again from its after-state at %g of its length", s.l, s.at)
	case s.carousel:
		return fmt.Sprintf("carousel: sub-episodes start from boards whose tiles sum to ever more, in steps of %d, up to %d", s.block, s.limit)
	}
	return "none"
}

// CheckShaping refuses shaping that a network or learner cannot use:
// shaping is for after-state learning, and restart for single-stage
// networks (as in TDL2048+, whose restart uses all features).
func CheckShaping(s Shaping, spec ntuple.Spec, kind Kind) error {
	switch {
	case s == Shaping{}:
		return nil
	case kind != AfterState:
		return errors.New("restart and carousel shaping are for after-state learning")
	case s.restart && spec.StageThresholds() != nil:
		return fmt.Errorf("restart shaping is for single-stage networks, not %s (carousel shaping climbs the stages)", spec)
	}
	return nil
}

// pushStart records a sub-episode's starting board as its first
// after-state (online modes only: it learns toward the first move's
// target), valued by stage k.
func (t *Trace) pushStart(b board.Board, k int) {
	t.flush()
	t.steps = append(t.steps, traceStep{after: b})
	if !t.direct {
		t.idx = slices.Grow(t.idx, t.lookups)[:len(t.steps)*t.lookups]
	}
	t.restageLast(k)
}

// playRestart is restart shaping. The episode starts from a board with one
// random tile, which online modes learn as the first after-state; each
// sub-episode ends with target 0 at the end of the game or before a move
// that merges two 32768s, and is learnt; a sub-episode of at least L
// moves is followed by one from its after-state floor((moves-1) x At),
// which online modes learn again as their first after-state.
func (w *Worker) playRestart(alpha float32) Episode {
	tr := w.trace
	tr.keep = true // the restart point is read back from the steps
	var first Episode
	start := game2048.Spawn(0, w.Rand)
	for sub := 0; ; sub++ {
		tr.Reset(alpha)
		skip := 0 // steps before the first move's after-state
		if tr.Mode.online {
			tr.pushStart(start, 0)
			skip = 1
		}
		k := 0
		ep := w.subEpisode(game2048.Spawn(start, w.Rand), alpha, &k, nil, 0)
		if tally(&first, sub, ep) || ep.Moves < w.Shaping.l {
			return first
		}
		start = tr.steps[skip+int(float32(ep.Moves-1)*float32(w.Shaping.at))].after
	}
}

// tally counts sub-episode number sub, ep, into the shaped episode
// first: the first sub-episode is the game, and every one's moves are
// its work. It reports whether learning diverged, which ends it.
func tally(first *Episode, sub int, ep Episode) bool {
	if sub == 0 {
		*first = ep
	}
	first.work += ep.Moves
	first.diverged = first.diverged || ep.diverged
	return ep.diverged
}

// subEpisode plays a sub-episode from board b by the Trace's rules, in
// stage *k, which it raises as the game goes; until no move is legal or
// the best move merges two 32768s, which ends it before the move. With o
// not nil, every chosen after-state whose reward reaches block becomes *o.
// The last after-state's target is 0; the sub-episode is learnt then.
func (w *Worker) subEpisode(b board.Board, alpha float32, k *int, o *board.Board, block float32) Episode {
	tr := w.trace
	staged := w.Net.Staged()
	var m Moves
	m.stage = *k
	var ep Episode
	for {
		fillMoves(&m, b, true)
		d := tr.Choose(&m)
		if d < 0 || m.Final>>d&1 != 0 {
			break
		}
		ep.Moves++
		ep.Score += int(m.Reward[d])
		tr.Push(&m, d)
		if staged {
			*k = w.rise(&m, d, *k)
		}
		if o != nil && m.Reward[d] >= block {
			*o = m.After[d]
		}
		b = game2048.Spawn(m.After[d], w.Rand)
	}
	ep.MaxTile = b.MaxTile()
	if alpha > 0 {
		ep.diverged = !tr.Learn(alpha, 0)
	}
	if w.sub != nil {
		w.sub(tr)
	}
	return ep
}
