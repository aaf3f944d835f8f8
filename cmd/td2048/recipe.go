package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/td2048/td2048/internal/train"
)

// trainLong is train's help: what it does, and the recipes with their
// papers (train.Recipes).
func trainLong() string {
	var b strings.Builder
	b.WriteString(`Learn n-tuple network weights by TD learning, printing statistics every block.

--recipe NAME sets the network, stages, initial value, update mode, temporal
coherence, rates and shaping of a published recipe; a flag given as well
overrides the recipe's setting. Recipes:
`)
	for _, r := range train.Recipes {
		fmt.Fprintf(&b, "\n  %-14s %s\n  %-14s %s\n", r.Name, r.About, "", r.Cite)
		if r.Note != "" {
			fmt.Fprintf(&b, "  %-14s note: %s\n", "", r.Note)
		}
	}
	return b.String()
}

// writeRecipes prints the recipes and the flags each sets (--recipe list).
func writeRecipes(w io.Writer) {
	for _, r := range train.Recipes {
		fmt.Fprintf(w, "%s: %s\n  %s\n  paper: %s\n", r.Name, r.About, r.Flags(), r.Cite)
		if r.Note != "" {
			fmt.Fprintf(w, "  note: %s\n", r.Note)
		}
	}
}
