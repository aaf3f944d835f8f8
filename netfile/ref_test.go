package netfile

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/td2048/td2048/board"
	"github.com/td2048/td2048/ntuple"
)

// refNet is a network with random weights and a few special values.
func refNet(t testing.TB, spec string, seed uint64) *ntuple.Network {
	t.Helper()
	n := ntuple.MustNew(spec)
	rng := rand.New(rand.NewPCG(seed, 7))
	w := n.Weights()
	for i := range w {
		w[i] = float32(rng.NormFloat64() * 1000)
	}
	w[1] = float32(math.Copysign(0, -1))
	w[2] = math.MaxFloat32
	w[3] = -math.MaxFloat32
	w[4] = math.Float32frombits(1) // the smallest subnormal
	return n
}

// le packs fields little-endian, the way the package notes (ref.go) list them.
func le(fields ...any) []byte {
	var b bytes.Buffer
	for _, f := range fields {
		if s, ok := f.(string); ok {
			b.WriteString(s)
			continue
		}
		if err := binary.Write(&b, binary.LittleEndian, f); err != nil {
			panic(err)
		}
	}
	return b.Bytes()
}

func sameWeights(t *testing.T, what string, a, b *ntuple.Network) {
	t.Helper()
	if !a.Spec().Equal(b.Spec()) {
		t.Fatalf("%s: network %s, want %s", what, b.Spec(), a.Spec())
	}
	x, y := a.Weights(), b.Weights()
	if len(x) != len(y) {
		t.Fatalf("%s: %d weights, want %d", what, len(y), len(x))
	}
	for i := range x {
		if math.Float32bits(x[i]) != math.Float32bits(y[i]) {
			t.Fatalf("%s: weight %d is %v (%08x), want %v (%08x)", what, i, y[i], math.Float32bits(y[i]), x[i], math.Float32bits(x[i]))
		}
	}
}

