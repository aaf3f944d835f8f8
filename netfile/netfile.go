// Package netfile reads and writes weight files.
//
// td2048's own format is
//
//	"td2048w\n"                      8 bytes
//	header length H                  uint32, little-endian
//	header                           H bytes of JSON (see Header)
//	weights                          float32 little-endian, pattern after pattern
//	CRC-32C of all the bytes above   uint32, little-endian
//
// or, for a compact network (ntuple's 16-bit weights for play; element
// "int16"), the weights are int16 little-endian and the header holds
// each table's scale.
//
// A file is written to a temporary file in the same folder, synced and
// renamed over the target, so a crash leaves the old file or the new one,
// never half of one. A file whose checksum, length or header is wrong is
// refused whole; nothing is half loaded.
package netfile

import (
	"bufio"
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"os"
	"unsafe"

	"github.com/td2048/td2048/ntuple"
)

const magic = "td2048w\n"

// maxHeader bounds the JSON header a reader accepts.
const maxHeader = 1 << 20

// readBuffer is the buffer of a weight file's reader: the weights go
// past it in reads of 64 KiB and more.
const readBuffer = 64 << 10

// Header describes a weight file. Network, Element and Weights are checked
// on reading; the rest is information for people and tools.
type Header struct {
	Format   string `json:"format"`  // "td2048-weights"
	Version  int    `json:"version"` // 1
	Network  string `json:"network"` // ntuple.Spec.String()
	Element  string `json:"element"` // "float32", or "int16" for compact weights
	Weights  int64  `json:"weights"` // number of weights
	Game     string `json:"game"`    // "2048" or "threes"
	Learner  string `json:"learner"` // "after" or "state"
	Episodes int64  `json:"episodes,omitempty"`
	// Coherence marks a network that learns by temporal coherence: the
	// weights are followed by each weight's two accumulators (E, A),
	// float32, interleaved.
	Coherence bool `json:"coherence,omitempty"`
	// Scales are a compact file's scales (element int16), one a table,
	// stage after stage, patterns in spec order: weight q of table t is
	// q x Scales[t] (ntuple.NewCompact).
	Scales  []float32 `json:"scales,omitempty"`
	Comment string    `json:"comment,omitempty"`
	// Run, when present, is the state of the training run that wrote the
	// file, enough to resume it (train --resume).
	Run json.RawMessage `json:"run,omitempty"`
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// write writes net in td2048's format. It fills in h's Format, Version,
// Network, Element and Weights.
//
// A compact network is written compact: int16 weights and their scales,
// without a training run's state (Run), which its weights cannot resume.
func write(w io.Writer, net *ntuple.Network, h Header) error {
	h.Format, h.Version, h.Element = "td2048-weights", 1, "float32"
	h.Network = net.Spec().String()
	h.Weights = int64(net.Spec().Weights())
	h.Coherence = net.Coherent()
	h.Scales = nil
	if net.Compact() {
		h.Element, h.Scales, h.Run = "int16", net.Scales(), nil
	}
	h.Game = cmp.Or(h.Game, "2048")
	h.Learner = cmp.Or(h.Learner, "after")
	js, err := json.Marshal(h)
	if err != nil {
		return err
	}
	crc := crc32.New(castagnoli)
	bw := bufio.NewWriterSize(io.MultiWriter(w, crc), 1<<20)
	bw.WriteString(magic)
	littleEndian(bw)(uint32(len(js)))
	bw.Write(js)
	// Weights and accumulators in canonical order (ntuple's storage order
	// may differ).
	put := func(f []float32) error { return writeLE(bw, f) }
	if net.Compact() {
		err = net.EachCanonicalQ(func(_ int, q []int16) error { return writeLE(bw, q) })
	} else if err = net.EachCanonical(false, put); err == nil {
		err = net.EachCanonical(true, put)
	}
	if err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	return binary.Write(w, binary.LittleEndian, crc.Sum32())
}

// nativeLayout is what a td2048 file's header says of the rest of the
// file.
type nativeLayout struct {
	h    Header
	spec ntuple.Spec
	// elem is the bytes of a weight (4 for float32, 2 for int16); acc the
	// float32s of TC accumulators after the weights.
	elem int
	acc  int64
}

// readNativeHead reads the magic, the header's length and the header from
// r and checks them, and the file's size (-1: unknown) against them,
// before anything is allocated for the weights.
func readNativeHead(r io.Reader, size int64) (nativeLayout, error) {
	var l nativeLayout
	head := make([]byte, len(magic)+4)
	if _, err := io.ReadFull(r, head); err != nil {
		return l, fmt.Errorf("not a td2048 weight file: too short")
	}
	if string(head[:len(magic)]) != magic {
		return l, fmt.Errorf("not a td2048 weight file: wrong magic")
	}
	hl := binary.LittleEndian.Uint32(head[len(magic):])
	if hl > maxHeader {
		return l, fmt.Errorf("damaged weight file: header of %d bytes", hl)
	}
	js := make([]byte, hl)
	if _, err := io.ReadFull(r, js); err != nil {
		return l, fmt.Errorf("truncated weight file: header cut short")
	}
	h := &l.h
	dec := json.NewDecoder(bytes.NewReader(js))
	if err := dec.Decode(h); err != nil {
		return l, fmt.Errorf("damaged weight file: header: %v", err)
	}
	if h.Format != "td2048-weights" || h.Version != 1 {
		return l, fmt.Errorf("weight file format %q version %d: this td2048 reads td2048-weights version 1", h.Format, h.Version)
	}
	spec, err := ntuple.ParseSpec(h.Network)
	if err != nil {
		return l, fmt.Errorf("damaged weight file: %v", err)
	}
	l.spec = spec
	if int64(spec.Weights()) != h.Weights {
		return l, fmt.Errorf("damaged weight file: network %s has %d weights, header says %d", h.Network, spec.Weights(), h.Weights)
	}
	switch h.Element {
	case "float32":
		l.elem = 4
		if h.Coherence {
			l.acc = 2 * h.Weights
		}
		if h.Scales != nil {
			return l, fmt.Errorf("damaged weight file: float32 weights with scales")
		}
	case "int16":
		l.elem = 2
		if h.Coherence {
			return l, fmt.Errorf("damaged weight file: compact weights with coherence accumulators")
		}
		if want := spec.StageCount() * len(spec.Patterns); len(h.Scales) != want {
			return l, fmt.Errorf("damaged weight file: %d scales for the %d tables of %s", len(h.Scales), want, h.Network)
		}
		for t, sc := range h.Scales {
			if !(sc >= 0) || math.IsInf(float64(sc), 0) {
				return l, fmt.Errorf("damaged weight file: table %d has scale %v", t, sc)
			}
		}
	default:
		return l, fmt.Errorf("weight file holds %q elements: this td2048 reads float32 and int16 (compact)", h.Element)
	}
	want := int64(len(magic)+4) + int64(hl) + int64(l.elem)*h.Weights + 4*l.acc + 4
	if size >= 0 && size != want {
		what := "truncated"
		if size > want {
			what = "damaged"
		}
		return l, fmt.Errorf("%s weight file: its header describes a %s network (%d bytes in all) but the file has %d bytes", what, h.Network, want, size)
	}
	return l, nil
}

// readNative reads a td2048 weight file of size bytes (-1: unknown) and
// returns the network it holds: a size that does not match the header is
// refused before the weights are allocated. A compact file's weights are
// read as float32, q x s, unless compact is set: then they are read as
// they lie, into a compact network.
func readNative(r io.Reader, size int64, compact bool) (*ntuple.Network, Header, error) {
	crc := crc32.New(castagnoli)
	tr := io.TeeReader(r, crc)
	l, err := readNativeHead(tr, size)
	if err != nil {
		return nil, Header{}, err
	}
	h := l.h
	var net *ntuple.Network
	if compact && l.elem == 2 {
		if net, err = ntuple.NewCompact(l.spec, h.Scales); err != nil {
			return nil, Header{}, fmt.Errorf("damaged weight file: %v", err)
		}
		err = net.FillCanonicalQ(func(_ int, q []int16) error { return readLE(tr, q) })
	} else {
		if net, err = ntuple.New(l.spec); err != nil {
			return nil, Header{}, err
		}
		if h.Coherence {
			net.EnableCoherence()
		}
		net.Prefault() // all CPUs fault the memory in, faster than the reads one by one
		get := func(f []float32) error { return readLE(tr, f) }
		if l.elem == 2 {
			get = expandInt16(tr, l.spec, h.Scales)
		}
		if err = net.FillCanonical(false, get); err == nil {
			err = net.FillCanonical(true, get)
		}
	}
	if err == nil {
		err = readTrailer(r, crc.Sum32())
	}
	if err == nil {
		err = checkFinite(net)
	}
	if err != nil {
		net.Free()
		return nil, Header{}, shortRead(err)
	}
	return net, h, nil
}

// shortRead names a read cut short a truncated file.
func shortRead(err error) error {
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return fmt.Errorf("truncated weight file: weights cut short")
	}
	return err
}

