package netfile

// Weight files of the two reference C++ programs (RULES.md section 5):
//
// The course demo (TDL2048-Demo) writes 2048.bin, little-endian, no padding:
//
//	u64 feature count
//	per feature: i32 name length L, L bytes of name ("6-tuple pattern 012345",
//	             the cells in hex, no NUL), u64 weight count (16^n), that many f32
//
// The research framework TDL2048+ writes .w files, little-endian:
//
//	u8 0, u32 table count
//	per table: u8 4, u32 sign (the pattern as hex digits: 0x012345),
//	           u16 width (digits of the sign, 6; 0 in old files), u16 0,
//	           u16 element size (4), u64 length, length elements,
//	           then extra fields (u16 element size, u64 count, data),
//	           ended by u16 0
//
// The width keeps a leading cell 0: pattern 012345 is sign 0x12345 with
// width 6. TDL2048+ writes a 'w' byte before the 0 when the file name does
// not end in .w; TC learning adds a field of two more tables per table
// (the coherence accumulators), which a reader skips.
//
// Neither format records whether a pattern is read on the 8 symmetric
// images of the board, nor the game or the learner. Both programs read
// their patterns on the 8 images (TDL2048+ unless told otherwise), so a
// reference file is taken to hold an isomorphic after-state network for
// 2048, with one exception: the eight straight lines 0123 4567 89ab cdef
// 048c 159d 26ae 37bf are td2048's 8x4 and TDL2048+'s 8x4patt network, which
// both read without isomorphisms, and are read so. Writers refuse what the
// formats cannot say: other networks without isomorphisms, Threes!
// networks, and staged networks in 2048.bin. A .w file holds the stages of
// a multi-stage network (TDL2048+'s NET@K) as tables whose sign carries a
// stage tag (staged.go), but not their thresholds.
//
// The formats have no checksum. Readers check every count and length
// against the size of the file before anything is allocated, and refuse a
// file that is short, long or inconsistent, whole.

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/bits"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/td2048/td2048/ntuple"
)

// Format is a weight-file format.
type Format int

const (
	// Unknown is no format td2048 knows.
	Unknown Format = iota
	// Native is td2048's own format (.td2048).
	Native
	// DemoBin is the course demo's 2048.bin (.bin).
	DemoBin
	// TDLW is the research framework TDL2048+'s .w (.w).
	TDLW
)

// String is the name --to takes: td2048, bin or w.
func (k Format) String() string {
	switch k {
	case Native:
		return "td2048"
	case DemoBin:
		return "bin"
	case TDLW:
		return "w"
	}
	return "unknown"
}

// Describe names the format for people.
func (k Format) Describe() string {
	switch k {
	case Native:
		return "td2048"
	case DemoBin:
		return "course demo 2048.bin"
	case TDLW:
		return "TDL2048+ .w"
	}
	return "unknown format"
}

// ParseKind reads a format name: td2048, bin or w.
func ParseFormat(s string) (Format, error) {
	switch strings.TrimPrefix(strings.ToLower(s), ".") {
	case "td2048":
		return Native, nil
	case "bin":
		return DemoBin, nil
	case "w":
		return TDLW, nil
	}
	return Unknown, fmt.Errorf("weight format %q: want td2048, bin or w", s)
}

// FormatOfName returns the format a file name's extension implies
// (.td2048, .bin, .w), or Unknown.
func FormatOfName(path string) Format {
	ext := filepath.Ext(path)
	if ext == "" {
		return Unknown
	}
	k, _ := ParseFormat(ext)
	return k
}

// Sniff tells the format of a file from its first bytes (64 are enough),
// not from its name.
func Sniff(head []byte) Format {
	switch {
	case len(head) >= len(magic) && string(head[:len(magic)]) == magic:
		return Native
	case len(head) >= 12+16 && sniffDemo(head):
		return DemoBin
	case len(head) >= 6 && head[0] == 0 && sniffW(head[1:]):
		return TDLW
	case len(head) >= 7 && head[0] == 'w' && head[1] == 0 && sniffW(head[2:]):
		return TDLW
	}
	return Unknown
}

