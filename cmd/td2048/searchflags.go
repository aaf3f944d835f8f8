package main

import (
	"fmt"
	flag "github.com/spf13/pflag"
	"strconv"
	"strings"
	"time"

	"github.com/td2048/td2048/games"
	"github.com/td2048/td2048/internal/train"
	"github.com/td2048/td2048/learn"
	"github.com/td2048/td2048/search"
)

// searchFlags are the flags of every command that searches.
type searchFlags struct {
	depth    int
	cache    byteSize
	moveTime time.Duration
	// Tile-downgrading (search.Downgrade): the threshold tile, 0 for none,
	// and the stint.
	downgrade, stint int
	fs               *flag.FlagSet
}

// autoCache is the table a search gets when --cache is not given: none at
// 2 plies, where filling and probing a table costs more than the chance
// nodes it saves, and 64 MB deeper, where it pays (docs/speed.md,
// "Thresholds and what they rest on").
func autoCache(depth int, moveTime time.Duration) byteSize {
	if depth >= 3 || moveTime > 0 {
		return 64 << 20
	}
	return 0
}

func (f *searchFlags) define(fs *flag.FlagSet) {
	fs.IntVar(&f.depth, "depth", 1, "search depth in plies: 1 greedy, 2 one more chance and max layer, 3 and up deeper")
	f.fs = fs
	deep := autoCache(3, 0)
	fs.Var(&f.cache, "cache", "transposition table `SIZE`, shared by all threads, like 256M (0: none; default: none at 1-2 plies, "+deep.String()+" deeper or with --move-time)")
	fs.DurationVar(&f.moveTime, "move-time", 0, "deepen each move for `TIME`, like 100ms, up to --depth")
	f.defineDowngrade(fs)
}

// defineDowngrade adds the flags of tile-downgrading alone (hint, play
// and serve have search flags of their own).
func (f *searchFlags) defineDowngrade(fs *flag.FlagSet) {
	f.fs = fs
	fs.IntVar(&f.downgrade, "downgrade", 0, "2048: tile-downgrading from this tile on, like 32768 (TDL2048+'s -h; 0: off; td2048 help search)")
	fs.IntVar(&f.stint, "stint", 1, "with --downgrade: downgrades until the trigger becomes 65536 (0: no end)")
}

// checkDowngrade checks the flags of tile-downgrading.
func (f *searchFlags) checkDowngrade() error {
	if err := f.downgradeOpt().Check(); err != nil {
		return usagef("--downgrade/--stint: %v", err)
	}
	if f.downgrade == 0 && f.fs != nil && f.fs.Changed("stint") {
		return usagef("--stint needs --downgrade")
	}
	return nil
}

// checkGame refuses tile-downgrading in a game with no tiles of 2048's
// kind to lower.
func (f *searchFlags) checkGame(g *games.Game) error {
	if f.downgrade != 0 && !g.Downgrades {
		return usagef("--downgrade lowers tiles of 2048's kind; %s has none to lower", g.Title)
	}
	return nil
}

func (f *searchFlags) check() error {
	if err := checkDepth(f.depth, maxDepth, f.moveTime); err != nil {
		return err
	}
	if err := f.checkDowngrade(); err != nil {
		return err
	}
	if f.fs == nil || !f.fs.Changed("cache") {
		f.cache = autoCache(f.depth, f.moveTime)
	}
	return nil
}

// maxDepth is the deepest --depth of eval and hint.
const maxDepth = 12

// checkDepth refuses a --depth out of 1 to maxDepth and a negative
// --move-time.
func checkDepth(depth, maxDepth int, moveTime time.Duration) error {
	if depth < 1 || depth > maxDepth {
		return usagef("--depth must be 1 to %d", maxDepth)
	}
	if moveTime < 0 {
		return usagef("--move-time must not be negative")
	}
	return nil
}

// describe says how the search plays, a move being called move.
func (f *searchFlags) describe(move string) string {
	d := fmt.Sprintf("%d-ply expectimax", f.depth)
	if f.depth == 1 {
		d = "1-ply (greedy)"
	}
	if f.moveTime > 0 {
		d = fmt.Sprintf("iterative deepening, %v per %s, up to %d plies", f.moveTime, move, f.depth)
		if !f.depthGiven() {
			d = fmt.Sprintf("iterative deepening, %v per %s", f.moveTime, move)
		}
	}
	if f.downgrade > 0 {
		d += fmt.Sprintf(", tile-downgrading from %d (stint %d)", f.downgrade, f.stint)
	}
	if f.depth > 1 || f.moveTime > 0 {
		if f.cache > 0 {
			d += ", table " + f.cache.String()
		} else {
			d += ", no table"
		}
	}
	return d
}

// depthGiven: with --move-time, a depth of 1 (the default) means no cap.
func (f *searchFlags) depthGiven() bool { return f.depth > 1 }

func (f *searchFlags) options(kind learn.Kind) search.Options {
	o := search.Options{Depth: f.depth, MoveTime: f.moveTime}
	if f.moveTime > 0 && !f.depthGiven() {
		o.Depth = 0
	}
	o.Kind = kind
	return o
}

// downgradeOpt is the tile-downgrading asked for (off when not).
func (f *searchFlags) downgradeOpt() search.Downgrade {
	if f.downgrade == 0 {
		return search.Downgrade{}
	}
	return search.Downgrade{Tile: f.downgrade, Stint: f.stint}
}

// byteSize is a memory size flag: 256M, 1G, 64K or plain bytes.
type byteSize int64

func (b *byteSize) String() string {
	v := int64(*b)
	switch {
	case v == 0:
		return "0"
	case v%(1<<30) == 0:
		return strconv.FormatInt(v>>30, 10) + "G"
	case v%(1<<20) == 0:
		return strconv.FormatInt(v>>20, 10) + "M"
	case v%(1<<10) == 0:
		return strconv.FormatInt(v>>10, 10) + "K"
	}
	return strconv.FormatInt(v, 10)
}

func (b *byteSize) Type() string { return "size" }

func (b *byteSize) Set(s string) error {
	t := strings.ToUpper(strings.TrimSuffix(strings.TrimSpace(s), "B"))
	mult := int64(1)
	if n := len(t); n > 0 {
		switch t[n-1] {
		case 'K':
			mult, t = 1<<10, t[:n-1]
		case 'M':
			mult, t = 1<<20, t[:n-1]
		case 'G':
			mult, t = 1<<30, t[:n-1]
		}
	}
	v, err := strconv.ParseInt(t, 10, 64)
	if err != nil || v < 0 || v > 1<<40/mult {
		return fmt.Errorf("size %q: want bytes like 256M, 1G or 0", s)
	}
	if total := train.PhysicalMemory(); total > 0 && v*mult > total/2 {
		return fmt.Errorf("size %s: at most %s, half of this machine's memory of %s", s, mib(total/2), mib(total))
	}
	*b = byteSize(v * mult)
	return nil
}
