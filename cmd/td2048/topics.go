package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/td2048/td2048/internal/train"
	"github.com/td2048/td2048/ntuple"
)

// A topic is a help topic, "td2048 help NAME": the long explanation of
// flags whose help is a line.
type topic struct {
	name    string
	aliases []string
	short   string
	long    func() string
}

// topics are the help topics, in the order "td2048 help" lists them.
var topics = []topic{
	{"networks", []string{"network", "stages"}, "named networks, patterns, isomorphisms, stages, Threes!' +hint", networksTopic},
	{"updates", []string{"update", "learner"}, "update modes (backward, online, delayed, n-step, lambda) and learners", func() string { return updatesTopic }},
	{"rates", []string{"alpha", "coherence", "init"}, "learning rates and schedules, optimistic TD, temporal coherence", func() string { return ratesTopic }},
	{"shaping", nil, "2048 sub-episodes: restart and carousel", func() string { return shapingTopic }},
	{"recipes", []string{"recipe"}, "the published recipes of --recipe, their settings and papers", recipesTopic},
	{"threads", []string{"interleave"}, "worker threads and games in turn: speed, and what repeats", func() string { return threadsTopic }},
	{"seeds", []string{"seed", "reproducibility"}, "what repeats exactly: seeds, threads, resumes, evaluations", func() string { return seedsTopic }},
	{"checkpoints", []string{"checkpoint", "resume"}, "the files of a run: checkpoints, resumes, forks, logs, plots", checkpointsTopic},
	{"search", []string{"depth", "cache", "downgrade"}, "search of eval, hint, play and serve: depth, time, table, downgrading, MCTS", func() string { return searchTopic }},
}

// addTopics adds the help topics to r: commands with a text and nothing
// to run, which "td2048 help" lists apart from the commands.
func addTopics(r *cobra.Command) {
	for _, t := range topics {
		r.AddCommand(&cobra.Command{Use: t.name, Aliases: t.aliases, Short: t.short, Long: strings.TrimSpace(t.long())})
	}
}

