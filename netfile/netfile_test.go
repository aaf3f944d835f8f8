package netfile

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/td2048/td2048/internal/safefile"
	"github.com/td2048/td2048/ntuple"
)

func randomNet(t testing.TB, spec string, seed uint64) *ntuple.Network {
	n := ntuple.MustNew(spec)
	rng := rand.New(rand.NewPCG(seed, seed))
	for i := range n.Weights() {
		n.Weights()[i] = float32(rng.NormFloat64() * 100)
	}
	return n
}

func TestRoundTripBitExact(t *testing.T) {
	dir := t.TempDir()
	for _, spec := range []string{"0123,4567", "012,345,0/noiso", "01234,4567"} {
		n := randomNet(t, spec, 1)
		n.Weights()[3] = float32(math.Copysign(0, -1))
		path := filepath.Join(dir, "w.td2048")
		if err := Save(path, n, Header{Episodes: 42, Comment: "test"}); err != nil {
			t.Fatal(err)
		}
		m, h, err := LoadAny(path)
		if err != nil {
			t.Fatal(err)
		}
		if h.Network != n.Spec().String() || h.Episodes != 42 || h.Game != "2048" || h.Learner != "after" {
			t.Fatalf("header %+v", h)
		}
		if !m.Spec().Equal(n.Spec()) {
			t.Fatalf("spec %s, want %s", m.Spec(), n.Spec())
		}
		a, b := n.Weights(), m.Weights()
		if len(a) != len(b) {
			t.Fatalf("%d weights, want %d", len(b), len(a))
		}
		for i := range a {
			if asBits(a[i]) != asBits(b[i]) {
				t.Fatalf("weight %d: %v, want %v", i, b[i], a[i])
			}
		}
		entries, _ := os.ReadDir(dir)
		if len(entries) != 1 {
			t.Fatalf("temporary files left: %v", entries)
		}
	}
}

func asBits(f float32) uint32 { return math.Float32bits(f) }

func encoded(t *testing.T) []byte {
	var buf bytes.Buffer
	if err := write(&buf, randomNet(t, "0123,4567", 2), Header{}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestTruncatedRefused(t *testing.T) {
	data := encoded(t)
	for _, n := range []int{0, 5, 8, 12, 30, len(data) / 2, len(data) - 4, len(data) - 1} {
		_, _, err := readNative(bytes.NewReader(data[:n]), -1, false)
		if err == nil {
			t.Fatalf("file cut to %d of %d bytes accepted", n, len(data))
		}
		if n > 40 && !strings.Contains(err.Error(), "truncated") {
			t.Errorf("cut to %d: error %q does not say truncated", n, err)
		}
	}
	if _, _, err := readNative(bytes.NewReader(append(data, 0)), -1, false); err == nil {
		t.Fatal("trailing byte accepted")
	}
}

func TestDamagedRefused(t *testing.T) {
	data := encoded(t)
	rng := rand.New(rand.NewPCG(3, 3))
	for range 200 {
		d := bytes.Clone(data)
		i := rng.IntN(len(d))
		d[i] ^= byte(1 + rng.IntN(255))
		if _, _, err := readNative(bytes.NewReader(d), -1, false); err == nil {
			t.Fatalf("flipping byte %d accepted", i)
		}
	}
	// A flip in the weights is caught by the checksum and says so.
	d := bytes.Clone(data)
	d[len(d)-100] ^= 1
	if _, _, err := readNative(bytes.NewReader(d), -1, false); err == nil || !strings.Contains(err.Error(), "checksum") {
		t.Fatalf("weight flip: %v", err)
	}
}

func TestWrongNetworkRefused(t *testing.T) {
	data := encoded(t)
	_, h, err := readNative(bytes.NewReader(data), -1, false)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := ntuple.ParseSpec("4x6")
	err = Expect("w.td2048", h, "2048", "after", &want)
	if err == nil || !strings.Contains(err.Error(), "made for network 2x4, not 4x6") {
		t.Fatalf("Expect: %v", err)
	}
	if err := Expect("w.td2048", h, "threes", "", nil); err == nil || !strings.Contains(err.Error(), "not threes") {
		t.Fatalf("game mismatch: %v", err)
	}
	if err := Expect("w.td2048", h, "2048", "state", nil); err == nil {
		t.Fatal("learner mismatch accepted")
	}
	self := h
	spec, _ := ntuple.ParseSpec(h.Network)
	if err := Expect("w.td2048", self, "2048", "after", &spec); err != nil {
		t.Fatal(err)
	}
}

func TestSaveLeavesOldFileOnError(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "w.td2048")
	os.WriteFile(path, []byte("old"), 0o644)
	err := safefile.WriteAtomic(path, func(w io.Writer) error {
		w.Write([]byte("half of a new file"))
		return errors.New("disk full")
	})
	if err == nil {
		t.Fatal("error lost")
	}
	if b, _ := os.ReadFile(path); string(b) != "old" {
		t.Fatalf("old file now %q", b)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Fatalf("temporary file left: %v", entries)
	}
}

func FuzzRead(f *testing.F) {
	var buf bytes.Buffer
	write(&buf, ntuple.MustNew("0,1"), Header{})
	f.Add(buf.Bytes())
	f.Add([]byte(magic))
	f.Add([]byte("td2048w\n\x05\x00\x00\x00{}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		n, _, err := readNative(bytes.NewReader(data), -1, false)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("multi-line error %q", err)
			}
			return
		}
		// Whatever is accepted writes back to the same bytes' content.
		var out bytes.Buffer
		if err := write(&out, n, Header{}); err != nil {
			t.Fatal(err)
		}
		m, _, err := readNative(&out, -1, false)
		if err != nil || len(m.Weights()) != len(n.Weights()) {
			t.Fatalf("re-read: %v", err)
		}
		n.Free()
	})
}

