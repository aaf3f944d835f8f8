package main

/*
#include <stdint.h>
*/
import "C"

import (
	"math/rand/v2"
	"sync"
	"unsafe"

	"github.com/td2048/td2048/games"
	"github.com/td2048/td2048/session"
)

// A vec is n games stepped together (the Python package's VectorEnv):
// each call takes one action per game and writes every game's
// observation, reward and end into the caller's arrays; a game that ends
// is replaced by a new one at once (its last observation is the new
// game's start, and done says it ended).
type vec struct {
	mu    sync.Mutex
	g     *games.Game
	ss    []*session.Session
	seeds *rand.PCG
	order [4]int // action a is direction order[a]
}

// td_vec_new makes n games of the game named game, their seeds drawn
// from seed when seeded is not 0; order maps each action (0..3) to a
// direction (0 up, 1 right, 2 down, 3 left).
//
//export td_vec_new
func td_vec_new(game *C.char, n C.int64_t, seed C.uint64_t, seeded C.int, order *C.int64_t, errbuf *C.char, errlen C.int) C.int64_t {
	return call(errbuf, errlen, func() (int64, error) {
		g, err := lookupGame(game)
		if err != nil {
			return 0, err
		}
		if n < 1 || n > 1<<24 {
			return 0, bad("num_envs %d: want 1 to %d", n, 1<<24)
		}
		v := &vec{g: g, ss: make([]*session.Session, n), seeds: seedSource(seed, seeded)}
		o := unsafe.Slice((*int64)(unsafe.Pointer(order)), 4)
		seen := 0
		for a, d := range o {
			if d < 0 || d > 3 || seen&(1<<d) != 0 {
				return 0, bad("action order %v: want each direction once", o)
			}
			seen |= 1 << d
			v.order[a] = int(d)
		}
		for i := range v.ss {
			if v.ss[i], err = session.New(g.Name, v.seeds.Uint64()); err != nil {
				return 0, err
			}
		}
		return put(v), nil
	})
}

// vecCall runs f on the vec of handle h, locked.
func vecCall(h C.int64_t, errbuf *C.char, errlen C.int, f func(v *vec) error) C.int64_t {
	return callOn(h, errbuf, errlen, func(v *vec) (int64, error) {
		v.mu.Lock()
		defer v.mu.Unlock()
		return 0, f(v)
	})
}

// observe writes game i's cells as tile indices (2048's exponents) into
// obs[16i:], and its legal actions into mask[4i:] when mask is not nil.
func (v *vec) observe(i int, obs, mask []uint8) {
	s := v.ss[i]
	b := s.Board()
	o := obs[16*i : 16*i+16]
	for c := range o {
		o[c] = uint8(b >> (4 * c) & 15)
	}
	if s.Position().Ext != 0 {
		for c := range o {
			o[c] = uint8(s.Cell(c))
		}
	}
	if mask != nil {
		m := s.Moves()
		for a, d := range v.order {
			mask[4*i+a] = uint8(b2i(m[d]))
		}
	}
}

// td_vec_reset starts new games everywhere, with seeds from seed when
// seeded is not 0, and writes their observations (n x 16 bytes) and,
// when mask is not NULL, legal actions (n x 4 bytes).
//
//export td_vec_reset
func td_vec_reset(h C.int64_t, seed C.uint64_t, seeded C.int, obs, mask *C.uint8_t, errbuf *C.char, errlen C.int) C.int64_t {
	return vecCall(h, errbuf, errlen, func(v *vec) error {
		if seeded != 0 {
			v.seeds = seedSource(seed, seeded)
		}
		o, m := v.views(obs, mask)
		for i := range v.ss {
			if err := v.newGame(i); err != nil {
				return err
			}
			v.observe(i, o, m)
		}
		return nil
	})
}

// newGame starts game i anew, with the next seed of v's.
func (v *vec) newGame(i int) error {
	s, err := session.New(v.g.Name, v.seeds.Uint64())
	if err == nil {
		v.ss[i] = s
	}
	return err
}

func (v *vec) views(obs, mask *C.uint8_t) ([]uint8, []uint8) {
	n := len(v.ss)
	o := unsafe.Slice((*uint8)(unsafe.Pointer(obs)), 16*n)
	var m []uint8
	if mask != nil {
		m = unsafe.Slice((*uint8)(unsafe.Pointer(mask)), 4*n)
	}
	return o, m
}

// td_vec_step plays actions[i] in game i, and writes every game's
// observation, reward (0 for a slide that changes nothing), done (the
// game ended, and a new one began), score (the score of the game so
// far; on done, of the game that ended) and, when mask is not NULL,
// legal actions. An action outside 0..3 is an error before any game
// moves.
//
//export td_vec_step
func td_vec_step(h C.int64_t, actions *C.int64_t, obs *C.uint8_t, rewards *C.float, dones *C.uint8_t, scores *C.int64_t, mask *C.uint8_t, errbuf *C.char, errlen C.int) C.int64_t {
	return vecCall(h, errbuf, errlen, func(v *vec) error {
		n := len(v.ss)
		act := unsafe.Slice((*int64)(unsafe.Pointer(actions)), n)
		for i, a := range act {
			if a < 0 || a > 3 {
				return bad("action %d of game %d: want 0 to 3", a, i)
			}
		}
		o, m := v.views(obs, mask)
		rw := unsafe.Slice((*float32)(unsafe.Pointer(rewards)), n)
		dn := unsafe.Slice((*uint8)(unsafe.Pointer(dones)), n)
		sc := unsafe.Slice((*int64)(unsafe.Pointer(scores)), n)
		for i, a := range act {
			r := v.ss[i].Apply(v.order[a])
			rw[i], dn[i], sc[i] = float32(r.Reward), uint8(b2i(r.Over)), int64(r.Score)
			if r.Over {
				if err := v.newGame(i); err != nil {
					return err
				}
			}
			v.observe(i, o, m)
		}
		return nil
	})
}
