package main

/*
#include <stdint.h>
*/
import "C"

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"
	"unsafe"

	"github.com/td2048/td2048/board"
	"github.com/td2048/td2048/games"
	"github.com/td2048/td2048/internal/advice"
	"github.com/td2048/td2048/internal/evalrun"
	"github.com/td2048/td2048/internal/train"
	"github.com/td2048/td2048/learn"
	"github.com/td2048/td2048/netfile"
	"github.com/td2048/td2048/ntuple"
	"github.com/td2048/td2048/search"
	"github.com/td2048/td2048/session"
)

// A net is a network loaded for play. Any number of calls may read it at
// once; freeing it waits for them, and calls after that are errors.
type net struct {
	mu     sync.RWMutex
	n      *ntuple.Network
	g      *games.Game
	kind   search.Kind
	h      netfile.Header
	ttOnce sync.Once
	tt     *search.Table // for searches of 2 plies and more, made at the first
}

// tableBytes is the transposition table a network's searches share, as
// hint's default --cache.
const tableBytes = 64 << 20

func (o *net) close() {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.n != nil {
		o.n.Free()
		o.n = nil
	}
}

// use runs f with the network of handle h read-locked.
func use(h C.int64_t, f func(o *net) error) error {
	o, err := get[*net](h)
	if err != nil {
		return err
	}
	o.mu.RLock()
	defer o.mu.RUnlock()
	if o.n == nil {
		return closedError
	}
	return f(o)
}

// The ways td_net_load holds the weights (netfile.Weights).
var weightModes = []netfile.Weights{netfile.CompactUnstaged, netfile.Float32, netfile.Compact16}

// td_net_load loads the weights in path, in any format td2048 reads
// (its own, the course demo's 2048.bin, TDL2048+'s .w), held as mode
// says (0: as hint and eval hold them, 16-bit where that pays; 1:
// float32; 2: 16-bit), and hands over a description as JSON at *info.
//
//export td_net_load
func td_net_load(path *C.char, mode C.int, info **C.char, errbuf *C.char, errlen C.int) C.int64_t {
	return call(errbuf, errlen, func() (int64, error) {
		if mode < 0 || int(mode) >= len(weightModes) {
			return 0, bad("weights mode %d: want 0 to %d", mode, len(weightModes)-1)
		}
		o, note, err := load(C.GoString(path), weightModes[mode])
		if err != nil {
			return 0, err
		}
		spec := o.n.Spec()
		d, _ := json.Marshal(map[string]any{"game": o.g.Name, "network": spec.String(), "learner": o.kind.String(),
			"episodes": o.h.Episodes, "format": o.h.Format, "compact": o.n.Compact(), "stages": spec.StageCount(), "note": note})
		setString(info, string(d))
		return put(o), nil
	})
}

// load reads path for play by the game its header names, refusing
// networks and learners that game cannot use, as the commands do.
func load(path string, w netfile.Weights) (*net, string, error) {
	n, h, note, err := netfile.LoadPlay(path, w)
	if errors.Is(err, os.ErrNotExist) {
		return nil, "", bad("%s not found", path)
	}
	if err != nil {
		return nil, "", badError{err}
	}
	g, err := games.Lookup(h.Game)
	k, kerr := learn.ParseKind(h.Learner)
	if err == nil { // the checks are pure: the first to fail is the error
		err = cmp.Or(g.CheckSpec(n.Spec()), kerr, g.CheckLearner(k))
	}
	if err != nil {
		n.Free()
		return nil, "", bad("%s: %v", path, err)
	}
	return &net{n: n, h: h, g: g, kind: k}, note, nil
}

// td_net_values sets out[i] to the network's value of the packed board
// boards[i] (td_pack), by the stage the game's searches use (Threes!:
// that of the next tile next).
//
//export td_net_values
func td_net_values(h C.int64_t, boards *C.uint64_t, n C.int64_t, next C.int, out *C.float, errbuf *C.char, errlen C.int) C.int64_t {
	return call(errbuf, errlen, func() (int64, error) {
		return 0, use(h, func(o *net) error {
			if n <= 0 {
				return nil
			}
			bs := unsafe.Slice((*board.Board)(unsafe.Pointer(boards)), int(n))
			for i, b := range bs {
				if err := checkBoard(o.g, b); err != nil {
					return bad("board %d: %v", i, err)
				}
			}
			o.g.Estimate(o.n, bs, int(next), unsafe.Slice((*float32)(unsafe.Pointer(out)), int(n)))
			return nil
		})
	})
}

// checkBoard refuses a packed board with a cell no tile of g has.
func checkBoard(g *games.Game, b board.Board) error {
	for i := range 16 {
		if g.Code.Value(b.At(i)) < 0 {
			return fmt.Errorf("cell %d holds index %d, which is no tile", i, b.At(i))
		}
	}
	return nil
}

// A searchArgs is how td_net_hint and td_net_best search.
type searchArgs struct {
	depth    int
	moveTime time.Duration
	stop     <-chan struct{}
	// mcts: the method and MCTS's settings (evalrun.MCTS, hint's flags),
	// given the keys set, seed the random tiles its trees sample.
	mcts  evalrun.MCTS
	given train.Given
	seed  uint64
}

