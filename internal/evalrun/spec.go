// Package evalrun owns an evaluation: its settings (Spec), their checks
// (Spec.Validate, which returns what it makes of them), what a run of the
// same command again does with what an earlier one left (continue, done
// or refuse: the rules below), and the run itself (Open, Run.Evaluate),
// which claims its files, loads the weights, plays what is left of its
// games, records them as it goes and writes the result. The eval command,
// merge and sweeps all go through it, so a setting added to Spec is
// everywhere at once: a flag of td2048 eval and a key of a sweep plan's
// [eval] table.
package evalrun

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"time"

	flag "github.com/spf13/pflag"

	"github.com/td2048/td2048/games"
	"github.com/td2048/td2048/internal/train"
	"github.com/td2048/td2048/search"
)

// Spec is every setting of an evaluation. As in train.Spec, each field's
// help tag is its flag's help (arg: the word that names the value), its
// group tag the group of eval --help it shows in, its toml tag its key in
// a sweep plan's [eval] table and (with _ as -) its flag, its json tag
// its key in a sweep task's task.json (- for the task's own files); its rerun tag
// is what a run of the evaluation again does with it (a Rule).
//
// A zero is a value: a field a plan or a flag gives as 0 is 0. The fields
// whose default depends on others (the cache on the depth, the seed on
// --out, the weights on the game) take it in Complete.
type Spec struct {
	Play
	Games       int     `toml:"games" json:"games" rerun:"same" group:"basic" help:"games to play"`
	Seed        *uint64 `toml:"seed" json:"seed" rerun:"same" group:"basic" help:"random seed (random when not given, 1 with --out or --shard; td2048 help seeds)"`
	Threads     int     `toml:"threads" json:"threads" rerun:"free" group:"run" help:"worker threads (0: all cores; the statistics stay the same)"`
	Interleave  int     `toml:"interleave" json:"interleave" rerun:"free" group:"run" help:"greedy 2048 games each thread plays in turn (0: the fastest; td2048 help threads)"`
	Stats       string  `toml:"stats" json:"stats" rerun:"same" group:"run" arg:"FILE" help:"Threes!: write the course's statistics file to FILE (for td2048 judge; FILE.partial until whole)"`
	Force       bool    `toml:"force" json:"-" rerun:"own" group:"run" help:"replace a --stats or --out file of another evaluation; start over, not continue"`
	JSON        bool    `toml:"json" json:"json" rerun:"own" group:"run" help:"print one JSON object instead of text"`
	Quiet       bool    `toml:"quiet" json:"quiet" rerun:"own" group:"run" help:"only the statistics and closing lines"`
	Shard       string  `toml:"shard" json:"shard" rerun:"same" group:"run" arg:"K/N" help:"play only shard K/N (from 0) of the games, for td2048 merge; auto: a Slurm array's or Indexed Job's own index"`
	Shards      int     `toml:"shards" json:"shards" rerun:"same" group:"run" help:"with --shard auto: the evaluation's number of shards (default: TD2048_SHARDS)"`
	Out         string  `toml:"out" json:"-" rerun:"same" group:"run" arg:"FILE" help:"write the result to FILE (JSON) for td2048 merge, continuing from FILE.progress; only a rerun replaces a result"`
	MoveThreads int     `toml:"move_threads" json:"move_threads" rerun:"free" group:"search" help:"threads searching each move (0: 1, each thread playing its own games; with --move-time all; td2048 help search)"`
}

// Play is what every command that plays saved weights takes: the weights
// and their game, how moves are searched (Search) and how the weights are
// held. eval's Spec embeds it; hint, play and serve take it alone, each
// with defaults and help of its own (AddFlags). Its tags are as Spec's.
type Play struct {
	Load string `toml:"load" json:"-" rerun:"same" group:"basic" help:"weights to play with"`
	Game string `toml:"game" json:"game" rerun:"same" group:"basic" help:"2048 or threes (default: the loaded file's, else 2048)"`
	Search
	Compact bool `toml:"compact" json:"compact" rerun:"same" group:"search" help:"play large networks with 16-bit weights, half the memory (2048's staged ones only when given; td2048 help search)"`
}

