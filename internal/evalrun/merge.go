package evalrun

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"

	"github.com/td2048/td2048/internal/evalresult"
	"github.com/td2048/td2048/internal/safefile"
	"github.com/td2048/td2048/internal/train"
)

// A MergeSpec is what td2048 merge is asked: its flags.
type MergeSpec struct {
	Out, Stats         string
	Force, MixedBuilds bool
}

// Merge merges the result files at paths, the shards of one evaluation,
// into m.Out and m.Stats (given naming those set); it returns the merged
// result and the shards read. A result at m.Out is replaced only by the
// merge of the same evaluation, another file only with Force, and the
// shards' own files never.
func Merge(paths []string, m MergeSpec, given train.Given, opt Options) (evalresult.Result, []evalresult.Part, error) {
	var res evalresult.Result
	if opt.Refuse == nil {
		opt.Refuse = train.RefuseNonEmpty
	}
	if err := CheckOutputs(given, m.Out, m.Stats, ""); err != nil {
		return res, nil, err
	}
	var parts []evalresult.Part
	for _, a := range paths {
		r, err := evalresult.Read(a)
		if err != nil {
			return res, nil, err
		}
		parts = append(parts, evalresult.Part{Path: a, Result: r})
	}
	// The shards' files are inputs, never outputs.
	for _, p := range parts {
		for _, o := range []struct{ key, path string }{{"out", m.Out}, {"stats", m.Stats}} {
			if safefile.Same(o.path, p.Path) {
				return res, nil, bad(o.key, " %s is the shard %s being merged: it would be overwritten", o.path, p.Path)
			}
			if p.Stats != "" && safefile.Same(o.path, train.Resolve(p.Path, p.Stats)) {
				return res, nil, bad(o.key, " %s is the statistics file of the shard %s being merged: it would be overwritten", o.path, p.Path)
			}
		}
	}
	res, err := evalresult.Merge(parts, evalresult.MergeOptions{MixedBuilds: m.MixedBuilds})
	if err != nil {
		return res, nil, err
	}
	if m.Stats != "" && parts[0].Stats == "" {
		return res, nil, bad("stats", ": the shards wrote no statistics files (eval --game threes --stats FILE writes them)")
	}
	again := false // --out holds this merge's result, naming --stats
	if m.Out != "" {
		release, replace, err := claimResult(m.Out, m.Force, opt.Refuse)
		if err != nil {
			return res, nil, err
		}
		defer release()
		prev, err := rerunOf(m.Out, replace, &res)
		if err != nil {
			return res, nil, err
		}
		again = NamesStats(m.Out, prev, m.Stats)
	}
	if m.Stats != "" {
		release, err := ClaimOutput(m.Stats, "stats", "stats", m.Force || again, opt.Refuse)
		if err != nil {
			return res, nil, err
		}
		defer release()
		if res.StatsSHA256, err = concatStats(m.Stats, evalresult.Ordered(parts)); err != nil {
			return res, nil, err
		}
		res.Stats = train.Rel(m.Out, m.Stats)
	}
	if m.Out != "" {
		if err := evalresult.Write(m.Out, res); err != nil {
			return res, nil, err
		}
	}
	return res, parts, nil
}

// concatStats writes the shards' statistics files one after the other
// into path, each checked against its checksum as it is copied (read
// once, so what is written is what was checked; a file that does not
// match leaves nothing at path), and returns the SHA-256 of what it wrote.
func concatStats(path string, parts []evalresult.Part) (string, error) {
	all := sha256.New()
	err := safefile.WriteAtomic(path, func(w io.Writer) error {
		bw := bufio.NewWriterSize(io.MultiWriter(w, all), 1<<20)
		for _, p := range parts {
			src := train.Resolve(p.Path, p.Stats)
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
