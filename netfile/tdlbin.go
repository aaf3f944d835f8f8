package netfile

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/td2048/td2048/ntuple"
)

// maxDemoName bounds the feature names the 2048.bin reader accepts
// ("7-tuple pattern 0123456" is 23 bytes).
const maxDemoName = 64

// binTables reads where the tables of a course demo 2048.bin file of size
// bytes lie (build reads them). Its patterns are taken to be read on the 8
// images of the board (but the 8x4 lines on the board alone; see the
// package notes).
func binTables(r io.ReaderAt, size int64) ([]table, error) {
	s := &section{r: r, size: size}
	count, err := s.uint(8)
	if err != nil {
		return nil, damaged(DemoBin, "%d bytes, too short for a feature count", size)
	}
	// Each feature takes at least 4+1+8+4*16 bytes.
	if count == 0 || count > uint64(s.left())/77 {
		return nil, damaged(DemoBin, "%d features cannot fit in %d bytes", count, size)
	}
	if count > ntuple.MaxPatterns {
		return nil, fmt.Errorf("course demo 2048.bin file with %d features; td2048 networks have at most %d patterns", count, ntuple.MaxPatterns)
	}
	var tabs []table
	for f := range int(count) {
		l, err := s.uint(4)
		if err != nil {
			return nil, damaged(DemoBin, "feature %d cut short", f+1)
		}
		if int32(l) <= 0 || l > maxDemoName {
			return nil, damaged(DemoBin, "feature %d has a name of %d bytes", f+1, int32(l))
		}
		nb, err := s.bytes(int(l))
		if err != nil {
			return nil, damaged(DemoBin, "feature %d cut short in its name", f+1)
		}
		name := string(nb)
		n, hex, ok := strings.Cut(name, "-tuple pattern ")
		if !ok || n != fmt.Sprint(len(hex)) {
			return nil, fmt.Errorf("course demo 2048.bin feature %d is %q, not an n-tuple pattern (\"6-tuple pattern 012345\")", f+1, name)
		}
		cells, err := ntuple.ParsePattern(hex)
		if err != nil {
			return nil, fmt.Errorf("course demo 2048.bin feature %d: %v", f+1, err)
		}
		w, err := s.uint(8)
		if err != nil {
			return nil, damaged(DemoBin, "feature %d (%s) cut short", f+1, hex)
		}
		if want := uint64(1) << (4 * len(cells)); w != want {
			return nil, damaged(DemoBin, "feature %d (%s) has %d weights, a %d-tuple has %d", f+1, hex, w, len(cells), want)
		}
		t := table{cells: cells, at: s.pos, elem: 4}
		if !s.skip(w, 4) {
			return nil, damaged(DemoBin, "feature %d (%s) cut short: %d weights need %d bytes, %d are left", f+1, hex, w, 4*w, s.left())
		}
		tabs = append(tabs, t)
	}
	if s.left() != 0 {
		return nil, damaged(DemoBin, "%d bytes after the last feature", s.left())
	}
	return tabs, nil
}

// writeBin writes net in the course demo's 2048.bin format: feature names
// "N-tuple pattern CELLS", tables in network order.
func writeBin(w io.Writer, net *ntuple.Network) error {
	spec := net.Spec()
	if err := CheckFormat(DemoBin, spec); err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	put := littleEndian(bw)
	put(uint64(len(spec.Patterns)))
	for p, cells := range spec.Patterns {
		name := fmt.Sprintf("%d-tuple pattern %s", len(cells), ntuple.PatternString(cells))
		put(uint32(len(name)))
		bw.WriteString(name)
		tab := net.CanonicalTable(0, p)
		put(uint64(len(tab)))
		if err := writeLE(bw, tab); err != nil {
			return err
		}
	}
	return bw.Flush()
}
