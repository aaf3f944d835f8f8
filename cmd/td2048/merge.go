package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	flag "github.com/spf13/pflag"

	"github.com/td2048/td2048/evalresult"
	"github.com/td2048/td2048/games"
	"github.com/td2048/td2048/netfile"
	"github.com/td2048/td2048/stats"
)

func init() {
	register(&command{
		name:  "merge",
		args:  "PART.json...",
		short: "merge the result files of the shards of an evaluation (eval --shard K/N --out) into one",
		long: `Merge the result files of all the shards of one evaluation (td2048 eval
--shard K/N --out PART.json) and print the evaluation's statistics: the
lines after the first are those one unsharded td2048 eval of the same
weights, seed, search and games prints, byte for byte, up to the rate
line; the last line gives the shards' summed time (and the longest
shard's wall time). With --out the merged result is written too.

The shards may come in any order; a missing or repeated shard, or a shard
of other weights, another seed, search, game count or shard count is
refused with the files named. Threes!: with --stats, the shards'
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
	out := fs.String("out", "", "write the merged result (a result file of shard 0/1) here")
	statsOut := fs.String("stats", "", "Threes!: concatenate the shards' statistics files here, in game order")
	force := fs.Bool("force", false, "replace an existing --out or --stats file")
	return func(args []string) error {
		if len(args) == 0 {
			return usagef("want the shards' result files (td2048 eval --shard K/N --out FILE writes one)")
		}
		var parts []evalresult.Part
		for _, a := range args {
			r, err := evalresult.Read(a)
			if err != nil {
				return err
			}
			parts = append(parts, evalresult.Part{Path: a, Result: r})
		}
		m, err := evalresult.Merge(parts)
		if err != nil {
			return err
		}
		if *statsOut != "" && parts[0].Stats == "" {
			return usagef("--stats: the shards wrote no statistics files (eval --game threes --stats FILE writes them)")
		}
		for _, o := range []struct{ path, flag, want string }{{*out, "out", "result"}, {*statsOut, "stats", "stats"}} {
			if o.path == "" {
				continue
			}
			release, err := claimOutput(o.path, o.flag, o.want, *force)
			if err != nil {
				return err
			}
			defer release()
		}
		if *statsOut != "" {
			if err := concatStats(*statsOut, evalresult.Ordered(parts)); err != nil {
				return err
			}
			m.Stats, err = filepath.Rel(filepath.Dir(absOr(*out)), absOr(*statsOut))
			if err != nil {
				m.Stats = *statsOut
			}
			if m.StatsSHA256, err = evalresult.HashFile(*statsOut); err != nil {
				return err
			}
		}
		if *out != "" {
			if err := evalresult.Write(*out, m); err != nil {
				return err
			}
		}
		return writeMerged(e.stdout, &m, len(parts), *statsOut)
	}
}

func absOr(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}

// concatStats writes the shards' statistics files, each checked against
// its checksum, one after the other into path.
func concatStats(path string, parts []evalresult.Part) error {
	return netfile.WriteAtomic(path, func(w io.Writer) error {
		bw := bufio.NewWriterSize(w, 1<<20)
		for _, p := range parts {
			src := p.Stats
			if !filepath.IsAbs(src) {
				src = filepath.Join(filepath.Dir(p.Path), src)
			}
			sum, err := evalresult.HashFile(src)
			if err != nil {
				return fmt.Errorf("statistics file of %s: %v", p.Path, err)
			}
			if sum != p.StatsSHA256 {
				return fmt.Errorf("%s is not the statistics file of %s: its checksum differs", src, p.Path)
			}
			f, err := os.Open(src)
			if err != nil {
				return err
			}
			_, err = io.Copy(bw, f)
			f.Close()
			if err != nil {
				return err
			}
		}
		return bw.Flush()
	})
}

// writeMerged prints a merged evaluation as eval prints the whole one,
// after a first line of its own and up to a last line of time.
func writeMerged(w io.Writer, m *evalresult.Result, shards int, statsPath string) error {
	g, err := games.Lookup(m.Game)
	if err != nil {
		return err
	}
	b := m.Block()
	fmt.Fprintf(w, "td2048 merge (%d shards)\n", shards)
	if m.Game == "threes" {
		fmt.Fprintf(w, "network = %s\nloaded = %s (%d episodes)\nsearch = %s\ntotal = %d\nseed = %d\n",
			m.NetworkText, m.Weights, m.Trained, m.Search, m.GamesTotal, m.Seed)
		if b.Games > 0 {
			if err := b.WriteThrees(w, b.Games, g.Value, m.Speed()); err != nil {
				return err
			}
		}
	} else {
		fmt.Fprintf(w, "network = %s\nloaded = %s (%d episodes, %s-value)\nsearch = %s\ntotal = %d\nseed = %d\n",
			m.NetworkText, m.Weights, m.Trained, m.Learner, m.Search, m.GamesTotal, m.Seed)
		if b.Games > 0 {
			if err := b.Write(w, b.Games, stats.Pow2); err != nil {
				return err
			}
		}
	}
	if b.Games > 0 {
		fmt.Fprintf(w, "%d rate = %s%% (%d of %d games)\n", g.GoalValue(), stats.Num(100*b.Reach(g.Goal)), b.Reached(g.Goal), b.Games)
	}
	el := time.Duration(m.ElapsedMS) * time.Millisecond
	_, err = fmt.Fprintf(w, "%d games in %s of the shards' time in all (longest shard %s), %s moves/s of one shard's time\n",
		b.Games, el, time.Duration(m.WallMS)*time.Millisecond, rate(m.Moves, el))
	if statsPath != "" {
		fmt.Fprintf(w, "statistics file = %s (%d games; check it with td2048 judge %s)\n", statsPath, b.Games, statsPath)
	}
	return err
}