// TestDeclaredSizeCheckedFirst: a short file whose header claims a huge
// network is refused from its length, before any weight is allocated.
func TestDeclaredSizeCheckedFirst(t *testing.T) {
	spec := "0123456,123456a,23456ab,3456abc,456abcd,56abcde,6abcdef,abcdef0"
	js := fmt.Sprintf(`{"format":"td2048-weights","version":1,"network":%q,"element":"float32","weights":%d,"game":"2048","learner":"after"}`, spec, int64(8)<<28)
	var b bytes.Buffer
	b.WriteString("td2048w\n")
	binary.Write(&b, binary.LittleEndian, uint32(len(js)))
	b.WriteString(js)
	b.WriteString("junk")
	path := filepath.Join(t.TempDir(), "w.td2048")
	os.WriteFile(path, b.Bytes(), 0o644)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	net, _, err := LoadAny(path)
	runtime.ReadMemStats(&after)
	if err == nil {
		net.Free()
		t.Fatal("a truncated 8 GiB network was loaded")
	}
	if !strings.Contains(err.Error(), "truncated weight file: its header describes") || !strings.Contains(err.Error(), fmt.Sprintf("the file has %d bytes", b.Len())) {
		t.Fatalf("error %q does not say the file is too short for its header", err)
	}
	if after.TotalAlloc-before.TotalAlloc > 4<<20 { // the read buffer, not 8 GiB
		t.Fatalf("allocated %d bytes before refusing", after.TotalAlloc-before.TotalAlloc)
	}
	// A length field damaged upward says so, not "checksum missing".
	data := encoded(t)
	binary.LittleEndian.PutUint32(data[8:], binary.LittleEndian.Uint32(data[8:])+1)
	os.WriteFile(path, data, 0o644)
	if _, _, err := LoadAny(path); err == nil || strings.Contains(err.Error(), "checksum missing") {
		t.Fatalf("damaged length field: %v", err)
	}
}

