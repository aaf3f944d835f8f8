package ntuple

import (
	"fmt"
	"math"
	"testing"

	"github.com/td2048/td2048/board"
)

// TestCoherenceVectors: docs/methods.md section 3's table, measured on
// TDL2048+: 4x6 valued at 320000, rate 1 (1/32 per weight), the board
// 0x0123456789abcdef (32 distinct weights), updated toward each target in
// turn; then the same with plain TD at 0.1, and the empty board whose 4
// weights are each read 8 times.
func TestCoherenceVectors(t *testing.T) {
	b := board.Board(0x0123456789abcdef)
	for _, shared := range []bool{false, true} {
		n := MustNew("4x6")
		n.Optimistic(320000)
		n.EnableCoherence()
		if shared {
			n.Share()
		}
		var x [32]uint32
		i := n.Index(b, x[:])[0]
		for _, c := range []struct{ target, v, w, e, a float32 }{
			{316800, 316800, 9900, -100, 100},
			{318400, 318400, 9950, -50, 150},
			{320000, 318933.34375, 9966.666992, 0, 200},
			{330000, 318933.34375, 9966.666992, 345.833008, 545.833008},
		} {
			n.Update(b, 1*(c.target-n.Estimate(b)))
			v, w, e, a := n.Estimate(b), n.w[i], n.ea[2*i], n.ea[2*i+1]
			if !near(v, c.v) || !near(w, c.w) || !near(e, c.e) || !near(a, c.a) {
				t.Fatalf("shared %v, target %v: V %v w %v E %v A %v, want %v %v %v %v", shared, c.target, v, w, e, a, c.v, c.w, c.e, c.a)
			}
		}
		n.Free()
	}
	// Plain TD at 0.1 on the same board.
	n := MustNew("4x6")
	defer n.Free()
	n.Optimistic(320000)
	for k, want := range []float32{319680, 319552, 319596.78125, 320637.125} {
		target := []float32{316800, 318400, 320000, 330000}[k]
		n.Update(b, 0.1*(target-n.Estimate(b)))
		if v := n.Estimate(b); !near(v, want) {
			t.Fatalf("TD step %d: V %v, want %v", k, v, want)
		}
	}
	// The empty board: each of 4 weights read 8 times.
	for _, c := range []struct {
		tc          bool
		alpha, w, v float32
	}{{false, 0.1, 2000, 64000}, {true, 1, -70000, -2240000}} {
		t.Run(fmt.Sprint("tc=", c.tc), func(t *testing.T) {
			n := MustNew("4x6")
			n.Optimistic(320000)
			if c.tc {
				n.EnableCoherence()
			}
			n.Update(0, c.alpha*(0-n.Estimate(0)))
			if w, v := n.w[0], n.Estimate(0); w != c.w || v != c.v {
				t.Errorf("empty board, TC %v: w %v V %v, want %v %v", c.tc, w, v, c.w, c.v)
			}
			if c.tc && (n.ea[0] != -80000 || n.ea[1] != 80000) {
				t.Errorf("empty board: E %v A %v", n.ea[0], n.ea[1])
			}
			n.Free()
		})
	}
}

func near(a, b float32) bool {
	return math.Abs(float64(a-b)) <= 1e-3*math.Max(1, math.Abs(float64(b)))*1e-3
}
