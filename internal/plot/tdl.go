package plot

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/td2048/td2048/stats"
)

// TDL2048+ (the research framework, github.com/moporgic/TDL2048) prints a
// training run as blocks of three lines, one block per UNIT episodes:
//
//	001/030 410ms 1230448.78ops
//	local:  avg=7497 max=24572 tile=2048 win=0.20%
//	total:  avg=7497 max=24572 tile=2048 win=0.20%
//
// the block's index out of the recipe's count, its time and moves/s; the
// block's mean score (rounded down), best score, largest tile and the share
// of games that reached the winning tile (2048 unless `-w` or `LOOP:WIN`
// says otherwise); then the same since the recipe began. Each recipe
// starts with a line naming it, like `optimize: 30 mode=backward` or
// `evaluate: 1x100 info`, whose first word is LOOP[xUNIT][:WIN] and whose
// words unit=N and win=N override those.

// tdlSniff is how much of a file IsTDL looks at.
const tdlSniff = 4096

// IsTDL reports whether head, the start of a file, is TDL2048+'s output
// rather than a metrics log (JSON lines): its first non-blank character
// does not open a JSON object.
func IsTDL(head []byte) bool {
	s := strings.TrimLeft(string(head), " \t\r\n")
	return s != "" && s[0] != '{'
}

// ReadTDL reads TDL2048+'s output of a training run as statistics
// blocks: the blocks of its training recipes (`-t`), one after another on
// one episode axis; evaluation recipes (`-e`) are skipped. A record knows
// only what TDL2048+ prints: the block's mean score, best score, moves/s,
// and the reach share of the winning tile alone. A block
// cut off at the end of the file (a run still going) is ignored; anything
// else that starts like a block and is not one is an error naming its
// line. A run of P threads (`-p P`, its header `thread = Px`) prints each
// thread's blocks (lines ending in ` [THREAD]`) as they finish, the
// threads' interleaved; block i of every thread makes one record at i*P
// units: the threads' mean of the mean score and of the winning tile's
// share, the best score of any, the sum of their moves/s (they run at
// once), and their mean time. Blocks that not every thread has finished
// at the end of the file are ignored.
func ReadTDL(r io.Reader) ([]stats.Record, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	t := newTDLReader()
	for sc.Scan() {
		t.n++
		if err := t.line(strings.TrimRight(sc.Text(), " \r")); err != nil {
			return t.recs, err
		}
	}
	if errors.Is(sc.Err(), bufio.ErrTooLong) {
		return t.recs, fmt.Errorf("line %d is longer than 1 MiB: not TDL2048+ output", t.n+1)
	}
	return t.recs, sc.Err()
}

// A tdlReader is ReadTDL's state between lines.
type tdlReader struct {
	recs    []stats.Record
	n       int                 // the lines read
	unit    int64               // episodes per block of this recipe
	win     int                 // this recipe's winning tile
	alpha   float64             // the learning rate, from the header
	threads int                 // the run's threads (-p), from its header
	train   bool                // the current recipe trains (or no recipe line was seen)
	base    int64               // episodes of the training recipes before this one
	last    int64               // episodes at the last block of this recipe
	elapsed float64             // seconds of training blocks so far
	lastT   []int64             // each thread's last block index in this recipe
	groups  map[int64]*tdlGroup // this recipe's blocks by index, until every thread has printed them
	emitted int64               // blocks of this recipe whose group made a record

	pending *tdlGroup // a block line waiting for its local: line: one thread's block
	pendAt  int       // the pending block line's number
	pendI   int64     // the pending block's index
}

// newTDLReader is a reader at the start of a file: one thread, a unit of
// 1000 episodes, 2048 to win, training until a recipe line says otherwise.
func newTDLReader() *tdlReader {
	t := &tdlReader{unit: 1000, win: 2048, threads: 1, train: true, groups: map[int64]*tdlGroup{}}
	t.cut()
	return t
}

// cut starts a recipe's blocks afresh.
func (t *tdlReader) cut() {
	clear(t.groups)
	t.emitted = 0
	t.lastT = make([]int64, t.threads)
}