// TestCoherenceRoundTrip: a TC network's accumulators are written and read
// back bit for bit, counted in the length check and the checksum.
func TestCoherenceRoundTrip(t *testing.T) {
	n := randomNet(t, "0123,4567", 4)
	n.EnableCoherence()
	for i := range n.Accumulators() {
		n.Accumulators()[i] = float32(i%13) - 6
	}
	path := filepath.Join(t.TempDir(), "tc.td2048")
	if err := Save(path, n, Header{}); err != nil {
		t.Fatal(err)
	}
	m, h, err := LoadAny(path)
	if err != nil || !h.Coherence || !m.Coherent() {
		t.Fatalf("%v %+v", err, h)
	}
	for i, x := range n.Accumulators() {
		if asBits(m.Accumulators()[i]) != asBits(x) {
			t.Fatalf("accumulator %d: %v, want %v", i, m.Accumulators()[i], x)
		}
	}
	data, _ := os.ReadFile(path)
	os.WriteFile(path, data[:len(data)-9], 0o644)
	if _, _, err := LoadAny(path); err == nil || !strings.Contains(err.Error(), "truncated") {
		t.Fatalf("truncated TC file: %v", err)
	}
	data[len(data)-9] ^= 1
	os.WriteFile(path, data, 0o644)
	if _, _, err := LoadAny(path); err == nil || !strings.Contains(err.Error(), "checksum") {
		t.Fatalf("damaged accumulator: %v", err)
	}
}

// TestCoherenceToW: TC accumulators travel through TDL2048+'s .w (its
// second field: all E, then all A) bit for bit, in a file of the size
// TDL2048+ writes for a 2x4 TC network (1,572,931 bytes, docs/methods.md).
func TestCoherenceToW(t *testing.T) {
	n := randomNet(t, "2x4", 5)
	n.EnableCoherence()
	for i := range n.Accumulators() {
		n.Accumulators()[i] = float32(i%17) - 8.5
	}
	var b bytes.Buffer
	if err := writeW(&b, n, false); err != nil {
		t.Fatal(err)
	}
	if b.Len() != 1572931 {
		t.Fatalf("%d bytes, TDL2048+ writes 1572931", b.Len())
	}
	tabs, err := wTables(bytes.NewReader(b.Bytes()), int64(b.Len()))
	m := (*ntuple.Network)(nil)
	if err == nil {
		var spec ntuple.Spec
		if spec, tabs, err = tablesSpec(tabs); err == nil {
			m, err = build(bytes.NewReader(b.Bytes()), tabs, spec)
		}
	}
	if err != nil || !m.Coherent() {
		t.Fatalf("%v, coherent %v", err, err == nil && m.Coherent())
	}
	for i, x := range n.Weights() {
		if asBits(m.Weights()[i]) != asBits(x) {
			t.Fatalf("weight %d", i)
		}
	}
	for i, x := range n.Accumulators() {
		if asBits(m.Accumulators()[i]) != asBits(x) {
			t.Fatalf("accumulator %d: %v, want %v", i, m.Accumulators()[i], x)
		}
	}
}

func TestFileSum(t *testing.T) {
	dir := t.TempDir()
	net := ntuple.MustNew("0123")
	a, b := filepath.Join(dir, "a.td2048"), filepath.Join(dir, "b.td2048")
	if err := Save(a, net, Header{}); err != nil {
		t.Fatal(err)
	}
	net.Weights()[5] = 1
	if err := Save(b, net, Header{}); err != nil {
		t.Fatal(err)
	}
	sa, err1 := FileSum(a)
	sb, err2 := FileSum(b)
	data, _ := os.ReadFile(a)
	crc := crc32.Checksum(data[:len(data)-4], castagnoli)
	if err1 != nil || err2 != nil || sa != fmt.Sprintf("crc32c:%08x/%d", crc, len(data)) || sa == sb {
		t.Errorf("FileSum: %q %q (%v %v), want crc32c:%08x/%d, different", sa, sb, err1, err2, crc, len(data))
	}
	other := filepath.Join(dir, "x.bin")
	os.WriteFile(other, []byte("abc"), 0o644)
	if s, err := FileSum(other); err != nil || s != "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" {
		t.Errorf("FileSum of other data: %q %v", s, err)
	}
}
