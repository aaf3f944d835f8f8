package ntuple

import (
	"fmt"
	"slices"
	"strings"
)

// A Spec describes a network: its patterns (lists of cells) and whether each
// pattern is read on all eight symmetric images of the board.
type Spec struct {
	Patterns [][]int
	Iso      bool
}

// Named networks (cells in hex).
var named = []struct {
	name, cells string
	iso         bool
}{
	{"4x6", "012345,456789,012456,45689a", true},
	{"8x6", "012456,456789,012345,234569,01259a,345678,134567,01489a", true},
	{"5x6", "012345,456789,89abcd,012456,45689a", true},
	{"8x4", "0123,4567,89ab,cdef,048c,159d,26ae,37bf", false},
	{"4x5", "01234,45678,01245,45689", true},
	{"2x4", "0123,4567", true},
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

// ParseSpec reads a network description: a name (4x6, 8x6, 5x6, 8x4, 4x5,
// 2x4) or a comma-separated list of patterns in hex cells
// ("012345,456789"), optionally followed by "/noiso" (read each pattern on
// the board as it is) or "/iso" (on all eight images; the default for
// lists and for every named network but 8x4).
func ParseSpec(s string) (Spec, error) {
	body, opt, hasOpt := strings.Cut(strings.TrimSpace(s), "/")
	var spec Spec
	found := false
	for _, n := range named {
		if body == n.name {
			body, spec.Iso, found = n.cells, n.iso, true
			break
		}
	}
	if !found {
		spec.Iso = true
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
		if len(p) == 0 || len(p) > MaxCells {
			return Spec{}, fmt.Errorf("network %q: pattern %q must have 1 to %d cells", s, p, MaxCells)
		}
		var cells []int
		for _, ch := range strings.ToLower(p) {
			var c int
			switch {
			case ch >= '0' && ch <= '9':
				c = int(ch - '0')
			case ch >= 'a' && ch <= 'f':
				c = int(ch-'a') + 10
			default:
				return Spec{}, fmt.Errorf("network %q: pattern %q: %q is not a cell (0-9, a-f)", s, p, ch)
			}
			if slices.Contains(cells, c) {
				return Spec{}, fmt.Errorf("network %q: pattern %q names cell %x twice", s, p, c)
			}
			cells = append(cells, c)
		}
		spec.Patterns = append(spec.Patterns, cells)
	}
	if len(spec.Patterns) > MaxPatterns {
		return Spec{}, fmt.Errorf("network %q: %d patterns, at most %d", s, len(spec.Patterns), MaxPatterns)
	}
	return spec, nil
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
// pattern list, with /noiso or /iso when it differs from the default.
func (s Spec) String() string {
	var ps []string
	for _, p := range s.Patterns {
		ps = append(ps, PatternString(p))
	}
	list := strings.Join(ps, ",")
	for _, n := range named {
		if n.cells == list && n.iso == s.Iso {
			return n.name
		}
	}
	if !s.Iso {
		return list + "/noiso"
	}
	return list
}

// Images is the number of board images each pattern is read on: 8 or 1.
func (s Spec) Images() int {
	if s.Iso {
		return 8
	}
	return 1
}

// Weights is the number of weights: the sum of 16^len(p) over patterns.
func (s Spec) Weights() int {
	n := 0
	for _, p := range s.Patterns {
		n += 1 << (4 * len(p))
	}
	return n
}

// Equal reports whether two specs describe the same network.
func (s Spec) Equal(t Spec) bool {
	return s.Iso == t.Iso && slices.EqualFunc(s.Patterns, t.Patterns, slices.Equal)
}
