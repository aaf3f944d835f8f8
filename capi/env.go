package main

/*
#include <stdint.h>
*/
import "C"

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"unsafe"

	"github.com/td2048/td2048/board"
	"github.com/td2048/td2048/games"
	"github.com/td2048/td2048/session"
)

// An env is one game played move by move (package session): the Python
// package's Env and its Gymnasium face.
type env struct {
	mu    sync.Mutex
	g     *games.Game
	s     *session.Session
	seeds *rand.PCG // the seeds of the games reset without one
	// The caller's buffers every call writes (see write), and whether
	// cells hold tile indices rather than values.
	cells, info *C.int64_t
	exps        bool
	// A block of boards the steps write their cells to in turn, when not
	// nil (td_env_block), and the next board of it.
	block           *C.int64_t
	blockLen, board int
	value           [16]int64 // the value of each tile index the low board holds
	errbuf          *C.char
	errlen          C.int
}

// lookupGame is the game of that name, a bad argument when unknown.
func lookupGame(name *C.char) (*games.Game, error) {
	g, err := games.Lookup(C.GoString(name))
	if err != nil {
		return nil, badError{err}
	}
	return g, nil
}

// seedSource is the generator of the game seeds of an environment made
// with seed (or with a random one).
func seedSource(seed C.uint64_t, seeded C.int) *rand.PCG {
	s := uint64(seed)
	if seeded == 0 {
		s = rand.Uint64()
	}
	return session.Stream(s, 0)
}

// td_env_new makes an environment of the game named game; its games'
// seeds are drawn from seed when seeded is not 0. Its calls write the
// state to cells and info (see write), and their errors to errbuf: the
// caller keeps these buffers until it frees the environment.
//
//export td_env_new
func td_env_new(game *C.char, seed C.uint64_t, seeded C.int, exps C.int, cells, info *C.int64_t, errbuf *C.char, errlen C.int) C.int64_t {
	return call(errbuf, errlen, func() (int64, error) {
		g, err := lookupGame(game)
		if err != nil {
			return 0, err
		}
		e := &env{g: g, seeds: seedSource(seed, seeded), cells: cells, info: info, exps: exps != 0, errbuf: errbuf, errlen: errlen}
		for t := range e.value {
			e.value[t] = int64(max(g.Code.Value(t), 0))
		}
		if e.s, err = session.New(g.Name, e.seeds.Uint64()); err != nil {
			return 0, err
		}
		e.write(0, false)
		return put(e), nil
	})
}

// Each call on an environment writes its state to the caller's buffers:
// cells, the 16 cells row by row from the top left as tile values (exps
// 0) or tile indices (exps 1: 2048's exponents), and info:
//
//	info[0] the last move's reward, info[1] the score, info[2] 1 when the
//	game is over, info[3] the legal moves (bit d for direction d: 0 up,
//	1 right, 2 down, 3 left), info[4] the next tile (Threes!), info[5]
//	1 when the last move was legal, info[6] the moves made.
const infoLen = 7

func (e *env) write(reward int64, legal bool) { e.writeTo(e.cells, reward, legal) }