// Search is how moves are searched: the depth, the time of a move, the
// transposition table, tile-downgrading.
type Search struct {
	Depth     int            `toml:"depth" json:"depth" rerun:"same" group:"basic" help:"search depth in plies: 1 greedy, 2 one more chance and max layer, 3 and up deeper"`
	Cache     ByteSize       `toml:"cache" json:"cache" rerun:"same" group:"search" arg:"SIZE" help:"transposition table SIZE, shared by all threads, like 256M (0: none; default: none at 1-2 plies, 64M deeper or with --move-time)"`
	MoveTime  train.Duration `toml:"move_time" json:"move_time" rerun:"same" group:"search" arg:"TIME" help:"deepen each move for TIME, like 100ms, up to --depth"`
	Downgrade int            `toml:"downgrade" json:"downgrade" rerun:"same" group:"search" help:"2048: tile-downgrading from this tile on, like 32768 (TDL2048+'s -h; 0: off; td2048 help search)"`
	Stint     int            `toml:"stint" json:"stint" rerun:"same" group:"search" help:"with --downgrade: downgrades until the trigger becomes 65536 (0: no end)"`
	MCTS
}

// MCTS chooses the search method and holds the settings of Monte Carlo
// tree search (search.MCTSOptions; DefaultSearch gives the course's).
type MCTS struct {
	Method       string  `toml:"search" json:"search" rerun:"same" group:"search" arg:"METHOD" help:"the METHOD of search: expectimax or mcts (Monte Carlo tree search; td2048 help search)"`
	Iterations   int     `toml:"iterations" json:"iterations" rerun:"same" group:"search" help:"mcts: iterations a move (with a move time that is a budget: a cap, when given)"`
	Exploration  float64 `toml:"exploration" json:"exploration" rerun:"same" group:"search" help:"mcts: UCT's exploration constant, on returns scaled to [0, 1]"`
	RolloutDepth int     `toml:"rollout_depth" json:"rollout_depth" rerun:"same" group:"search" help:"mcts: greedy moves from each new leaf before the network values it"`
	Gamma        float64 `toml:"gamma" json:"gamma" rerun:"same" group:"search" help:"mcts: discount of returns at each random tile (1: none)"`
}

// DefaultSearch is the search of a command's defaults: expectimax to
// depth, and MCTS's settings the course's should --search mcts be asked.
func DefaultSearch(depth int, cache ByteSize, moveTime time.Duration) Search {
	m := search.DefaultMCTS()
	return Search{Depth: depth, Cache: cache, MoveTime: train.Duration(moveTime), Stint: 1,
		MCTS: MCTS{Method: "expectimax", Iterations: m.Iterations, Exploration: m.Exploration, RolloutDepth: m.RolloutDepth, Gamma: m.Gamma}}
}

// Default is the spec of td2048 eval without flags: 1000 greedy games of
// the game's own weights file, 16-bit weights where they play as well.
func Default() Spec {
	return Spec{Play: Play{Search: DefaultSearch(1, 0, 0), Compact: true}, Games: 1000}
}

// A Rule says what running an evaluation again (the same command, after
// an interruption, a requeue or its end) does with a setting: each Spec
// field names its rule in its rerun tag, so the fields are the table.
type Rule int

const (
	// Same: the setting says which games are played and how (recorded in
	// the result and the progress record); a run with another value is
	// another evaluation, and what an earlier one left at --out is
	// refused, not continued (--force starts over).
	Same Rule = iota
	// Free: how fast the games are played, not which (the threads): a
	// run may change it and still continue, and the statistics are those
	// of one uninterrupted run.
	Free
	// Own: this invocation's own (its output, --force).
	Own
)

var rules = map[string]Rule{"same": Same, "free": Free, "own": Own}

// What a run does with what an earlier run of the same evaluation left at
// --out, in the order Open asks (Force: nothing is kept; the files of
// another evaluation are replaced):
//
//	at --out                                     the run
//	a result of this evaluation, this build,     plays nothing: done
//	  its statistics file intact
//	a result of this evaluation, another build   plays every game again, replaces it
//	  or its statistics file changed or gone
//	a result of another evaluation               refused
//	a progress record of this evaluation and     continues after the games it records
//	  build, the statistics lines it counts there
//	a progress record of another evaluation      refused
//	  or build, or of lines that are not there
//	another file                                 refused
//	nothing                                      plays every game