// line reads the next line: the local: line of a pending block (blank lines
// before it skipped), a header line (thread = Px, alpha = A), a recipe
// line, or a block line; other lines are not blocks and are skipped.
func (t *tdlReader) line(line string) error {
	if t.pending != nil {
		if strings.TrimSpace(line) == "" {
			return nil
		}
		return t.local(line)
	}
	switch {
	case strings.HasPrefix(line, "thread = ") && strings.HasSuffix(line, "x"):
		p, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(line, "thread = "), "x"))
		if err != nil || p < 1 || p > 4096 {
			return fmt.Errorf("line %d: %q: want thread = Px, P from 1 to 4096", t.n, line)
		}
		t.threads = p
		t.cut()
	case strings.HasPrefix(line, "alpha = "): // the records carry it, unless it is not a finite number
		if a, err := strconv.ParseFloat(strings.TrimPrefix(line, "alpha = "), 64); err == nil && finite(a) {
			t.alpha = a
		}
	case strings.HasPrefix(line, "optimize:"), strings.HasPrefix(line, "evaluate:"):
		return t.recipe(line)
	case isTDLIndex(line):
		return t.block(line)
	}
	return nil
}

// recipe reads a recipe line: the episodes of the one before count on,
// and its blocks are kept if it trains.
func (t *tdlReader) recipe(line string) error {
	var err error
	t.unit, t.win, err = tdlRecipe(line)
	if err != nil {
		return fmt.Errorf("line %d: %w", t.n, err)
	}
	t.base += t.last
	t.last = 0
	t.cut()
	t.train = strings.HasPrefix(line, "optimize:")
	return nil
}

// block reads a block line, which must be its thread's next block, and
// leaves it pending for its local: line (in a training recipe).
func (t *tdlReader) block(line string) error {
	i, ms, ops, th, err := tdlIndex(line)
	if err != nil {
		return fmt.Errorf("line %d: %w", t.n, err)
	}
	if (th >= 0) != (t.threads > 1) || th >= t.threads {
		if th < 0 {
			return fmt.Errorf("line %d: a block line without its thread in a run of %d threads", t.n, t.threads)
		}
		return fmt.Errorf("line %d: block line %q is thread %d's (TDL2048+ -p), but the output has no header line thread = Px naming more than %d", t.n, line, th, t.threads)
	}
	if !t.train {
		return nil
	}
	th = max(th, 0) // one thread's blocks are thread 0's
	if want := t.lastT[th] + 1; i != want {
		if t.threads == 1 {
			return fmt.Errorf("line %d: block %d where block %d was due", t.n, i, want)
		}
		return fmt.Errorf("line %d: block %d of thread %d where block %d was due", t.n, i, th, want)
	}
	t.lastT[th], t.pendI = i, i
	t.pending = &tdlGroup{n: 1, ops: ops, ms: float64(ms)}
	t.pendAt = t.n
	return nil
}

// local reads the pending block's local: line into its group, and makes
// a record of each next group that every thread has finished.
func (t *tdlReader) local(line string) error {
	if err := tdlLocal(line, t.pending); err != nil {
		return fmt.Errorf("line %d: %v (after the block line %d)", t.n, err, t.pendAt)
	}
	if g := t.groups[t.pendI]; g != nil {
		g.add(t.pending)
	} else {
		t.groups[t.pendI] = t.pending
	}
	t.pending = nil
	threads := int64(t.threads)
	for g := t.groups[t.emitted+1]; g != nil && g.n == t.threads; g = t.groups[t.emitted+1] {
		delete(t.groups, t.emitted+1)
		t.emitted++
		t.last = t.emitted * t.unit * threads
		t.elapsed += g.ms / float64(t.threads) / 1000
		t.recs = append(t.recs, g.record(t.base+t.last, t.unit*threads, t.elapsed, t.alpha, t.win))
	}
	return nil
}

// A tdlGroup gathers block i of each thread of a run (one or more): of
// n blocks, the sums of their mean scores, winning tile's shares, moves/s
// and milliseconds, and their best score.
type tdlGroup struct {
	n         int
	avg, rate float64
	max       int
	ops, ms   float64
}

// add adds the blocks of b.
func (g *tdlGroup) add(b *tdlGroup) {
	g.n += b.n
	g.avg += b.avg
	g.max = max(g.max, b.max)
	g.ops += b.ops
	g.ms += b.ms
	g.rate += b.rate
}

// record is the group's record at episodes, games of them.
func (g *tdlGroup) record(episodes, games int64, elapsed, alpha float64, win int) stats.Record {
	return stats.Record{Episodes: episodes, Summary: stats.Summary{Games: int(games), Avg: g.avg / float64(g.n), Max: g.max,
		Reach: map[string]float64{strconv.Itoa(win): g.rate / float64(g.n)}}, MovesPerSec: g.ops,
		Elapsed: elapsed, Alpha: alpha}
}

