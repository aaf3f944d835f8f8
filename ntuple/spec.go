package ntuple

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// A Spec describes a network: its patterns (lists of cells), whether each
// pattern is read on all eight symmetric images of the board, and how many
// stages (whole sets of tables, one of which values a given board) it has.
type Spec struct {
	Patterns [][]int
	Iso      bool
	// Stages is the number of table sets (0 means 1). Multi-stage
	// learning picks a stage by the board; Threes! picks it by the hint.
	Stages int
	// Hint marks a Threes! network with one stage per hint value (1, 2, 3).
	Hint bool
	// thresholds, when set, are a multi-stage network's stage thresholds
	// (one per stage, the first 0, rising), compared with a board's scale
	// (board.Board.Scale) as TDL2048+'s -@ does; nil for the default
	// (StageThresholds). ParseSpec leaves the default nil, so that specs
	// of one network compare and print alike.
	thresholds []int
}

// MaxStages bounds Spec.Stages.
const MaxStages = 16

// defaultThresholds are the thresholds of a two-stage network whose
// spec names none: TDL2048+'s bare -@, stage 1 once a 16384 or a 32768
// appears.
var defaultThresholds = []int{0, 16384}

// StageThresholds returns the stage thresholds of a multi-stage network
// (those the spec names, or 0 and 16384 for two stages), nil for a single
// stage, a +hint network or a network of more stages that names none.
func (s Spec) StageThresholds() []int {
	switch {
	case s.Hint || s.StageCount() < 2:
		return nil
	case s.thresholds != nil:
		return s.thresholds
	case s.StageCount() == 2:
		return defaultThresholds
	}
	return nil
}

// StageCount is the number of stages, at least 1.
func (s Spec) StageCount() int { return max(s.Stages, 1) }

type namedNet struct {
	name, cells string
	iso         bool
}

// Named networks (cells in hex).
var named = []namedNet{
	{"4x6", "012345,456789,012456,45689a", true},
	{"8x6", "012456,456789,012345,234569,01259a,345678,134567,01489a", true},
	{"5x6", "012345,456789,89abcd,012456,45689a", true},
	{"6x6", "012456,456789,012345,234569,01259a,345678", true},
	{"7x6", "012456,456789,012345,234569,01259a,345678,134567", true},
	{"8x4", "0123,4567,89ab,cdef,048c,159d,26ae,37bf", false},
	{"9x4", "0145,1256,2367,4589,569a,67ab,89cd,9ade,abef", false},
	{"4x5", "01234,45678,01245,45689", true},
	{"5x4", "0123,4567,0145,1256,569a", true},
	{"2x4", "0123,4567", true},
}

// knownNames lists the named networks for error messages.
func knownNames() string {
	var ns []string
	for _, n := range named {
		ns = append(ns, n.name)
	}
	return strings.Join(ns, ", ")
}

// Names lists the named networks with their patterns, for help texts.
func Names() []string {
	var s []string
	for _, n := range named {
		iso := ""
		if !n.iso {
			iso = ", no isomorphisms"
		}
		s = append(s, fmt.Sprintf("%s (%s%s)", n.name, n.cells, iso))
	}
	return s
}

// MaxPatterns bounds the number of patterns in one network, and MaxCells the
// cells of one pattern (a 7-tuple table is 1 GiB).
const (
	MaxPatterns = 16
	MaxCells    = 7
)