// sniffW checks a .w weight section after its 0: a table count, then the
// first table's serial 4.
func sniffW(h []byte) bool {
	n := binary.LittleEndian.Uint32(h)
	return n > 0 && n <= 1<<16 && h[4] == 4
}

func sniffDemo(h []byte) bool {
	n := binary.LittleEndian.Uint64(h)
	l := int32(binary.LittleEndian.Uint32(h[8:]))
	if n == 0 || n > 1<<16 || l < 16 || l > maxDemoName {
		return false
	}
	name := h[12:min(len(h), 12+int(l))]
	return len(name) >= 16 && name[0] >= '1' && name[0] <= '9' && strings.HasPrefix(string(name[1:]), "-tuple pattern ")
}

// maxDemoName bounds the feature names the 2048.bin reader accepts
// ("7-tuple pattern 0123456" is 23 bytes).
const maxDemoName = 64

// CheckRef reports why a network cannot be written in the reference
// formats, or nil: they hold one stage of 2048 patterns read on the eight
// images of the board, or td2048's 8x4 lines read on the board alone.
func CheckRef(spec ntuple.Spec) error {
	if spec.Hint || spec.StageCount() > 1 {
		return fmt.Errorf("network %s has %d stages; the course demo's 2048.bin holds single-stage networks (TDL2048+'s .w holds stages)", spec, spec.StageCount())
	}
	return checkIso(spec)
}

// checkIso reports why the patterns of a network cannot be written in the
// reference formats, which cannot say whether they are read on the eight
// images.
func checkIso(spec ntuple.Spec) error {
	if isLines(spec.Patterns) != !spec.Iso {
		if spec.Iso {
			return fmt.Errorf("network %s reads the 8 lines on all 8 images of the board; the reference formats cannot record that and are read as the 8x4 network without isomorphisms", spec)
		}
		return fmt.Errorf("network %s reads its patterns without isomorphisms; the reference formats cannot record that (their readers assume the 8 images), only for the 8x4 lines", spec)
	}
	return nil
}

// lines is the 8x4 network of straight lines, the one network the
// references read without isomorphisms.
var lines = [][]int{{0, 1, 2, 3}, {4, 5, 6, 7}, {8, 9, 10, 11}, {12, 13, 14, 15},
	{0, 4, 8, 12}, {1, 5, 9, 13}, {2, 6, 10, 14}, {3, 7, 11, 15}}

func isLines(ps [][]int) bool { return slices.EqualFunc(ps, lines, slices.Equal) }

// refSpec makes the spec of patterns read from a reference file.
func refSpec(ps [][]int) ntuple.Spec {
	return ntuple.Spec{Patterns: ps, Iso: !isLines(ps)}
}

// parseCells reads a pattern written as hex digits, one cell each.
func parseCells(s string) ([]int, error) {
	if len(s) == 0 || len(s) > ntuple.MaxCells {
		return nil, fmt.Errorf("pattern %q: td2048 reads patterns of 1 to %d cells", s, ntuple.MaxCells)
	}
	var cells []int
	for _, ch := range s {
		var c int
		switch {
		case ch >= '0' && ch <= '9':
			c = int(ch - '0')
		case ch >= 'a' && ch <= 'f':
			c = int(ch-'a') + 10
		default:
			return nil, fmt.Errorf("pattern %q: %q is not a cell", s, ch)
		}
		if slices.Contains(cells, c) {
			return nil, fmt.Errorf("pattern %q names cell %x twice", s, c)
		}
		cells = append(cells, c)
	}
	return cells, nil
}

// section reads little-endian fields of a file at increasing offsets,
// never past its size.
type section struct {
	r         io.ReaderAt
	pos, size int64
	buf       [8]byte
}

var errShort = errors.New("short")

func (s *section) left() int64 { return s.size - s.pos }

func (s *section) bytes(n int) ([]byte, error) {
	if int64(n) > s.left() {
		return nil, errShort
	}
	var b []byte
	if n <= len(s.buf) {
		b = s.buf[:n]
	} else {
		b = make([]byte, n)
	}
	if _, err := s.r.ReadAt(b, s.pos); err != nil {
		return nil, err
	}
	s.pos += int64(n)
	return b, nil
}

func (s *section) u8() (uint8, error) {
	b, err := s.bytes(1)
	if err != nil {
		return 0, err
	}
	return b[0], nil
}