// readTrailer reads the checksum at the end of a td2048 file from r and
// checks it against want, the checksum of all the bytes before it, and
// that nothing follows it.
func readTrailer(r io.Reader, want uint32) error {
	var tail [5]byte
	n, err := io.ReadFull(r, tail[:])
	if n < 4 {
		return fmt.Errorf("truncated weight file: checksum missing")
	}
	if n > 4 || err == nil {
		return fmt.Errorf("damaged weight file: data after the checksum")
	}
	if got := binary.LittleEndian.Uint32(tail[:4]); got != want {
		return fmt.Errorf("damaged weight file: checksum %08x, content sums to %08x", got, want)
	}
	return nil
}

// checkFinite refuses weights that hold NaN or an infinity: the mark of a
// diverged run, and values no search can compare.
func checkFinite(net *ntuple.Network) error {
	i := net.FirstNonFinite()
	if i < 0 {
		return nil
	}
	what := fmt.Sprintf("weight %d", i)
	if net.Coherent() {
		what += " or its coherence accumulators"
	}
	return fmt.Errorf("weight file holds a value that is not a finite number (%s): the run that wrote it diverged", what)
}

// Save writes net to path atomically: a temporary file in the same folder,
// synced, then renamed over path.
func Save(path string, net *ntuple.Network, h Header) error { return SaveFormat(path, Native, net, h) }

