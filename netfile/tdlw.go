package netfile

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"math/bits"
	"strings"

	"github.com/td2048/td2048/ntuple"
)

// wTables reads where the tables of a TDL2048+ .w file of size bytes lie
// (build reads them). Its patterns are taken to be read on the 8 images of
// the board (but the 8x4 lines on the board alone; see the package notes).
// Elements of 2, 4 or 8 bytes are read (as float32); a temporal-coherence
// field (float32 E then A, on every table) is read into the network's
// accumulators, other extra fields are skipped.
func wTables(r io.ReaderAt, size int64) ([]table, error) {
	s := &section{r: r, size: size}
	code, err := s.uint(1)
	if err == nil && code == 'w' { // TDL2048+ marks files not named .w so
		code, err = s.uint(1)
	}
	if err != nil || code != 0 {
		return nil, damaged(TDLW, "no weight section (first byte %d, want 0)", code)
	}
	count, err := s.uint(4)
	if err != nil {
		return nil, damaged(TDLW, "%d bytes, too short for a table count", size)
	}
	// Each table takes at least 1+8+2+8+2 bytes.
	if count == 0 || uint64(count) > uint64(s.left())/21 {
		return nil, damaged(TDLW, "%d tables cannot fit in %d bytes", count, size)
	}
	if count > ntuple.MaxStages*ntuple.MaxPatterns {
		return nil, fmt.Errorf("TDL2048+ .w file with %d tables; td2048 networks have at most %d patterns in each of at most %d stages", count, ntuple.MaxPatterns, ntuple.MaxStages)
	}
	var tabs []table
	for i := range int(count) {
		n := i + 1
		code, err := s.uint(1)
		if err != nil {
			return nil, damaged(TDLW, "table %d cut short", n)
		}
		if code != 4 {
			return nil, damaged(TDLW, "table %d has serial %d, want 4", n, code)
		}
		// The sign (8 bytes), the element size and the length.
		h, err := s.bytes(18)
		if err != nil {
			return nil, damaged(TDLW, "table %d cut short", n)
		}
		raw, elem, length := h[:8], binary.LittleEndian.Uint16(h[8:]), binary.LittleEndian.Uint64(h[10:])
		name := wName(raw, length)
		if elem != 2 && elem != 4 && elem != 8 {
			return nil, damaged(TDLW, "table %d %q has %d-byte elements, want 2, 4 or 8", n, name, elem)
		}
		t := table{at: s.pos, elem: int(elem)}
		t.cells, t.stage, err = wCells(name, length)
		if err != nil {
			return nil, fmt.Errorf("TDL2048+ .w table %d: %v (td2048 reads n-tuple networks, staged as NET@K names them)", n, err)
		}
		if want := uint64(1) << (4 * len(t.cells)); length != want {
			return nil, fmt.Errorf("TDL2048+ .w table %d %q has %d weights, a %d-tuple has %d", n, name, length, len(t.cells), want)
		}
		if !s.skip(length, int(elem)) {
			return nil, damaged(TDLW, "table %d %q cut short: %d weights need %d bytes, %d are left", n, name, length, length*uint64(elem), s.left())
		}
		for {
			z, err := s.uint(2)
			if err != nil {
				return nil, damaged(TDLW, "table %d %q cut short: no end mark", n, name)
			}
			if z == 0 {
				break
			}
			m, err := s.uint(8)
			at := s.pos
			if err != nil || !s.skip(m, int(z)) {
				return nil, damaged(TDLW, "table %d %q cut short in an extra field", n, name)
			}
			if z == 4 && m == 2*length && t.tc == 0 { // TC: E then A
				t.tc = at
			}
		}
		tabs = append(tabs, t)
	}
	if s.left() != 0 {
		return nil, damaged(TDLW, "%d bytes after the last table", s.left())
	}
	return tabs, nil
}

// wName is a table's name as TDL2048+ reads it: a sign stored as an
// integer (the high u16 zero) printed in hex to its width (taken from the
// table length when 0), or else 8 characters up to the first space.
func wName(raw []byte, length uint64) string {
	if raw[6] != 0 || raw[7] != 0 {
		name, _, _ := strings.Cut(string(raw), " ")
		return name
	}
	sign := binary.LittleEndian.Uint32(raw)
	width := int(binary.LittleEndian.Uint16(raw[4:]))
	if width == 0 && length > 0 {
		width = (bits.Len64(length) - 1) >> 2
	}
	if width < len(fmt.Sprintf("%x", sign)) {
		width = 8
	}
	return fmt.Sprintf("%0*x", width, sign)
}

// writeW writes net in TDL2048+'s .w format, as TDL2048+ writes a file
// named *.w (each table's sign is its pattern's cells as hex digits), or
// with mark as it writes any other name (see wMarked).
func writeW(w io.Writer, net *ntuple.Network, mark bool) error {
	spec := net.Spec()
	if err := CheckFormat(TDLW, spec); err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	put := littleEndian(bw)
	if mark {
		put(uint8('w'))
	}
	stages, np := spec.StageCount(), len(spec.Patterns)
	starts := tableStarts(spec) // each table's first weight, in files and in storage alike
	ea := net.Accumulators()    // once: a packed network copies them all out
	put(uint8(0), uint32(stages*np))
	for t := range stages * np {
		k, p := t/np, t%np
		sign, width := wSign(spec.Patterns[p], k, stages > 1)
		tab := net.CanonicalTable(k, p)
		put(uint8(4), sign, width, uint16(0), uint16(4), uint64(len(tab)))
		if err := writeLE(bw, tab); err != nil {
			return err
		}
		if ea != nil {
			// TDL2048+'s coherence field: all E, then all A.
			off := int(starts[t])
			put(uint16(4), uint64(2*len(tab)))
			var b [4]byte
			for k := range 2 {
				for i := range tab {
					s := off + int(net.StorageIndex(p, uint32(i)))
					binary.LittleEndian.PutUint32(b[:], math.Float32bits(ea[2*s+k]))
					bw.Write(b[:])
				}
			}
		}
		put(uint16(0))
	}
	return bw.Flush()
}

// wMarked reports whether TDL2048+ would begin a weight file of this name
// with a 'w': it does unless the character after the name's last dot (the
// first of the name without one) is 'w'.
func wMarked(path string) bool {
	i := strings.LastIndexByte(path, '.') + 1
	return i >= len(path) || path[i] != 'w'
}
