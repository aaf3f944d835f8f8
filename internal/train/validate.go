package train

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"os"
	"runtime"
	"strings"

	"github.com/td2048/td2048/games"
	"github.com/td2048/td2048/internal/plot"
	"github.com/td2048/td2048/internal/safefile"
	"github.com/td2048/td2048/learn"
	"github.com/td2048/td2048/netfile"
	"github.com/td2048/td2048/ntuple"
)

// A FieldError is a setting that cannot work, or cannot work with the
// others: a usage error, named by its field.
type FieldError struct {
	Field string // the toml key
	// Msg follows the field's name: " 5: want ..." or ": learning rate ...".
	Msg string
}

// Error names the field as the train command's flag.
func (e *FieldError) Error() string { return "--" + FlagOf(e.Field) + e.Msg }

// Key names the field by its key, as a sweep plan does.
func (e *FieldError) Key() string { return e.Field + e.Msg }

// bad is a FieldError; format follows the field's name.
func bad(key, format string, a ...any) error {
	return &FieldError{Field: key, Msg: fmt.Sprintf(format, a...)}
}

// MaxThreads bounds Spec.Threads: more workers than this only add memory
// and contention on this machine.
func MaxThreads() int { return max(64, 4*runtime.NumCPU()) }

// Compiled is what Validate makes of a spec, for Open and the run to use
// as they are: nothing is parsed twice.
type Compiled struct {
	Learning
	// Network is the network the spec names (for a new run without
	// --load, the game's when it names none); nil when the --load or
	// --resume file brings its own.
	Network *ntuple.Spec
	// Schedule is a new run's learning rate by episode; nil for a
	// resumed run, which goes on with its checkpoint's.
	Schedule *learn.Schedule
}

// Validate checks a completed spec (Complete): every setting alone, and
// together, before any work, and returns what it makes of them; what
// depends on the network of a --load or --resume file is checked by Open
// once it is read (checkGame). The error is a *FieldError.
func (s *Spec) Validate() (c Compiled, err error) {
	if s.empty != "" {
		return c, bad(s.empty, ": an empty value; leave the setting out for its default")
	}
	if s.Recipe != "" {
		if _, err := LookupRecipe(s.Recipe); err != nil {
			return c, bad("recipe", ": %v", err)
		}
		if s.Resume != "" {
			return c, bad("recipe", " starts a run; a resumed run keeps its settings")
		}
	}
	switch {
	case s.Episodes <= 0:
		return c, bad("episodes", " %d: want 1 or more episodes to train", s.Episodes)
	case s.Every <= 0:
		return c, bad("every", " %d: want 1 or more episodes per block", s.Every)
	case s.Threads < 0 || s.Threads > MaxThreads():
		return c, bad("threads", " %d: want 0 (all cores) to %d (this machine has %d CPUs)", s.Threads, MaxThreads(), runtime.NumCPU())
	case s.CheckpointEvery < 0:
		return c, bad("checkpoint_every", " %d: want a number of episodes, or 0", s.CheckpointEvery)
	case s.CheckpointGap < 0:
		return c, bad("checkpoint_gap", " %v: want a time between checkpoints, like 1m, or 0", s.CheckpointGap)
	case s.Duration < 0:
		return c, bad("duration", " %v: want a time to train, like 60m", s.Duration)
	case s.Interleave < 0 || s.Interleave > learn.MaxInterleave:
		return c, bad("interleave", " %d: want 0 (the default) to %d episodes per thread", s.Interleave, learn.MaxInterleave)
	}
	if err := learn.CheckAlpha(s.Alpha); err != nil {
		return c, bad("alpha", ": %v", err)
	}
	if err := learn.CheckAlpha(s.AlphaFloor); err != nil || s.AlphaFloor > 0 && s.Plateau == "" {
		return c, bad("alpha_floor", " %v: want a rate from 0 to 1, with --plateau", s.AlphaFloor)
	}
	if err := learn.CheckAlpha(s.CoherenceAlpha); err != nil { // checked whatever the other settings
		return c, bad("coherence_alpha", ": %v", err)
	}
	if !(math.Abs(s.Init) < 1e9) {
		return c, bad("init", " %v: want a value a board can have, like 320000", s.Init)
	}
	if s.Init != 0 && (s.Load != "" || s.Resume != "") {
		return c, bad("init", " fills a new network; --load and --resume bring their own weights")
	}
	if s.Resume != "" && s.Load != "" {
		return c, bad("load", ": --resume continues a run; --load starts a new one from saved weights: give one")
	}
	if k := netfile.FormatOfName(s.Resume); k != netfile.Native && k != netfile.Unknown {
		return c, notRun(s.Resume, k)
	}
	if k := netfile.FormatOfName(s.Save); k != netfile.Native && k != netfile.Unknown {
		return c, bad("save", " %s: train writes td2048 files (they hold the run, to resume it); use td2048 convert for %s", s.Save, k)
	}
	if c.Learning, err = s.learning(); err != nil {
		return c, err
	}
	if s.Resume == "" {
		if c.Schedule, err = s.schedule(c.Learning); err != nil {
			return c, err
		}
	}
	if s.Plot != "" {
		if _, err := plot.Format(s.Plot); err != nil {
			return c, bad("plot", ": %v", err)
		}
	}
	if err := learn.CheckInterleave(s.Interleave, c.Kind, c.Shaping); err != nil {
		return c, bad("interleave", "%s", strings.TrimPrefix(err.Error(), "interleave"))
	}
	if s.Network != "" {
		if c.Network, err = s.network(nil); err != nil {
			return c, err
		}
	}
	switch { // the game and network may be the file's: Open checks them
	case s.Load != "":
		return c, s.checkLoad()
	case s.Resume != "":
		return c, nil
	}
	g, err := s.game("")
	if err != nil {
		return c, err
	}
	if c.Network == nil {
		if c.Network, err = s.network(g); err != nil {
			return c, err
		}
	}
	return c, s.checkGame(g, *c.Network, c.Learning)
}

