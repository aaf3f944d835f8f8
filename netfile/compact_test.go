package netfile

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/td2048/td2048/ntuple"
)

// sameCompact fails unless two compact networks hold the same scales and
// 16-bit weights.
func sameCompact(t *testing.T, what string, a, b *ntuple.Network) {
	t.Helper()
	if !a.Compact() || !b.Compact() {
		t.Fatalf("%s: compact %v and %v", what, a.Compact(), b.Compact())
	}
	if !a.Spec().Equal(b.Spec()) || !slices.Equal(a.Scales(), b.Scales()) {
		t.Fatalf("%s: %s %v, want %s %v", what, b.Spec(), b.Scales(), a.Spec(), a.Scales())
	}
	qs := func(n *ntuple.Network) (all []int16) {
		n.EachCanonicalQ(func(_ int, q []int16) error {
			all = append(all, q...)
			return nil
		})
		return all
	}
	if !slices.Equal(qs(a), qs(b)) {
		t.Fatalf("%s: the 16-bit weights differ", what)
	}
}

// TestLoadPlayCompact: every format loads compact as the float32 network
// it holds, made compact in memory, does: td2048's own (with and without
// TC accumulators), 2048.bin, .w and a staged .w.
func TestLoadPlayCompact(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		name, spec string
		k          Format
		tc         bool
	}{
		{"td2048", "4x6", Native, false},
		{"td2048 TC", "0123,4567", Native, true},
		{"2048.bin", "0123,4567,012345", DemoBin, false},
		{".w", "0123,4567,012345", TDLW, false},
		{"staged .w", "0123,4567@0,16384", TDLW, false},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if testing.Short() && c.spec == "4x6" {
				t.Skip("a network of 256 MB; not in -short")
			}
			n := randomNet(t, c.spec, uint64(i+1))
			defer n.Free()
			if c.tc {
				n.EnableCoherence()
			}
			path := filepath.Join(dir, c.name+"."+c.k.String())
			if err := SaveFormat(path, c.k, n, Header{}); err != nil {
				t.Fatal(err)
			}
			f, _, err := LoadAny(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Free()
			want, err := f.ToCompact()
			if err != nil {
				t.Fatal(err)
			}
			defer want.Free()
			got, h, note, err := LoadPlay(path, Compact16)
			if err != nil || note != "" {
				t.Fatalf("LoadPlay: %v %q", err, note)
			}
			defer got.Free()
			sameCompact(t, path, want, got)
			if h.Network != f.Spec().String() || h.Game != "2048" {
				t.Fatalf("header %+v", h)
			}
			// Without compact, the float32 network.
			fl, _, note, err := LoadPlay(path, Float32)
			if err != nil || note != "" || fl.Compact() {
				t.Fatalf("LoadPlay float32: %v %q", err, note)
			}
			fl.Free()
		})
	}
}

// TestCompactFileRoundTrip: a compact network is saved compact, in half
// the bytes of its float32 file and with its checksum, and loads back bit
// for bit, compact or, for training and conversion, as float32 q x s.
func TestCompactFileRoundTrip(t *testing.T) {
	dir := t.TempDir()
	f := randomNet(t, "0123,4567,012345@0,16384", 7)
	defer f.Free()
	c, err := f.ToCompact()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Free()
	fp, cp := filepath.Join(dir, "f.td2048"), filepath.Join(dir, "c.td2048")
	if err := Save(fp, f, Header{Episodes: 5}); err != nil {
		t.Fatal(err)
	}
	if err := Save(cp, c, Header{Episodes: 5, Run: []byte(`{"x":1}`)}); err != nil {
		t.Fatal(err)
	}
	fs, _ := os.Stat(fp)
	cs, _ := os.Stat(cp)
	if w := int64(f.Spec().Weights()); fs.Size()-cs.Size() < 2*w-1024 {
		t.Fatalf("compact file %d bytes, float32 %d: want about %d less", cs.Size(), fs.Size(), 2*w)
	}
	h, err := ReadHeader(cp)
	if err != nil || h.Element != "int16" || h.Run != nil || h.Episodes != 5 || len(h.Scales) != 6 {
		t.Fatalf("compact header %+v: %v", h, err)
	}
	back, _, note, err := LoadPlay(cp, Compact)
	if err != nil || note != "" {
		t.Fatal(err, note)
	}
	defer back.Free()
	sameCompact(t, "compact file", c, back)
	fl, _, err := LoadAny(cp)
	if err != nil {
		t.Fatal(err)
	}
	defer fl.Free()
	if fl.Compact() {
		t.Fatal("Load gave a compact network")
	}
	if !slices.Equal(fl.Weights(), c.Weights()) {
		t.Fatal("a compact file read as float32 is not q x s")
	}
}

