package netfile

// Loading weights for play: compact (ntuple's 16-bit weights), without
// ever holding the float32 weights whole.

import (
	"bufio"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"math"
	"os"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/td2048/td2048/ntuple"
)

// expandInt16 is a FillCanonical source of float32 weights, q x s, from a
// compact file's int16 weights read from r.
func expandInt16(r io.Reader, spec ntuple.Spec, scales []float32) func([]float32) error {
	tabs := tableStarts(spec)
	var buf []int16
	at := int64(0)
	return func(f []float32) error {
		if len(buf) < len(f) {
			buf = make([]int16, len(f))
		}
		q := buf[:len(f)]
		if err := readLE(r, q); err != nil {
			return err
		}
		for i, x := range q {
			f[i] = float32(x)
		}
		eachTable(tabs, at, f, func(t, _ int, g []float32) {
			for j := range g {
				g[j] *= scales[t]
			}
		})
		at += int64(len(f))
		return nil
	}
}

// notCompact is why a file was not loaded compact: its tables would not
// fit 16 bits.
type notCompact struct{ why error }

func (e notCompact) Error() string { return e.why.Error() }

// readNativeCompact reads a td2048 file of float32 weights, size bytes,
// from r into a compact network. It is read twice (compactOf), its
// checksum compared again on the second pass, so the float32 weights are
// never held whole. When the tables would not fit 16 bits
// (ntuple.CompactFits) it returns a notCompact error, and nothing else is
// wrong.
func readNativeCompact(r io.ReaderAt, size int64) (*ntuple.Network, Header, error) {
	open := func() (*bufio.Reader, io.Reader, hash.Hash32) {
		br := bufio.NewReaderSize(io.NewSectionReader(r, 0, size), readBuffer)
		h := crc32.New(castagnoli)
		return br, io.TeeReader(br, h), h
	}
	br, tr, h := open()
	l, err := readNativeHead(tr, size)
	if err != nil {
		return nil, Header{}, err
	}
	changed := errors.New("weight file changed while it was read")
	var sum uint32
	pass := func(second bool, work func(int, int64, []float32) error) error {
		if second { // the file must be the one read
			br, tr, h = open()
			l2, err := readNativeHead(tr, size)
			if err == nil && (l2.h.Network != l.h.Network || l2.elem != l.elem || l2.acc != l.acc) {
				err = changed
			}
			if err != nil {
				return err
			}
		}
		if err := pipeline(func(f []float32) error { return shortRead(readLE(tr, f)) }, l.h.Weights+l.acc, work); err != nil {
			return err
		}
		if second {
			if h.Sum32() != sum {
				return changed
			}
			return nil
		}
		sum = h.Sum32() // the accumulators read through, the checksum checked
		return readTrailer(br, sum)
	}
	bad := func(i int64) error { return nonFinite(i, l.h.Weights) }
	net, err := compactOf(l.spec, bad, pass)
	if err != nil {
		return nil, Header{}, err
	}
	return net, l.h, nil
}

// compactOf makes a compact network of spec from its float32 weights,
// read twice so that they are never held whole: once for the statistics
// of the tables (and that every value is finite: bad is the refusal of
// value i that is not), whose scales make the network, and once to fill
// it. pass reads the file (the second time if second), handing each
// block of floats in order, with the index of its first, to work
// (pipeline). It returns a notCompact error when the tables would not
// fit 16 bits.
func compactOf(spec ntuple.Spec, bad func(i int64) error, pass func(second bool, work func(w int, at int64, f []float32) error) error) (*ntuple.Network, error) {
	tabs := tableStarts(spec)
	stw := make([][]ntuple.TableStats, pipeWorkers())
	for w := range stw {
		stw[w] = make([]ntuple.TableStats, len(tabs)-1)
	}
	err := pass(false, func(w int, at int64, f []float32) error {
		for i, x := range f {
			if x-x != 0 {
				return bad(at + int64(i))
			}
		}
		eachTable(tabs, at, f, func(t, _ int, g []float32) { stw[w][t].Add(g) })
		return nil
	})
	if err != nil {
		return nil, err
	}
	st := stw[0]
	for _, o := range stw[1:] {
		for t := range st {
			st[t].Merge(&o[t])
		}
	}
	if err := ntuple.CompactFits(st); err != nil {
		return nil, notCompact{err}
	}
	net, err := ntuple.NewCompact(spec, ntuple.CompactScales(st))
	if err != nil {
		return nil, err
	}
	err = pass(true, func(_ int, at int64, f []float32) error {
		eachTable(tabs, at, f, net.SetCanonicalCompact)
		return nil
	})
	if err != nil {
		net.Free()
		return nil, err
	}
	return net, nil
}

// tableStarts are the index of each table's first weight in file order,
// and the number of weights after the last.
func tableStarts(spec ntuple.Spec) []int64 {
	starts := []int64{0}
	for range spec.StageCount() {
		for _, p := range spec.Patterns {
			starts = append(starts, starts[len(starts)-1]+1<<(4*len(p)))
		}
	}
	return starts
}

// eachTable calls f for each table's share of the weights f holds, whose
// first has index at in file order (tables starting at starts): with the
// table, the share's first index in it, and the share. Weights past the
// last table (accumulators) are left out.
func eachTable(starts []int64, at int64, w []float32, f func(t, from int, w []float32)) {
	t := max(0, sort.Search(len(starts), func(i int) bool { return starts[i] > at })-1)
	for ; len(w) > 0 && t < len(starts)-1; t++ {
		if at >= starts[t+1] {
			continue
		}
		n := min(int64(len(w)), starts[t+1]-at)
		f(t, int(at-starts[t]), w[:n])
		w, at = w[n:], at+n
	}
}

