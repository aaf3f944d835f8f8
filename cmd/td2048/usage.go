package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	flag "github.com/spf13/pflag"

	"github.com/td2048/td2048/internal/train"
)

// Help that fits a screen: a command's flags are shown by group when they
// carry a group annotation (train.GroupAnnotation: train's from its Spec,
// eval's from setupEval), each group aligned on its own, and every
// description wrapped to the terminal's width (80 columns when the help
// is not shown on a terminal), its lines after the first under the first.

// helpGroups are the groups of flags, their annotations and titles, in
// the order help shows them.
var helpGroups = []struct{ key, title string }{
	{"basic", "Basic flags"},
	{"search", "Search flags"},
	{"research", "Research flags"},
	{"run", "Run control flags"},
}

// groupTopics are the help topics a command's group title names.
var groupTopics = map[string]string{
	"train research": "networks, updates, rates, shaping, recipes",
	"train run":      "checkpoints, threads, seeds",
	"eval search":    "search",
	"eval run":       "threads, seeds",
}

// groupOf is the group of a flag, "" for none.
func groupOf(f *flag.Flag) string {
	if g := f.Annotations[train.GroupAnnotation]; len(g) > 0 {
		return g[0]
	}
	return ""
}

// helpWidth is the width help wraps to: the terminal's, when w is one,
// else 80 columns.
func helpWidth(w io.Writer) int {
	if cols := columns(w); cols >= 40 {
		return min(cols, 120)
	}
	return 80
}

// flagUsages is the flags part of a command's help: its groups, or one
// list when none of its flags has a group.
func flagUsages(c *cobra.Command) string {
	width := helpWidth(c.OutOrStdout())
	var all []*flag.Flag
	grouped := false
	c.LocalFlags().VisitAll(func(f *flag.Flag) {
		if !f.Hidden {
			all = append(all, f)
			grouped = grouped || groupOf(f) != ""
		}
	})
	if !grouped {
		return "Flags:\n" + formatFlags(all, width)
	}
	var parts []string
	for _, g := range helpGroups {
		var fl []*flag.Flag
		for _, f := range all {
			// A flag of no group (help) closes the last group.
			if groupOf(f) == g.key || groupOf(f) == "" && g.key == helpGroups[len(helpGroups)-1].key {
				fl = append(fl, f)
			}
		}
		if len(fl) == 0 {
			continue
		}
		title := g.title
		if t := groupTopics[c.Name()+" "+g.key]; t != "" {
			title += " (td2048 help " + t + ")"
		}
		parts = append(parts, title+":\n"+formatFlags(fl, width))
	}
	return strings.Join(parts, "\n")
}

// formatFlags lists flags as pflag does ("  -o, --out string   output",
// "(default ...)" after a default that is not the zero value), aligned
// on the longest, descriptions wrapped to width. The long names line up
// under a shorthand's unless help's -h is the only one.
func formatFlags(fl []*flag.Flag, width int) string {
	indent := "  --"
	for _, f := range fl {
		if f.Shorthand != "" && f.Shorthand != "h" {
			indent = "      --"
		}
	}
	left := make([]string, len(fl))
	col := 0
	for i, f := range fl {
		name, _ := flag.UnquoteUsage(f)
		l := indent + f.Name
		if f.Shorthand != "" {
			l = "  -" + f.Shorthand + ", --" + f.Name
		}
		if name != "" {
			l += " " + name
		}
		left[i] = l
		col = max(col, len(l)+2)
	}
	var b strings.Builder
	for i, f := range fl {
		_, usage := flag.UnquoteUsage(f)
		usage += defaultNote(f)
		lines := wrapWords(usage, max(width-col, 20))
		fmt.Fprintf(&b, "%-*s%s\n", col, left[i], strings.Join(lines, "\n"+strings.Repeat(" ", col)))
	}
	return b.String()
}

// defaultNote is " (default X)" for a flag whose default is not its
// type's zero value, as pflag writes it.
func defaultNote(f *flag.Flag) string {
	switch f.DefValue {
	case "", "0", "0s", "false", "<nil>", "[]":
		return ""
	}
	if f.Value.Type() == "string" {
		return fmt.Sprintf(" (default %q)", f.DefValue)
	}
	return " (default " + f.DefValue + ")"
}

// wrapWords wraps text into lines of at most width columns (a word
// longer than a line stands alone).
func wrapWords(text string, width int) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(text) {
		switch {
		case line == "":
			line = w
		case len(line)+1+len(w) > width:
			lines = append(lines, line)
			line = w
		default:
			line += " " + w
		}
	}
	return append(lines, line)
}

// usageTemplate is cobra's usage template with the flags by group
// (flagUsages) and the help topics listed as "td2048 help TOPIC" takes
// them.
const usageTemplate = `Usage:{{if .Runnable}}
  {{.UseLine}}{{end}}{{if .HasAvailableSubCommands}}
  {{.CommandPath}} [command]{{end}}{{if gt (len .Aliases) 0}}

Aliases:
  {{.NameAndAliases}}{{end}}{{if .HasExample}}

Examples:
{{.Example}}{{end}}{{if .HasAvailableSubCommands}}

Available Commands:{{range .Commands}}{{if (or .IsAvailableCommand (eq .Name "help"))}}
  {{rpad .Name .NamePadding }} {{wrapShort .Short .NamePadding}}{{end}}{{end}}{{end}}{{if .HasAvailableLocalFlags}}

{{flagUsages . | trimTrailingWhitespaces}}{{end}}{{if .HasAvailableInheritedFlags}}

Global Flags:
{{.InheritedFlags.FlagUsages | trimTrailingWhitespaces}}{{end}}{{if .HasHelpSubCommands}}

Help topics (td2048 help TOPIC):{{range .Commands}}{{if .IsAdditionalHelpTopicCommand}}
  {{rpad .Name .NamePadding}} {{wrapShort .Short .NamePadding}}{{end}}{{end}}{{end}}{{if .HasAvailableSubCommands}}

Use "{{.CommandPath}} [command] --help" for more information about a command.{{end}}
`

func init() {
	cobra.AddTemplateFunc("flagUsages", flagUsages)
	cobra.AddTemplateFunc("wrapShort", wrapShort)
}

// wrapShort wraps a command's or topic's one-line description in a list
// whose names take pad columns, so that the list fits 80 columns.
func wrapShort(text string, pad int) string {
	indent := 2 + pad + 1
	return strings.Join(wrapWords(text, 80-indent), "\n"+strings.Repeat(" ", indent))
}
