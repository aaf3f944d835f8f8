package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	flag "github.com/spf13/pflag"

	"github.com/td2048/td2048/learn"
)

// trainLong is train's help: what it does, and the recipes with their
// papers (learn.Recipes).
func trainLong() string {
	var b strings.Builder
	b.WriteString(`Learn n-tuple network weights by TD learning, printing statistics every block.

--recipe NAME sets the network, stages, initial value, update mode, temporal
coherence, rates and shaping of a published recipe; a flag given as well
overrides the recipe's setting. Recipes:
`)
	for _, r := range learn.Recipes {
		fmt.Fprintf(&b, "\n  %-14s %s\n  %-14s %s\n", r.Name, r.About, "", r.Cite)
		if r.Note != "" {
			fmt.Fprintf(&b, "  %-14s note: %s\n", "", r.Note)
		}
	}
	return b.String()
}

// writeRecipes prints the recipes and the flags each sets (--recipe list).
func writeRecipes(w io.Writer) {
	for _, r := range learn.Recipes {
		var flags []string
		for _, s := range recipeSettings(r) {
			flags = append(flags, "--"+s[0]+" "+s[1])
		}
		fmt.Fprintf(w, "%s: %s\n  %s\n  paper: %s\n", r.Name, r.About, strings.Join(flags, " "), r.Cite)
		if r.Note != "" {
			fmt.Fprintf(w, "  note: %s\n", r.Note)
		}
	}
}

// recipeSettings are the train flags a recipe sets, with their values.
func recipeSettings(r learn.Recipe) [][2]string {
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	s := [][2]string{{"network", r.Network}, {"alpha", f(r.Alpha)}, {"update", r.Update}}
	if r.Init != 0 {
		s = append(s, [2]string{"init", f(r.Init)})
	}
	if r.Coherence {
		s = append(s, [2]string{"coherence", "true"})
	}
	if r.CoherenceFrom > 0 {
		s = append(s, [2]string{"coherence-from", f(100*r.CoherenceFrom) + "%"}, [2]string{"coherence-alpha", f(r.TCAlpha)})
	}
	if r.Promote {
		s = append(s, [2]string{"promote", "true"})
	}
	if r.Shaping != "" {
		s = append(s, [2]string{"shaping", r.Shaping})
	}
	return s
}

// applyRecipe sets the flags of train's --recipe that the command line
// does not give. With --load the weights bring their network (and their
// values, so no initial value is set).
func applyRecipe(fs *flag.FlagSet, name string) error {
	r, err := learn.LookupRecipe(name)
	if err != nil {
		return usagef("--recipe: %v", err)
	}
	if flagGiven(fs, "resume") {
		return usagef("--recipe starts a run; a resumed run keeps its settings")
	}
	for _, s := range recipeSettings(r) {
		if flagGiven(fs, s[0]) || flagGiven(fs, "load") && (s[0] == "network" || s[0] == "init") {
			continue
		}
		if err := fs.Set(s[0], s[1]); err != nil {
			return fmt.Errorf("recipe %s: --%s %s: %v", name, s[0], s[1], err)
		}
	}
	return nil
}
