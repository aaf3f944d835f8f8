package netfile

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/td2048/td2048/ntuple"
)

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

// uint reads an unsigned integer of n bytes (at most 8).
func (s *section) uint(n int) (uint64, error) {
	b, err := s.bytes(n)
	if err != nil {
		return 0, err
	}
	var x uint64
	for i := n - 1; i >= 0; i-- {
		x = x<<8 | uint64(b[i])
	}
	return x, nil
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

// tablesSpec is the spec of the network tabs hold, and tabs in its order
// (inOrder), as build and buildCompact want them.
func tablesSpec(tabs []table) (ntuple.Spec, []table, error) {
	if len(tabs) == 0 {
		return ntuple.Spec{}, nil, fmt.Errorf("no tables")
	}
	spec, err := stagedSpec(tabs)
	if err != nil {
		return ntuple.Spec{}, nil, err
	}
	if len(spec.Patterns) > ntuple.MaxPatterns {
		return ntuple.Spec{}, nil, fmt.Errorf("%d tables a stage; td2048 networks have at most %d patterns", len(spec.Patterns), ntuple.MaxPatterns)
	}
	return spec, inOrder(tabs, len(spec.Patterns)), nil
}

// build allocates the network of spec and reads its weights from tabs,
// in its order (tablesSpec); nothing is returned half loaded.
func build(r io.ReaderAt, tabs []table, spec ntuple.Spec) (*ntuple.Network, error) {
	net, err := ntuple.New(spec)
	if err != nil {
		return nil, err
	}
	net.Prefault()
	if err := net.FillCanonical(false, tableSource(r, tabs, false)); err != nil {
		net.Free()
		return nil, fmt.Errorf("reading weights: %v", err)
	}
	if !slices.ContainsFunc(tabs, func(t table) bool { return t.tc == 0 }) {
		net.EnableCoherence()
		if err := net.FillCanonical(true, tableSource(r, tabs, true)); err != nil {
			net.Free()
			return nil, fmt.Errorf("reading coherence accumulators: %v", err)
		}
	}
	return net, nil
}

// inOrder is tabs in the network's order, stage after stage, patterns in
// spec order (np of them), as FillCanonical wants them.
func inOrder(tabs []table, np int) []table {
	order := slices.Clone(tabs)
	slices.SortStableFunc(order, func(a, b table) int { return (a.stage*np + a.pat) - (b.stage*np + b.pat) })
	return order
}

// tableSource is a FillCanonical source of the weights (acc false) of
// tabs, in order, or of their TDL2048+ coherence fields (acc true), whose
// E and A it gives side by side.
func tableSource(r io.ReaderAt, tabs []table, acc bool) func([]float32) error {
	per := 1
	if acc {
		per = 2
	}
	var buf []byte
	var ea []float32
	t, at := 0, 0 // the table and the weight in it the next chunk starts at
	return func(f []float32) error {
		for len(f) > 0 {
			size := 1 << (4 * len(tabs[t].cells))
			m := min(len(f)/per, size-at)
			u := tabs[t]
			if acc { // the field holds all E, then all A
				u = table{at: u.tc + 4*int64(at), elem: 4}
				ea = slices.Grow(ea[:0], 2*m)[:2*m]
				if err := readTable(r, u, ea[:m], &buf); err != nil {
					return err
				}
				u.at += 4 * int64(size)
				if err := readTable(r, u, ea[m:], &buf); err != nil {
					return err
				}
				for i := range m {
					f[2*i], f[2*i+1] = ea[i], ea[m+i]
				}
			} else {
				u.at += int64(at) * int64(u.elem)
				if err := readTable(r, u, f[:m], &buf); err != nil {
					return err
				}
			}
			f, at = f[m*per:], at+m
			if at == size {
				t, at = t+1, 0
			}
		}
		return nil
	}
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
	}
	// Subnormal or zero: value = frac * 2^-24.
	return math.Float32frombits(sign | math.Float32bits(float32(frac)*(1.0/(1<<24))))
}