// tdlRecipe reads a recipe line's unit and winning tile.
func tdlRecipe(line string) (unit int64, win int, err error) {
	unit, win = 1000, 2048
	setUnit := func(s string) (err error) {
		if unit, err = strconv.ParseInt(s, 10, 64); err != nil {
			err = fmt.Errorf("recipe %q: bad unit %q", line, s)
		}
		return err
	}
	setWin := func(s string) (err error) {
		if win, err = strconv.Atoi(s); err != nil {
			err = fmt.Errorf("recipe %q: bad winning tile %q", line, s)
		}
		return err
	}
	for k, w := range strings.Fields(line)[1:] {
		key, val, kv := strings.Cut(w, "=")
		switch {
		case k == 0 && !kv: // LOOP[xUNIT][:WIN]
			spec, w, hasWin := strings.Cut(w, ":")
			if hasWin {
				err = setWin(w)
			}
			if _, u, ok := strings.Cut(spec, "x"); ok && err == nil {
				err = setUnit(u)
			}
		case key == "unit":
			err = setUnit(val)
		case key == "win":
			err = setWin(val)
		}
		if err != nil {
			return 0, 0, err
		}
	}
	if unit < 1 || unit > 1e9 {
		return 0, 0, fmt.Errorf("recipe %q: unit %d: want 1 to 10^9 episodes", line, unit)
	}
	if win < 2 || win > 1<<20 || win&(win-1) != 0 {
		return 0, 0, fmt.Errorf("recipe %q: winning tile %d: want a power of two", line, win)
	}
	return unit, win, nil
}

// isTDLIndex reports whether line starts like a block line: III/NNN.
func isTDLIndex(line string) bool {
	first, _, _ := strings.Cut(line, " ")
	a, b, ok := strings.Cut(first, "/")
	digits := func(s string) bool {
		return s != "" && strings.Trim(s, "0123456789") == ""
	}
	return ok && digits(a) && digits(b)
}

// tdlIndex reads a block line `III/NNN Tms Rops`, or a thread's
// `III/NNN Tms Rops [THREAD]` (thread -1 for a line without one).
func tdlIndex(line string) (i, ms int64, ops float64, thread int, err error) {
	f := strings.Fields(line)
	bad := fmt.Errorf("not a TDL2048+ block line (III/NNN Tms Rops): %q", line)
	thread = -1
	if len(f) == 4 {
		t, ok := strings.CutPrefix(f[3], "[")
		t, ok2 := strings.CutSuffix(t, "]")
		th, err := strconv.Atoi(t)
		if !ok || !ok2 || err != nil || th < 0 || th > 4096 {
			return 0, 0, 0, 0, bad
		}
		thread, f = th, f[:3]
	}
	if len(f) != 3 || !strings.HasSuffix(f[1], "ms") || !strings.HasSuffix(f[2], "ops") {
		return 0, 0, 0, 0, bad
	}
	a, b, _ := strings.Cut(f[0], "/")
	i, err1 := strconv.ParseInt(a, 10, 64)
	of, err2 := strconv.ParseInt(b, 10, 64)
	ms, err3 := strconv.ParseInt(strings.TrimSuffix(f[1], "ms"), 10, 64)
	ops, err4 := strconv.ParseFloat(strings.TrimSuffix(f[2], "ops"), 64)
	if err1 != nil || err2 != nil || err3 != nil || err4 != nil || i < 1 || i > of || ms < 0 || !(ops >= 0) || !finite(ops) {
		return 0, 0, 0, 0, bad
	}
	return i, ms, ops, thread, nil
}

// tdlLocal fills a thread's block g from its `local:` line.
func tdlLocal(line string, g *tdlGroup) error {
	f := strings.Fields(line)
	bad := fmt.Errorf("want local:  avg=A max=M tile=T win=W%%, got %q", line)
	if len(f) != 5 || f[0] != "local:" {
		return bad
	}
	val := func(w, key string) string {
		if !strings.HasPrefix(w, key+"=") {
			return "\x00"
		}
		return strings.TrimPrefix(w, key+"=")
	}
	avg, err1 := strconv.ParseUint(val(f[1], "avg"), 10, 64)
	best, err2 := strconv.ParseUint(val(f[2], "max"), 10, 32)
	_, err3 := strconv.ParseUint(val(f[3], "tile"), 10, 32) // the largest tile; its share is not printed
	w := val(f[4], "win")
	if !strings.HasSuffix(w, "%") {
		return bad
	}
	rate, err4 := strconv.ParseFloat(strings.TrimSuffix(w, "%"), 64)
	if err1 != nil || err2 != nil || err3 != nil || err4 != nil || !(rate >= 0 && rate <= 100) {
		return bad
	}
	if avg > best {
		return fmt.Errorf("mean score %d above the best %d in %q", avg, best, line)
	}
	g.avg, g.max, g.rate = float64(avg), int(best), rate/100
	return nil
}
