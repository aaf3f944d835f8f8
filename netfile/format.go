package netfile

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/td2048/td2048/internal/safefile"
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

// formats are each format's name (String) and description (Describe).
var formats = [...]struct{ name, describe string }{
	Unknown: {"unknown", "unknown format"},
	Native:  {"td2048", "td2048"},
	DemoBin: {"bin", "course demo 2048.bin"},
	TDLW:    {"w", "TDL2048+ .w"},
}

// String is the name --to takes: td2048, bin or w.
func (k Format) String() string { return formats[k.known()].name }

// Describe names the format for people.
func (k Format) Describe() string { return formats[k.known()].describe }

// known is k, or Unknown for a value that is no format.
func (k Format) known() Format {
	if k < 0 || int(k) >= len(formats) {
		return Unknown
	}
	return k
}

// ParseFormat reads a format name: td2048, bin or w.
func ParseFormat(s string) (Format, error) {
	name := strings.TrimPrefix(strings.ToLower(s), ".")
	for k := Native; int(k) < len(formats); k++ {
		if formats[k].name == name {
			return k, nil
		}
	}
	return Unknown, fmt.Errorf("weight format %q: want td2048, bin or w", s)
}

// FormatOfName returns the format a file name's extension implies
// (.td2048, .bin, .w), or Unknown.
func FormatOfName(path string) Format {
	k, _ := ParseFormat(filepath.Ext(path))
	return k
}

// sniff tells the format of a file from its first bytes (64 are enough),
// not from its name.
func sniff(head []byte) Format {
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

// writeFormat writes net in format k; for TDLW, name decides the leading
// 'w' as TDL2048+ does (see writeW).
func writeFormat(w io.Writer, k Format, name string, net *ntuple.Network, h Header) error {
	switch k {
	case Native:
		return write(w, net, h)
	case DemoBin:
		return writeBin(w, net)
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
	return safefile.WriteAtomic(path, func(w io.Writer) error { return writeFormat(w, k, path, net, h) })
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
	return sniff(head[:n]), nil
}

// ErrUnknownFormat is returned for content in no format td2048 knows.
var ErrUnknownFormat = errors.New("not a weight file td2048 knows: not td2048, 2048.bin or TDL2048+ .w")

// ReadAny reads a weight file in any format td2048 knows from r, which
// holds size bytes, recognising the format by its content. For the
// reference formats the header is made up: game 2048, learner "after",
// Format "2048.bin" or "tdl2048+.w" (version 0), and a comment on what was
// assumed.
func ReadAny(r io.ReaderAt, size int64) (*ntuple.Network, Header, Format, error) {
	net, h, k, _, err := readAny(r, size, Float32)
	return net, h, k, err
}

// readAny is ReadAny holding the weights as w says (see LoadPlay), with
// the note that says why they are float32 where a reader would expect 16
// bits.
func readAny(r io.ReaderAt, size int64, w Weights) (*ntuple.Network, Header, Format, string, error) {
	head := make([]byte, min(size, 64))
	if _, err := r.ReadAt(head, 0); err != nil && !errors.Is(err, io.EOF) {
		return nil, Header{}, Unknown, "", err
	}
	k := sniff(head)
	net, h, note, err := readFormat(r, size, k, w)
	var nc notCompact
	if errors.As(err, &nc) {
		note = fmt.Sprintf("playing with float32 weights, not 16-bit ones: %v", nc.why)
		net, h, _, err = readFormat(r, size, k, Float32)
	}
	if err != nil {
		return nil, Header{}, k, "", err
	}
	return net, h, k, note, nil
}

// readFormat reads a file in format k as readAny does; readNativeCompact
// and buildCompact read a compact network, and return a notCompact error
// when its tables would not fit 16 bits.
func readFormat(r io.ReaderAt, size int64, k Format, w Weights) (*ntuple.Network, Header, string, error) {
	var tabs []table
	var err error
	switch k {
	case Native:
		var why string
		if w != Float32 { // a float32 file may be read into 16 bits
			l, err := readNativeHead(bufio.NewReader(io.NewSectionReader(r, 0, size)), size)
			if err != nil {
				return nil, Header{}, "", err
			}
			if keep, note := w.keep32(l.spec); l.elem == 4 && !keep {
				net, h, err := readNativeCompact(r, size)
				return net, h, "", err
			} else if l.elem == 4 {
				why = note // kept in float32 (a compact file plays as it is)
			}
		}
		net, h, err := readNative(bufio.NewReaderSize(io.NewSectionReader(r, 0, size), readBuffer), size, w != Float32)
		return net, h, why, err
	case DemoBin:
		tabs, err = binTables(r, size)
	case TDLW:
		tabs, err = wTables(r, size)
	default:
		return nil, Header{}, "", ErrUnknownFormat
	}
	if err != nil {
		return nil, Header{}, "", err
	}
	spec, tabs, err := tablesSpec(tabs)
	if err != nil {
		return nil, Header{}, "", err
	}
	var net *ntuple.Network
	keep, why := w.keep32(spec)
	if keep {
		net, err = build(r, tabs, spec)
		if err == nil {
			if err = checkFinite(net); err != nil {
				net.Free()
			}
		}
	} else {
		net, err = buildCompact(r, tabs, spec)
	}
	if err != nil {
		return nil, Header{}, "", err
	}
	return net, refHeader(k, net.Spec()), why, nil
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
	net, h, _, err := load(path, Float32)
	return net, h, err
}