// Groups are the groups of eval's flags, in the order help shows them.
var Groups = []string{"basic", "search", "run"}

// fields lists Spec's fields in order (those of Play, Search and MCTS in
// their place), playFields Play's.
var fields, playFields = train.NewTable(reflect.TypeFor[Spec](), "rerun", rules, Groups), train.NewTable(reflect.TypeFor[Play](), "rerun", rules, Groups)

// Keys lists the toml keys of Spec's fields, in order.
func Keys() []string { return fields.Keys() }

// RuleOf is the rerun rule of the field of that toml key.
func RuleOf(key string) Rule {
	f, _ := fields.Lookup(key)
	return f.Rule
}

// Field is the address of the field of that toml key, for decoders to
// set (false when Spec has no such field).
func (s *Spec) Field(key string) (any, bool) { return fields.Addr(s, key) }

// AddFlags defines a flag for each field of s on fs, as train.Spec's
// AddFlags does, --load's help followed by each game's default file.
func (s *Spec) AddFlags(fs *flag.FlagSet) { fields.AddFlags(fs, s, playHelp(nil), true) }

// AddFlags defines the flags of p on fs, as Spec's AddFlags does but
// without groups, with the help help gives a key instead (no flag for "-").
func (p *Play) AddFlags(fs *flag.FlagSet, help map[string]string) {
	playFields.AddFlags(fs, p, playHelp(help), false)
}

// playHelp is the help of each flag (AddFlags).
func playHelp(help map[string]string) func(train.Field[Rule]) (string, bool) {
	var files []string // the file --load reads when none is named: each game's own
	for _, g := range games.All() {
		if g.Name == games.Default {
			files = append(files, g.File)
		} else {
			files = append(files, fmt.Sprintf("%s with --game %s", g.File, g.Name))
		}
	}
	return func(f train.Field[Rule]) (string, bool) {
		h, ok := help[f.Key]
		if !ok {
			h = f.Help
		}
		if h == "-" {
			return "", false
		}
		if f.Key == "load" {
			h = fmt.Sprintf("%s (default: the game's file, %s)", h, strings.Join(files, "; "))
		}
		return h, true
	}
}

// GivenFlags are the fields whose flags were set on fs.
func GivenFlags(fs *flag.FlagSet) train.Given { return fields.Given(fs) }

// ByteSize is a memory size: 256M, 1G, 64K or plain bytes, as a flag
// and a plan give it.
type ByteSize int64

// byteUnits are ByteSize's suffixes, the largest first, and their sizes.
var byteUnits = []struct {
	suffix string
	size   int64
}{{"G", 1 << 30}, {"M", 1 << 20}, {"K", 1 << 10}}

func (b *ByteSize) String() string {
	v := int64(*b)
	for _, u := range byteUnits {
		if v != 0 && v%u.size == 0 {
			return strconv.FormatInt(v/u.size, 10) + u.suffix
		}
	}
	return strconv.FormatInt(v, 10)
}

func (b *ByteSize) Type() string { return "size" }

func (b *ByteSize) Set(s string) error {
	t := strings.ToUpper(strings.TrimSuffix(strings.TrimSpace(s), "B"))
	mult := int64(1)
	for _, u := range byteUnits {
		if rest, ok := strings.CutSuffix(t, u.suffix); ok {
			mult, t = u.size, rest
			break
		}
	}
	v, err := strconv.ParseInt(t, 10, 64)
	if err != nil || v < 0 || v > 1<<40/mult {
		return fmt.Errorf("size %q: want bytes like 256M, 1G or 0", s)
	}
	if total := train.PhysicalMemory(); total > 0 && v*mult > total/2 {
		return fmt.Errorf("size %s: at most %s, half of this machine's memory of %s", s, MiB(total/2), MiB(total))
	}
	*b = ByteSize(v * mult)
	return nil
}

// UnmarshalTOML reads a size as a plan gives it: bytes, or text like
// "256M".
func (b *ByteSize) UnmarshalTOML(v any) error {
	switch x := v.(type) {
	case int64:
		return b.Set(strconv.FormatInt(x, 10))
	case string:
		return b.Set(x)
	}
	return fmt.Errorf("want a size like \"256M\" or bytes, not %v", v)
}
