package main

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	flag "github.com/spf13/pflag"

	"github.com/td2048/td2048/games"
	"github.com/td2048/td2048/internal/evalresult"
	"github.com/td2048/td2048/internal/safefile"
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
	out := fs.String("out", "", "write the merged result (a result file of shard 0/1) here; a result there is replaced only by the merge of the same evaluation, another file only with --force")
	statsOut := fs.String("stats", "", "Threes!: concatenate the shards' statistics files here, in game order")
	force := fs.Bool("force", false, "replace whatever file --out or --stats names (never one of the shards' files)")
	mixed := fs.Bool("mixed-builds", false, "merge shards written by different builds of td2048, or by a td2048 that did not record its build (the merged result then records none)")
	return func(args []string) error {
		if len(args) == 0 {
			return usagef("want the shards' result files (td2048 eval --shard K/N --out FILE writes one)")
		}
		if err := checkOutputs(fs, *out, *statsOut, ""); err != nil {
			return err
		}
		var parts []evalresult.Part
		for _, a := range args {
			r, err := evalresult.Read(a)
			if err != nil {
				return err
			}
			parts = append(parts, evalresult.Part{Path: a, Result: r})
		}
		// The shards' files are inputs, never outputs.
		for _, p := range parts {
			for _, o := range []struct{ flag, path string }{{"out", *out}, {"stats", *statsOut}} {
				if safefile.Same(o.path, p.Path) {
					return usagef("--%s %s is the shard %s being merged: it would be overwritten", o.flag, o.path, p.Path)
				}
				if p.Stats != "" && safefile.Same(o.path, shardStats(p)) {
					return usagef("--%s %s is the statistics file of the shard %s being merged: it would be overwritten", o.flag, o.path, p.Path)
				}
			}
		}
		m, err := evalresult.Merge(parts, evalresult.MergeOptions{MixedBuilds: *mixed})
		if err != nil {
			return err
		}
		if *statsOut != "" && parts[0].Stats == "" {
			return usagef("--stats: the shards wrote no statistics files (eval --game threes --stats FILE writes them)")
		}
		again := false // --out holds this merge's result, naming --stats
		if *out != "" {
			release, replace, err := claimResult(*out, "out", *force)
			if err != nil {
				return err
			}
			defer release()
			if replace {
				prev, err := refuseResult(*out, "out", &m)
				if err != nil {
					return err
				}
				again = namesStats(*out, &prev, *statsOut)
			}
		}
		if *statsOut != "" {
			release, err := claimOutput(*statsOut, "stats", "stats", *force || again)
			if err != nil {
				return err
			}
			defer release()
			if m.StatsSHA256, err = concatStats(*statsOut, evalresult.Ordered(parts)); err != nil {
				return err
			}
			m.Stats = statsName(*out, *statsOut)
		}
		if *out != "" {
			if err := evalresult.Write(*out, m); err != nil {
				return err
			}
		}
		return writeMerged(e.stdout, &m, len(parts), *statsOut)
	}
}

// shardStats is the path of a shard's statistics file.
func shardStats(p evalresult.Part) string {
	if filepath.IsAbs(p.Stats) {
		return p.Stats
	}
	return filepath.Join(filepath.Dir(p.Path), p.Stats)
}

// statsName is how a result at out names its statistics file stats:
// relative to the result's folder, where shardStats looks, whatever the
// working folder and whichever of the two was given as an absolute path;
// absolute where no relative path leads there.
func statsName(out, stats string) string {
	a := absOr(stats)
	if rel, err := filepath.Rel(filepath.Dir(absOr(out)), a); err == nil {
		return rel
	}
	return a
}

func absOr(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}

// concatStats writes the shards' statistics files one after the other
// into path, each checked against its checksum as it is copied (a file
// that does not match leaves nothing at path), and returns the SHA-256 of
// what it wrote. Each file is read once, so what is written is what was
// checked.
func concatStats(path string, parts []evalresult.Part) (string, error) {
	all := sha256.New()
	err := safefile.WriteAtomic(path, func(w io.Writer) error {
		bw := bufio.NewWriterSize(io.MultiWriter(w, all), 1<<20)
		for _, p := range parts {
			src := shardStats(p)
			f, err := os.Open(src)
			if err != nil {
				return fmt.Errorf("statistics file of %s: %w", p.Path, err)
			}
			h := sha256.New()
			_, err = io.Copy(bw, io.TeeReader(f, h))
			f.Close()
			if err != nil {
				return err
			}
			if hex.EncodeToString(h.Sum(nil)) != p.StatsSHA256 {
				return fmt.Errorf("%s is not the statistics file of %s: its checksum differs", src, p.Path)
			}
		}
		return bw.Flush()
	})
	return hex.EncodeToString(all.Sum(nil)), err
}

// writeMerged prints a merged evaluation as eval prints the whole one,
// after a first line of its own and up to a last line of time.
func writeMerged(w io.Writer, m *evalresult.Result, shards int, statsPath string) error {
	g, err := games.Lookup(m.Game)
	if err != nil {
		return err
	}
	ev := evalOf(m, g)
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
