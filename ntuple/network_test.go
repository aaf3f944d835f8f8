package ntuple

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/td2048/td2048/board"
)

// The isomorphic images of the 4x6 patterns listed in docs/reference/rules.md.
var isoVectors = map[string][]string{
	"012345": {"012345", "37bf26", "fedcba", "c840d9", "321076", "048c15", "cdef89", "fb73ea"},
	"456789": {"456789", "26ae15", "ba9876", "d951ea", "7654ba", "159d26", "89ab45", "ea62d9"},
	"012456": {"012456", "37b26a", "fedba9", "c84d95", "321765", "048159", "cde89a", "fb7ea6"},
	"45689a": {"45689a", "26a159", "ba9765", "d95ea6", "765ba9", "15926a", "89a456", "ea6d95"},
}

func plainIndex(b board.Board, cells string) uint32 {
	var i uint32
	for k, ch := range cells {
		c := strings.IndexRune("0123456789abcdef", ch)
		i |= uint32(b.At(c)) << (4 * k)
	}
	return i
}

func TestIsomorphismVectors(t *testing.T) {
	for _, spec := range []string{"4x6", "012345,456789,012456,45689a/iso"} {
		n := MustNew(spec)
		rng := rand.New(rand.NewPCG(1, 2))
		for range 2000 {
			b := board.Board(rng.Uint64())
			var buf [128]uint32
			x := n.Index(b, buf[:])
			if len(x) != 32 {
				t.Fatalf("%d indices", len(x))
			}
			for p, pat := range []string{"012345", "456789", "012456", "45689a"} {
				var want []uint32
				for _, im := range isoVectors[pat] {
					want = append(want, uint32(p)<<24|plainIndex(b, im))
				}
				got := slices.Clone(x[8*p : 8*p+8])
				for i, s := range got { // storage indices (layout.go) to canonical
					got[i] = uint32(p)<<24 | n.CanonicalIndex(p, s&0xffffff)
				}
				slices.Sort(got)
				slices.Sort(want)
				if !slices.Equal(got, want) {
					t.Fatalf("%s: pattern %s on %v: indices %x, want %x", spec, pat, b.Hex(), got, want)
				}
			}
		}
		n.Free() // weights are faulted in when allocated: do not keep 256 MB
	}
}

func TestGenericMatchesFast(t *testing.T) {
	fast := MustNew("4x6")
	slow := MustNew("012345,456789,012456,45689a/iso")
	slow.kind, slow.avx = kindGeneric, nil
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range fast.w {
		if i%97 == 0 {
			slow.w[i] = float32(rng.NormFloat64())
			fast.w[storageOf(fast, i)] = slow.w[i]
		}
	}
	for range 5000 {
		b := board.Board(rng.Uint64())
		if f, s := fast.Estimate(b), slow.Estimate(b); f != s {
			t.Fatalf("%v: fast %v, generic %v", b.Hex(), f, s)
		}
		var buf [128]uint32
		if fast.Sum(fast.Index(b, buf[:])) != fast.Estimate(b) {
			t.Fatalf("Sum differs from Estimate")
		}
	}
	// EstimateMany is Estimate, bit for bit, for batches of every size;
	// a shared network (atomic loads) gives the same values as before.
	var boards []board.Board
	for range 400 {
		boards = append(boards, board.Board(rng.Uint64()))
	}
	for _, n := range []*Network{fast, slow} {
		want := make([]float32, len(boards))
		for k, b := range boards {
			want[k] = n.Estimate(b)
		}
		for _, shared := range []bool{false, true} {
			if shared {
				n.Share()
			}
			for from := 0; from < len(boards); {
				size := min(rng.IntN(20), len(boards)-from)
				out := make([]float32, size)
				n.EstimateMany(boards[from:from+size], out)
				for k := range out {
					if out[k] != want[from+k] || n.Estimate(boards[from+k]) != want[from+k] {
						t.Fatalf("shared %v, batch of %d, board %d: %v, Estimate %v, want %v",
							shared, size, k, out[k], n.Estimate(boards[from+k]), want[from+k])
					}
				}
				from += max(size, 1)
			}
		}
	}
	fast.Free()
	slow.Free()
}

