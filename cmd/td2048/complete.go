package main

import (
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/td2048/td2048/games"
	"github.com/td2048/td2048/internal/train"
	"github.com/td2048/td2048/learn"
	"github.com/td2048/td2048/ntuple"
)

// flagValues are the values shell completion offers for a flag of that
// name, in any command that has it: "value\tdescription", or the value
// alone. Each list comes from where the values are defined, so a recipe,
// network or game added there completes too.
var flagValues = map[string]func() []string{
	"recipe": func() []string {
		v := []string{"list\tprint every recipe, its flags and its paper"}
		for _, r := range train.Recipes {
			v = append(v, r.Name+"\t"+r.About)
		}
		return v
	},
	"network": func() []string {
		var v []string
		for _, n := range ntuple.Names() {
			name, patterns, _ := strings.Cut(n, " ")
			v = append(v, name+"\t"+strings.Trim(patterns, "()"))
		}
		return v
	},
	"game": func() []string {
		var v []string
		for _, g := range games.All() {
			v = append(v, g.Name+"\t"+g.Title)
		}
		return v
	},
	"update":  func() []string { return learn.ModeNames },
	"shaping": func() []string { return learn.ShapingNames },
	"learner": func() []string {
		var v []string
		for _, g := range games.All() {
			for _, k := range g.Learners {
				if !slices.Contains(v, k.String()) {
					v = append(v, k.String())
				}
			}
		}
		return v
	},
}

// addCompletion adds cobra's completion command to r now rather than when
// it runs, so that the command reference has it; its help says "shell"
// where cobra's says "shell session" or "new session", and a shell it has
// no script for is a usage error, not its help.
func addCompletion(r *cobra.Command) {
	r.InitDefaultCompletionCmd()
	c, _, _ := r.Find([]string{"completion"})
	var shells []string
	for _, sh := range c.Commands() {
		sh.Long = strings.NewReplacer("shell session", "shell", "new session", "new shell").Replace(sh.Long)
		shells = append(shells, sh.Name())
	}
	c.Args = cobra.ArbitraryArgs
	c.RunE = func(c *cobra.Command, args []string) error {
		if len(args) == 0 {
			return c.Help()
		}
		return usagef("unsupported shell %q: want %s", args[0], strings.Join(shells, ", "))
	}
}

// addHelpCheck makes cobra's help command refuse a command or topic that
// does not exist (a usage error naming those that do), where cobra's
// prints the usage and succeeds, and complete the help topics too, as it
// completes the commands.
func addHelpCheck(r *cobra.Command) {
	r.InitDefaultHelpCmd()
	h, _, _ := r.Find([]string{"help"})
	show, commands := h.Run, h.ValidArgsFunction
	h.Run = nil
	h.ValidArgsFunction = func(c *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		out, dir := commands(c, args, toComplete)
		if len(args) == 0 {
			for _, t := range topics {
				if strings.HasPrefix(t.name, toComplete) {
					out = append(out, t.name+"\t"+t.short)
				}
			}
		}
		return out, dir
	}
	h.RunE = func(c *cobra.Command, args []string) error {
		if found, rest, err := c.Root().Find(args); err != nil || found == nil || len(rest) > 0 {
			var cmds, topics []string
			for _, s := range r.Commands() {
				switch {
				case s.IsAdditionalHelpTopicCommand():
					topics = append(topics, s.Name())
				case s.IsAvailableCommand():
					cmds = append(cmds, s.Name())
				}
			}
			return usagef("unknown help topic %q: want a command (%s) or a topic (%s)", strings.Join(args, " "), strings.Join(cmds, ", "), strings.Join(topics, ", "))
		}
		show(c, args)
		return nil
	}
}

// completeFlags registers the completion of the flags of c whose values
// flagValues lists.
func completeFlags(c *cobra.Command) {
	for name, values := range flagValues {
		if c.Flags().Lookup(name) == nil {
			continue
		}
		c.RegisterFlagCompletionFunc(name, func(_ *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
			var out []string
			for _, v := range values() {
				if strings.HasPrefix(v, toComplete) {
					out = append(out, v)
				}
			}
			return out, cobra.ShellCompDirectiveNoFileComp
		})
	}
}
