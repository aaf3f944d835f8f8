package main

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/td2048/td2048/games"
	"github.com/td2048/td2048/internal/evalresult"
	"github.com/td2048/td2048/internal/plot"
	"github.com/td2048/td2048/internal/safefile"
	"github.com/td2048/td2048/internal/train"
	"github.com/td2048/td2048/learn"
	"github.com/td2048/td2048/netfile"
	"github.com/td2048/td2048/ntuple"
)

// loadFor loads weights for game g (td2048's format, the course demo's
// 2048.bin or TDL2048+'s .w, told apart by content), held as w says
// (netfile.LoadPlay): the file must be g's, its network and learner ones
// g can use. It returns the learner, and a note for people when the
// weights are not held as asked.
func loadFor(path string, g *games.Game, w netfile.Weights) (*ntuple.Network, netfile.Header, learn.Kind, string, error) {
	net, h, note, err := netfile.LoadPlay(path, w)
	if errors.Is(err, os.ErrNotExist) {
		train := "td2048 train"
		if g.Name != games.Default {
			train += " --game " + g.Name
		}
		return nil, h, 0, "", fmt.Errorf("%s not found: train one with %s, or name another with --load", path, train)
	}
	if err != nil {
		return nil, h, 0, "", readErr(path, err)
	}
	if err := netfile.Expect(path, h, g.Name, "", nil); err != nil {
		net.Free()
		return nil, h, 0, "", err
	}
	// A network the game cannot play (a staged one read from a .w without
	// its thresholds, say) is refused by every face alike.
	if err := netfile.CheckThresholds(path, net.Spec()); err != nil {
		net.Free()
		return nil, h, 0, "", err
	}
	err = g.CheckSpec(net.Spec())
	kind, kerr := learn.ParseKind(h.Learner)
	if err == nil {
		err = kerr
	}
	if err == nil {
		err = g.CheckLearner(kind)
	}
	if err != nil {
		net.Free()
		return nil, h, 0, "", fmt.Errorf("%s: %v", path, err)
	}
	return net, h, kind, note, nil
}

// readErr words an error reading the weight file at path: an error of the
// system's about the path as "cannot read PATH: cause"; the others name
// the file already.
func readErr(path string, err error) error {
	if c := safefile.UnwrapPath(err); c != err {
		return fmt.Errorf("cannot read %s: %v", path, c)
	}
	return err
}

// describe is a network's one-line description.
func describe(spec ntuple.Spec) string { return spec.Describe() }

func mib(bytes int64) string {
	if bytes >= 1<<20 {
		return fmt.Sprintf("%d MiB", bytes>>20)
	}
	return fmt.Sprintf("%d KiB", (bytes+1023)>>10)
}

// rate formats moves per second.
func rate(moves int64, d time.Duration) string {
	r := float64(moves) / max(d.Seconds(), 1e-9)
	switch {
	case r >= 1e6:
		return fmt.Sprintf("%.2fM", r/1e6)
	case r >= 1e3:
		return fmt.Sprintf("%.1fk", r/1e3)
	}
	return fmt.Sprintf("%.0f", r)
}

// refuseClobber refuses to write over a file that holds something the user
// did not name as this command's to replace: want says what the command
// writes ("weights", "log", "image", "stats"), and a file of that kind may
// be replaced only where replacing it loses nothing (a figure td2048 drew,
// which plot.Drawn recognises by its mark).
func refuseClobber(path, flagName, want string) error {
	head, err := safefile.Sniff(path, 512)
	if err != nil {
		return fmt.Errorf("--%s %s: %v", flagName, path, err)
	}
	if len(head) == 0 {
		return nil // no file, or an empty one
	}
	what := describeFile(path, head)
	if want == "image" {
		if drawn, _ := plot.Drawn(path); drawn {
			return nil // td2048's own figure is redrawn from its logs: replacing it loses nothing
		}
		if strings.HasSuffix(what, " image") {
			what += " that td2048 did not draw"
		}
	}
	hint := "choose another --" + flagName + ", or --force to replace it"
	if flagName == "" {
		hint = "choose another name, or --force to replace it"
	}
	if want == "weights" && flagName == "save" && strings.HasPrefix(string(head), "td2048w\n") {
		if h, err := netfile.ReadHeader(path); err == nil {
			if _, ok, _ := train.ReadState(h); ok {
				hint = fmt.Sprintf("continue its run with td2048 train --resume %s, start from its weights with --load %s, %s", path, path, hint)
			} else {
				hint = fmt.Sprintf("start from its weights with --load %s, %s", path, hint)
			}
		}
	}
	return fmt.Errorf("%s holds %s; not overwriting it (%s)", path, what, hint)
}

// describeFile says what a file holds, from its first bytes.
func describeFile(path string, head []byte) string {
	s := string(head)
	switch {
	case strings.HasPrefix(s, "td2048w\n"):
		h, err := netfile.ReadHeader(path)
		if err != nil {
			return "a damaged td2048 weight file"
		}
		return fmt.Sprintf("trained %s weights (%s network, %d episodes)", gameTitle(h.Game), h.Network, h.Episodes)
	case strings.HasPrefix(s, "\x89PNG"):
		return "a PNG image"
	case strings.HasPrefix(s, "%PDF"):
		return "a PDF image"
	case strings.HasPrefix(s, "<?xml") || strings.HasPrefix(s, "<svg"):
		return "an SVG image"
	case strings.HasPrefix(s, `{"episodes":`):
		return "a training run's metrics log"
	case evalresult.IsResult(head):
		return "an evaluation result"
	case evalresult.IsProgress(head):
		return "the progress record of an evaluation under way"
	case strings.Contains(s, "|") && strings.Contains(s, "@"):
		return "a Threes! statistics file"
	}
	if k := netfile.FormatOfName(path); k != netfile.Native && k != netfile.Unknown {
		return fmt.Sprintf("weights (%s)", k)
	}
	return "other data"
}

func checkThreads(n int) error {
	if n < 0 || n > train.MaxThreads() {
		return usagef("--threads %d: want 0 (all cores) to %d (this machine has %d CPUs)", n, train.MaxThreads(), runtime.NumCPU())
	}
	return nil
}

// claimOutput readies path for a command that writes it once at the end:
// the path is checked, locked against a second writer (stale temporary
// files of a killed one are removed) and, unless force, refused when it
// holds something replacing it would lose. release frees the lock.
func claimOutput(path, flagName, want string, force bool) (release func(), err error) {
	if err := safefile.Check(path); err != nil {
		return nil, usagef("--%s: %v", flagName, err)
	}
	lock, err := safefile.Acquire(path)
	if err != nil {
		return nil, err
	}
	if !force {
		if err := refuseClobber(path, flagName, want); err != nil {
			lock.Release()
			return nil, err
		}
	}
	return lock.Release, nil
}