// advise values the moves of packed board b, next tile next, as hint
// does: depth plies (1: greedy), deepened within moveTime when it is
// positive. It returns the position, the values, the depth finished and
// whether the search was stopped.
func (o *net) advise(b board.Board, next int, a searchArgs) (session.Position, [4]search.MoveValue, int, error) {
	var mv [4]search.MoveValue
	if err := checkBoard(o.g, b); err != nil {
		return session.Position{}, mv, 0, badError{err}
	}
	p, err := o.g.Position(b, next)
	if err == nil {
		err = session.Check(o.g.Name, &p)
	}
	if err != nil {
		return p, mv, 0, bad("%v", err)
	}
	if a.depth < 1 || a.depth > search.MaxDepth || a.moveTime < 0 {
		return p, mv, 0, bad("depth %d, move_time %v: want a depth from 1 to %d and a time from 0", a.depth, a.moveTime, search.MaxDepth)
	}
	if err := a.mcts.CheckKind(o.kind); err != nil {
		return p, mv, 0, badError{err}
	}
	var tt *search.Table // MCTS uses none
	if a.depth > 1 && !a.mcts.On() {
		o.ttOnce.Do(func() { o.tt = search.NewTable(tableBytes) })
		tt = o.tt
	}
	opt := search.Options{Depth: a.depth, MoveTime: a.moveTime, Kind: o.kind, Stop: a.stop, Threads: 1}
	a.mcts.Apply(&opt, a.seed, false, a.given)
	adv := o.g.NewAdvisor(o.n, opt, tt)
	mv, done := adv.Values(p)
	if adv.Stopped() {
		return p, mv, done, errStopped
	}
	return p, mv, done, nil
}

// errStopped is a call cancelled by its stop token.
var errStopped = errors.New("stopped")

// td_net_hint values the moves of packed board b (next tile next in
// Threes!) as td2048 hint --json does, and hands over its JSON at *out.
// A stop token (td_token_new, 0 for none) cancels it.
//
//export td_net_hint
func td_net_hint(h C.int64_t, b C.uint64_t, next C.int, depth C.int, moveTime C.double, settings *C.char, stop C.int64_t, out **C.char, errbuf *C.char, errlen C.int) C.int64_t {
	return call(errbuf, errlen, func() (int64, error) {
		a, err := argsOf(depth, moveTime, settings, stop)
		if err != nil {
			return 0, err
		}
		return 0, use(h, func(o *net) error {
			p, mv, done, err := o.advise(board.Board(b), int(next), a)
			if err != nil {
				return err
			}
			res := advice.Hint{}
			res.Searched(&mv, done, a.mcts.On(), a.depth, a.moveTime)
			res = advice.Moves(o.g, p, &mv, true, res)
			j, err := json.Marshal(res)
			setString(out, string(j))
			return err
		})
	})
}

// td_net_best is the best move of packed board b (0 up, 1 right, 2 down,
// 3 left; 4 when none is legal, as -1 is errBad's code), as hint would
// mark it.
//
//export td_net_best
func td_net_best(h C.int64_t, b C.uint64_t, next C.int, depth C.int, moveTime C.double, settings *C.char, stop C.int64_t, errbuf *C.char, errlen C.int) C.int64_t {
	return call(errbuf, errlen, func() (int64, error) {
		a, err := argsOf(depth, moveTime, settings, stop)
		if err != nil {
			return 0, err
		}
		best := int64(4)
		err = use(h, func(o *net) error {
			_, mv, _, err := o.advise(board.Board(b), int(next), a)
			if c := search.BestOf(&mv); err == nil && c.Legal() {
				best = int64(c.Dir)
			}
			return err
		})
		return best, err
	})
}

// argsOf reads a search's arguments: settings is a JSON object of
// evalrun.MCTS's keys ("search", "iterations", "exploration",
// "rollout_depth", "gamma") and "seed", checked as hint checks its flags.
func argsOf(depth C.int, moveTime C.double, settings *C.char, stop C.int64_t) (searchArgs, error) {
	a := searchArgs{depth: int(depth), moveTime: time.Duration(float64(moveTime) * float64(time.Second))}
	s := evalrun.Default()
	keys := append([]string{"search", "seed"}, evalrun.MCTSKeys...)
	given, err := setFields(C.GoString(settings), func(k string) (any, bool) {
		if k == "seed" {
			return &a.seed, true
		}
		return s.Field(k)
	}, keys)
	if err != nil {
		return a, err
	}
	a.given = given
	a.mcts = s.MCTS
	if err := a.mcts.Check(a.given, a.moveTime > 0); err != nil {
		return a, badError{err}
	}
	if stop != 0 {
		t, err := get[*token](stop)
		if err != nil {
			return a, err
		}
		a.stop = t.done
	}
	return a, nil
}

// A token is a stop flag for long calls: cancelling it stops the calls
// given it.
type token struct {
	once sync.Once
	done chan struct{}
}

// td_token_new makes a stop token.
//
//export td_token_new
func td_token_new() C.int64_t { return C.int64_t(put(&token{done: make(chan struct{})})) }

// td_token_cancel stops the calls given token h.
//
//export td_token_cancel
func td_token_cancel(h C.int64_t) {
	if t, err := get[*token](h); err == nil {
		t.once.Do(func() { close(t.done) })
	}
}