// hostLittle reports whether numbers are stored little-endian in memory,
// so that weights can be copied to and from files as they lie.
var hostLittle = func() bool {
	x := uint32(1)
	return *(*byte)(unsafe.Pointer(&x)) == 1
}()

// element is a weight as files hold it: float32, or int16 for compact
// weights.
type element interface{ float32 | int16 }

// asBytes is the memory of s.
func asBytes[T element](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), len(s)*int(unsafe.Sizeof(s[0])))
}

// writeLE writes s to w little-endian.
func writeLE[T element](w io.Writer, s []T) error {
	if hostLittle {
		_, err := w.Write(asBytes(s))
		return err
	}
	return binary.Write(w, binary.LittleEndian, s)
}

// littleEndian returns a writer of fixed-size numbers to w, little-endian;
// a bufio.Writer keeps the first error for its Flush. A value that is not
// fixed-size is a mistake in the caller: it panics rather than leave a
// gap in the file.
func littleEndian(w *bufio.Writer) func(...any) {
	return func(vs ...any) {
		for _, v := range vs {
			if binary.Size(v) < 0 {
				panic(fmt.Sprintf("netfile: %T is not a fixed-size value", v))
			}
			binary.Write(w, binary.LittleEndian, v)
		}
	}
}

// readLE fills s from r, little-endian, feeding the bytes to any hash r
// tees into.
func readLE[T element](r io.Reader, s []T) error {
	if hostLittle {
		_, err := io.ReadFull(r, asBytes(s))
		return err
	}
	return binary.Read(r, binary.LittleEndian, s)
}

// Expect checks that a file's header is for the given game, learner and
// (when spec is not nil) network, and says what differs.
func Expect(path string, h Header, game, learner string, spec *ntuple.Spec) error {
	if h.Game != game {
		return fmt.Errorf("%s holds weights for %s, not %s", path, h.Game, game)
	}
	if learner != "" && h.Learner != learner {
		return fmt.Errorf("%s holds %s-value weights, not %s-value (use --learner %s)", path, h.Learner, learner, h.Learner)
	}
	if spec != nil && h.Network != spec.String() {
		return fmt.Errorf("%s was made for network %s, not %s", path, h.Network, spec)
	}
	return nil
}

// ReadHeader reads only the header of the td2048 weight file at path.
func ReadHeader(path string) (Header, error) {
	f, err := os.Open(path)
	if err != nil {
		return Header{}, err
	}
	defer f.Close()
	return ReadHeaderFrom(f, path)
}

// ReadHeaderFrom reads only the header of the td2048 weight file that r
// holds from its start; name names it in errors.
func ReadHeaderFrom(r io.Reader, name string) (Header, error) {
	head := make([]byte, len(magic)+4)
	if _, err := io.ReadFull(r, head); err != nil || string(head[:len(magic)]) != magic {
		return Header{}, fmt.Errorf("%s is not a td2048 weight file", name)
	}
	hl := binary.LittleEndian.Uint32(head[len(magic):])
	if hl > maxHeader {
		return Header{}, fmt.Errorf("%s: damaged weight file: header of %d bytes", name, hl)
	}
	js := make([]byte, hl)
	if _, err := io.ReadFull(r, js); err != nil {
		return Header{}, fmt.Errorf("%s: truncated weight file", name)
	}
	var h Header
	if err := json.Unmarshal(js, &h); err != nil {
		return Header{}, fmt.Errorf("%s: damaged weight file: header: %v", name, err)
	}
	return h, nil
}

// FileSum is a checksum of the content of the weight file at path, to
// tell weights apart: for a td2048 file its CRC-32C trailer and length
// ("crc32c:1a2b3c4d/268436000"; the trailer is checked whenever the file
// is loaded, and reading it costs nothing), for other formats the SHA-256
// of the whole file ("sha256:...").
func FileSum(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return "", err
	}
	head := make([]byte, len(magic))
	if n, _ := io.ReadFull(f, head); n == len(magic) && string(head) == magic && fi.Size() >= int64(len(magic))+8 {
		var crc [4]byte
		if _, err := f.ReadAt(crc[:], fi.Size()-4); err != nil {
			return "", err
		}
		return fmt.Sprintf("crc32c:%08x/%d", binary.LittleEndian.Uint32(crc[:]), fi.Size()), nil
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return "", err
	}
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return fmt.Sprintf("sha256:%x", h.Sum(nil)), nil
}
