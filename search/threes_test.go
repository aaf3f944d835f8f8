package search

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/td2048/td2048/ntuple"
	"github.com/td2048/td2048/rules/threes"
)

// A move time is a hard deadline: an uncapped search answers soon after
// it, from the deepest depth it finished; a cap stops deepening early.
// Stop interrupts a fixed-depth search as well.
func TestThreesDeadlineAndStop(t *testing.T) {
	net := ntuple.MustNew("01,45+hint")
	rng := rand.New(rand.NewPCG(5, 5))
	for i := range net.Weights() {
		net.Weights()[i] = float32(rng.IntN(64)) / 8
	}
	g := threes.Start(rng) // the opening board: a depth-12 search takes hours
	answer := func(name string, f func() Choice) Choice {
		t.Helper()
		done := make(chan Choice, 1)
		go func() { done <- f() }()
		select {
		case c := <-done:
			return c
		case <-time.After(30 * time.Second):
			t.Fatalf("%s: no answer 30 s later", name)
		}
		return NoMove
	}
	s := NewThrees(net, Options{Depth: 12, MoveTime: 50 * time.Millisecond}, NewTable(1<<20))
	var depth int
	c := answer("depth 12 within 50ms", func() Choice { mv, d := s.ValuesTimed(&g); depth = d; return BestOf(&mv) })
	if !c.Legal() || depth < 1 || depth >= 12 {
		t.Fatalf("choice %+v at depth %d", c, depth)
	}
	mv, d := NewThrees(net, Options{Depth: 2, MoveTime: time.Minute}, nil).ValuesTimed(&g)
	if d != 2 || mv != NewThrees(net, Options{Depth: 2}, nil).Values(&g, 2) {
		t.Fatalf("capped at 2: depth %d", d)
	}
	stop := make(chan struct{})
	s = NewThrees(net, Options{Depth: 12, Stop: stop}, nil)
	time.AfterFunc(20*time.Millisecond, func() { close(stop) })
	answer("depth 12 stopped", func() Choice { return s.Best(&g) })
	if !s.Stopped() {
		t.Fatal("a stopped search does not say so")
	}
}