// writeTo is write with the cells going to cells.
func (e *env) writeTo(cells *C.int64_t, reward int64, legal bool) {
	c := unsafe.Slice((*int64)(unsafe.Pointer(cells)), 16)
	b := e.s.Board()
	for i := range 16 {
		t := b >> (4 * i) & 15
		if e.exps {
			c[i] = int64(t)
		} else {
			c[i] = e.value[t]
		}
	}
	if e.s.Position().Ext != 0 { // 2048 past 32768: the cells' own tiles
		for i := range 16 {
			t := e.s.Cell(i)
			c[i] = int64(t)
			if !e.exps {
				c[i] = int64(max(e.g.Code.Value(t), 0))
			}
		}
	}
	in := unsafe.Slice((*int64)(unsafe.Pointer(e.info)), infoLen)
	var mask int64
	for d, ok := range e.s.Moves() {
		mask |= b2i(ok) << d
	}
	in[0], in[1], in[2], in[3], in[4], in[5], in[6] = reward, int64(e.s.Score()), b2i(e.s.Over()), mask, int64(e.s.Next()), b2i(legal), int64(e.s.Len())
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// envCall runs f on the environment of handle h, locked, reporting
// errors to its buffer.
func envCall(h C.int64_t, f func(e *env) error) C.int64_t {
	e, err := get[*env](h)
	if err != nil {
		return errClosed
	}
	return call(e.errbuf, e.errlen, func() (int64, error) {
		e.mu.Lock()
		defer e.mu.Unlock()
		return 0, f(e)
	})
}

// td_env_reset starts a new game: with seed when seeded is not 0, else
// with the next seed of the environment's.
//
//export td_env_reset
func td_env_reset(h C.int64_t, seed C.uint64_t, seeded C.int) C.int64_t {
	return envCall(h, func(e *env) error {
		sd := uint64(seed)
		if seeded == 0 {
			sd = e.seeds.Uint64()
		}
		s, err := session.New(e.g.Name, sd)
		if err != nil {
			return err
		}
		e.s = s
		e.write(0, false)
		return nil
	})
}

// td_env_step plays direction dir (0 up, 1 right, 2 down, 3 left); a
// slide that changes nothing, or any once the game is over, changes
// nothing (info[5] is 0). The cells go to the next board of the block
// td_env_block gave, if any, else to the environment's cells. It returns
// the info a step needs at once, packed: the reward in bits 0-23, then
// legal (bit 24), over (25), the legal moves (26-29), the next tile
// (30-31) and the score (32-61); bit 62 says a reward or a score too wide
// for its bits, to be read from info.
//
//export td_env_step
func td_env_step(h C.int64_t, dir C.int) (r C.int64_t) {
	// The one call of a step loop: written out, without envCall's
	// closures, which cost an allocation a call.
	e, err := get[*env](h)
	if err != nil {
		return errClosed
	}
	if dir < 0 || dir > 3 {
		return report(e.errbuf, e.errlen, bad("action %d: want 0 to 3", dir))
	}
	defer func() {
		if p := recover(); p != nil {
			r = report(e.errbuf, e.errlen, fmt.Errorf("td2048: internal error: %v", p))
		}
	}()
	e.mu.Lock()
	defer e.mu.Unlock()
	cells := e.cells
	if e.block != nil {
		if e.board >= e.blockLen {
			return report(e.errbuf, e.errlen, fmt.Errorf("td2048: the block of %d boards is full", e.blockLen))
		}
		cells = (*C.int64_t)(unsafe.Add(unsafe.Pointer(e.block), 16*8*e.board))
		e.board++
	}
	res := e.s.Apply(int(dir))
	e.writeTo(cells, int64(res.Reward), res.Legal)
	return C.int64_t(packStep(unsafe.Slice((*int64)(unsafe.Pointer(e.info)), infoLen)))
}

// td_env_block gives the steps that follow a block of n boards (16 cells
// each) to write their cells to in turn, instead of the environment's
// cells, so that a caller that returns each step's board as a new array
// copies nothing; a NULL block takes the environment's cells again. The
// caller keeps the block alive until it gives another.
//
//export td_env_block
func td_env_block(h C.int64_t, block *C.int64_t, n C.int) C.int64_t {
	return envCall(h, func(e *env) error {
		if n < 0 {
			return bad("a block of %d boards", n)
		}
		e.block, e.blockLen, e.board = block, int(n), 0
		return nil
	})
}

// packStep packs a step's info as td_env_step returns it.
func packStep(in []int64) int64 {
	p := in[5]<<24 | in[2]<<25 | in[3]<<26 | (in[4]&3)<<30
	if uint64(in[0]) >= 1<<24 || uint64(in[1]) >= 1<<30 {
		return p | 1<<62
	}
	return p | in[0] | in[1]<<32
}

// td_env_state writes the environment's state without changing it.
//
//export td_env_state
func td_env_state(h C.int64_t) C.int64_t {
	return envCall(h, func(e *env) error {
		e.write(0, false)
		return nil
	})
}

// td_env_set puts the game at a position: the 16 cells, tile values (as
// td_pack reads them), the score (Threes!: ignored, the board's value)
// and the next tile (Threes!: 1, 2 or 3). Its next moves draw their
// tiles from a new seed.
//
//export td_env_set
func td_env_set(h C.int64_t, cells *C.int64_t, score C.int64_t, next C.int) C.int64_t {
	return envCall(h, func(e *env) error {
		var b [1]board.Board
		if err := pack(e.g, unsafe.Slice((*int64)(unsafe.Pointer(cells)), 16), false, b[:]); err != nil {
			return err
		}
		p, err := e.g.Position(b[0], int(next))
		if err != nil {
			return bad("%v", err)
		}
		if !e.g.HasNext {
			p.Score = int(score)
		}
		s, err := session.Resume(e.g.Name, e.seeds.Uint64(), 0, p)
		if err != nil {
			return bad("%v", err)
		}
		e.s = s
		e.write(0, false)
		return nil
	})
}

// td_env_clone is a copy of the environment, its game at the same move
// with the same seed, and a generator of its own, writing to buffers of
// its own (as td_env_new's).
//
//export td_env_clone
func td_env_clone(h C.int64_t, cells, info *C.int64_t, errbuf *C.char, errlen C.int) C.int64_t {
	var c *env
	r := envCall(h, func(e *env) error {
		s, err := session.Resume(e.g.Name, e.s.Seed(), e.s.Len(), e.s.Position())
		seeds := *e.seeds
		c = &env{g: e.g, s: s, seeds: &seeds, cells: cells, info: info, exps: e.exps, value: e.value, errbuf: errbuf, errlen: errlen}
		if err == nil {
			c.write(0, false)
		}
		return err
	})
	if r < 0 {
		return r
	}
	return C.int64_t(put(c))
}

// pack reads boards of 16 cells each into out: tile values, or tile
// indices when exps, checked against the game's tiles.
func pack(g *games.Game, cells []int64, exps bool, out []board.Board) error {
	for k := range out {
		var b board.Board
		for i, v := range cells[16*k : 16*k+16] {
			idx, ok := int(v), v >= 0 && v <= 15 && g.Code.Value(int(v)) >= 0
			if !exps {
				idx, ok = g.Code.Index(int(v))
				ok = ok && v == int64(int(v))
			}
			if !ok {
				what := "a tile value"
				if g.Code == board.Pow2 {
					what = "a power of two from 2 to 32768, or 0"
				}
				if exps {
					what = "a tile index (exponent) of the game"
				}
				return bad("board %d, cell %d (row %d, column %d): %d is not %s", k, i, i/4, i%4, v, what)
			}
			b = b.Set(i, idx)
		}
		out[k] = b
	}
	return nil
}

// td_pack packs n boards of 16 cells (values, or indices when exps is
// not 0) into 64-bit boards (4 bits a cell, cell 0 lowest).
//
//export td_pack
func td_pack(game *C.char, cells *C.int64_t, n C.int64_t, exps C.int, out *C.uint64_t, errbuf *C.char, errlen C.int) C.int64_t {
	return call(errbuf, errlen, func() (int64, error) {
		g, err := lookupGame(game)
		if err != nil || n <= 0 {
			return 0, err
		}
		c := unsafe.Slice((*int64)(unsafe.Pointer(cells)), 16*int(n))
		o := unsafe.Slice((*board.Board)(unsafe.Pointer(out)), int(n))
		return 0, pack(g, c, exps != 0, o)
	})
}