func TestNoIsoReadsBoardAsIs(t *testing.T) {
	n := MustNew("8x4")
	if n.Lookups() != 8 {
		t.Fatalf("8x4 has %d lookups", n.Lookups())
	}
	b := board.FromCells([16]int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0})
	var buf [128]uint32
	x := n.Index(b, buf[:])
	want := []uint32{0x4321, 0x8765, 0xcba9, 0x0fed, 0xd951, 0xea62, 0xfb73, 0x0c84}
	for p, w := range want {
		if x[p] != uint32(p)<<16|w {
			t.Errorf("pattern %d: index %x, want %x", p, x[p], uint32(p)<<16|w)
		}
	}
}

// TestEstimateUpdateExact works on a hand-made network of two 1-cell and
// one 2-cell pattern, where every value can be written down.
func TestEstimateUpdateExact(t *testing.T) {
	n := MustNew("0,5,01/noiso")
	w := n.Weights()
	if len(w) != 16+16+256 {
		t.Fatalf("%d weights", len(w))
	}
	b := board.FromCells([16]int{2, 3, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0})
	w[2] = 1         // cell 0 holds 2
	w[16+1] = 10     // cell 5 holds 1
	w[32+0x32] = 100 // cells 0,1 hold 2,3
	if v := n.Estimate(b); v != 111 {
		t.Fatalf("Estimate = %v, want 111", v)
	}
	// u = 3 splits into 1 per weight (3 patterns x 1 image)
	if v := n.Update(b, 3); v != 114 {
		t.Fatalf("Update returned %v, want 114", v)
	}
	if w[2] != 2 || w[17] != 11 || w[32+0x32] != 101 {
		t.Fatalf("weights after update: %v %v %v", w[2], w[17], w[32+0x32])
	}

	// With isomorphisms a pattern read twice at one index moves twice.
	m := MustNew("0")
	if m.Lookups() != 8 {
		t.Fatalf("lookups %d", m.Lookups())
	}
	// All four corners hold 2: each image reads a corner, index 1 eight times.
	c := board.FromCells([16]int{1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1})
	m.Weights()[1] = 0.5
	if v := m.Estimate(c); v != 4 {
		t.Fatalf("Estimate = %v, want 4", v)
	}
	// u = 8: each of 8 reads moves the weight by 1, so it moves by 8; the
	// value returned reads it after each step: 1.5 + 2.5 + ... + 8.5 = 40.
	if v := m.Update(c, 8); v != 40 || m.Weights()[1] != 8.5 {
		t.Fatalf("Update = %v, weight %v; want 40, 8.5", v, m.Weights()[1])
	}
	if v := m.Estimate(c); v != 68 {
		t.Fatalf("Estimate after update = %v, want 68", v)
	}
	// Only corner 0 holds 2: the 8 images read corners 0 (twice: identity
	// and transpose) and the others.
	d := board.FromCells([16]int{1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0})
	var buf [128]uint32
	ones := 0
	for _, i := range m.Index(d, buf[:]) {
		if i == 1 {
			ones++
		}
	}
	if ones != 2 {
		t.Fatalf("corner read %d times, want 2", ones)
	}
}

func TestStagesAreSeparateTables(t *testing.T) {
	for _, spec := range []string{"4x6@3", "0123,456/noiso@3"} {
		n := MustNew(spec)
		one := MustNew(strings.Split(spec, "@")[0])
		rng := rand.New(rand.NewPCG(7, 7))
		for range 200 {
			b := board.Board(rng.Uint64())
			u := float32(rng.NormFloat64())
			n.Update(b, u) // stage 0
			one.Update(b, u)
			var buf [128]uint32
			n.Add(n.IndexStage(2, b, buf[:]), 2*u) // stage 2
		}
		for range 200 {
			b := board.Board(rng.Uint64())
			if n.Estimate(b) != one.Estimate(b) || n.EstimateStage(1, b) != 0 {
				t.Fatalf("%s: stage 0 %v (single %v), stage 1 %v", spec, n.Estimate(b), one.Estimate(b), n.EstimateStage(1, b))
			}
		}
		if !slices.Equal(n.StageTable(0, 1), one.StageTable(0, 1)) {
			t.Fatalf("%s: stage 0 tables differ", spec)
		}
		n.Free()
		one.Free()
	}
}