// ParseSpec reads a network description: a name (4x6, 8x6, 5x6, 6x6, 7x6,
// 8x4, 9x4, 4x5, 5x4, 2x4, or TDL2048+'s 4x6patt and the like) or a comma-separated list of patterns in hex cells
// ("012345,456789"), optionally followed by "/noiso" (read each pattern on
// the board as it is) or "/iso" (on all eight images; the default for
// lists and for every named network but 8x4), then optionally by "@K" (K
// stages), "@T0,T1,..." (one stage per threshold: T0 = 0, rising, each
// below 65536, compared with a board's scale; "@2" is "@0,16384") or
// "+hint" (Threes!: one stage per hint value).
func ParseSpec(s string) (Spec, error) {
	var spec Spec
	text := strings.TrimSpace(s)
	if t, ok := strings.CutSuffix(text, "+hint"); ok {
		text, spec.Hint, spec.Stages = t, true, 3
	} else if i := strings.LastIndexByte(text, '@'); i >= 0 {
		if strings.Contains(text[i+1:], ",") {
			th, err := ParseThresholds(text[i+1:])
			if err != nil {
				return Spec{}, fmt.Errorf("network %q: %v", s, err)
			}
			spec.Stages, spec.thresholds = len(th), th
			if slices.Equal(th, defaultThresholds) {
				spec.thresholds = nil
			}
		} else {
			k, err := strconv.Atoi(text[i+1:])
			if err != nil || k < 1 || k > MaxStages {
				return Spec{}, fmt.Errorf("network %q: stages %q must be 1 to %d, or thresholds like @0,16384", s, text[i+1:], MaxStages)
			}
			spec.Stages = k
		}
		text = text[:i]
	}
	body, opt, hasOpt := strings.Cut(text, "/")
	spec.Iso = true // a list reads on the images by default
	// TDL2048+ names its networks 4x6patt and the like: the same patterns,
	// in the same order (its 8x4patt and 9x4patt read each pattern on the
	// board alone, as td2048's 8x4 and 9x4 do).
	ref, _ := strings.CutSuffix(body, "patt")
	for _, n := range named {
		if body == n.name || ref == n.name {
			body, spec.Iso = n.cells, n.iso
			break
		}
	}
	if spec.Stages == 1 {
		spec.Stages = 0
	}
	if hasOpt {
		switch opt {
		case "iso":
			spec.Iso = true
		case "noiso":
			spec.Iso = false
		default:
			return Spec{}, fmt.Errorf("network %q: unknown option /%s (want /iso or /noiso)", s, opt)
		}
	}
	if body == "" {
		return Spec{}, fmt.Errorf("network %q: no patterns", s)
	}
	for _, p := range strings.Split(body, ",") {
		p = strings.TrimSpace(p)
		if len(p) > 0 && len(p) <= MaxCells && strings.ContainsAny(strings.ToLower(p), "ghijklmnopqrstuvwxyz") {
			return Spec{}, fmt.Errorf("network %q: unknown name; known networks are %s (TDL2048+'s names like 4x6patt too), or hex patterns like 012345,456789", s, knownNames())
		}
		cells, err := ParsePattern(strings.ToLower(p))
		if err != nil {
			return Spec{}, fmt.Errorf("network %q: %v", s, err)
		}
		spec.Patterns = append(spec.Patterns, cells)
	}
	if len(spec.Patterns) > MaxPatterns {
		return Spec{}, fmt.Errorf("network %q: %d patterns, at most %d", s, len(spec.Patterns), MaxPatterns)
	}
	return spec, nil
}

// ParsePattern reads a pattern written as hex digits (0-9, a-f), one
// cell each, as PatternString writes it: 1 to MaxCells cells, none twice.
func ParsePattern(p string) ([]int, error) {
	if len(p) == 0 || len(p) > MaxCells {
		return nil, fmt.Errorf("pattern %q must have 1 to %d cells", p, MaxCells)
	}
	var cells []int
	for _, ch := range p {
		c := strings.IndexRune("0123456789abcdef", ch)
		if c < 0 {
			return nil, fmt.Errorf("pattern %q: %q is not a cell (0-9, a-f)", p, ch)
		}
		if slices.Contains(cells, c) {
			return nil, fmt.Errorf("pattern %q names cell %x twice", p, c)
		}
		cells = append(cells, c)
	}
	return cells, nil
}

