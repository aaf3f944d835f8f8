package ntuple

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/td2048/td2048/board"
)

// compactSpecs are networks of every reader: the 4x6 network (its own
// float32 assembly; compact through the AVX-512 or plain indices), a
// PEXT network with a pattern kept in cache-line order (234569), staged
// ones, small ones that are not prefetched, Threes! tables per hint,
// networks without isomorphisms and of patterns that are not ascending
// (the Go reader).
var compactSpecs = []string{"4x6", "234569,0123", "4x5@0,16384", "2x4", "8x4", "2x4+hint", "0213,4567", "0123/noiso"}

// randomNet fills a network of spec with weights of several sizes, a few
// of them large, so that tables have scales of their own.
func randomNet(t *testing.T, spec string, rng *rand.Rand) *Network {
	t.Helper()
	n := MustNew(spec)
	w := n.Weights()
	step := max(1, len(w)/200000)
	for i := 0; i < len(w); i += step {
		w[i] = float32(rng.NormFloat64() * 1000 * float64(1+i%3))
	}
	return n
}

// compactRef is a compact network's value by its definition (compact.go),
// from canonical indices and the 16-bit weights in canonical order.
func compactRef(n *Network, q [][]int16, k int, b board.Board) float32 {
	var buf [8]board.Board
	im := n.images(b, &buf)
	np := len(n.pats)
	var v float32
	for p, cells := range n.spec.Patterns {
		var s int32
		for _, y := range im {
			var i uint32
			for j, c := range cells {
				i |= uint32(y.At(c)) << (4 * j)
			}
			s += int32(q[k*np+p][i])
		}
		v += float32(float32(s) * n.hs[k*np+p])
	}
	return v
}

// canonicalQ gathers a compact network's tables in canonical order.
func canonicalQ(t *testing.T, n *Network) [][]int16 {
	t.Helper()
	var q [][]int16
	err := n.EachCanonicalQ(func(tab int, c []int16) error {
		for len(q) <= tab {
			q = append(q, nil)
		}
		q[tab] = append(q[tab], c...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return q
}

// TestCompactValues: a compact network's value is its definition's, bit
// for bit, on every path (Estimate, EstimateMany, Fetch and SumFetched,
// Sum on Index), in every stage, within ValueBound of the float32
// network's; and it holds every weight within half a step.
func TestCompactValues(t *testing.T) {
	rng := rand.New(rand.NewPCG(43, 1))
	for _, spec := range compactSpecs {
		t.Run(spec, func(t *testing.T) {
			f := randomNet(t, spec, rng)
			defer f.Free()
			c, err := f.ToCompact()
			if err != nil {
				t.Fatal(err)
			}
			defer c.Free()
			if !c.Compact() || f.Compact() {
				t.Fatal("Compact reports the wrong network")
			}
			q := canonicalQ(t, c)
			// Every weight within half a step (and the largest of a
			// table kept exactly as +-32767 steps).
			tab := 0
			for k := range f.StageCount() {
				for p := range f.spec.Patterns {
					ft := f.CanonicalTable(k, p)
					s := c.hs[tab]
					for i, w := range ft {
						if d := math.Abs(float64(w) - float64(q[tab][i])*float64(s)); d > float64(s)/2*1.0001 {
							t.Fatalf("stage %d pattern %d weight %d: %v kept as %d x %v", k, p, i, w, q[tab][i], s)
						}
					}
					tab++
				}
			}
			per := c.Lookups()
			var bs []board.Board
			for range 500 {
				x := rng.Uint64()
				bs = append(bs, board.Board(x), board.Board(x&0x3333333333333333), board.Board(x&0x7777777777777777))
			}
			for k := range c.StageCount() {
				many := make([]float32, len(bs))
				c.EstimateManyStage(k, bs, many)
				idx := make([]uint32, len(bs)*per)
				c.Fetch(k, bs, idx)
				fetched := make([]float32, len(bs))
				c.SumFetched(k, idx, fetched)
				for i, b := range bs {
					want := compactRef(c, q, k, b)
					var x [MaxPatterns * 8]uint32
					got := map[string]float32{
						"EstimateStage":     c.EstimateStage(k, b),
						"EstimateManyStage": many[i],
						"SumFetched":        fetched[i],
						"Sum":               c.Sum(c.IndexStage(k, b, x[:])),
					}
					for path, v := range got {
						if math.Float32bits(v) != math.Float32bits(want) {
							t.Fatalf("stage %d, %s: %s %v, definition %v", k, b.Hex(), path, v, want)
						}
					}
					fv := f.EstimateStage(k, b)
					if d := math.Abs(float64(want) - float64(fv)); d > c.ValueBound(k)+1e-4*math.Abs(float64(fv))+1e-3 {
						t.Fatalf("stage %d, %s: compact %v, float32 %v: %v apart, bound %v", k, b.Hex(), want, fv, d, c.ValueBound(k))
					}
				}
			}
		})
	}
}

// TestCompactCanonicalRoundTrip: the 16-bit weights come back from
// EachCanonicalQ as FillCanonicalQ put them, and SetCanonicalCompact
// quantizes canonical float32 weights as ToCompact does.
func TestCompactCanonicalRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(43, 2))
	for _, spec := range []string{"234569,0123@0,16384", "2x4"} {
		t.Run(spec, func(t *testing.T) {
			f := randomNet(t, spec, rng)
			defer f.Free()
			want, err := f.ToCompact()
			if err != nil {
				t.Fatal(err)
			}
			defer want.Free()
			var canon []float32
			f.EachCanonical(false, func(w []float32) error {
				canon = append(canon, w...)
				return nil
			})
			got, err := NewCompact(f.Spec(), want.Scales())
			if err != nil {
				t.Fatal(err)
			}
			defer got.Free()
			np, at := len(f.Spec().Patterns), 0
			for tab := range f.Spec().StageCount() * np {
				size := 1 << (4 * len(f.Spec().Patterns[tab%np]))
				got.SetCanonicalCompact(tab, 0, canon[at:at+size])
				at += size
			}
			wq, gq := canonicalQ(t, want), canonicalQ(t, got)
			for tab := range wq {
				for i := range wq[tab] {
					if wq[tab][i] != gq[tab][i] {
						t.Fatalf("table %d weight %d: %d from canonical floats, %d from the network", tab, i, gq[tab][i], wq[tab][i])
					}
				}
			}
			again, err := NewCompact(f.Spec(), want.Scales())
			if err != nil {
				t.Fatal(err)
			}
			defer again.Free()
			if err := again.FillCanonicalQ(func(tab int, q []int16) error {
				copy(q, wq[tab][:len(q)])
				wq[tab] = wq[tab][len(q):]
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			for i := range want.h {
				if want.h[i] != again.h[i] {
					t.Fatalf("storage weight %d: %d after the round trip, want %d", i, again.h[i], want.h[i])
				}
			}
			// The float32 weights of a compact network are q x s, in
			// canonical order as in storage.
			var deq []float32
			want.EachCanonical(false, func(w []float32) error {
				deq = append(deq, w...)
				return nil
			})
			q := canonicalQ(t, want)
			i := 0
			for tab := range q {
				for _, x := range q[tab] {
					if deq[i] != float32(x)*want.hs[tab] {
						t.Fatalf("canonical weight %d: %v, want %d x %v", i, deq[i], x, want.hs[tab])
					}
					i++
				}
			}
		})
	}
}

// TestCompactDoesNotLearn: every way of changing a compact network's
// weights panics, rather than writing to weights it does not hold.
func TestCompactDoesNotLearn(t *testing.T) {
	f := MustNew("2x4")
	defer f.Free()
	c, err := f.ToCompact()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Free()
	var x [16]uint32
	for name, do := range map[string]func(){
		"Update":          func() { c.Update(0x1234, 1) },
		"Add":             func() { c.Add(c.Index(0x1234, x[:]), 1) },
		"EnableCoherence": c.EnableCoherence,
		"Pack":            c.Pack,
		"Optimistic":      func() { c.Optimistic(1000) },
		"FillCanonical":   func() { c.FillCanonical(false, func([]float32) error { return nil }) },
	} {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Errorf("%s on a compact network did not panic", name)
				}
			}()
			do()
		})
	}
}