// TestCompactFileRefused: a compact file that is cut short, damaged, or
// whose header does not fit its weights is refused whole, by the compact
// reader and the float32 one alike.
func TestCompactFileRefused(t *testing.T) {
	f := randomNet(t, "0123,4567", 8)
	defer f.Free()
	c, err := f.ToCompact()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Free()
	var b bytes.Buffer
	if err := write(&b, c, Header{}); err != nil {
		t.Fatal(err)
	}
	good := b.Bytes()
	header := func(from, to string) []byte {
		js := bytes.Replace(good, []byte(from), []byte(to), 1)
		if bytes.Equal(js, good) {
			t.Fatalf("%q not in the header", from)
		}
		return js
	}
	cases := map[string][]byte{
		"cut short":       good[:len(good)-7],
		"no checksum":     good[:len(good)-4],
		"a byte flipped":  func() []byte { d := slices.Clone(good); d[len(d)/2] ^= 0x10; return d }(),
		"bytes appended":  append(slices.Clone(good), 0),
		"no scales":       header(`"scales":`, `"scalez":`),
		"element unknown": header(`"int16"`, `"int12"`),
		"coherence":       header(`"element":"int16"`, `"coherence":true,"element":"int16"`),
	}
	for name, data := range cases {
		t.Run(name, func(t *testing.T) {
			for _, compact := range []Weights{Compact, Float32} {
				net, _, _, _, err := readAny(bytes.NewReader(data), int64(len(data)), compact)
				if err == nil {
					net.Free()
					t.Fatalf("compact %v: accepted", compact)
				}
				if strings.Contains(err.Error(), "\n") {
					t.Fatalf("multi-line error %q", err)
				}
			}
		})
	}
}

// changing is a file whose content changes once it has been read to its
// end: a writer replacing it between the compact reader's two passes.
type changing struct {
	data  []byte
	ended bool
}

