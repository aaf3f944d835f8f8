package plot

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/td2048/td2048/games"
	"github.com/td2048/td2048/stats"
)

// The course demo (TDL2048-Demo, the lab's 2048.cpp and 2048.py) prints a
// statistics block every 1000 episodes:
//
//	1000	avg = 7848.38	max = 27040
//		64	100%	(0.5%)
//		128	99.5%	(5.5%)
//		...
//		2048	0.6%	(0.6%)
//
// the episodes so far, the block's mean and best score, then a line for
// each tile some game of the block ended on: the share of the games that
// reached it, and in parentheses the share that ended on it. td2048 train
// prints the same blocks under a header that names its game and network
// (game = 2048, network = 4x6 (...)); the Threes! course framework's
// summary line reads "N	avg = A, max = M, ops = ..." over the same tile
// lines. Students' own programs print it with spaces for tabs or more
// digits; ReadCourse takes either.

var (
	courseBlockLine = regexp.MustCompile(`^(\d+)\s+avg\s*=\s*(\S+?),?\s+max\s*=\s*(\d+)(,.*|\s.*)?$`)
	courseTileLine  = regexp.MustCompile(`^\s+(\d+)\s+(\S+)%\s+\(\s*(\S+)%\s*\)$`)
)

// A courseBlock is a block being read: its record, with the shares of
// its tile lines so far, and its last tile line's.
type courseBlock struct {
	rec                stats.Record
	line               int // where its first line is
	tile               int // the last tile line's tile, 0 before any
	lastReach, lastEnd float64
}

// complete reports whether the block's lines add up to all its games: its
// last tile's games all ended on it (the demo stops there), or it has no
// tile lines and no games scored (td2048's line for a block of no games).
func (b *courseBlock) complete() bool {
	if b.tile > 0 {
		return b.lastReach == b.lastEnd
	}
	return b.rec.Avg == 0 && b.rec.Max == 0
}

// ReadCourse reads the printed output of the course demo, of td2048 train
// or of a student's program that prints the same blocks, as statistics
// blocks. Other lines (the demo's header and its feature lines, messages)
// are skipped, except td2048's header lines game =, network =, alpha =
// and seed =, which fill the records. A block cut off at the end of the
// output (a run still going) is ignored; a block whose tile lines stop
// short anywhere else, or episodes that do not increase, are errors naming
// the line. The game is the header's, or the one whose tiles the blocks
// show (2048 when either would do); the reach share of a tile that no
// game ended on is that of the next tile listed above it (all games' for
// the tiles below the first listed).
func ReadCourse(r io.Reader) ([]stats.Record, error) {
	var c courseReader
	err := c.read(bufio.NewReader(r))
	g := courseGame(c.game, c.threes, c.recs)
	recs := c.recs
	for i := range recs {
		recs[i].Game = g.Name
		recs[i].Games = int(recs[i].Episodes)
		if i > 0 {
			recs[i].Games = int(recs[i].Episodes - recs[i-1].Episodes)
		}
		fillBetween(&recs[i], g)
	}
	if len(recs) > 1 && recs[1].Games < recs[0].Games {
		recs[0].Games = recs[1].Games // a resumed run: its blocks are as long as the next
	}
	return recs, err
}

// A courseReader reads a course output's blocks and header.
type courseReader struct {
	recs    []stats.Record
	cur     *courseBlock
	game    string
	network string
	alpha   float64
	seed    uint64
	threes  bool // a Threes! course framework summary line was seen
}

// finish ends the block being read at line at.
func (c *courseReader) finish(at int) error {
	if c.cur == nil {
		return nil
	}
	if !c.cur.complete() {
		return fmt.Errorf("line %d: the block of line %d stops before its tiles account for all its games", at, c.cur.line)
	}
	c.recs = append(c.recs, c.cur.rec)
	c.cur = nil
	return nil
}

// read reads the blocks and the header lines.
func (c *courseReader) read(br *bufio.Reader) error {
	for n := 1; ; n++ {
		text, err := br.ReadString('\n')
		if errors.Is(err, io.EOF) {
			break // a partial last line, or none: still being written
		}
		if err != nil {
			return err
		}
		if len(text) > 1<<20 {
			return fmt.Errorf("line %d is longer than 1 MiB: not a course statistics output", n)
		}
		line := strings.TrimRight(text, " \r\n")
		if m := courseTileLine.FindStringSubmatch(line); m != nil && c.cur != nil {
			if err := c.cur.addTile(m); err != nil {
				return fmt.Errorf("line %d: %w", n, err)
			}
			continue
		}
		if err := c.finish(n); err != nil {
			return err
		}
		if m := courseBlockLine.FindStringSubmatch(line); m != nil {
			b, threes, err := courseHead(m)
			if err != nil {
				return fmt.Errorf("line %d: %w", n, err)
			}
			if k := len(c.recs); k > 0 && b.Episodes <= c.recs[k-1].Episodes {
				return fmt.Errorf("line %d: a block at %d episodes after one at %d: the output of two runs?", n, b.Episodes, c.recs[k-1].Episodes)
			}
			c.threes = c.threes || threes
			b.Network, b.Alpha, b.Seed = c.network, c.alpha, c.seed
			c.cur = &courseBlock{rec: b, line: n}
			continue
		}
		if key, val, ok := strings.Cut(line, " = "); ok && len(c.recs) == 0 {
			c.header(key, val)
		}
	}
	if c.cur != nil && c.cur.complete() {
		return c.finish(0)
	}
	return nil
}

