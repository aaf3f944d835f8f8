package netfile

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/td2048/td2048/ntuple"
)

// Stages in TDL2048+'s .w (docs/methods.md sections 1 and 10). NET@K makes
// K copies of each table, stage i's sign OR-ed with a tag: the 8 hex digits
// of i written in reverse (stage 1 of pattern 012345 is 10012345, stage 0
// is 00012345), the name 8 digits wide. Tables follow in creation order,
// stage 0's patterns first, then stage 1's. td2048 writes staged networks
// so and reads files so made, when every stage holds stage 0's patterns in
// the same order; a file does not record the thresholds, which default to
// 0,16384 for two stages (TDL2048+'s bare -@) and are given otherwise
// (ntuple.Network.SetThresholds).

// CheckFormat reports why a network cannot be written in format k, or nil:
// td2048's own format holds any whose stages have thresholds; TDL2048+'s
// .w single- and multi-stage 2048 networks whose patterns are read on the
// eight images of the board (or td2048's 8x4 lines on the board alone),
// 2048.bin single-stage ones of such patterns.
func CheckFormat(k Format, spec ntuple.Spec) error {
	switch k {
	case Native:
		if unnamedStages(spec) {
			return fmt.Errorf("network %s has %d stages and no thresholds, which td2048 files record: name them first (ntuple.Network.SetThresholds)", spec, spec.StageCount())
		}
		return nil
	case TDLW:
		if spec.Hint {
			return fmt.Errorf("network %s has a stage per Threes! hint; TDL2048+'s .w holds 2048 networks", spec)
		}
		return checkIso(spec)
	}
	if spec.Hint || spec.StageCount() > 1 {
		return fmt.Errorf("network %s has %d stages; the course demo's 2048.bin holds single-stage networks (TDL2048+'s .w holds stages)", spec, spec.StageCount())
	}
	return checkIso(spec)
}

// unnamedStages reports whether spec has stages without thresholds: a
// network of more than two stages read from a .w file.
func unnamedStages(spec ntuple.Spec) bool {
	return !spec.Hint && spec.StageCount() > 1 && spec.StageThresholds() == nil
}

// CheckThresholds refuses the network of the file at path when it has
// stages without thresholds (a .w file of more than two stages), which
// nothing plays or trains: td2048 convert names them.
func CheckThresholds(path string, spec ntuple.Spec) error {
	if !unnamedStages(spec) {
		return nil
	}
	n := spec.StageCount()
	return fmt.Errorf("%s holds %d stages and does not record their thresholds (.w files do not): name them in a td2048 file, td2048 convert %s OUT.td2048 --stages %s", path, n, path, stagesExample(n))
}

// stagesExample is an example of --stages for n stages, to show in
// messages.
func stagesExample(n int) string {
	if n == 3 {
		return "0,16384,32768 (one threshold per stage)"
	}
	return fmt.Sprintf("0,... (%d thresholds, one per stage, the first 0)", n)
}

// wSign is the .w sign and name width of pattern cells in stage k of a
// staged network (tagged, 8 digits), or of a single-stage one.
func wSign(cells []int, k int, staged bool) (sign uint32, width uint16) {
	for _, c := range cells {
		sign = sign<<4 | uint32(c)
	}
	if !staged {
		return sign, uint16(len(cells))
	}
	// The 8 digits of k reversed: k < 16 is one digit, the top one.
	return sign | reverseDigits(uint32(k)), 8
}

// reverseDigits reverses the 8 hex digits of x.
func reverseDigits(x uint32) uint32 {
	var r uint32
	for range 8 {
		r = r<<4 | x&0xf
		x >>= 4
	}
	return r
}

// wCells reads a .w table name: the pattern's cells and the stage. A name
// wider than the pattern (whose size the table length gives) is a staged
// one, its leading digits the stage tag.
func wCells(name string, length uint64) ([]int, int, error) {
	n := 0
	for length > 1 && n < 9 {
		length >>= 4
		n++
	}
	if len(name) != 8 || n >= 8 || n == 0 {
		cells, err := parseCells(name)
		return cells, 0, err
	}
	tag, err := strconv.ParseUint(name[:8-n]+"00000000"[:n], 16, 32)
	if err != nil {
		return nil, 0, fmt.Errorf("table %q: stage tag %q is not hex", name, name[:8-n])
	}
	k := reverseDigits(uint32(tag))
	if k >= ntuple.MaxStages {
		return nil, 0, fmt.Errorf("table %q: stage %d, td2048 networks have at most %d stages", name, k, ntuple.MaxStages)
	}
	cells, err := parseCells(name[8-n:])
	return cells, int(k), err
}

// stagedSpec is the network of the tables of a reference file: their
// patterns, in stage 0's order, and as many stages as the tags say. Every
// stage must hold stage 0's patterns, in the same order; it sets each
// table's pattern number.
func stagedSpec(tabs []table) (ntuple.Spec, error) {
	stages := 0
	for _, t := range tabs {
		stages = max(stages, t.stage+1)
	}
	per := make([][][]int, stages)
	for i := range tabs {
		t := &tabs[i]
		t.pat = len(per[t.stage])
		per[t.stage] = append(per[t.stage], t.cells)
	}
	for k := 1; k < stages; k++ {
		if !slices.EqualFunc(per[k], per[0], slices.Equal) {
			return ntuple.Spec{}, fmt.Errorf("stage %d holds tables %s, stage 0 %s: td2048 stages share one list of patterns", k, patternList(per[k]), patternList(per[0]))
		}
	}
	spec := refSpec(per[0])
	if stages > 1 {
		spec.Stages = stages
	}
	return spec, nil
}

func patternList(ps [][]int) string {
	if len(ps) == 0 {
		return "none"
	}
	var s []string
	for _, p := range ps {
		s = append(s, ntuple.PatternString(p))
	}
	return strings.Join(s, " ")
}
