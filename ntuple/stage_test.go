package ntuple

import (
	"fmt"
	"slices"
	"testing"

	"github.com/td2048/td2048/board"
)

func TestParseThresholds(t *testing.T) {
	for in, want := range map[string]string{
		"4x6@2":                   "4x6@2",
		"4x6@0,16384":             "4x6@2",
		"4x6patt@0,16384":         "4x6@2",
		"4x6@0,32768":             "4x6@0,32768",
		"8x6@0,16384,32768,49152": "8x6@0,16384,32768,49152",
		"012345,456789@0, 8192":   "012345,456789@0,8192",
		"4x6@3":                   "4x6@3",
	} {
		t.Run(in, func(t *testing.T) {
			s, err := ParseSpec(in)
			if err != nil {
				t.Fatalf("%s: %v", in, err)
			}
			if s.String() != want {
				t.Errorf("%s reads as %s, want %s", in, s, want)
			}
			back, err := ParseSpec(s.String())
			if err != nil || !back.Equal(s) {
				t.Errorf("%s: %s does not read back equal (%v)", in, s, err)
			}
		})
	}
	s, _ := ParseSpec("4x6@0,8192,16384")
	if s.StageCount() != 3 || !slices.Equal(s.StageThresholds(), []int{0, 8192, 16384}) {
		t.Errorf("4x6@0,8192,16384: %d stages, thresholds %v", s.StageCount(), s.StageThresholds())
	}
	two, _ := ParseSpec("4x6@2")
	if !slices.Equal(two.StageThresholds(), []int{0, 16384}) {
		t.Errorf("4x6@2 thresholds %v, want 0,16384", two.StageThresholds())
	}
	if three, _ := ParseSpec("4x6@3"); three.StageThresholds() != nil {
		t.Errorf("4x6@3 has thresholds %v, want none", three.StageThresholds())
	}
	if one, _ := ParseSpec("4x6"); one.StageThresholds() != nil {
		t.Errorf("4x6 has thresholds %v", one.StageThresholds())
	}
	a, _ := ParseSpec("4x6@0,32768")
	if a.Equal(two) {
		t.Error("4x6@0,32768 equals 4x6@2")
	}
	for _, bad := range []string{"4x6@0", "4x6@16384,32768", "4x6@0,0", "4x6@0,8192,4096", "4x6@0,65536",
		"4x6@0,-1", "4x6@0,x", "4x6@0,", "4x6@0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16"} {
		t.Run(bad, func(t *testing.T) {
			if _, err := ParseSpec(bad); err == nil {
				t.Errorf("%q parsed", bad)
			}
		})
	}
}

// TestStageAtThresholds checks both stage rules at each threshold of
// 0,16384,32768,49152 (docs/methods.md section 1): StageOf by the scale
// alone, Rise one stage at a time and only on a move whose reward passes
// the filter.
func TestStageAtThresholds(t *testing.T) {
	n := MustNew("0123@0,16384,32768,49152")
	for _, c := range []struct {
		b    board.Board
		want int
	}{
		{0, 0},
		{0x0000000000000dcb, 0}, // 8192, 4096, 2048: scale 0x3801
		{0x000000000000000e, 1}, // 16384
		{0x00000000000000de, 1}, // 16384 + 8192
		{0x000000000000000f, 2}, // 32768
		{0x00000000000000fd, 2}, // 32768 + 8192: 40961
		{0x00000000000000ef, 3}, // 32768 + 16384: 49153
		{0x0123456789abcdef, 3}, // 0xffff
		{0x1111111111111111, 0}, // full of 2s
		{0xfeeeeeeeeeeeeeee, 3}, // no empty cell
	} {
		t.Run(c.b.Hex(), func(t *testing.T) {
			if got := n.StageOf(c.b); got != c.want {
				t.Errorf("StageOf(%016x) (scale %#x) = %d, want %d", uint64(c.b), c.b.Scale(), got, c.want)
			}
		})
	}
	for _, c := range []struct {
		k      int
		after  board.Board
		reward uint32
		want   int
	}{
		{0, 0x0e, 16384, 1},   // the 16384 is made
		{0, 0x0e, 8192, 0},    // a 16384 present, but the move made less
		{0, 0x0d, 16384, 0},   // reward without the scale (cannot happen in play)
		{0, 0xef, 32768, 1},   // one stage per move, even from 0 to 3's scale
		{1, 0x0f, 32768, 2},   // the 32768 is made
		{1, 0xef, 32768, 2},   // 32768 made while a 16384 remains: stage 2 only
		{2, 0xef, 16384, 3},   // 49152's lowest bit is 16384
		{2, 0xef, 8192, 2},    // a smaller reward does not pass
		{3, 0xffff, 65536, 3}, // no stage above the last
		{1, 0x0e, 16384, 1},   // another 16384 in stage 1
	} {
		t.Run(fmt.Sprintf("stage %d %s reward %d", c.k, c.after.Hex(), c.reward), func(t *testing.T) {
			if got := n.Rise(c.k, c.after, c.reward); got != c.want {
				t.Errorf("Rise(%d, %x, %d) = %d, want %d", c.k, uint64(c.after), c.reward, got, c.want)
			}
		})
	}
	one := MustNew("0123")
	if one.Staged() || one.StageOf(0xf) != 0 || one.Rise(0, 0xf, 32768) != 0 {
		t.Error("a single-stage network has stages")
	}
}

// TestCopyStage promotes stage 0's weights into stage 1, leaving stage 0.
func TestCopyStage(t *testing.T) {
	n := MustNew("01,23@2")
	for i := range n.StageTable(0, 0) {
		n.StageTable(0, 0)[i] = float32(i)
	}
	n.StageTable(0, 1)[7] = 3
	b := board.Board(0x21)
	v := n.EstimateStage(0, b)
	n.CopyStage(1, 0)
	if got := n.EstimateStage(1, b); got != v {
		t.Errorf("stage 1 values %v after promotion, stage 0 %v", got, v)
	}
	if !slices.Equal(n.StageTable(1, 1), n.StageTable(0, 1)) {
		t.Error("table 1 not copied")
	}
}
