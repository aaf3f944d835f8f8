package main

// The output files of the commands: checked before work starts, locked,
// and never written over when they hold what would be lost.

import (
	"fmt"
	"strings"

	"github.com/td2048/td2048/games"
	"github.com/td2048/td2048/internal/evalresult"
	"github.com/td2048/td2048/internal/evalrun"
	"github.com/td2048/td2048/internal/plot"
	"github.com/td2048/td2048/internal/safefile"
	"github.com/td2048/td2048/internal/train"
	"github.com/td2048/td2048/netfile"
)

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
			hint = fmt.Sprintf("start from its weights with --load %s, %s", path, hint)
			if _, ok, _ := train.ReadState(h); ok {
				hint = fmt.Sprintf("continue its run with td2048 train --resume %s, %s", path, hint)
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

// claimOutput readies path for a command that writes it once at the end:
// the path is checked, locked against a second writer (stale temporary
// files of a killed one are removed) and, unless force, refused when it
// holds something replacing it would lose. release frees the lock.
func claimOutput(path, flagName, want string, force bool) (release func(), err error) {
	release, err = evalrun.ClaimOutput(path, flagName, want, force, refuseClobber)
	return release, usageOf(err)
}

// gameTitle is the title of the game of that name, or the name.
func gameTitle(name string) string {
	if g, err := games.Lookup(name); err == nil && name != "" {
		return g.Title
	}
	return name
}
