package main

import (
	"fmt"
	"io"
	"time"

	flag "github.com/spf13/pflag"

	"github.com/td2048/td2048/games"
	"github.com/td2048/td2048/internal/evalresult"
	"github.com/td2048/td2048/internal/evalrun"
	"github.com/td2048/td2048/internal/train"
)

func init() {
	register(&command{
		name:  "merge",
		args:  "PART.json...",
		short: "merge the result files of the shards of an evaluation (eval --shard K/N --out) into one",
		long: `Merge the result files of all the shards of one evaluation (td2048 eval
--shard K/N --out PART.json) and print the evaluation's statistics: the
network, loaded, search, total and seed lines and the block up to the
rate line are those one unsharded td2048 eval of the same weights, seed,
search and games prints, byte for byte (the search line names 16-bit
weights when they played; eval's lines on how it plays, weights = and
threads =, are in the shards' own output); the last line gives the
shards' play time summed over them, and the longest shard's time from
its start to its result. With --out the merged result is written too.

The shards may come in any order; a missing or repeated shard, or a shard
of other weights, another seed, search, game count or shard count is
refused with the files named, and so are shards written by different
builds of td2048 (as td2048 version names them), unless --mixed-builds,
and then the statistics say so (builds = mixed). Threes!: with --stats, the shards'
statistics files (eval --stats, named in their results and looked up
beside them) are checked against their checksums and concatenated in game
order into one file the course judge and td2048 judge accept.`,
		example: `  td2048 merge part-*.json                              # the statistics of the whole evaluation
  td2048 merge part-*.json --out eval.json             # and the merged result
  td2048 merge threes-*.json --stats stats.txt         # Threes!: one statistics file for the judge`,
		setup: setupMerge,
	})
}

func setupMerge(fs *flag.FlagSet, e *env) func([]string) error {
	var m evalrun.MergeSpec
	fs.StringVar(&m.Out, "out", "", "write the merged result (a result file of shard 0/1) here; a result there is replaced only by the merge of the same evaluation, another file only with --force")
	fs.StringVar(&m.Stats, "stats", "", "Threes!: concatenate the shards' statistics files here, in game order")
	fs.BoolVar(&m.Force, "force", false, "replace whatever file --out or --stats names (never one of the shards' files)")
	fs.BoolVar(&m.MixedBuilds, "mixed-builds", false, "merge shards written by different builds of td2048, or by a td2048 that did not record its build (the merged result then records none)")
	return func(args []string) error {
		if len(args) == 0 {
			return usagef("want the shards' result files (td2048 eval --shard K/N --out FILE writes one)")
		}
		given := train.Given{"out": fs.Changed("out"), "stats": fs.Changed("stats")}
		res, parts, err := evalrun.Merge(args, m, given, evalrun.Options{Refuse: refuseClobber})
		if err != nil {
			return usageOf(err)
		}
		return writeMerged(e.stdout, &res, len(parts), m.Stats)
	}
}

// writeMerged prints a merged evaluation as eval prints the whole one,
// after a first line of its own and up to a last line of time.
func writeMerged(w io.Writer, m *evalresult.Result, shards int, statsPath string) error {
	g, err := games.Lookup(m.Game)
	if err != nil {
		return err
	}
	ev := evalrun.EvalOf(m, g)
	b := ev.Block
	fmt.Fprintf(w, "td2048 merge (%d shards)\n", shards)
	if m.MixedBuilds {
		fmt.Fprintln(w, "builds = mixed (--mixed-builds): the shards were played by different builds of td2048, or by ones that did not record theirs")
	}
	writeLoaded(w, g, m)
	fmt.Fprintf(w, "total = %d\nseed = %d\n", m.GamesTotal, m.Seed)
	if b.Games > 0 {
		if err := writeStats(w, g, &ev); err != nil {
			return err
		}
	}
	// Two times: the shards' play added up (what one process of one
	// shard's threads would have taken), and the longest shard's run from
	// its start to its result (loading included; the wall time of shards
	// that all ran at once).
	el := time.Duration(m.ElapsedMS) * time.Millisecond
	speed := rate(m.Moves, el) + " " + g.Move + "s/s per shard"
	if el <= 0 {
		speed = "speed n/a (under a millisecond in all)"
	}
	_, err = fmt.Fprintf(w, "%d games in %d shards: %s of play summed over the shards, %s for the longest shard from start to end; %s\n",
		b.Games, shards, el, time.Duration(m.WallMS)*time.Millisecond, speed)
	if statsPath != "" {
		fmt.Fprintf(w, "statistics file = %s (%d games; check it with td2048 judge %s)\n", statsPath, b.Games, statsPath)
	}
	return err
}