// header takes in a header line key = val of td2048 train's.
func (c *courseReader) header(key, val string) {
	switch key {
	case "game":
		c.game = val
	case "network":
		c.network, _, _ = strings.Cut(val, " ")
	case "alpha": // a rate that is not a finite number is none
		if a, err := strconv.ParseFloat(val, 64); err == nil && finite(a) {
			c.alpha = a
		}
	case "seed":
		c.seed, _ = strconv.ParseUint(val, 10, 64)
	}
}

// courseHead reads a block's first line.
func courseHead(m []string) (stats.Record, bool, error) {
	episodes, err1 := strconv.ParseInt(m[1], 10, 64)
	avg, err2 := strconv.ParseFloat(m[2], 64)
	best, err3 := strconv.Atoi(m[3])
	if err1 != nil || err2 != nil || err3 != nil || episodes < 1 || !finite(avg) {
		return stats.Record{}, false, fmt.Errorf("not a statistics block's line (N avg = A max = M): %q", m[0])
	}
	return stats.Record{Episodes: episodes, Summary: stats.Summary{Avg: avg, Max: best, Reach: map[string]float64{}, End: map[string]float64{}}},
		strings.HasPrefix(strings.TrimSpace(strings.TrimPrefix(m[4], ",")), "ops ="), nil
}

// addTile reads a tile line of the block.
func (b *courseBlock) addTile(m []string) error {
	tile, err1 := strconv.Atoi(m[1])
	reach, err2 := strconv.ParseFloat(m[2], 64)
	end, err3 := strconv.ParseFloat(m[3], 64)
	if err1 != nil || err2 != nil || err3 != nil || !(reach >= 0 && reach <= 100) || !(end >= 0 && end <= reach) || tile < 1 {
		return fmt.Errorf("not a tile line (TILE REACH%% (END%%)), or shares out of order: %q", m[0])
	}
	if b.tile > 0 && (tile <= b.tile || reach > b.lastReach) {
		return fmt.Errorf("tile %d after tile %d: tiles grow and their reach shares shrink, down a block", tile, b.tile)
	}
	b.tile, b.lastReach, b.lastEnd = tile, reach, end
	k := strconv.Itoa(tile)
	b.rec.Reach[k], b.rec.End[k] = reach/100, end/100
	return nil
}

// courseGame is the game of the output: the header's (by name or title),
// else Threes! for the framework's summary lines, else the first game
// whose tiles hold every tile the blocks list.
func courseGame(header string, threes bool, recs []stats.Record) *games.Game {
	for _, g := range games.All() {
		if header != "" && (header == g.Name || header == g.Title) {
			return g
		}
	}
	if threes {
		if g, err := games.Lookup("threes"); err == nil {
			return g
		}
	}
next:
	for _, g := range games.All() {
		vs := tileValues(g)
		for _, r := range recs {
			for k := range r.Reach {
				if t, _ := strconv.Atoi(k); !slices.Contains(vs, t) {
					continue next
				}
			}
		}
		return g
	}
	return games.MustLookup(games.Default)
}

// tileValues lists a game's tiles, smallest first.
func tileValues(g *games.Game) []int {
	var vs []int
	for i := 1; i < 24; i++ {
		v := g.Value(i)
		if v <= 0 || len(vs) > 0 && v <= vs[len(vs)-1] {
			break
		}
		vs = append(vs, v)
	}
	return vs
}

// fillBetween gives each tile of the game below the largest tile listed
// and not listed itself the reach share of the next tile above it: no
// game ended on it, so every game that reached it went on to that one.
func fillBetween(r *stats.Record, g *games.Game) {
	vs := tileValues(g)
	for i := len(vs) - 2; i >= 0; i-- {
		k, above := strconv.Itoa(vs[i]), strconv.Itoa(vs[i+1])
		if _, ok := r.Reach[k]; ok {
			continue
		}
		if v, ok := r.Reach[above]; ok {
			r.Reach[k] = v
		}
	}
}
