package netfile

import (
	"bytes"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/td2048/td2048/ntuple"
)

// TestStagedWNames checks docs/methods.md's names: stage 0 of pattern
// 45689a in @2 is 0045689a, stage 1 1045689a; stage 0 of 012345 is stored
// as 0x00012345 with width 8.
func TestStagedWNames(t *testing.T) {
	for _, c := range []struct {
		cells []int
		k     int
		sign  uint32
	}{
		{[]int{4, 5, 6, 8, 9, 10}, 0, 0x0045689a},
		{[]int{4, 5, 6, 8, 9, 10}, 1, 0x1045689a},
		{[]int{0, 1, 2, 3, 4, 5}, 0, 0x00012345},
		{[]int{0, 1, 2, 3, 4, 5}, 2, 0x20012345},
		{[]int{0, 1, 2, 3}, 15, 0xf0000123},
	} {
		t.Run(fmt.Sprint(c.cells, " stage ", c.k), func(t *testing.T) {
			sign, width := wSign(c.cells, c.k, true)
			if sign != c.sign || width != 8 {
				t.Errorf("%v stage %d: sign %08x width %d, want %08x width 8", c.cells, c.k, sign, width, c.sign)
			}
			raw := le(sign, width, uint16(0))
			cells, k, err := wCells(wName(raw, 1<<(4*len(c.cells))), 1<<(4*len(c.cells)))
			if err != nil || k != c.k || ntuple.PatternString(cells) != ntuple.PatternString(c.cells) {
				t.Errorf("%08x reads as %v stage %d (%v)", sign, cells, k, err)
			}
		})
	}
}

// TestStagedWRoundTrip: staged networks, with and without TC
// accumulators, go to .w and back bit for bit; the file's tables are
// stage 0's then stage 1's, tagged; re-encoding gives the same bytes.
func TestStagedWRoundTrip(t *testing.T) {
	// 8x4 in three stages: 24 tables, more than one stage's 16 patterns.
	for _, spec := range []string{"0123,45@2", "0123,45@0,8192,16384", "8x4@2", "8x4@0,8192,16384"} {
		for _, tc := range []bool{false, true} {
			net := refNet(t, spec, 3)
			if tc {
				net.EnableCoherence()
				for i, ea := 0, net.Accumulators(); i < len(ea); i++ {
					ea[i] = float32(i%97) - 40
				}
			}
			data := encode(t, TDLW, net)
			back, err := decode(TDLW, data)
			if err != nil {
				t.Fatalf("%s: %v", spec, err)
			}
			if th := net.Spec().StageThresholds(); back.Spec().StageThresholds() == nil {
				if err := back.SetThresholds(th); err != nil {
					t.Fatal(err)
				}
			}
			sameWeights(t, spec, net, back)
			a, b := net.Accumulators(), back.Accumulators()
			if len(a) != len(b) {
				t.Fatalf("%s: %d accumulators back, %d out", spec, len(b), len(a))
			}
			for i := range a {
				if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
					t.Fatalf("%s: accumulator %d: %v back, %v out", spec, i, b[i], a[i])
				}
			}
			if again := encode(t, TDLW, back); !bytes.Equal(again, data) {
				t.Fatalf("%s: re-encoded bytes differ", spec)
			}
			// The second table of stage 1 is the pattern list's second,
			// tagged 1: its sign follows the first table of stage 1.
			p := len(net.Spec().Patterns)
			if n := le(uint32(p * net.Spec().StageCount())); !bytes.Equal(data[1:5], n) {
				t.Fatalf("%s: table count %x", spec, data[1:5])
			}
		}
	}
}

// TestStagedWLayout checks a two-stage file byte by byte against the
// layout docs/methods.md section 10 gives.
func TestStagedWLayout(t *testing.T) {
	net := refNet(t, "0,5a@2", 1)
	var want []byte
	want = append(want, le(uint8(0), uint32(4))...)
	for k := range 2 {
		for p, sign := range []uint32{0x0, 0x5a} {
			tab := net.StageTable(k, p)
			want = append(want, le(uint8(4), sign|uint32(k)<<28, uint16(8), uint16(0), uint16(4), uint64(len(tab)), tab, uint16(0))...)
		}
	}
	if got := encode(t, TDLW, net); !bytes.Equal(got, want) {
		t.Fatalf("layout differs: %d bytes, want %d", len(got), len(want))
	}
}

// TestStagedRefused: 2048.bin refuses stages; a .w whose stages disagree
// on their patterns is refused whole.
func TestStagedRefused(t *testing.T) {
	net := refNet(t, "0123,45@2", 1)
	var b bytes.Buffer
	if err := writeBin(&b, net); err == nil || !strings.Contains(err.Error(), "2048.bin holds single-stage") {
		t.Fatalf("2048.bin: %v", err)
	}
	path := filepath.Join(t.TempDir(), "x.bin")
	if err := SaveFormat(path, DemoBin, net, Header{}); err == nil {
		t.Fatal("staged network saved as 2048.bin")
	}
	data := encode(t, TDLW, net)
	// Stage 1's second table retagged as stage 2: stage 1 lacks it.
	size := func(n int) int { return 1 + 8 + 2 + 8 + 4*n + 2 }
	at := 5 + 2*size(65536) + size(256) + 1
	d := bytes.Clone(data)
	d[at+3] = 0x20
	got, err := decode(TDLW, d)
	refused(t, "stage 1 short of a table", got, err, "share one list of patterns")
	// A single-stage table among staged ones.
	d = bytes.Clone(data)
	copy(d[at:], le(uint32(0x45), uint16(2)))
	got, err = decode(TDLW, d)
	refused(t, "an untagged table", got, err, "share one list of patterns")
}

// TestStagesWithoutThresholds: a network of three stages read from a .w
// (which does not record thresholds) is not written as a td2048 file,
// which would name no thresholds and load nowhere; CheckThresholds says
// how to name them.
func TestStagesWithoutThresholds(t *testing.T) {
	back, err := decode(TDLW, encode(t, TDLW, refNet(t, "0123,45@0,8192,16384", 3)))
	if err != nil {
		t.Fatal(err)
	}
	defer back.Free()
	if back.Spec().StageThresholds() != nil {
		t.Fatalf("a .w gave thresholds %v", back.Spec().StageThresholds())
	}
	path := filepath.Join(t.TempDir(), "x.td2048")
	if err := Save(path, back, Header{}); err == nil || !strings.Contains(err.Error(), "no thresholds") {
		t.Fatalf("Save: %v", err)
	}
	if err := CheckThresholds("x.w", back.Spec()); err == nil || !strings.Contains(err.Error(), "--stages 0,16384,32768") {
		t.Fatalf("CheckThresholds: %v", err)
	}
	if err := back.SetThresholds([]int{0, 8192, 16384}); err != nil {
		t.Fatal(err)
	}
	if err := Save(path, back, Header{}); err != nil {
		t.Fatalf("Save with thresholds: %v", err)
	}
}