// TestNewCompactRefuses: scales that are not one finite number >= 0 a
// table are refused.
func TestNewCompactRefuses(t *testing.T) {
	spec, _ := ParseSpec("2x4")
	for name, sc := range map[string][]float32{
		"too few":  {1},
		"too many": {1, 1, 1},
		"negative": {1, -1},
		"NaN":      {1, float32(math.NaN())},
		"infinite": {float32(math.Inf(1)), 1},
	} {
		t.Run(name, func(t *testing.T) {
			if n, err := NewCompact(spec, sc); err == nil {
				n.Free()
				t.Errorf("scales %v accepted", sc)
			}
		})
	}
}

// BenchmarkEstimateManyCompact4x6 is BenchmarkEstimateMany4x6 on the same
// network made compact.
func BenchmarkEstimateManyCompact4x6(b *testing.B) {
	f := touched(b)
	n, err := f.ToCompact()
	f.Free()
	if err != nil {
		b.Fatal(err)
	}
	defer n.Free()
	bs := benchBoards()
	var out [4]float32
	b.ResetTimer()
	for i := 0; i < b.N; i += 4 {
		k := i & 4095
		n.EstimateMany(bs[k:k+4], out[:])
		sinkF += out[0]
	}
}

// TestCompactFitsMessage: the reason a table does not fit 16 bits counts
// its steps right, however far out its largest weight lies.
func TestCompactFitsMessage(t *testing.T) {
	for _, c := range []struct {
		outlier float32
		want    string
	}{
		{300 * 1024, "300 times its 99th percentile (1.02e+03 or more), so 16 bits would hold most of its weights in fewer than 110 steps"},
		{1e30, "9.77e+26 times its 99th percentile (1.02e+03 or more), so 16 bits would hold most of its weights as 0"},
	} {
		var s TableStats
		w := make([]float32, 1000)
		for i := range w {
			w[i] = 1024
		}
		w[0] = c.outlier
		s.Add(w)
		if err := CompactFits([]TableStats{s}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("largest weight %g: %v", c.outlier, err)
		}
	}
}

// TestMaxValue: the bound on a board's value is the largest |weight| (or
// step times 32768) times the weights a value sums, and holds a value.
func TestMaxValue(t *testing.T) {
	n := MustNew("0123,4567")
	defer n.Free()
	n.Weights()[5] = -3
	n.Weights()[9] = 2
	if got := n.MaxValue(); got != 3*2*8 {
		t.Errorf("float32: %v, want 48", got)
	}
	c, err := NewCompact(n.Spec(), []float32{0.5, 0.25})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Free()
	if got := c.MaxValue(); got != 0.5*32768*2*8 {
		t.Errorf("compact: %v, want %v", got, 0.5*32768*2*8)
	}
	for i := range n.Weights() {
		n.Weights()[i] = 1e37
	}
	if v, b := n.Estimate(0x1234), n.MaxValue(); float64(v) > b {
		t.Errorf("value %v above the bound %v", v, b)
	}
}