func TestShareGivesSameValues(t *testing.T) {
	a, b := MustNew("0123,4567"), MustNew("0123,4567")
	b.Share()
	rng := rand.New(rand.NewPCG(5, 6))
	for range 3000 {
		x := board.Board(rng.Uint64())
		u := float32(rng.NormFloat64())
		if va, vb := a.Update(x, u), b.Update(x, u); va != vb {
			t.Fatalf("shared %v, plain %v", vb, va)
		}
	}
}

func TestParseSpec(t *testing.T) {
	for in, want := range map[string]string{
		"4x6":                         "4x6",
		"012345,456789,012456,45689a": "4x6",
		"8x4":                         "8x4",
		"0123,4567,89ab,cdef,048c,159d,26ae,37bf/noiso": "8x4",
		"8x4/iso":         "8x4/iso",
		"4x6/noiso":       "4x6/noiso",
		"4x6+hint":        "4x6+hint",
		"4x6@2":           "4x6@2",
		"4x6@1":           "4x6",
		"012,345/noiso@4": "012,345/noiso@4",
		"0123,4567":       "2x4",
		"ABC,0":           "abc,0",
		" 8x6 ":           "8x6",
		"5x6":             "5x6",
		"012345,45689":    "012345,45689",
		"4x6patt":         "4x6",
		"5x6patt":         "5x6",
		"6x6patt":         "6x6",
		"7x6patt@2":       "7x6@2",
		"8x6patt":         "8x6",
		"8x4patt":         "8x4",
		"9x4patt":         "9x4",
		"2x4patt":         "2x4",
		"4x5patt":         "4x5",
		"5x4patt":         "5x4",
		"012456,456789,012345,234569,01259a,345678": "6x6",
	} {
		t.Run(in, func(t *testing.T) {
			s, err := ParseSpec(in)
			if err != nil {
				t.Errorf("ParseSpec(%q): %v", in, err)
				return
			}
			if s.String() != want {
				t.Errorf("ParseSpec(%q) = %s, want %s", in, s, want)
			}
		})
	}
	for _, bad := range []string{"", "4x7", "01234567", "0g", "001", "4x6/x", "0,1,2,3,4,5,6,7,8,9,a,b,c,d,e,f,0", "4x6@0", "4x6@17", "4x6@x", "+hint", "4x6+hint@2"} {
		t.Run(bad, func(t *testing.T) {
			if _, err := ParseSpec(bad); err == nil {
				t.Errorf("ParseSpec(%q) accepted", bad)
			}
		})
	}
	// An unknown name names the known networks.
	for _, bad := range []string{"6x5", "4x6pat", "3x6patt", "foo"} {
		t.Run(bad, func(t *testing.T) {
			_, err := ParseSpec(bad)
			if err == nil || !strings.Contains(err.Error(), "known networks are 4x6, 8x6") {
				t.Errorf("ParseSpec(%q): %v, want the known networks named", bad, err)
			}
		})
	}
	s, _ := ParseSpec("4x6")
	if s.Weights() != 4<<24 {
		t.Errorf("4x6 weights %d", s.Weights())
	}
	s, _ = ParseSpec("4x6+hint")
	if s.Weights() != 3*4<<24 || !s.Hint || s.StageCount() != 3 {
		t.Errorf("4x6+hint: %+v", s)
	}
}

