package train

import (
	"fmt"
	"reflect"
	"strings"
)

// A Recipe is a published way of training 2048 networks, as td2048 can
// run it: the settings it gives (the network, its stages, the optimistic
// initial value, the update mode, temporal coherence and when it starts,
// the learning rates and the shaping), each a field of Spec set to a
// value other than its zero. A spec with --recipe NAME takes each of them
// unless it gives the field itself (Complete).
//
// Rates are the course's alpha (the step of the whole value of one
// stage). TDL2048+ divides its -a by the features of all stages, so its
// -a 0.1 on a two-stage network is alpha 0.05 here (docs/methods.md
// section 8); the recipes that copy a TDL2048+ command say so.
type Recipe struct {
	Name  string
	About string // what it is, in a line
	Cite  string // the paper (or program) it follows
	// Note says where td2048's recipe differs from the paper, if it does.
	Note string
	// Set holds the settings: each field that is not zero.
	Set Spec
}

// Recipes are the recipes train --recipe knows, in the order help lists
// them.
var Recipes = []Recipe{
	{
		Name: "td", About: "the course's TD(0): 4x6, alpha 0.1, backward episode updates",
		Cite: "Szubert and Jaskowski, Temporal difference learning of n-tuple networks for the game 2048, IEEE CIG 2014; 4x6 of Wu et al., TAAI 2014",
		Set:  Spec{Network: "4x6", Alpha: 0.1, Update: "backward"},
	},
	{
		Name: "online", About: "TDL2048+'s default TD(0): online updates (./2048 -n 4x6patt -a 0.1)",
		Cite: "Guei and Wu, TDL2048+ (github.com/moporgic/TDL2048)",
		Set:  Spec{Network: "4x6", Alpha: 0.1, Update: "online"},
	},
	{
		Name: "otd", About: "optimistic TD: every board first valued at 320000 (./2048 -n 4x6patt=320000/norm -a 0.1)",
		Cite: "Guei, Chen and Wu, Optimistic temporal difference learning for 2048, IEEE Transactions on Games 2022",
		Set:  Spec{Network: "4x6", Alpha: 0.1, Init: 320000, Update: "online"},
	},
	{
		Name: "otd-tc", About: "OTD for 90% of the episodes, then temporal coherence at rate 1.0 from the same weights, in one run",
		Cite: "Guei, Chen and Wu, IEEE Transactions on Games 2022 (TDL2048+'s README: -t 9000 then -t 1000 -a 1.0 -io)",
		Note: "TC values each after-state again before its online update, as TDL2048+'s TC does (its forward mode; --update fast for its -tt fast)",
		Set:  Spec{Network: "4x6", Alpha: 0.1, Init: 320000, Update: "online", CoherenceFrom: "90%", CoherenceAlpha: 1.0},
	},
	{
		Name: "tc", About: "temporal coherence from the start, rate 1.0 (./2048 -n 4x6patt -a 1.0)",
		Cite: "Beal and Smith, Temporal coherence and prediction decay in TD learning, IJCAI 1999; Jaskowski, IEEE Transactions on Games 2018",
		Set:  Spec{Network: "4x6", Alpha: 1.0, Update: "online", Coherence: true},
	},
	{
		Name: "ms", About: "multi-stage: a second set of tables from the first 16384, with TDL2048+'s carousel (./2048 -n 4x6patt@2 -@ 0,16384 -a 0.1)",
		Cite: "Yeh, Wu, Hsueh, Chang and Hsu, Multistage temporal difference learning for 2048-like games, IEEE TCIAIG 2017",
		Note: "alpha 0.05 is TDL2048+'s -a 0.1 over two stages; its stage mode always carousels (block 2048)",
		Set:  Spec{Network: "4x6@0,16384", Alpha: 0.05, Update: "online", Shaping: "carousel"},
	},
	{
		Name: "guei2022", About: "two-stage 8x6, optimistic TD then TC (TDL2048+: -n 8x6patt@2=5000 -@ 0,16384 -a 0.1, then -a 1.0)",
		Cite: "Guei, Chen and Wu, Optimistic temporal difference learning for 2048, IEEE Transactions on Games 2022 (about 200M episodes)",
		Note: "the paper's stage threshold, OTD/TC split and rates are not in any source here: 0,16384, 90%, TDL2048+'s rates over two stages; " +
			"its 1-ply 412,785 also used tile-downgrading search",
		Set: Spec{Network: "8x6@0,16384", Alpha: 0.05, Init: 320000, Update: "online", Shaping: "carousel", CoherenceFrom: "90%", CoherenceAlpha: 0.5},
	},
	{
		Name: "jaskowski2018", About: "5x6 (42-33) in two stages with weight promotion, temporal coherence and carousel shaping",
		Cite: "Jaskowski, Mastering 2048 with delayed temporal coherence learning, multistage weight promotion, redundant encoding and carousel shaping, IEEE Transactions on Games 2018",
		Note: "as far as td2048 goes: delayed TC(0.5) cut at 5 steps (td2048's reading of the paper's delayed TC; the stored sources give neither its rule nor its horizon), " +
			"no redundant encoding, TDL2048+'s carousel, stages from 16384; not the paper's 324,710",
		Set: Spec{Network: "5x6@0,16384", Alpha: 1.0, Update: "delayed,lambda=0.5,nstep=5", Coherence: true, Promote: true, Shaping: "carousel"},
	},
	{
		Name: "matsuzaki2017", About: "backward temporal coherence with restarts (./2048 -a 1.0 -tt restart-backward)",
		Cite: "Matsuzaki, Developing 2048 player with backward temporal coherence learning and restart, ACG 2017",
		Note: "on 4x6, as TDL2048+'s command; the paper used larger networks",
		Set:  Spec{Network: "4x6", Alpha: 1.0, Update: "backward", Coherence: true, Shaping: "restart"},
	},
}

// LookupRecipe returns the recipe of that name.
func LookupRecipe(name string) (Recipe, error) {
	var names []string
	for _, r := range Recipes {
		if r.Name == name {
			return r, nil
		}
		names = append(names, r.Name)
	}
	return Recipe{}, fmt.Errorf("unknown recipe %q: want %s (or list)", name, strings.Join(names, ", "))
}

// Keys are the toml keys of the settings the recipe gives, in Spec's
// order.
func (r Recipe) Keys() []string {
	var keys []string
	for _, f := range fields {
		if !r.Set.value(f).IsZero() {
			keys = append(keys, f.Key)
		}
	}
	return keys
}

// Apply sets each setting of the recipe in s that given does not name,
// and names it. With --load the weights bring their network and values,
// so the recipe's network and initial value are not set.
func (r Recipe) Apply(s *Spec, given Given) {
	for _, k := range r.Keys() {
		if given[k] || s.Load != "" && (k == "network" || k == "init") {
			continue
		}
		f, _ := fields.Lookup(k)
		s.value(f).Set(r.Set.value(f))
		given[k] = true
	}
}

// Flags are the train flags that give the recipe's settings, like
// --network 4x6 --alpha 0.1 --update backward.
func (r Recipe) Flags() string {
	var b strings.Builder
	for _, k := range r.Keys() {
		f, _ := fields.Lookup(k)
		b.WriteString(" --" + f.Flag)
		if r.Set.value(f).Kind() != reflect.Bool {
			b.WriteString(" " + r.Set.Text(k))
		}
	}
	return strings.TrimSpace(b.String())
}