func (s *section) u16() (uint16, error) {
	b, err := s.bytes(2)
	if err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint16(b), nil
}

func (s *section) u32() (uint32, error) {
	b, err := s.bytes(4)
	if err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint32(b), nil
}

func (s *section) u64() (uint64, error) {
	b, err := s.bytes(8)
	if err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint64(b), nil
}

// skip moves past n elements of size bytes each, if the file holds them.
func (s *section) skip(n uint64, size int) bool {
	if size <= 0 || n > uint64(s.left())/uint64(size) {
		return false
	}
	s.pos += int64(n) * int64(size)
	return true
}

// table is where one weight table lies in a file.
type table struct {
	cells []int
	at    int64 // offset of the first element
	elem  int   // element size: 2, 4 or 8 bytes
	tc    int64 // offset of TDL2048+'s coherence field (float32 E then A), 0 for none
	// stage is the table's stage (.w stage tags), pat its pattern's
	// number in the network (build sets it).
	stage, pat int
}

// readTables fills net's tables from the file.
func readTables(r io.ReaderAt, net *ntuple.Network, tabs []table) error {
	var buf []byte
	var tmp []float32 // a table in canonical order, for a network stored in another
	for _, t := range tabs {
		dst := net.StageTable(t.stage, t.pat)
		if !net.Canonical() {
			if len(tmp) < len(dst) {
				tmp = make([]float32, len(dst))
			}
			dst = tmp[:len(dst)]
		}
		if err := readTable(r, t, dst, &buf); err != nil {
			return err
		}
		if !net.Canonical() {
			net.SetCanonicalTable(t.stage, t.pat, dst)
		}
	}
	return nil
}

// readTable reads table t into dst, in the file's order.
func readTable(r io.ReaderAt, t table, dst []float32, buf *[]byte) error {
	if t.elem == 4 && hostLittle {
		_, err := r.ReadAt(asBytes(dst), t.at)
		return err
	}
	const chunk = 1 << 14
	if *buf == nil {
		*buf = make([]byte, chunk*8)
	}
	for i := 0; i < len(dst); i += chunk {
		n := min(chunk, len(dst)-i)
		b := (*buf)[:n*t.elem]
		if _, err := r.ReadAt(b, t.at+int64(i)*int64(t.elem)); err != nil {
			return err
		}
		for j := range n {
			switch t.elem {
			case 2:
				dst[i+j] = halfToFloat(binary.LittleEndian.Uint16(b[2*j:]))
			case 4:
				dst[i+j] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*j:]))
			case 8:
				dst[i+j] = float32(math.Float64frombits(binary.LittleEndian.Uint64(b[8*j:])))
			}
		}
	}
	return nil
}

// build allocates the network of tabs and reads its weights; nothing is
// returned half loaded.
func build(r io.ReaderAt, tabs []table) (*ntuple.Network, error) {
	if len(tabs) == 0 {
		return nil, fmt.Errorf("no tables")
	}
	if len(tabs) > ntuple.MaxPatterns {
		return nil, fmt.Errorf("%d tables; td2048 networks have at most %d patterns", len(tabs), ntuple.MaxPatterns)
	}
	spec, err := stagedSpec(tabs)
	if err != nil {
		return nil, err
	}
	net, err := ntuple.New(spec)
	if err != nil {
		return nil, err
	}
	net.Prefault()
	if err := readTables(r, net, tabs); err != nil {
		net.Free()
		return nil, fmt.Errorf("reading weights: %v", err)
	}
	if !slices.ContainsFunc(tabs, func(t table) bool { return t.tc == 0 }) {
		if err := readCoherence(r, net, tabs); err != nil {
			net.Free()
			return nil, fmt.Errorf("reading coherence accumulators: %v", err)
		}
	}
	return net, nil
}