func (c *changing) ReadAt(p []byte, off int64) (int, error) {
	if c.ended {
		clear(c.data[len(c.data)/2:])
	}
	c.ended = c.ended || off+int64(len(p)) >= int64(len(c.data))
	if off >= int64(len(c.data)) {
		return 0, io.EOF
	}
	n := copy(p, c.data[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// TestCompactPassesReadOneFile: a float32 file that changes between the
// compact reader's two passes is refused, not half read.
func TestCompactPassesReadOneFile(t *testing.T) {
	f := randomNet(t, "0123,4567", 9)
	defer f.Free()
	var b bytes.Buffer
	if err := write(&b, f, Header{}); err != nil {
		t.Fatal(err)
	}
	r := &changing{data: b.Bytes()}
	net, _, _, _, err := readAny(r, int64(b.Len()), Compact16)
	if err == nil {
		net.Free()
		t.Fatal("a file that changed between the passes was accepted")
	}
	if !strings.Contains(err.Error(), "changed while it was read") {
		t.Fatalf("error %q does not say the file changed", err)
	}
}

// TestLoadPlayFallsBack: a network with a stray weight, which 16 bits
// cannot hold with its others, is loaded as float32, with a note saying
// why.
func TestLoadPlayFallsBack(t *testing.T) {
	for _, k := range []Format{Native, TDLW} {
		t.Run(k.String(), func(t *testing.T) {
			n := randomNet(t, "0123,4567", 10)
			defer n.Free()
			n.Weights()[77] = 1e9
			path := filepath.Join(t.TempDir(), "stray."+k.String())
			if err := SaveFormat(path, k, n, Header{}); err != nil {
				t.Fatal(err)
			}
			got, _, note, err := LoadPlay(path, Compact16)
			if err != nil {
				t.Fatal(err)
			}
			defer got.Free()
			if got.Compact() || !strings.Contains(note, "float32") || !strings.Contains(note, "table 0") {
				t.Fatalf("compact %v, note %q", got.Compact(), note)
			}
		})
	}
}

func FuzzReadAnyPlay(f *testing.F) {
	fuzzSeeds(f)
	c, _ := ntuple.MustNew("0,5@0,8192").ToCompact()
	var b bytes.Buffer
	write(&b, c, Header{})
	f.Add(b.Bytes())
	f.Fuzz(func(t *testing.T, data []byte) {
		net, _, _, note, err := readAny(bytes.NewReader(data), int64(len(data)), Compact16)
		if err != nil {
			if net != nil || strings.Contains(err.Error(), "\n") {
				t.Fatalf("error %q with a network", err)
			}
			return
		}
		defer net.Free()
		if !net.Compact() && note == "" {
			t.Fatal("a float32 network without a note")
		}
		// What is accepted compact writes again as a file that reads back
		// to the same weights.
		if net.Compact() {
			var out bytes.Buffer
			if err := write(&out, net, Header{}); err != nil {
				t.Fatal(err)
			}
			back, _, _, _, err := readAny(bytes.NewReader(out.Bytes()), int64(out.Len()), Compact16)
			if err != nil {
				t.Fatalf("rewritten file refused: %v", err)
			}
			sameCompact(t, "rewritten", net, back)
			back.Free()
		}
	})
}

// TestCompactWherePays: Compact holds a network that fits in the caches
// in float32, as it is, and a larger one, or any compact file, compact;
// CompactUnstaged holds a large network staged by tiles in float32 too,
// and says why, but a Threes! network of a stage a hint in 16 bits.
func TestCompactWherePays(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		spec, file string
		compact    bool // with Compact
		unstaged   bool // with CompactUnstaged
	}{
		{"0123,4567", "small.td2048", false, false},
		{"0123,4567,012345", "large.td2048", true, true},
		{"0123,4567", "small.w", false, false},
		{"0123,4567,012345", "large.w", true, true},
		{"0123,4567@0,256", "small-staged.td2048", false, false},
		{"0123,4567,012345@0,256", "large-staged.td2048", true, false},
		{"0123,4567,012345@0,256", "large-staged.w", true, false},
		{"0123,4567,012345+hint", "large-threes.td2048", true, true}, // a stage a hint: 16 bits lose nothing there
	} {
		t.Run(c.file, func(t *testing.T) {
			n := randomNet(t, c.spec, 11)
			defer n.Free()
			if ntuple.CompactPays(n.Spec()) != (c.compact || c.unstaged) {
				t.Fatalf("CompactPays(%s) = %v", c.spec, !c.compact)
			}
			path := filepath.Join(dir, c.file)
			if err := SaveFormat(path, FormatOfName(c.file), n, Header{}); err != nil {
				t.Fatal(err)
			}
			got, _, note, err := LoadPlay(path, Compact)
			if err != nil || note != "" || got.Compact() != c.compact {
				t.Fatalf("Compact: compact %v, note %q, err %v", got.Compact(), note, err)
			}
			got.Free()
			got, _, note, err = LoadPlay(path, CompactUnstaged)
			wantNote := c.compact && !c.unstaged
			if err != nil || (note != "") != wantNote || got.Compact() != c.unstaged || got.Staged() != n.Staged() {
				t.Fatalf("CompactUnstaged: compact %v, note %q, err %v", got.Compact(), note, err)
			}
			if wantNote && !strings.Contains(note, "staged") {
				t.Errorf("note %q does not say why", note)
			}
			got.Free()
			os.Remove(path)
		})
	}
	small := randomNet(t, "0123", 12)
	defer small.Free()
	c, _ := small.ToCompact()
	defer c.Free()
	path := filepath.Join(dir, "c.td2048")
	if err := Save(path, c, Header{}); err != nil {
		t.Fatal(err)
	}
	got, _, _, err := LoadPlay(path, Compact)
	if err != nil || !got.Compact() {
		t.Fatalf("a small compact file: compact %v, %v", got != nil && got.Compact(), err)
	}
	got.Free()
}