func encode(t testing.TB, k Format, net *ntuple.Network) []byte {
	t.Helper()
	var b bytes.Buffer
	var err error
	switch k {
	case DemoBin:
		err = writeBin(&b, net)
	case TDLW:
		err = writeW(&b, net, false)
	default:
		err = write(&b, net, Header{})
	}
	if err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func decode(k Format, data []byte) (*ntuple.Network, error) {
	r := bytes.NewReader(data)
	var tabs []table
	var err error
	switch k {
	case DemoBin:
		tabs, err = binTables(r, int64(len(data)))
	case TDLW:
		tabs, err = wTables(r, int64(len(data)))
	default:
		net, _, _, err := ReadAny(r, int64(len(data)))
		return net, err
	}
	if err != nil {
		return nil, err
	}
	spec, tabs, err := tablesSpec(tabs)
	if err != nil {
		return nil, err
	}
	return build(r, tabs, spec)
}

// "0123,012345" has a table in cache-line order (ntuple/layout.go) after a
// smaller one in canonical order.
var refSpecs = []string{"0123,4567", "8x4", "0124,45,f", "fedcb,0", "5", "0123,012345"}

// TestRefLayout checks the bytes against the layouts of the package notes
// (ref.go), field by field.
func TestRefLayout(t *testing.T) {
	net := refNet(t, "0,5a", 1)
	t0, t1 := net.StageTable(0, 0), net.StageTable(0, 1)
	wantBin := le(uint64(2),
		int32(17), "1-tuple pattern 0", uint64(16), t0,
		int32(18), "2-tuple pattern 5a", uint64(256), t1)
	if got := encode(t, DemoBin, net); !bytes.Equal(got, wantBin) {
		t.Errorf("2048.bin bytes differ from the layout:\n got %x\nwant %x", got[:64], wantBin[:64])
	}
	// Sign 0x0 width 1 and 0x5a width 2; a leading cell 0 lives in the width.
	wantW := le(uint8(0), uint32(2),
		uint8(4), uint32(0x0), uint16(1), uint16(0), uint16(4), uint64(16), t0, uint16(0),
		uint8(4), uint32(0x5a), uint16(2), uint16(0), uint16(4), uint64(256), t1, uint16(0))
	if got := encode(t, TDLW, net); !bytes.Equal(got, wantW) {
		t.Errorf(".w bytes differ from the layout:\n got %x\nwant %x", got[:64], wantW[:64])
	}
	four := refNet(t, "0123,45", 2)
	w := encode(t, TDLW, four)
	if !bytes.Equal(w[5:14], le(uint8(4), uint32(0x0123), uint16(4), uint16(0))) {
		t.Errorf("sign of 0123: %x", w[5:14])
	}
	// The sizes of 4x6 files, from the same per-table overheads.
	if n := 8 + 4*(4+22+8) + 4*(1<<24)*4; n != 268435600 {
		t.Errorf("4x6 2048.bin would be %d bytes", n)
	}
	if n := 5 + 4*(1+4+2+2+2+8+2) + 4*(1<<24)*4; n != 268435545 {
		t.Errorf("4x6 .w would be %d bytes", n)
	}
	if len(encode(t, DemoBin, four)) != 8+(4+20+8)+(4+18+8)+4*(1<<16+1<<8) {
		t.Errorf("2048.bin of %s has %d bytes", four.Spec(), len(encode(t, DemoBin, four)))
	}
}

// TestRefRoundTrip converts every way between the three formats, through
// files, and wants the same weights bit for bit, the same network, the
// same bytes when a file is written again, and the same values.
func TestRefRoundTrip(t *testing.T) {
	dir := t.TempDir()
	for i, spec := range refSpecs {
		t.Run(spec, func(t *testing.T) {
			if testing.Short() && spec == "0123,012345" {
				t.Skip("a table of 64 MB; not in -short")
			}
			orig := refNet(t, spec, uint64(i))
			for _, k := range []Format{DemoBin, TDLW} {
				data := encode(t, k, orig)
				back, err := decode(k, data)
				if err != nil {
					t.Fatalf("%s %s: %v", spec, k, err)
				}
				sameWeights(t, spec+" via "+k.String(), orig, back)
				if again := encode(t, k, back); !bytes.Equal(again, data) {
					t.Fatalf("%s %s: written again, the bytes differ", spec, k)
				}
				back.Free()
			}
			// Every path through the files: td2048 -> a -> b -> td2048.
			kinds := []Format{Native, DemoBin, TDLW}
			for _, a := range kinds {
				t.Run(a.String(), func(t *testing.T) {
					for _, b := range kinds {
						t.Run(b.String(), func(t *testing.T) {
							src := filepath.Join(dir, "src.td2048")
							if err := Save(src, orig, Header{}); err != nil {
								t.Fatal(err)
							}
							pa := filepath.Join(dir, "a."+a.String())
							pb := filepath.Join(dir, "b."+b.String())
							end := filepath.Join(dir, "end.td2048")
							cur := src
							for _, step := range []struct {
								path string
								k    Format
							}{{pa, a}, {pb, b}, {end, Native}} {
								net, h, err := LoadAny(cur)
								if err != nil {
									t.Fatalf("%s: load %s: %v", spec, cur, err)
								}
								if h.Network != orig.Spec().String() || h.Game != "2048" || h.Learner != "after" {
									t.Fatalf("%s: header of %s: %+v", spec, cur, h)
								}
								if err := SaveFormat(step.path, step.k, net, h); err != nil {
									t.Fatal(err)
								}
								if k, _ := DetectFile(step.path); k != step.k {
									t.Fatalf("%s written as %s is detected as %s", step.path, step.k, k)
								}
								net.Free()
								cur = step.path
							}
							got, _, err := LoadAny(end)
							if err != nil {
								t.Fatal(err)
							}
							sameWeights(t, spec+" via "+a.String()+" and "+b.String(), orig, got)
							sameValues(t, orig, got)
							got.Free()
						})
					}
				})
			}
			orig.Free()
		})
	}
}

// sameValues compares Estimate on many random boards bit for bit.
func sameValues(t *testing.T, a, b *ntuple.Network) {
	t.Helper()
	rng := rand.New(rand.NewPCG(3, 4))
	for range 2000 {
		var x board.Board
		for c := range 16 {
			if rng.IntN(3) > 0 {
				x = x.Set(c, rng.IntN(15))
			}
		}
		va, vb := a.Estimate(x), b.Estimate(x)
		if math.Float32bits(va) != math.Float32bits(vb) {
			t.Fatalf("V(%s) = %v after conversion, %v before", x.Hex(), vb, va)
		}
	}
}

// TestRefValuesAsReferences checks that a converted network values boards
// as the course demo's pattern code does: per pattern, per image, the
// weight at sum(tile(cell_k) << 4k), the images built by rotating and
// mirroring the board 0xfedcba9876543210 (cell map).
func TestRefValuesAsReferences(t *testing.T) {
	orig := refNet(t, "01234,4567", 9)
	for i := range orig.Weights() { // integers keep the float sums exact
		orig.Weights()[i] = float32(int(orig.Weights()[i]) % 1000)
	}
	net, err := decode(DemoBin, encode(t, DemoBin, orig))
	if err != nil {
		t.Fatal(err)
	}
	rotate := func(c [16]int) [16]int { // clockwise: new (r,c) = old (3-c, r)
		var o [16]int
		for r := range 4 {
			for k := range 4 {
				o[4*r+k] = c[4*(3-k)+r]
			}
		}
		return o
	}
	mirror := func(c [16]int) [16]int {
		var o [16]int
		for r := range 4 {
			for k := range 4 {
				o[4*r+k] = c[4*r+3-k]
			}
		}
		return o
	}
	var maps [][16]int
	for i := range 8 {
		var m [16]int
		for c := range m {
			m[c] = c
		}
		if i >= 4 {
			m = mirror(m)
		}
		for range i % 4 {
			m = rotate(m)
		}
		maps = append(maps, m)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for range 3000 {
		var x board.Board
		for c := range 16 {
			x = x.Set(c, rng.IntN(16))
		}
		var want float64
		for p, cells := range net.Spec().Patterns {
			for _, m := range maps {
				idx := 0
				for k, c := range cells {
					idx |= x.At(m[c]) << (4 * k)
				}
				want += float64(net.StageTable(0, p)[idx])
			}
		}
		if got := net.Estimate(x); float64(got) != want {
			t.Fatalf("V(%s) = %v, the reference pattern code gives %v", x.Hex(), got, want)
		}
	}
}

func TestWVariants(t *testing.T) {
	net := refNet(t, "0123,4567", 3)
	plain := encode(t, TDLW, net)
	// A file not named .w: TDL2048+ begins it with 'w'.
	var marked bytes.Buffer
	if err := writeFormat(&marked, TDLW, "x.bin", net, Header{}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(marked.Bytes(), append([]byte{'w'}, plain...)) {
		t.Fatal("marked file is not 'w' + the plain one")
	}
	var named bytes.Buffer
	writeFormat(&named, TDLW, "dir.x/model.weights", net, Header{})
	if !bytes.Equal(named.Bytes(), plain) {
		t.Fatal("a .weights name was marked")
	}
	got, err := decode(TDLW, marked.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	sameWeights(t, "marked", net, got)

	// Hand-built tables: legacy width 0 (the width from the length), an
	// extra field (TC's coherence tables) skipped, f64 and f16 elements.
	t0, t1 := net.StageTable(0, 0), net.StageTable(0, 1)
	f64 := make([]float64, len(t1))
	f16 := make([]uint16, len(t1))
	want1 := make([]float32, len(t1))
	halves := []uint16{0x3c00, 0xc000, 0x7bff, 0x0001, 0x8000, 0x3555, 0x7c00}
	for i := range t1 {
		f64[i] = float64(t1[i])
		f16[i] = halves[i%len(halves)]
	}
	extra := make([]float32, 2*len(t0))
	data := le(uint8(0), uint32(2),
		uint8(4), uint32(0x0123), uint16(0), uint16(0), uint16(4), uint64(len(t0)), t0,
		uint16(4), uint64(len(extra)), extra, uint16(0),
		uint8(4), uint32(0x4567), uint16(4), uint16(0), uint16(8), uint64(len(f64)), f64, uint16(0))
	got, err = decode(TDLW, data)
	if err != nil {
		t.Fatal(err)
	}
	copy(want1, t1)
	if err := compareTables(got, t0, want1); err != nil {
		t.Fatal(err)
	}
	data = le(uint8(0), uint32(2),
		uint8(4), uint32(0x0123), uint16(4), uint16(0), uint16(4), uint64(len(t0)), t0, uint16(0),
		uint8(4), uint32(0x4567), uint16(4), uint16(0), uint16(2), uint64(len(f16)), f16, uint16(0))
	got, err = decode(TDLW, data)
	if err != nil {
		t.Fatal(err)
	}
	vals := []float32{1, -2, 65504, 1.0 / (1 << 24), float32(math.Copysign(0, -1)), 0.33325195, float32(math.Inf(1))}
	for i := range want1 {
		want1[i] = vals[i%len(vals)]
	}
	if err := compareTables(got, t0, want1); err != nil {
		t.Fatal(err)
	}
}

func compareTables(n *ntuple.Network, t0, t1 []float32) error {
	for p, want := range [][]float32{t0, t1} {
		for i, v := range n.StageTable(0, p) {
			if math.Float32bits(v) != math.Float32bits(want[i]) {
				return fmt.Errorf("table %d differs", p)
			}
		}
	}
	return nil
}

func TestHalfToFloat(t *testing.T) {
	for h := range 1 << 16 {
		f := halfToFloat(uint16(h))
		exp, frac := h>>10&0x1f, h&0x3ff
		var want float64
		switch {
		case exp == 0x1f && frac != 0:
			if !math.IsNaN(float64(f)) {
				t.Fatalf("%04x: %v, want NaN", h, f)
			}
			continue
		case exp == 0x1f:
			want = math.Inf(1)
		case exp == 0:
			want = math.Ldexp(float64(frac), -24)
		default:
			want = math.Ldexp(float64(frac|0x400), exp-25)
		}
		if h&0x8000 != 0 {
			want = -want
		}
		if float64(f) != want || math.Signbit(float64(f)) != (h&0x8000 != 0) {
			t.Fatalf("%04x: %v, want %v", h, f, want)
		}
	}
}

// refused checks a one-line error and no network.
func refused(t *testing.T, what string, net *ntuple.Network, err error, want string) {
	t.Helper()
	if err == nil || net != nil {
		t.Fatalf("%s: accepted", what)
	}
	if strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), want) {
		t.Fatalf("%s: error %q, want one line with %q", what, err, want)
	}
}

// TestRefTruncated cuts files at every length: each is refused whole.
func TestRefTruncated(t *testing.T) {
	net := refNet(t, "01,5", 1)
	for _, k := range []Format{DemoBin, TDLW} {
		data := encode(t, k, net)
		for n := range len(data) {
			got, err := decode(k, data[:n])
			refused(t, fmt.Sprintf("%s cut at %d of %d bytes", k, n, len(data)), got, err, "")
		}
		got, err := decode(k, append(data, 0))
		refused(t, k.String()+" with a byte more", got, err, "after the last")
	}
}

func TestRefDamaged(t *testing.T) {
	net := refNet(t, "0123,4567", 1)
	bin := encode(t, DemoBin, net)
	w := encode(t, TDLW, net)
	patch := func(data []byte, at int, b ...byte) []byte {
		d := bytes.Clone(data)
		copy(d[at:], b)
		return d
	}
	huge := []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f}
	cases := []struct {
		name string
		k    Format
		data []byte
		want string
	}{
		{"bin no features", DemoBin, le(uint64(0)), "0 features"},
		{"bin huge count", DemoBin, patch(bin, 0, huge...), "cannot fit"},
		{"bin 17 features", DemoBin, append(le(uint64(17)), make([]byte, 17*77)...), "at most 16"},
		{"bin negative name", DemoBin, patch(bin, 8, 0xff, 0xff, 0xff, 0xff), "name of -1 bytes"},
		{"bin long name", DemoBin, patch(bin, 8, 0, 1), "name of 256 bytes"},
		{"bin other feature", DemoBin, patch(bin, 12, 'x'), "not an n-tuple pattern"},
		{"bin wrong tuple size", DemoBin, patch(bin, 12, '5'), "not an n-tuple pattern"},
		{"bin repeated cell", DemoBin, patch(bin, 12+16, '1'), "names cell 1 twice"},
		{"bin not a cell", DemoBin, patch(bin, 12+16, 'g'), "not a cell"},
		{"bin huge table", DemoBin, patch(bin, 12+20, huge...), "has 9223372036854775807 weights"},
		{"bin wrong table", DemoBin, patch(bin, 12+20, 0, 0, 2), "has 131072 weights"},
		{"w first byte", TDLW, patch(w, 0, 1), "no weight section"},
		{"w no tables", TDLW, le(uint8(0), uint32(0)), "0 tables"},
		{"w huge count", TDLW, patch(w, 1, 0xff, 0xff, 0xff, 0xff), "cannot fit"},
		{"w serial", TDLW, patch(w, 5, 5), "serial 5"},
		{"w element size", TDLW, patch(w, 14, 3), "3-byte elements"},
		{"w huge length", TDLW, patch(w, 16, huge...), "has 9223372036854775807 weights"},
		{"w wrong length", TDLW, patch(w, 16, 0, 0, 2), "has 131072 weights"},
		{"w repeated cell", TDLW, patch(w, 6, 0x11), "twice"},
		{"w stage 1 without stage 0", TDLW, patch(w, 6, 0x23, 0x01, 0, 0x10, 8, 0), "share one list of patterns"},
		{"w stage 17", TDLW, patch(w, 6, 0x23, 0x01, 0, 0x11, 8, 0), "at most 16 stages"},
		{"w stage tag on a 7-tuple", TDLW, patch(w, 6, 0x23, 0x01, 0, 0x10, 9, 0), "pattern"},
		{"w string sign", TDLW, patch(w, 6, 'm', '@', '0', '1', '2', '3', ' ', ' '), "pattern \"m@0123\""},
		{"w no end mark", TDLW, patch(w, 24+4*65536, 1), "extra field"},
	}
	for _, c := range cases {
		got, err := decode(c.k, c.data)
		refused(t, c.name, got, err, c.want)
	}
}

func TestCheckRef(t *testing.T) {
	for spec, want := range map[string]string{
		"0123,4567/noiso": "without isomorphisms",
		"0123,4567,89ab,cdef,048c,159d,26ae,37bf/iso": "8 images",
		"0123,4567@2": "stages",
		"0123+hint":   "stage",
	} {
		t.Run(spec, func(t *testing.T) {
			net := ntuple.MustNew(spec)
			for _, k := range []Format{DemoBin, TDLW} {
				if k == TDLW && spec == "0123,4567@2" {
					continue // .w holds stages (TestStagedW)
				}
				var b bytes.Buffer
				err := writeFormat(&b, k, "x", net, Header{})
				if err == nil || !strings.Contains(err.Error(), want) {
					t.Errorf("%s as %s: %v, want %q", spec, k, err, want)
				}
				path := filepath.Join(t.TempDir(), "x."+k.String())
				if err := SaveFormat(path, k, net, Header{}); err == nil {
					t.Errorf("%s saved as %s", spec, k)
				}
				if _, err := os.Stat(path); err == nil {
					t.Errorf("%s: a file was left", path)
				}
			}
		})
	}
}

func TestLoadAnyUnknown(t *testing.T) {
	dir := t.TempDir()
	for name, content := range map[string]string{
		"x.dat":   "hello, world, not weights at all; long enough to be sniffed properly....",
		"empty.w": "",
		"short":   "td2048",
	} {
		path := filepath.Join(dir, name)
		os.WriteFile(path, []byte(content), 0o644)
		net, _, err := LoadAny(path)
		refused(t, name, net, err, path+" is not a weight file td2048 knows: not td2048, 2048.bin or TDL2048+ .w")
	}
	net, _, err := LoadAny(filepath.Join(dir, "missing.w"))
	refused(t, "missing", net, err, "no such file")
	net, _, err = LoadAny(dir)
	refused(t, "directory", net, err, "directory")
	// A damaged td2048 file keeps the td2048 message.
	path := filepath.Join(dir, "w.td2048")
	Save(path, refNet(t, "01", 1), Header{})
	data, _ := os.ReadFile(path)
	os.WriteFile(path, data[:len(data)-3], 0o644)
	net, _, err = LoadAny(path)
	refused(t, "truncated td2048", net, err, "truncated weight file")
	// The name does not matter: a .w file called .bin is read as .w.
	os.WriteFile(path, encode(t, TDLW, refNet(t, "01", 1)), 0o644)
	net, h, err := LoadAny(path)
	if err != nil || h.Format != "tdl2048+.w" || !strings.Contains(h.Comment, "8 images") {
		t.Fatalf("%v %+v", err, h)
	}
	net.Free()
}

// TestNonFiniteRefused: weights holding NaN or an infinity (a diverged
// run) are refused in every format, whole.
func TestNonFiniteRefused(t *testing.T) {
	dir := t.TempDir()
	for i, bad := range []float32{math.Float32frombits(0x7fc01234), float32(math.Inf(-1)), float32(math.Inf(1))} {
		t.Run(fmt.Sprint(bad), func(t *testing.T) {
			n := refNet(t, "0123,4567", 1)
			n.Weights()[100+i] = bad
			for _, k := range []Format{Native, DemoBin, TDLW} {
				path := filepath.Join(dir, fmt.Sprintf("w%d.%d", i, k))
				var data []byte
				if k == Native {
					var b bytes.Buffer
					if err := write(&b, n, Header{}); err != nil {
						t.Fatal(err)
					}
					data = b.Bytes()
				} else {
					data = encode(t, k, n)
				}
				os.WriteFile(path, data, 0o644)
				net, _, err := LoadAny(path)
				refused(t, fmt.Sprintf("%v in %v", bad, k), net, err, "not a finite number")
			}
			n.Free()
		})
	}
}

func TestKindNames(t *testing.T) {
	for name, want := range map[string]Format{"a.td2048": Native, "a.bin": DemoBin, "x/4x6.w": TDLW, "a.W": TDLW, "a": Unknown, "a.dat": Unknown, "bin": Unknown} {
		t.Run(name, func(t *testing.T) {
			if got := FormatOfName(name); got != want {
				t.Errorf("FormatOfName(%q) = %s, want %s", name, got, want)
			}
		})
	}
	if _, err := ParseFormat("png"); err == nil {
		t.Error("png accepted")
	}
}

func fuzzSeeds(f *testing.F) {
	for _, spec := range []string{"0", "5,a", "01"} {
		net := ntuple.MustNew(spec)
		for i := range net.Weights() {
			net.Weights()[i] = float32(i) - 3.5
		}
		for _, k := range []Format{DemoBin, TDLW, Native} {
			f.Add(encode(f, k, net))
		}
		var b bytes.Buffer
		writeFormat(&b, TDLW, "x.bin", net, Header{})
		f.Add(b.Bytes())
	}
	f.Add(le(uint8(0), uint32(1), uint8(4), uint32(0), uint16(0), uint16(0), uint16(2), uint64(16), make([]uint16, 16), uint16(2), uint64(1), uint16(0), uint16(0)))
	// Staged: three stages of patterns 0 and 5.
	staged := ntuple.MustNew("0,5@0,8192,16384")
	for i := range staged.Weights() {
		staged.Weights()[i] = float32(i) / 4
	}
	f.Add(encode(f, TDLW, staged))
}

// fuzzRead checks that a reader never panics, and that whatever it accepts
// it writes again as a file that reads back to the same weights.
func fuzzRead(t *testing.T, k Format, data []byte) {
	net, err := decode(k, data)
	if err != nil {
		if net != nil || strings.Contains(err.Error(), "\n") {
			t.Fatalf("error %q with a network", err)
		}
		return
	}
	defer net.Free()
	wk := k
	if wk == Unknown {
		wk = Native
	}
	again := encode(t, wk, net)
	back, err := decode(wk, again)
	if err != nil {
		t.Fatalf("rewritten file refused: %v", err)
	}
	sameWeights(t, "rewritten", net, back)
	back.Free()
}

func FuzzReadBin(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) { fuzzRead(t, DemoBin, data) })
}

func FuzzReadW(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) { fuzzRead(t, TDLW, data) })
}

func FuzzReadAny(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) { fuzzRead(t, Unknown, data) })
}
