package main

import (
	"time"

	flag "github.com/spf13/pflag"

	"github.com/td2048/td2048/games"
	"github.com/td2048/td2048/internal/evalrun"
	"github.com/td2048/td2048/search"
)

// searchFlags are the flags of tile-downgrading of hint, play and serve.
type searchFlags struct {
	// Tile-downgrading (search.Downgrade): the threshold tile, 0 for none,
	// and the stint.
	downgrade, stint int
	fs               *flag.FlagSet
}

// defineDowngrade adds the flags of tile-downgrading.
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

// maxDepth is the deepest --depth of eval and hint.
const maxDepth = evalrun.MaxDepth

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

// downgradeOpt is the tile-downgrading asked for (off when not).
func (f *searchFlags) downgradeOpt() search.Downgrade {
	if f.downgrade == 0 {
		return search.Downgrade{}
	}
	return search.Downgrade{Tile: f.downgrade, Stint: f.stint}
}

// byteSize is a memory size flag: 256M, 1G, 64K or plain bytes.
type byteSize = evalrun.ByteSize