// notRun refuses to resume a weight file of format k, which holds no run.
func notRun(path string, k netfile.Format) error {
	return bad("resume", " %s is a %s file, not a td2048 run checkpoint: start a new run from its weights with --load %s", path, k.Describe(), path)
}

// checkLoad checks that the --load file holds weights (of a format
// td2048 reads) of a game td2048 knows, and of the spec's game when it
// names one.
func (s *Spec) checkLoad() error {
	k, err := netfile.DetectFile(s.Load)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return bad("load", " %s: not found: train one with td2048 train, or name another file", s.Load)
	case err != nil:
		return bad("load", " %s: %v", s.Load, safefile.UnwrapPath(err))
	case k == netfile.Unknown:
		return bad("load", " %s is %v", s.Load, netfile.ErrUnknownFormat)
	case k != netfile.Native:
		if s.Game != "" && s.Game != "2048" {
			return bad("load", " %s holds weights for 2048 (%s), not %s", s.Load, k.Describe(), s.Game)
		}
		return nil
	}
	h, err := netfile.ReadHeader(s.Load)
	if err != nil {
		return bad("load", " %v", err)
	}
	g, err := games.Lookup(h.Game)
	if err != nil {
		return bad("load", " %s: %v", s.Load, err)
	}
	if want, err := games.Lookup(s.Game); err == nil && s.Game != "" && want != g {
		return bad("load", " %s holds weights for %s, not %s", s.Load, g.Name, want.Name)
	}
	return nil
}

// Learning is what a spec's learning settings parse to.
type Learning struct {
	Kind          learn.Kind
	Mode          learn.Mode
	Shaping       learn.Shaping
	CoherenceFrom int // the episode temporal coherence starts at, 0 for none
}

