package main

import (
	"fmt"
	"time"

	flag "github.com/spf13/pflag"

	"github.com/td2048/td2048/search"
)

// mctsFlags choose the search method and hold the settings of Monte Carlo
// tree search (search.MCTSOptions), for every command that searches.
type mctsFlags struct {
	method string
	mo     search.MCTSOptions
	fs     *flag.FlagSet
}

// mctsNames are the flags of MCTS's settings.
var mctsNames = []string{"iterations", "exploration", "rollout-depth", "gamma"}

func (f *mctsFlags) define(fs *flag.FlagSet) {
	d := search.DefaultMCTS()
	f.fs, f.mo = fs, d
	fs.StringVar(&f.method, "search", "expectimax", "the `METHOD` of search: expectimax or mcts (Monte Carlo tree search; td2048 help search)")
	fs.IntVar(&f.mo.Iterations, "iterations", d.Iterations, "mcts: iterations a move (with --move-time: a cap, when given)")
	fs.Float64Var(&f.mo.Exploration, "exploration", d.Exploration, "mcts: UCT's exploration constant, on returns scaled to [0, 1]")
	fs.IntVar(&f.mo.RolloutDepth, "rollout-depth", d.RolloutDepth, "mcts: greedy moves from each new leaf before the network values it")
	fs.Float64Var(&f.mo.Gamma, "gamma", d.Gamma, "mcts: discount of returns at each random tile (1: none)")
}

// on reports whether MCTS was asked for.
func (f *mctsFlags) on() bool { return f.method == "mcts" }

// check checks the method and MCTS's settings.
func (f *mctsFlags) check() error {
	if _, err := search.ParseMethod(f.method); err != nil {
		return usagef("--search: %v", err)
	}
	for _, n := range mctsNames {
		if !f.on() && f.fs != nil && f.fs.Changed(n) {
			return usagef("--%s needs --search mcts", n)
		}
	}
	if f.mo.Iterations == 0 {
		return usagef("--iterations must be 1 or more (with --move-time, leave it out to search until the time passes)")
	}
	if err := f.mo.Check(false); err != nil {
		return usagef("--search mcts: %v", err)
	}
	return nil
}

// checkKind refuses MCTS on a network of state values: MCTS values
// after-states.
func (f *mctsFlags) checkKind(k search.Kind) error {
	if f.on() && k != search.AfterState {
		return usagef("--search mcts values after-states; these weights hold %s values (search them by expectimax)", k)
	}
	return nil
}

// apply sets the method and MCTS's settings in o, with seed. With a time
// budget (budget: o.MoveTime is one, not only a deadline) the time decides
// unless --iterations was given.
func (f *mctsFlags) apply(o *search.Options, seed uint64, budget bool) {
	if !f.on() {
		return
	}
	o.Method, o.MCTS = search.MethodMCTS, f.mo
	o.MCTS.Seed = seed
	if budget && o.MoveTime > 0 && (f.fs == nil || !f.fs.Changed("iterations")) {
		o.MCTS.Iterations = 0
	}
}

// describe says how MCTS searches, a move being called move.
func (f *mctsFlags) describe(move string, moveTime time.Duration) string {
	its := fmt.Sprintf("%d iterations a %s", f.mo.Iterations, move)
	if moveTime > 0 {
		its = fmt.Sprintf("%v a %s", moveTime, move)
		if f.fs != nil && f.fs.Changed("iterations") {
			its += fmt.Sprintf(", at most %d iterations", f.mo.Iterations)
		}
	}
	return fmt.Sprintf("MCTS, %s, exploration %v, rollouts of %d %ss, gamma %v", its, f.mo.Exploration, f.mo.RolloutDepth, move, f.mo.Gamma)
}
