package main

import (
	"fmt"
	"slices"
	"strings"

	flag "github.com/spf13/pflag"

	"github.com/td2048/td2048/internal/evalrun"
	"github.com/td2048/td2048/internal/safefile"
	"github.com/td2048/td2048/netfile"
	"github.com/td2048/td2048/ntuple"
)

func init() {
	register(&command{
		name:  "convert",
		args:  "IN OUT",
		short: "convert weights between td2048, the course demo's 2048.bin and TDL2048+'s .w",
		example: `  td2048 convert weights.td2048 2048.bin         # for the course demo (TDL2048-Demo)
  td2048 convert weights.td2048 4x6.w            # for TDL2048+
  td2048 convert 4x6patt.w weights.td2048        # and back
  td2048 convert weights.td2048 model --to w     # when OUT's extension does not say`,
		setup: setupConvert,
	})
}

func setupConvert(fs *flag.FlagSet, e *env) func([]string) error {
	to := fs.String("to", "", "format of OUT: td2048, bin (course demo 2048.bin) or w (TDL2048+); default from OUT's extension")
	stages := fs.String("stages", "", "stage thresholds of a multi-stage network read from a .w file, which does not record them, like 0,16384,32768 (one per stage; two stages default to 0,16384, TDL2048+'s bare -@)")
	force := fs.Bool("force", false, "replace an existing OUT that holds other weights, or write state-value weights to a reference format (whose programs read after-state values)")
	compact := fs.Bool("compact", false, "write 16-bit td2048 weights, half the size, for play only (td2048 help search)")
	return func(args []string) error {
		if len(args) != 2 {
			return usagef("want IN and OUT, got %d arguments", len(args))
		}
		in, out := args[0], args[1]
		if in == "" || out == "" {
			return usagef("IN and OUT must not be empty file names")
		}
		kind := netfile.FormatOfName(out)
		if *to != "" {
			k, err := netfile.ParseFormat(*to)
			if err != nil {
				return usagef("--to: %v", err)
			}
			kind = k
		}
		if kind == netfile.Unknown {
			return usagef("cannot tell the format of %s from its extension (.td2048, .bin, .w): give --to td2048, bin or w", out)
		}
		if *compact && kind != netfile.Native {
			return usagef("--compact writes td2048 files; %s holds float32 weights", kind.Describe())
		}
		if err := safefile.Check(out); err != nil {
			return usagef("%v", err)
		}
		if safefile.Same(in, out) {
			return usagef("IN and OUT are the same file %s", in)
		}
		lock, err := safefile.Acquire(out)
		if err != nil {
			return err
		}
		defer lock.Release()
		if !*force {
			if err := refuseClobber(out, "", "weights"); err != nil {
				return err
			}
		}
		from, err := netfile.DetectFile(in)
		if err != nil {
			return evalrun.ReadError(in, err)
		}
		w := netfile.Float32
		if *compact {
			w = netfile.Compact16
		}
		net, h, note, err := netfile.LoadPlay(in, w)
		if err != nil {
			return evalrun.ReadError(in, err)
		}
		defer net.Free()
		if *compact && !net.Compact() {
			return fmt.Errorf("--compact: %s cannot be held in 16 bits: %s", in, strings.TrimPrefix(note, "playing with float32 weights, not 16-bit ones: "))
		}
		if err := convertStages(in, *stages, from, kind, net, &h); err != nil {
			return err
		}
		if err := checkReference(in, out, kind, net, h, *force); err != nil {
			return err
		}
		if err := netfile.SaveFormat(out, kind, net, h); err != nil {
			return err
		}
		spec := net.Spec()
		fmt.Fprintf(e.stdout, "%s (%s) -> %s (%s): network %s\n", in, from.Describe(), out, kind.Describe(), spec.Describe())
		if from != netfile.Native {
			iso := "on the 8 images of the board, as both reference programs do"
			if !spec.Iso {
				iso = "without isomorphisms (the 8x4 lines, as TDL2048+'s 8x4patt)"
			}
			fmt.Fprintf(e.stdout, "note: %s does not record isomorphisms, game or learner: patterns taken to be read %s; 2048, after-state values\n", from.Describe(), iso)
		}
		if net.Compact() {
			fmt.Fprintf(e.stdout, "weights = %s; for play: training reads them as float32, and a run cannot resume from them\n", describeWeights(net))
		}
		if th := spec.StageThresholds(); th != nil && (from == netfile.TDLW || kind == netfile.TDLW) {
			fmt.Fprintf(e.stdout, "note: .w files do not record stage thresholds: these are %s (TDL2048+: -@ %s)\n", ntuple.FormatThresholds(th), ntuple.FormatThresholds(th))
		}
		if spec.StageCount() > 1 && spec.StageThresholds() == nil {
			fmt.Fprintf(e.stdout, "note: %d stages and no thresholds: to play or train this network, convert it to a td2048 file with --stages\n", spec.StageCount())
		}
		return nil
	}
}

// convertStages gives net the thresholds of --stages (stages, when not
// empty), which a .w file does not record: a td2048 file, which must
// record them, is not written from a .w of more than two stages without
// them. A td2048 file records its own, but one without (as convert wrote
// them before) takes them too.
func convertStages(in, stages string, from, kind netfile.Format, net *ntuple.Network, h *netfile.Header) error {
	if stages == "" {
		if kind == netfile.Native && netfile.CheckThresholds(in, net.Spec()) != nil {
			return usagef("%s holds %d stages and does not record their thresholds (.w files do not): give them with --stages, one per stage, like 0,16384,32768 for three", in, net.Spec().StageCount())
		}
		return nil
	}
	th, err := ntuple.ParseThresholds(stages)
	if err != nil {
		return usagef("--stages: %v", err)
	}
	if from == netfile.Native && net.Spec().StageThresholds() != nil && !slices.Equal(th, net.Spec().StageThresholds()) {
		return usagef("--stages: %s records its thresholds (%s); --stages is for .w files", in, net.Spec())
	}
	if err := net.SetThresholds(th); err != nil {
		return usagef("--stages: %v", err)
	}
	h.Network = net.Spec().String()
	return nil
}

// checkReference refuses weights a reference format (kind, not td2048's)
// cannot hold, or whose programs would misread, unless force where
// writing them anyway loses only what they cannot hold.
func checkReference(in, out string, kind netfile.Format, net *ntuple.Network, h netfile.Header, force bool) error {
	switch {
	case kind == netfile.Native:
		return nil
	case h.Game != "2048":
		return fmt.Errorf("%s holds weights for %s; the reference programs play 2048", in, h.Game)
	case h.Learner != "after" && !force:
		return fmt.Errorf("%s holds %s-value weights; the reference programs read after-state values (--force to write them anyway)", in, h.Learner)
	case net.Coherent() && kind != netfile.TDLW && !force:
		return fmt.Errorf("%s holds temporal-coherence accumulators, which %s cannot hold (--force writes the weights alone; TDL2048+'s .w holds them)", in, kind.Describe())
	}
	if err := netfile.CheckFormat(kind, net.Spec()); err != nil {
		return fmt.Errorf("cannot write %s as %s: %v", out, kind.Describe(), err)
	}
	return nil
}