// learning parses the learner, update mode and shaping.
func (s *Spec) learning() (Learning, error) {
	var l Learning
	var err error
	if l.Kind, err = learn.ParseKind(s.Learner); err != nil {
		return l, bad("learner", ": %v", err)
	}
	if l.Mode, err = learn.ParseMode(s.Update); err != nil {
		return l, bad("update", ": %v", err)
	}
	if l.Mode != (learn.Mode{}) && l.Kind != learn.AfterState {
		return l, bad("update", " %s is for after-state learning; the state learner learns backward by TD(0)", s.Update)
	}
	if l.Shaping, err = learn.ParseShaping(s.Shaping); err != nil {
		return l, bad("shaping", ": %v", err)
	}
	if l.CoherenceFrom, err = s.CoherenceFrom.Of(s.Episodes); err != nil {
		return l, bad("coherence_from", " %s: %v", s.CoherenceFrom, err)
	}
	if s.Coherence && l.Kind != learn.AfterState {
		return l, bad("coherence", " is for after-state learning")
	}
	return l, nil
}

// schedule checks a new run's temporal coherence and makes its learning
// rate by episode: --alpha-schedule over --alpha, else --alpha and from
// --coherence-from (when given) --coherence-alpha; cut on plateaus as
// --plateau says.
func (s *Spec) schedule(l Learning) (*learn.Schedule, error) {
	cohFrom := l.CoherenceFrom
	if cohFrom > 0 {
		switch {
		case s.Coherence:
			return nil, bad("coherence_from", ": --coherence learns by TC from the start, --coherence-from from an episode on: give one")
		case cohFrom >= s.Episodes:
			return nil, bad("coherence_from", " %s: episode %d is not within the run's %d episodes", s.CoherenceFrom, cohFrom, s.Episodes)
		case l.Kind != learn.AfterState:
			return nil, bad("coherence_from", " is for after-state learning")
		}
	}
	sched, err := learn.ParseSchedule(s.AlphaSchedule, s.Alpha)
	if err != nil {
		return nil, bad("alpha_schedule", ": %v", err)
	}
	if cohFrom > 0 && s.AlphaSchedule == "" {
		sched.Steps = append(sched.Steps, learn.Step{Episode: cohFrom, Alpha: s.CoherenceAlpha})
	}
	if s.Plateau != "" {
		if err := sched.SetPlateau(s.Plateau); err != nil {
			return nil, bad("plateau", ": %v", err)
		}
		sched.Floor = s.AlphaFloor
	}
	return sched, nil
}

// game is the spec's game, fileGame when it names none.
func (s *Spec) game(fileGame string) (*games.Game, error) {
	g, err := games.Lookup(cmp.Or(s.Game, fileGame))
	if err != nil {
		return nil, bad("game", ": %v", err)
	}
	return g, nil
}

// network is the network the spec names, g's default when it names none.
func (s *Spec) network(g *games.Game) (*ntuple.Spec, error) {
	name := s.Network
	if name == "" {
		name = g.Network
	}
	net, err := ntuple.ParseSpec(name)
	if err != nil {
		return nil, bad("network", ": %v", err)
	}
	return &net, nil
}

// checkGame checks what depends on the game and the network: the learner,
// stages, shaping and episodes in turn that fit them.
func (s *Spec) checkGame(g *games.Game, net ntuple.Spec, l Learning) error {
	if err := g.CheckLearner(l.Kind); err != nil {
		return bad("learner", ": %v", err)
	}
	if err := g.CheckSpec(net); err != nil {
		return bad("network", ": %v", err)
	}
	if err := learn.CheckStages(net, l.Kind, s.Promote); err != nil {
		if s.Promote && net.StageThresholds() == nil {
			return bad("promote", ": %v", err)
		}
		return bad("network", ": %v", err)
	}
	if s.Interleave > 1 && !g.Interleaves {
		return bad("interleave", " %d: %s training plays one episode at a time on each thread", s.Interleave, g.Name)
	}
	if l.Shaping != (learn.Shaping{}) && !g.Shapes {
		return bad("shaping", " %s: %s training plays whole episodes (restart and carousel shaping are for 2048)", s.Shaping, g.Title)
	}
	if err := learn.CheckShaping(l.Shaping, net, l.Kind); err != nil {
		return bad("shaping", ": %v", err)
	}
	return nil
}