// readCoherence reads TDL2048+'s TC field of every table (all E, then all
// A, float32) into the network's accumulators (E, A of each weight side by
// side).
func readCoherence(r io.ReaderAt, net *ntuple.Network, tabs []table) error {
	net.EnableCoherence()
	ea := net.Accumulators()
	for _, t := range tabs {
		n := len(net.Table(t.pat))
		off := t.stage*net.Spec().StageWeights() + tableOffset(net, t.pat)
		buf := make([]byte, 8*n)
		if _, err := r.ReadAt(buf, t.tc); err != nil {
			return err
		}
		for i := range n {
			s := off + int(net.StorageIndex(t.pat, uint32(i)))
			ea[2*s] = math.Float32frombits(binary.LittleEndian.Uint32(buf[4*i:]))
			ea[2*s+1] = math.Float32frombits(binary.LittleEndian.Uint32(buf[4*(n+i):]))
		}
	}
	return nil
}

// damaged wraps a structural error of a reference file.
func damaged(k Format, format string, a ...any) error {
	return fmt.Errorf("damaged %s file: %s", k.Describe(), fmt.Sprintf(format, a...))
}

// ReadBin reads the course demo's 2048.bin format from r, which holds size
// bytes. Its patterns are taken to be read on the 8 images of the board
// (but the 8x4 lines on the board alone; see the package notes).
func ReadBin(r io.ReaderAt, size int64) (*ntuple.Network, error) {
	tabs, err := binTables(r, size)
	if err != nil {
		return nil, err
	}
	return build(r, tabs)
}

