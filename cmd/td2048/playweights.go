package main

import (
	"fmt"
	"io"

	flag "github.com/spf13/pflag"

	"github.com/td2048/td2048/internal/evalrun"
	"github.com/td2048/td2048/internal/train"
	"github.com/td2048/td2048/ntuple"
	"github.com/td2048/td2048/search"
)

// moveThreadsFlag adds --threads of hint, play and serve: the threads
// searching each move (eval's are --move-threads; its --threads play
// games).
func moveThreadsFlag(fs *flag.FlagSet) *int {
	return fs.Int("threads", 0, "threads searching each move at 2 plies and deeper (0: all cores), same values as one")
}

// checkThreads refuses a --threads out of range.
func checkThreads(n int) error {
	if n < 0 || n > train.MaxThreads() {
		return usagef("--threads %d: want 0 (all cores) to %d", n, train.MaxThreads())
	}
	return nil
}

// describeWeights says how a network holds its weights for play.
func describeWeights(net *ntuple.Network) string {
	if !net.Compact() {
		return "float32"
	}
	b := 0.0
	for k := range net.StageCount() {
		b = max(b, net.ValueBound(k))
	}
	return fmt.Sprintf("16-bit, a scale a table, %s (each value within %.3g of the float32 weights')", evalrun.MiB(2*int64(net.Spec().Weights())), b)
}

// writeNotes prints, a line each, the note of loading net (loadFor)
// and its downgradeNote, those not "".
func writeNotes(w io.Writer, note string, net *ntuple.Network, d search.Downgrade) {
	for _, n := range []string{note, downgradeNote(net, d)} {
		if n != "" {
			fmt.Fprintln(w, n)
		}
	}
}

// downgradeNote says, for a staged network played with tile-downgrading,
// how its stages are chosen, where that is not TDL2048+'s way; "" else.
func downgradeNote(net *ntuple.Network, d search.Downgrade) string {
	if !d.On() || !net.Staged() {
		return ""
	}
	return "note: with tile-downgrading each decision of this staged network is valued by the stage of the board it is made on, the downgraded one (by its scale); TDL2048+ keeps the game's stage, raised by the moves that reach a threshold and lowered only as far as a downgrade takes the board below it, and the two differ when a downgrade or a merge takes the board's scale across a threshold"
}
