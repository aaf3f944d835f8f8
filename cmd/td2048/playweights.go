package main

import (
	"fmt"
	"io"

	flag "github.com/spf13/pflag"

	"github.com/td2048/td2048/internal/train"
	"github.com/td2048/td2048/netfile"
	"github.com/td2048/td2048/ntuple"
	"github.com/td2048/td2048/search"
)

// playFlags are the flags of every command that plays with saved
// weights: how it holds them, and how many threads search one move.
type playFlags struct {
	compact bool
	threads int
	fs      *flag.FlagSet
}

// define adds --compact, and --threads (named name) when name is not ""
// (eval's threads play games; its move threads are --move-threads).
func (p *playFlags) define(fs *flag.FlagSet, threadsName string) {
	p.fs = fs
	fs.BoolVar(&p.compact, "compact", true, "play large networks with 16-bit weights, half the memory (2048's staged ones only when given; td2048 help search)")
	if threadsName != "" {
		fs.IntVar(&p.threads, threadsName, 0, "threads searching each move at 2 plies and deeper (0: all cores), same values as one")
	}
}

// check refuses a thread count out of range.
func (p *playFlags) check(name string) error {
	if p.threads < 0 || p.threads > train.MaxThreads() {
		return usagef("--%s %d: want 0 (all cores) to %d", name, p.threads, train.MaxThreads())
	}
	return nil
}

// weights is how netfile.LoadPlay is to hold the weights: by default
// 16-bit for large networks but those staged by tiles (which lose score
// at 2 plies), --compact for every large network.
func (p *playFlags) weights() netfile.Weights {
	switch {
	case !p.compact:
		return netfile.Float32
	case p.fs != nil && p.fs.Changed("compact"):
		return netfile.Compact
	}
	return netfile.CompactUnstaged
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
	return fmt.Sprintf("16-bit, a scale a table, %s (each value within %.3g of the float32 weights')", mib(2*int64(net.Spec().Weights())), b)
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