// binTables reads where the tables of a 2048.bin file of size bytes lie.
func binTables(r io.ReaderAt, size int64) ([]table, error) {
	s := &section{r: r, size: size}
	count, err := s.u64()
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
		l, err := s.u32()
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
		cells, err := parseCells(hex)
		if err != nil {
			return nil, fmt.Errorf("course demo 2048.bin feature %d: %v", f+1, err)
		}
		w, err := s.u64()
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

// WriteBin writes net in the course demo's 2048.bin format: feature names
// "N-tuple pattern CELLS", tables in network order.
func WriteBin(w io.Writer, net *ntuple.Network) error {
	spec := net.Spec()
	if err := CheckRef(spec); err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], uint64(len(spec.Patterns)))
	bw.Write(b[:8])
	for p, cells := range spec.Patterns {
		name := fmt.Sprintf("%d-tuple pattern %s", len(cells), ntuple.PatternString(cells))
		binary.LittleEndian.PutUint32(b[:], uint32(len(name)))
		bw.Write(b[:4])
		bw.WriteString(name)
		tab := net.CanonicalTable(0, p)
		binary.LittleEndian.PutUint64(b[:], uint64(len(tab)))
		bw.Write(b[:8])
		if err := writeFloats(bw, tab); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// ReadW reads TDL2048+'s .w format from r, which holds size bytes. Its
// patterns are taken to be read on the 8 images of the board (but the 8x4
// lines on the board alone; see the package notes). Elements of 2, 4 or 8
// bytes are read (as float32); a temporal-coherence field (float32 E then
// A, on every table) is read into the network's accumulators, other extra
// fields are skipped.
func ReadW(r io.ReaderAt, size int64) (*ntuple.Network, error) {
	tabs, err := wTables(r, size)
	if err != nil {
		return nil, err
	}
	return build(r, tabs)
}

// wTables reads where the tables of a .w file of size bytes lie.
func wTables(r io.ReaderAt, size int64) ([]table, error) {
	s := &section{r: r, size: size}
	code, err := s.u8()
	if err == nil && code == 'w' { // TDL2048+ marks files not named .w so
		code, err = s.u8()
	}
	if err != nil || code != 0 {
		return nil, damaged(TDLW, "no weight section (first byte %d, want 0)", code)
	}
	count, err := s.u32()
	if err != nil {
		return nil, damaged(TDLW, "%d bytes, too short for a table count", size)
	}
	// Each table takes at least 1+8+2+8+2 bytes.
	if count == 0 || uint64(count) > uint64(s.left())/21 {
		return nil, damaged(TDLW, "%d tables cannot fit in %d bytes", count, size)
	}
	if count > ntuple.MaxPatterns {
		return nil, fmt.Errorf("TDL2048+ .w file with %d tables; td2048 networks have at most %d patterns", count, ntuple.MaxPatterns)
	}
	var tabs []table
	for i := range int(count) {
		n := i + 1
		code, err := s.u8()
		if err != nil {
			return nil, damaged(TDLW, "table %d cut short", n)
		}
		if code != 4 {
			return nil, damaged(TDLW, "table %d has serial %d, want 4", n, code)
		}
		raw, err := s.bytes(8)
		if err != nil {
			return nil, damaged(TDLW, "table %d cut short", n)
		}
		raw = slices.Clone(raw)
		elem, err := s.u16()
		if err != nil {
			return nil, damaged(TDLW, "table %d cut short", n)
		}
		length, err := s.u64()
		if err != nil {
			return nil, damaged(TDLW, "table %d cut short", n)
		}
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
			z, err := s.u16()
			if err != nil {
				return nil, damaged(TDLW, "table %d %q cut short: no end mark", n, name)
			}
			if z == 0 {
				break
			}
			m, err := s.u64()
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

// WriteW writes net in TDL2048+'s .w format, as TDL2048+ writes a file
// named *.w: each table's sign is its pattern's cells as hex digits.
func WriteW(w io.Writer, net *ntuple.Network) error { return writeW(w, net, false) }

func writeW(w io.Writer, net *ntuple.Network, mark bool) error {
	spec := net.Spec()
	if err := CheckFormat(TDLW, spec); err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	if mark {
		bw.WriteByte('w')
	}
	var b [8]byte
	bw.WriteByte(0)
	stages := spec.StageCount()
	binary.LittleEndian.PutUint32(b[:], uint32(stages*len(spec.Patterns)))
	bw.Write(b[:4])
	for t := range stages * len(spec.Patterns) {
		k, p := t/len(spec.Patterns), t%len(spec.Patterns)
		cells := spec.Patterns[p]
		bw.WriteByte(4)
		sign, width := wSign(cells, k, stages > 1)
		binary.LittleEndian.PutUint32(b[:], sign)
		binary.LittleEndian.PutUint16(b[4:], width)
		binary.LittleEndian.PutUint16(b[6:], 0)
		bw.Write(b[:8])
		binary.LittleEndian.PutUint16(b[:], 4)
		bw.Write(b[:2])
		tab := net.CanonicalTable(k, p)
		binary.LittleEndian.PutUint64(b[:], uint64(len(tab)))
		bw.Write(b[:8])
		if err := writeFloats(bw, tab); err != nil {
			return err
		}
		if ea := net.Accumulators(); ea != nil {
			// TDL2048+'s coherence field: all E, then all A.
			off := k*spec.StageWeights() + tableOffset(net, p)
			binary.LittleEndian.PutUint16(b[:], 4)
			bw.Write(b[:2])
			binary.LittleEndian.PutUint64(b[:], uint64(2*len(tab)))
			bw.Write(b[:8])
			for k := range 2 {
				for i := range tab {
					s := off + int(net.StorageIndex(p, uint32(i)))
					binary.LittleEndian.PutUint32(b[:], math.Float32bits(ea[2*s+k]))
					bw.Write(b[:4])
				}
			}
		}
		bw.Write([]byte{0, 0})
	}
	return bw.Flush()
}

// tableOffset is the index of the first weight of pattern p's table.
func tableOffset(net *ntuple.Network, p int) int {
	off := 0
	for q := range p {
		off += len(net.Table(q))
	}
	return off
}

// wMarked reports whether TDL2048+ would begin a weight file of this name
// with a 'w': it does unless the character after the name's last dot (the
// first of the name without one) is 'w'.
func wMarked(path string) bool {
	i := strings.LastIndexByte(path, '.') + 1
	return i >= len(path) || path[i] != 'w'
}

// WriteFormat writes net in format k; for TDLW, name decides the leading
// 'w' as TDL2048+ does (see WriteW).
func WriteFormat(w io.Writer, k Format, name string, net *ntuple.Network, h Header) error {
	switch k {
	case Native:
		return Write(w, net, h)
	case DemoBin:
		return WriteBin(w, net)
	case TDLW:
		return writeW(w, net, wMarked(name))
	}
	return fmt.Errorf("unknown weight format %d", k)
}

// SaveFormat writes net to path in format k, atomically.
func SaveFormat(path string, k Format, net *ntuple.Network, h Header) error {
	if err := CheckFormat(k, net.Spec()); err != nil {
		return fmt.Errorf("save %s: %w", path, err)
	}
	return WriteAtomic(path, func(w io.Writer) error { return WriteFormat(w, k, path, net, h) })
}

// DetectFile tells the format of the file at path by its content.
func DetectFile(path string) (Format, error) {
	f, err := os.Open(path)
	if err != nil {
		return Unknown, err
	}
	defer f.Close()
	head := make([]byte, 64)
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return Unknown, err
	}
	return Sniff(head[:n]), nil
}

// ErrUnknownFormat is returned for content in no format td2048 knows.
var ErrUnknownFormat = errors.New("not a weight file td2048 knows: not td2048, 2048.bin or TDL2048+ .w")

// ReadAny reads a weight file in any format td2048 knows from r, which
// holds size bytes, recognising the format by its content. For the
// reference formats the header is made up: game 2048, learner "after",
// Format "2048.bin" or "tdl2048+.w" (version 0), and a comment on what was
// assumed.
func ReadAny(r io.ReaderAt, size int64) (*ntuple.Network, Header, Format, error) {
	head := make([]byte, min(size, 64))
	if _, err := r.ReadAt(head, 0); err != nil && !errors.Is(err, io.EOF) {
		return nil, Header{}, Unknown, err
	}
	k := Sniff(head)
	var net *ntuple.Network
	var err error
	switch k {
	case Native:
		net, h, err := readNative(bufio.NewReaderSize(io.NewSectionReader(r, 0, size), 1<<20), size)
		return net, h, k, err
	case DemoBin:
		net, err = ReadBin(r, size)
	case TDLW:
		net, err = ReadW(r, size)
	default:
		return nil, Header{}, k, ErrUnknownFormat
	}
	if err != nil {
		return nil, Header{}, k, err
	}
	if err := checkFinite(net); err != nil {
		net.Free()
		return nil, Header{}, k, err
	}
	return net, refHeader(k, net.Spec()), k, nil
}

// refHeader is the header made up for a network of spec read from a
// file in reference format k (see ReadAny).
func refHeader(k Format, spec ntuple.Spec) Header {
	h := Header{Element: "float32", Game: "2048", Learner: "after", Network: spec.String(), Weights: int64(spec.Weights())}
	h.Format = "2048.bin"
	if k == TDLW {
		h.Format = "tdl2048+.w"
	}
	iso := "on the 8 images of the board"
	if !spec.Iso {
		iso = "without isomorphisms (the 8x4 lines)"
	}
	h.Comment = fmt.Sprintf("read from %s: patterns taken to be read %s; after-state values of 2048", k.Describe(), iso)
	if spec.StageCount() > 1 {
		h.Comment += fmt.Sprintf("; %d stages, whose thresholds the file does not record", spec.StageCount())
	}
	return h
}

// LoadAny reads the weight file at path in any format td2048 knows,
// recognised by its content, not its name: td2048's own, the course
// demo's 2048.bin or TDL2048+'s .w (see ReadAny).
func LoadAny(path string) (*ntuple.Network, Header, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, Header{}, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, Header{}, err
	}
	if st.IsDir() {
		return nil, Header{}, fmt.Errorf("%s is a directory, not a weight file", path)
	}
	net, h, _, err := ReadAny(f, st.Size())
	if errors.Is(err, ErrUnknownFormat) {
		return nil, Header{}, fmt.Errorf("%s is %w", path, err)
	}
	if err != nil {
		return nil, Header{}, fmt.Errorf("%s: %w", path, err)
	}
	return net, h, nil
}

// halfToFloat converts an IEEE 754 binary16 value.
func halfToFloat(h uint16) float32 {
	sign := uint32(h>>15) << 31
	exp := uint32(h>>10) & 0x1f
	frac := uint32(h) & 0x3ff
	switch {
	case exp == 0x1f:
		return math.Float32frombits(sign | 0xff<<23 | frac<<13)
	case exp != 0:
		return math.Float32frombits(sign | (exp+112)<<23 | frac<<13)
	case frac == 0:
		return math.Float32frombits(sign)
	}
	// Subnormal: value = frac * 2^-24.
	v := float32(frac) * (1.0 / (1 << 24))
	if sign != 0 {
		v = -v
	}
	return v
}