// Describe is the spec in a line for people: its name, patterns,
// isomorphisms, stages and the size of its weights, like "4x6 (012345
// 456789 012456 45689a, 8 isomorphisms, 256 MiB)".
func (s Spec) Describe() string {
	var ps []string
	for _, p := range s.Patterns {
		ps = append(ps, PatternString(p))
	}
	iso := "8 isomorphisms"
	if !s.Iso {
		iso = "no isomorphisms"
	}
	if th := s.StageThresholds(); th != nil {
		iso += fmt.Sprintf(", %d stages from scale %s", len(th), FormatThresholds(th))
	}
	size := fmt.Sprintf("%d KiB", (int64(s.Weights())*4+1023)>>10)
	if b := int64(s.Weights()) * 4; b >= 1<<20 {
		size = fmt.Sprintf("%d MiB", b>>20)
	}
	return fmt.Sprintf("%s (%s, %s, %s)", s, strings.Join(ps, " "), iso, size)
}

// PatternString writes a pattern's cells as hex digits.
func PatternString(p []int) string {
	var b strings.Builder
	for _, c := range p {
		fmt.Fprintf(&b, "%x", c)
	}
	return b.String()
}

// String is the canonical description: a name where one fits, else the
// pattern list, with /noiso or /iso when it differs from the default, and
// the stages.
func (s Spec) String() string {
	stages := ""
	switch {
	case s.Hint:
		stages = "+hint"
	case s.Stages > 1 && s.thresholds != nil:
		stages = "@" + FormatThresholds(s.thresholds)
	case s.Stages > 1:
		stages = "@" + strconv.Itoa(s.Stages)
	}
	var ps []string
	for _, p := range s.Patterns {
		ps = append(ps, PatternString(p))
	}
	name, iso := strings.Join(ps, ","), true // a list reads on the images by default
	for _, n := range named {
		if n.cells == name {
			name, iso = n.name, n.iso
			break
		}
	}
	switch {
	case iso == s.Iso:
		return name + stages
	case s.Iso:
		return name + "/iso" + stages
	}
	return name + "/noiso" + stages
}

// images is the number of board images each pattern is read on: 8 or 1.
func (s Spec) images() int {
	if s.Iso {
		return 8
	}
	return 1
}

// StageWeights is the number of weights of one stage: the sum of
// 16^len(p) over patterns.
func (s Spec) StageWeights() int {
	n := 0
	for _, p := range s.Patterns {
		n += 1 << (4 * len(p))
	}
	return n
}

// Weights is the number of weights of all stages.
func (s Spec) Weights() int { return s.StageWeights() * s.StageCount() }

// Equal reports whether two specs describe the same network.
func (s Spec) Equal(t Spec) bool {
	return s.Iso == t.Iso && s.StageCount() == t.StageCount() && s.Hint == t.Hint &&
		slices.Equal(s.StageThresholds(), t.StageThresholds()) &&
		slices.EqualFunc(s.Patterns, t.Patterns, slices.Equal)
}

// ParseThresholds reads stage thresholds, "0,16384" or "0,16384,32768,49152":
// 2 to MaxStages of them, the first 0, rising, each below 65536 (a board's
// scale is a 16-bit set).
func ParseThresholds(s string) ([]int, error) {
	parts := strings.Split(s, ",")
	if len(parts) < 2 || len(parts) > MaxStages {
		return nil, fmt.Errorf("stage thresholds %q: want 2 to %d of them, like 0,16384", s, MaxStages)
	}
	var th []int
	for i, p := range parts {
		v, err := strconv.Atoi(strings.TrimSpace(p))
		switch {
		case err != nil || v < 0 || v > 0xffff:
			return nil, fmt.Errorf("stage thresholds %q: %q is not a number from 0 to 65535", s, p)
		case i == 0 && v != 0:
			return nil, fmt.Errorf("stage thresholds %q: the first is 0 (stage 0 holds every board)", s)
		case i > 0 && v <= th[i-1]:
			return nil, fmt.Errorf("stage thresholds %q: each must exceed the one before", s)
		}
		th = append(th, v)
	}
	return th, nil
}

// FormatThresholds writes thresholds as ParseThresholds reads them.
func FormatThresholds(th []int) string {
	s := make([]string, len(th))
	for i, v := range th {
		s[i] = strconv.Itoa(v)
	}
	return strings.Join(s, ",")
}