// pipeWorkers is how many goroutines pipeline works with.
func pipeWorkers() int { return max(1, min(runtime.GOMAXPROCS(0), 8)) }

// pipeline reads n float32s with read a block at a time, in order (read
// may feed a checksum), and hands each block, with the file index of its
// first float, to work on one of pipeWorkers goroutines (w the worker's
// number), so that reading and working overlap on several CPUs. It
// returns the first error of a read or of work.
func pipeline(read func([]float32) error, n int64, work func(w int, at int64, f []float32) error) error {
	const block = 1 << 16
	workers := pipeWorkers()
	type job struct {
		at int64
		f  []float32
	}
	jobs, free := make(chan job, workers), make(chan []float32, workers+2)
	for range workers + 2 {
		free <- make([]float32, block)
	}
	var (
		once   sync.Once
		first  error
		failed atomic.Bool
		wg     sync.WaitGroup
	)
	fail := func(err error) {
		once.Do(func() { first = err })
		failed.Store(true)
	}
	for w := range workers {
		wg.Go(func() {
			for j := range jobs {
				if !failed.Load() {
					if err := work(w, j.at, j.f); err != nil {
						fail(err)
					}
				}
				free <- j.f[:cap(j.f)]
			}
		})
	}
	for at := int64(0); at < n && !failed.Load(); {
		f := <-free
		f = f[:min(int64(len(f)), n-at)]
		if err := read(f); err != nil {
			fail(err)
			break
		}
		jobs <- job{at, f}
		at += int64(len(f))
	}
	close(jobs)
	wg.Wait()
	return first
}

// nonFinite is checkFinite's refusal for float i of a file of weights
// weights (then accumulators).
func nonFinite(i, weights int64) error {
	what := fmt.Sprintf("weight %d", i)
	if i >= weights {
		what = fmt.Sprintf("the coherence accumulators of weight %d", (i-weights)/2)
	}
	return fmt.Errorf("weight file holds a value that is not a finite number (%s): the run that wrote it diverged", what)
}

// buildCompact is build for a compact network (compactOf). It returns a
// notCompact error when the tables would not fit 16 bits.
func buildCompact(r io.ReaderAt, tabs []table, spec ntuple.Spec) (*ntuple.Network, error) {
	pass := func(_ bool, work func(int, int64, []float32) error) error {
		if err := pipeline(tableSource(r, tabs, false), int64(spec.Weights()), work); err != nil {
			return fmt.Errorf("reading weights: %v", err)
		}
		return nil
	}
	return compactOf(spec, func(int64) error { return errors.New("a weight that is not a finite number") }, pass)
}

// Weights says how LoadPlay holds a network's weights for play.
type Weights int

const (
	// Float32 holds them in float32, as training does (a compact file's
	// as q x s).
	Float32 Weights = iota
	// Compact holds them in 16 bits (ntuple's compact weights) where that
	// pays (ntuple.CompactPays: a network larger than the caches), and a
	// compact file always.
	Compact
	// Compact16 holds them in 16 bits whatever the network's size.
	Compact16
	// CompactUnstaged is Compact but for a float32 file of a network
	// staged by tiles (2048's multi-stage networks), which is held in
	// float32: 16-bit weights cost such a network measurable score at 2
	// plies, where single-stage networks, and Threes! networks of a stage
	// a hint, lose nothing measurable (docs/speed.md, "Compact weights
	// and one move on all cores").
	CompactUnstaged
)

// keep32 reports whether w keeps a float32 network of spec in float32,
// and the note that says why where a reader would expect 16 bits.
func (w Weights) keep32(spec ntuple.Spec) (bool, string) {
	switch {
	case w == Float32:
		return true, ""
	case w == Compact16:
		return false, ""
	case !ntuple.CompactPays(spec):
		return true, ""
	case w == CompactUnstaged && spec.StageCount() > 1 && !spec.Hint:
		return true, "playing with float32 weights, not 16-bit ones: 16-bit weights cost a staged network score at 2 plies"
	}
	return false, ""
}

// LoadPlay is LoadAny for play: with Compact, Compact16 or
// CompactUnstaged the weights are read into a compact network (ntuple's
// 16-bit weights), which never holds the float32 weights whole. A file
// whose tables would not fit 16 bits (ntuple.CompactFits), or a float32
// network staged by tiles under CompactUnstaged, is read as float32, and
// note says why. TC accumulators are not read into a compact network:
// play does not use them. Weights so large that a board's value could
// overflow float32 are refused, as a damaged or diverged network.
func LoadPlay(path string, w Weights) (*ntuple.Network, Header, string, error) {
	net, h, note, err := load(path, w)
	if err == nil && net.MaxValue() > maxValue {
		err = fmt.Errorf("%s holds weights so large (a board's value up to %.3g) that values overflow float32: a damaged file, or the run that wrote it diverged", path, net.MaxValue())
		net.Free()
		net = nil
	}
	return net, h, note, err
}

// maxValue bounds the values of boards a network LoadPlay returns may give
// (ntuple.Network.MaxValue): below it, a value, and search's sums of
// values and rewards, stay finite in float32.
const maxValue = math.MaxFloat32 / 16

// load is LoadPlay without the check of the values.
func load(path string, w Weights) (*ntuple.Network, Header, string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, Header{}, "", err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, Header{}, "", err
	}
	if st.IsDir() {
		return nil, Header{}, "", fmt.Errorf("%s is a directory, not a weight file", path)
	}
	net, h, _, note, err := readAny(f, st.Size(), w)
	if errors.Is(err, ErrUnknownFormat) {
		return nil, Header{}, "", fmt.Errorf("%s is %w", path, err)
	}
	if err != nil {
		return nil, Header{}, "", fmt.Errorf("%s: %w", path, err)
	}
	return net, h, note, nil
}