// namedNetworks lists the named networks and their patterns, one an
// item.
func namedNetworks() string {
	var b strings.Builder
	for _, n := range ntuple.Names() {
		b.WriteString(wrapIndent("- "+n, "  ", "    ", 78))
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func networksTopic() string {
	return `A network is a set of n-tuples, patterns of cells, each with a table of
weights; a board's value is the sum of the weights its patterns' tiles
index. --network takes:

- A named network, its patterns read on the board's 8 images (rotations
  and mirrors) unless it says otherwise; TDL2048+'s names for the same
  networks (4x6patt, 8x6patt, ...) are accepted:
` + namedNetworks() + `
- Patterns in hex cells, 0 the top left and f the bottom right, row by
  row: 012345,456789,012456,45689a. Add /noiso to read them on the board
  alone, not its 8 images.
- Stages (2048): @T0,T1,... keeps one set of tables per threshold. A
  threshold is compared with the board's scale, the sum of the distinct
  tiles it holds (+1 with an empty cell), as TDL2048+'s -@ does, so
  4x6@0,16384 (or TDL2048+'s 4x6patt@2, whose thresholds default to
  0,16384) switches tables once a 16384 or a 32768 is on the board. A game
  starts in stage 0 and rises one stage after a move whose reward reaches
  the lowest bit of the next threshold and whose after-state reaches it;
  that after-state was chosen by the lower stage and learns in the higher.
  Play and search value a board by the last stage its scale reaches. The
  thresholds are part of the network, so a weight file carries them.
  --promote starts a stage first entered from the weights of the stage
  below (weight promotion; TDL2048+ has none). Alpha is the course's for
  one stage: TDL2048+'s -a 0.1 on @2 is --alpha 0.05 here.
- Threes!: +hint keeps one set of tables per next tile the game shows
  (4x6+hint, the Threes! default).

The default is the game's: 4x6 for 2048, 4x6+hint for Threes!. A network
loaded (--load) or resumed brings its own. The header of train prints the
network, its patterns and the memory its tables take (the 4x6's, 256 MiB).
For example:

    td2048 train --network 8x6 --save 8x6.td2048
    td2048 train --network 4x6@0,16384 --promote --save ms.td2048`
}

const updatesTopic = `--learner says what the network values:

- after (the default): after-states, the board after a move and before
  the random tile; moves are chosen by reward + value of the after-state.
- state (2048): states, the board before the move; moves are chosen by the
  expectation over the random tile, and learning is backward.

--update MODE[,nstep=N][,lambda=L] says when and how after-states learn:

- backward (the default): after the episode, from the last after-state
  down, the course's rule (TDL2048+'s -tt backward).
- online: each after-state as the next move is chosen (TDL2048+'s
  default): plain TD(0) from its value at the choice (as fast); with
  --coherence, stages or --shaping from its value read again just before
  the update (as forward).
- fast, forward: online, always from the value at the choice, or always
  valued again (TDL2048+'s -tt fast and -tt forward).
- delayed: online TD(lambda) on the values computed when each after-state
  was chosen, so an update reads no weights beyond its own (after
  Jaskowski 2018); with --coherence, delayed TC. It needs lambda=L.
- ,nstep=N: n-step TD (TDL2048+'s -N N).
- ,lambda=L: TD(lambda): after the episode untruncated unless nstep is
  given; online truncated at nstep, 5 by default (TDL2048+'s -l L -N N).

For example: online,nstep=5; backward,lambda=0.5 (untruncated);
backward,lambda=0.5,nstep=5; online,lambda=0.5; delayed,lambda=0.5,nstep=5.
docs/methods.md (section 4) pins each mode down.`

const ratesTopic = `--alpha is the learning rate of the whole value, as the course has it:
each of the patterns x images weights a board looks up moves by
alpha x error / (patterns x images). TDL2048+ divides its -a over the
features of all stages, so its -a 0.1 on a two-stage network is --alpha
0.05 here.

- --alpha-schedule 0:0.1,200000:0.05,400000:0.025: the rate by episode,
  overriding --alpha from the first step; an episode named twice is
  refused.
- --plateau FACTOR:BLOCKS: cut the rate by FACTOR when the mean of BLOCKS
  block averages has not improved for BLOCKS blocks (0.5:10 halves it).
- --alpha-floor RATE (with --plateau): the cuts never take the rate below
  RATE; a schedule's own step below it keeps its own rate. The header then
  shows "..., x0.5 after 10 blocks without progress down to 0.0025".

The rate in force is in the metrics log.

Optimistic TD (OTD): --init V values every board of a new network at V
(each weight V / lookups), like TDL2048+'s 4x6patt=320000/norm; for a
K-stage network TDL2048+'s /norm divides over all stages. Not with --load
or --resume, whose weights are their own.

Temporal coherence (TC), as TDL2048+ does it:

- --coherence: each weight keeps the sum E of its updates and the sum A of
  their sizes, and its step is scaled by |E|/A; --alpha then defaults to
  1.0; weight files hold the accumulators too (3 times the size). A
  network loaded with --load keeps its weights and starts its
  accumulators, as TDL2048+ does for OTD then TC.
- --coherence-from E: switch to TC at episode E, or at a share of
  --episodes like 90%: OTD then TC in one run. Every thread pauses there,
  each weight gets its accumulators, and the run goes on at
  --coherence-alpha (1.0, TDL2048+'s TC rate) unless --alpha-schedule is
  given. Resumes are exact before and after the switch.`

const shapingTopic = `--shaping plays sub-episodes that train the late game more (2048, after-state
learning: a Threes! after-state holds neither the next tile nor the bag,
so nothing can restart from it):

- restart[,L=10][,at=0.5]: replay the late part of each game, from the
  after-state chosen at the share at of a sub-episode of at least L moves,
  until one is shorter (TDL2048+'s restart). It needs a single-stage
  network, as TDL2048+'s restart uses all features.
- carousel[,block=2048][,limit=65536]: chain sub-episodes that start from
  boards edited, as TDL2048+ edits them, to hold ever larger tile sums, in
  steps of block up to limit, climbing the stages (TDL2048+'s -b).
  TDL2048+'s multi-stage mode always carousels, and so does the ms recipe.

Sub-episodes end before a 32768+32768 merge. The statistics count the
first sub-episode, an ordinary game, as TDL2048+ counts them; the speed
(moves/s) counts every sub-episode's moves: a carousel episode plays about
20 times the moves of its first. docs/methods.md (section 5) pins both
down.`

func recipesTopic() string {
	var b strings.Builder
	b.WriteString(`--recipe NAME trains by a published recipe: it sets the network, stages,
initial value, update mode, temporal coherence, rates and shaping of the
recipe, and a flag given as well overrides the recipe's setting (with
--load the weights bring their own network and values). "td2048 train
--recipe list" prints the same list. Each recipe, the flags it sets, its
paper, and where td2048 departs from it:

`)
	writeRecipes(&b)
	b.WriteString(`
Rates are the course's alpha (the step of the whole value of one stage):
TDL2048+ divides its -a by the features of all stages, so its -a 0.1 on a
two-stage network is 0.05 here.`)
	return b.String()
}

// writeRecipes prints the recipes, the flags each sets and its paper
// (train --recipe list, and the recipes topic).
func writeRecipes(w io.Writer) {
	for _, r := range train.Recipes {
		fmt.Fprint(w, wrapIndent(r.Name+": "+r.About, "- ", "  ", 78))
		fmt.Fprint(w, wrapIndent("flags: "+r.Flags(), "  ", "    ", 78))
		fmt.Fprint(w, wrapIndent("paper: "+r.Cite, "  ", "    ", 78))
		if r.Note != "" {
			fmt.Fprint(w, wrapIndent("note: "+r.Note, "  ", "    ", 78))
		}
	}
}

// wrapIndent wraps text into lines of at most width columns, the first
// starting with first and the others with indent.
func wrapIndent(text, first, indent string, width int) string {
	return first + strings.Join(wrapWords(text, width-len(indent)), "\n"+indent) + "\n"
}

const threadsTopic = `--threads N trains on N worker threads (0, the default: all cores) that
share the weights without locks, as TDL2048+ does (a lost update now and
then is the accepted cost): the curve per episode stays the same within
noise, but only --threads 1 repeats a run exactly from its seed.

Unless --interleave is given, a run of several threads measures as it
goes whether all its threads or half of them, and (where --interleave
defaults to 2) two games in turn or one, train faster on the machine at
that moment, and keeps the faster; its closing lines say how the time
went, like "adapted = 2 threads 95%, 1 thread 5% of the time".

--interleave N: the episodes each thread plays in turn, so that one game's
memory waits overlap another's work (after-state learning without
shaping). 0, the default, is 2 for networks of at most 40 lookups a board
(4x6, 5x6, a staged 4x6), else 1, on every processor: a seeded run of one
thread gives the same weights on all of them. Giving it fixes that choice
and the number of threads. On one thread, games in turn pause every 100
episodes (they finish, then start again in order), and Ctrl-C, SIGTERM,
SIGHUP or --duration stop the run at the next pause, a moment later, so
that it resumes exactly from any stop (td2048 help seeds).

eval --interleave plays greedy 2048 games in turn the same way (at
--depth 1, without --downgrade; 0: 2 on AMD processors, else 1); its
statistics do not depend on it, nor on --threads. docs/speed.md says why
and what was measured.`

const seedsTopic = `train, eval and play print their seed (seed = S), random unless --seed
gives one: --seed S repeats what they did.

- train --seed S --threads 1 repeats a run exactly, on every processor:
  the same blocks, the same weights. Several threads share the weights
  without locks, so their runs differ, within noise.
- With one thread and the defaults, a resumed run (train --resume, a
  requeued sweep task) learns as one never stopped, bit for bit: from a
  checkpoint (after kill -9 or a lost node) and from a stop (Ctrl-C,
  SIGTERM, SIGHUP, --duration). So does a finished run extended with
  --episodes when its old total is a multiple of 100 episodes, or with
  --interleave 1. A --checkpoint-every given on resume keeps this when it
  and the run's are multiples of 100 (the default, 10000, is).
- eval: game i draws its tiles from (seed, i) alone, so the statistics do
  not depend on --threads or --interleave, and the shards of an evaluation
  (--shard K/N) merge into the very statistics of one run. With --out or
  --shard the seed is 1 unless given, so that the shards of one command
  line are one evaluation and a requeued shard continues its own games.
- play: --seed is the first game's seed, shown on screen, and each new
  game takes the next; a game's seed replays it on the web page (serve).
- bench prints a signature of its results: a change to the rules, search
  or learning shows as a changed number.`

func checkpointsTopic() string {
	flags := map[train.Rule][]string{}
	for _, k := range train.Keys() {
		flags[train.RuleOf(k)] = append(flags[train.RuleOf(k)], "--"+train.FlagOf(k))
	}
	keep, override, refuse := flags[train.Keep], flags[train.Override], flags[train.Refuse]
	return `--save FILE holds a run's weights and its state; it is also its
checkpoint. It defaults to the game's own file: weights.td2048 for 2048,
threes.td2048 for Threes!. It is rewritten every --checkpoint-every
episodes (10000; 0: only at the end), at the end and on Ctrl-C, SIGTERM
or SIGHUP, atomically and with a checksum. A checkpoint that would come within
--checkpoint-gap (1m) of the last one is skipped, so that a short run
learns instead of writing weights; a --checkpoint-every given saves at
each of its episodes unless --checkpoint-gap is given too. Skipping one
changes nothing learnt. A checkpoint that cannot be written stops the run,
and FILE keeps the last one intact: continue with td2048 train --resume
FILE once the problem is fixed.

` + wrapIndent("--resume FILE continues the run exactly where it stopped; --episodes gives it a new total, so a finished run goes on. "+
		"A resumed run keeps its settings: it may be given other values of "+strings.Join(override, ", ")+
		"; the same values of "+strings.Join(keep, ", ")+"; none of "+strings.Join(refuse, ", ")+
		" (start a new run with --load to change those).", "- ", "  ", 74) + `- --resume FILE --save OTHER forks the run: OTHER's log is a copy of
  FILE's up to the checkpoint, FILE's log and plot are left alone, and no
  plot is drawn unless --plot is given.
- --load FILE starts a new run from saved weights (td2048's, the course
  demo's 2048.bin or TDL2048+'s .w); --load FILE with --save FILE (the
  course demo's way; the default for the game's own file) trains on in
  place and continues that file's log.
- --duration 60m stops after that much training, saves and exits 0 (for
  equal-compute comparisons; 0, the default: no limit); --resume goes on.
- --log FILE: the metrics log, one JSON line per block (default: the
  --save file with .jsonl; none: no log). --plot FILE draws the learning
  curve (PNG, SVG or PDF) at every checkpoint and at the end. --every N:
  episodes per statistics block (1000).
- --force replaces what train would otherwise refuse to write over:
  trained weights in --save, another run's --log, a --plot file td2048
  did not draw; never the file a run reads (--load, --resume) or a
  resumed run's parent's log. A setting given empty is refused.
- --quiet prints only the statistics blocks and the closing lines: no
  header, no progress on stderr (warnings and errors still go there).

A file is locked while a run writes it: a second train on the same
weights or log is refused. For example:

    td2048 train --seed 1 --threads 1 --plot curve.png   # repeatable, a curve
    td2048 train --resume weights.td2048 --episodes 200000   # continue a run
    td2048 train --load weights.td2048 --episodes 50000  # train on from weights
    td2048 train --game threes                      # Threes!, to threes.td2048`
}

const searchTopic = `eval, hint, play and serve choose moves by expectimax over the learned
values: max nodes over the legal moves (reward + value below), chance
nodes over every random tile the game may place, leaves valued by the
network.

- --depth N: plies. 1 is greedy (each after-state's value); 2 adds one
  chance and max layer; 3 and up go deeper. play starts at 2.
- --move-time D (like 100ms): a time budget per move: deepen from depth 1
  until it runs out, and play the deepest search finished; --depth then
  caps the depth.
- --cache SIZE (like 256M or 1G; 0 turns it off): a transposition table of
  chance-node values, keyed by the board's canonical image and the depth
  left, of a fixed size, shared by all threads. Values are the same with
  and without it. By default none at 2 plies, where filling it costs more
  than it saves, and 64M deeper or with --move-time, where it pays.
- --downgrade T, --stint S (eval, 2048): tile-downgrading, TDL2048+'s -h T
  STINT (bare -h is 32768): from the first move that makes tile T, every
  decision is made on the board with its large tiles lowered into the gaps
  below them, one gap more at each such move; after S of them the trigger
  becomes 65536 (0: never). The real board is played and its real rewards
  scored. docs/methods.md (section 7) pins it down.
  hint, play and serve take them too; hint --downgrades N values the
  board as a game with N downgrades under way does. A staged network
  values each downgraded decision by the downgraded board's own stage
  (TDL2048+ keeps the game's stage); the commands say so when they start.
- --compact (default on; --compact=false turns it off): networks larger
  than the caches (4x6 and up) are played with 16-bit weights, fixed point
  with one scale a table, chosen so that no weight overflows: half the
  memory (a 4x6 network plays in about 133 MiB instead of 275), each
  value within a bound of the float32 value that eval prints. A network
  whose tables would hold too little in 16 bits is played float32, with a
  note saying why. So is a 2048 network staged by tiles unless --compact
  is given: at 2 plies its 16-bit games scored 0.5% less (Threes!'
  networks, a stage a hint, lose nothing). td2048 convert --compact IN
  OUT.td2048 writes such a file, half the size, for play only: training
  reads it as float32 and a run cannot resume from it.
- --threads N (hint, play, serve; eval's --move-threads): one move's
  search spread over N threads sharing the table, with exactly the values
  of one thread's search. eval plays one game a thread instead, which
  scales better for many games; --move-threads N searches each move on N
  of --threads (with --move-time that is the default, so each move
  searches as deep as the machine allows in its time).

eval spreads its games over --threads; game i draws its tiles from
(seed, i) alone, so the statistics depend on neither --threads nor
--interleave.

--search mcts plays by Monte Carlo tree search over the same values
instead (expectimax is the default), in both games:
- Decision nodes over the legal moves with their rewards; chance nodes
  over the random tile (2048: a 2 or 4 on an empty cell; Threes!: the next
  tile on the edge opposite the slide and the tile after it from the bag),
  sampled by their probabilities, not enumerated. A new decision node
  values all its moves by the network at once, each as one visit.
- Each iteration descends by UCT: a move's mean return, scaled to [0, 1]
  by the lowest and highest return seen at that node, plus
  --exploration x sqrt(ln N / n). So one constant serves both games, every
  stage of a game and any network's scale.
- Leaves: the network's value of the after-state reached by
  --rollout-depth greedy moves from a new chance node (0: no rollout; a
  new decision node is then the leaf, worth its best reward + value),
  the rewards on the way and the value discounted by --gamma at each tile.
- The move played is the most visited; hint shows each move's visits and
  mean return (the network's value counted as one visit).
- --iterations N a move (default 500), or with eval's --move-time D as
  many as D allows (--iterations then caps them when given; the
  --move-time of hint, play and serve is only a deadline). The course's
  settings are the defaults: 500 iterations, exploration 1.41, rollout
  depth 10, gamma 0.99.
- Threads: root parallelism. Each of the move's threads (hint, play and
  serve: --threads; eval: --move-threads) grows its own tree on its share
  of the iterations, and the trees' root visits and returns are added.
  The random tiles come from (eval's --seed, the position, the tree), so
  with --iterations the same seed and thread count give the same move;
  another thread count gives other trees. Under --move-time the counts
  depend on the machine's speed.
- Memory: each tree's nodes are a pool kept from move to move, at most
  1 + 5 x its iterations and never more than 262,144 nodes (12 MiB in
  2048, 20 MiB in Threes!); a tree whose pool is full stops.`