func FuzzParseSpec(f *testing.F) {
	for _, s := range []string{"4x6", "012,345/noiso", "8x4/iso", "0123456", ",,", "4x6@0,16384", "01,23@0,8192,49152", "4x6@2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		spec, err := ParseSpec(s)
		if err != nil {
			return
		}
		again, err := ParseSpec(spec.String())
		if err != nil || !again.Equal(spec) {
			t.Fatalf("%q -> %q does not read back: %v", s, spec, err)
		}
	})
}

var sinkF float32

func benchBoards() []board.Board {
	rng := rand.New(rand.NewPCG(1, 1))
	bs := make([]board.Board, 4096)
	for i := range bs {
		bs[i] = board.Board(rng.Uint64() & 0x7777777777777777)
	}
	return bs
}

// touched is a 4x6 network with every page of its weights written, so that
// benchmarks measure real memory and not the kernel's shared zero page.
func touched(b *testing.B) *Network {
	n := MustNew("4x6")
	w := n.Weights()
	for i := 0; i < len(w); i += 1024 {
		w[i] = 1
	}
	b.ResetTimer()
	return n
}

func BenchmarkEstimate4x6(b *testing.B) {
	n := touched(b)
	defer n.Free()
	bs := benchBoards()
	b.ResetTimer()
	for i := range b.N {
		sinkF += n.Estimate(bs[i&4095])
	}
}

func BenchmarkEstimateGeneric4x6(b *testing.B) {
	n := touched(b)
	n.kind, n.avx = kindGeneric, nil
	defer n.Free()
	bs := benchBoards()
	b.ResetTimer()
	for i := range b.N {
		sinkF += n.Estimate(bs[i&4095])
	}
}

func BenchmarkUpdate4x6(b *testing.B) {
	n := touched(b)
	defer n.Free()
	bs := benchBoards()
	b.ResetTimer()
	for i := range b.N {
		sinkF += n.Update(bs[i&4095], 0.01)
	}
}

// asmBoards are random boards, boards of small tiles (the common case, and
// images that share indices) and symmetric boards, whose images collide so
// that one update reads weights another has just written.
func asmBoards(rng *rand.Rand) []board.Board {
	bs := []board.Board{0, 0x1111111111111111, 0xfedcba9876543210, 0x0123456789abcdef}
	for range 3000 {
		x := rng.Uint64()
		bs = append(bs, board.Board(x), board.Board(x&0x3333333333333333))
		r := x & 0xff
		r |= (r&0xf)<<12 | (r>>4&0xf)<<8 // a palindromic row
		bs = append(bs, board.Board(r|r<<16|r<<32|r<<48), board.Board(r|r<<48))
	}
	return bs
}

// TestAssemblyMatchesGo: the 4x6 assembly reads and steps the same
// weights as the Go code on indices, with the same sums bit for bit,
// including when images of a board share weights.
func TestAssemblyMatchesGo(t *testing.T) {
	if !have4x6asm {
		t.Skip("no 4x6 assembly on this processor")
	}
	asm, ref := MustNew("4x6"), MustNew("4x6")
	defer asm.Free()
	defer ref.Free()
	// canon holds the same weights in canonical order, as the Go reader
	// (estimate4x6) wants them where there is no assembly.
	canon := MustNew("4x6")
	canon.lay, canon.avx = nil, nil
	defer canon.Free()
	rng := rand.New(rand.NewPCG(5, 6))
	for i := range asm.w {
		if i%61 == 0 {
			asm.w[i] = float32(rng.NormFloat64())
			ref.w[i] = asm.w[i]
			canon.w[canonicalOf(asm, i)] = asm.w[i]
		}
	}
	for k, b := range asmBoards(rng) {
		var buf [32]uint32
		x := ref.Index(b, buf[:])
		got, want := est4x6(&asm.w[0], uint64(b)), ref.Sum(x)
		if math.Float32bits(got) != math.Float32bits(want) {
			t.Fatalf("%v: est4x6 %v, Sum %v", b.Hex(), got, want)
		}
		if g := estimate4x6((*tab4x6)(canon.w), b); math.Float32bits(g) != math.Float32bits(want) {
			t.Fatalf("%v: estimate4x6 %v, Sum %v", b.Hex(), g, want)
		}
		d := float32(rng.NormFloat64()) / 32
		if k%7 == 0 {
			d = 0
		}
		for _, i := range x {
			canon.w[canonicalOf(asm, int(i))] += d
		}
		got, want = add4x6(&asm.w[0], uint64(b), d), ref.Add(x, d*32)
		if math.Float32bits(got) != math.Float32bits(want) {
			t.Fatalf("%v: add4x6 %v, Add %v", b.Hex(), got, want)
		}
		for _, i := range x {
			if math.Float32bits(asm.w[i]) != math.Float32bits(ref.w[i]) {
				t.Fatalf("%v: weight %d is %v, want %v", b.Hex(), i, asm.w[i], ref.w[i])
			}
		}
	}
}

// BenchmarkEstimateMany4x6 values boards four at a time, as greedy play
// values the after-states of a move (ns/op is per board).
func BenchmarkEstimateMany4x6(b *testing.B) {
	n := touched(b)
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

// TestDirectStages: the board paths read and step the tables of the stage
// asked for, as the index paths do.
func TestDirectStages(t *testing.T) {
	n := MustNew("4x6@2")
	defer n.Free()
	rng := rand.New(rand.NewPCG(8, 9))
	for i := range n.w {
		if i%53 == 0 {
			n.w[i] = float32(rng.NormFloat64())
		}
	}
	bs := asmBoards(rng)[:200]
	for k := range 2 {
		out := make([]float32, len(bs))
		n.EstimateManyStage(k, bs, out)
		for i, b := range bs {
			var buf [32]uint32
			x := n.IndexStage(k, b, buf[:])
			if want := n.Sum(x); out[i] != want || n.EstimateStage(k, b) != want {
				t.Fatalf("stage %d, %v: EstimateManyStage %v, EstimateStage %v, Sum %v", k, b.Hex(), out[i], n.EstimateStage(k, b), want)
			}
		}
		for _, b := range bs {
			var buf [32]uint32
			x := n.IndexStage(k, b, buf[:])
			n.PrefetchBoardStage(k, b)
			// UpdateStage steps the same weights as Add on the indices,
			// with the same result.
			saved := make([]float32, len(x))
			for j, i := range x {
				saved[j] = n.w[i]
			}
			v := n.UpdateStage(k, b, 0.5)
			after := make([]float32, len(x))
			for j, i := range x {
				after[j] = n.w[i]
			}
			for j, i := range x {
				n.w[i] = saved[j]
			}
			if want := n.Add(x, 0.5); v != want {
				t.Fatalf("stage %d, %v: UpdateStage gave %v, Add %v", k, b.Hex(), v, want)
			}
			for j, i := range x {
				if n.w[i] != after[j] {
					t.Fatalf("stage %d, %v: weight %d is %v after UpdateStage, %v after Add", k, b.Hex(), i, after[j], n.w[i])
				}
			}
		}
	}
}

// TestOptimistic: a network filled optimistically values every board at
// the given value; 2x4 gets TDL2048+'s 2x4patt=320000/norm weights.
func TestOptimistic(t *testing.T) {
	n := MustNew("2x4")
	defer n.Free()
	n.Optimistic(320000)
	if n.Weights()[12345] != 20000 {
		t.Fatalf("weight %v, want 20000", n.Weights()[12345])
	}
	rng := rand.New(rand.NewPCG(3, 3))
	for range 100 {
		b := board.Board(rng.Uint64() & 0x7777777777777777)
		if v := n.Estimate(b); v != 320000 {
			t.Fatalf("V(%v) = %v", b, v)
		}
	}
	s := MustNew("0123@2")
	defer s.Free()
	s.Optimistic(1000)
	if v := s.EstimateStage(1, 0x1234); v != 1000 {
		t.Fatalf("stage 1: %v", v)
	}
}

// canonicalIndices turns the storage indices x of a board in stage k
// (Index's order) into canonical ones, in place.
func canonicalIndices(n *Network, k int, x []uint32) []uint32 {
	for j, i := range x {
		p := j / n.spec.images()
		off := uint32(k*n.stage) + n.pats[p].off
		x[j] = off + n.CanonicalIndex(p, i-off)
	}
	return x
}

// TestPEXTMatchesGo: networks of ascending patterns read with PEXT give
// the Go reader's indices (canonical, once mapped from their storage
// order), in every stage, through IndexStage and Fetch.
func TestPEXTMatchesGo(t *testing.T) {
	if !havePEXT {
		t.Skip("no PEXT on this processor")
	}
	rng := rand.New(rand.NewPCG(9, 9))
	for _, spec := range []string{"5x6", "6x6", "7x6", "8x6@0,16384", "4x5", "2x4", "0123,4567,89ab,cdef", "0,15,0124"} {
		n := MustNew(spec)
		if n.masks == nil {
			t.Fatalf("%s: not read with PEXT", spec)
		}
		g := *n
		g.masks, g.offs, g.avx = nil, nil, nil
		per := n.Lookups()
		for range 3000 {
			b := board.Board(rng.Uint64())
			k := rng.IntN(n.StageCount())
			var x, y, z [4 * MaxPatterns * 8]uint32
			got, want := canonicalIndices(n, k, n.IndexStage(k, b, x[:])), g.IndexStage(k, b, y[:])
			if !slices.Equal(got, want) {
				t.Fatalf("%s stage %d on %s: PEXT %x, Go %x", spec, k, b.Hex(), got, want)
			}
			bs := []board.Board{b, b.Transpose(), b.Mirror()}
			n.Fetch(k, bs, z[:])
			for i, c := range bs {
				if want := g.IndexStage(k, c, y[:]); !slices.Equal(canonicalIndices(n, k, z[i*per:(i+1)*per]), want) {
					t.Fatalf("%s: Fetch of board %d differs", spec, i)
				}
			}
		}
		n.Free()
	}
	for _, spec := range []string{"0213", "0123/noiso", "8x4", "4x6"} { // 4x6 has its own assembly
		if n := MustNew(spec); n.masks != nil {
			t.Errorf("%s read with PEXT", spec)
		}
	}
}

// TestFetchPacked: Fetch on a packed (coherent) network writes
// IndexStage's indices, whichever reader prefetches the packed array:
// PEXT (4x5, big enough to be prefetched) and the 4x6 assembly, whose
// prefetching reader index4x6pm3 is checked against index4x6pm directly
// (a packed 4x6 network takes 800 MB).
func TestFetchPacked(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	n := MustNew("4x5@0,512")
	defer n.Free()
	if len(n.w) <= cachedWeights {
		t.Fatalf("4x5 has %d weights, not prefetched", len(n.w))
	}
	n.EnableCoherence()
	n.Pack()
	per := n.Lookups()
	for range 2000 {
		b := board.Board(rng.Uint64())
		k := rng.IntN(n.StageCount())
		bs := []board.Board{b, b.Transpose(), b.Flip()}
		var x, z [4 * MaxPatterns * 8]uint32
		n.Fetch(k, bs, z[:])
		for i, c := range bs {
			if want := n.IndexStage(k, c, x[:]); !slices.Equal(z[i*per:(i+1)*per], want) {
				t.Fatalf("stage %d, board %d: Fetch %x, IndexStage %x", k, i, z[i*per:(i+1)*per], want)
			}
		}
	}
	if !have4x6asm {
		return
	}
	p := make([]float32, 16)
	for range 2000 {
		b := rng.Uint64()
		base := uint32(rng.IntN(3)) << 26
		var want, got [32]uint32
		index4x6pm(b, &want[0], base)
		index4x6pm3(&p[0], b, &got[0], base)
		if got != want {
			t.Fatalf("board %016x base %x: index4x6pm3 %x, index4x6pm %x", b, base, got, want)
		}
	}
}
