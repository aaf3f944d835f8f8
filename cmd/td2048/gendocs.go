package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"
)

// The command reference is generated from the command tree by cobra's doc
// generator and committed; TestCommandReference fails when it is stale.
// Regenerate it with
//
//	go generate ./cmd/td2048
//
// or, from the repository's root, go run ./cmd/td2048 gendocs .
//
//go:generate go run . gendocs ../..

// The reference's folders, from the repository's root.
var (
	markdownDir = filepath.Join("docs", "reference", "commands")
	manDir      = filepath.Join("docs", "man")
)

// addGenDocs adds the hidden gendocs command to r.
func addGenDocs(r *cobra.Command) {
	r.AddCommand(&cobra.Command{
		Use:    "gendocs ROOT",
		Short:  "write the command reference (Markdown and man pages) under the repository root ROOT",
		Args:   cobra.ExactArgs(1),
		Hidden: true,
		RunE:   func(c *cobra.Command, args []string) error { return genDocs(c.Root(), args[0]) },
	})
}

// genDocs writes the command reference of r under the repository root
// dir: a Markdown page (markdownDir) and a man page (manDir) for each
// command and help topic, replacing the pages there. The pages carry no
// date, so the same tree gives the same bytes.
func genDocs(r *cobra.Command, dir string) error {
	cmds := []*cobra.Command{r}
	for i := 0; i < len(cmds); i++ {
		cmds[i].DisableAutoGenTag = true
		for _, sub := range cmds[i].Commands() {
			if sub.IsAvailableCommand() || sub.IsAdditionalHelpTopicCommand() {
				cmds = append(cmds, sub)
			}
		}
	}
	md, man := filepath.Join(dir, markdownDir), filepath.Join(dir, manDir)
	for _, d := range []string{md, man} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
		old, _ := filepath.Glob(filepath.Join(d, r.Name()+"*"))
		for _, f := range old {
			if err := os.Remove(f); err != nil {
				return err
			}
		}
	}
	for _, c := range cmds {
		base := strings.ReplaceAll(c.CommandPath(), " ", "_")
		var b bytes.Buffer
		if err := doc.GenMarkdownCustom(c, &b, func(s string) string { return s }); err != nil {
			return err
		}
		if c == r {
			b.WriteString(topicIndex(r))
		}
		if err := os.WriteFile(filepath.Join(md, base+".md"), b.Bytes(), 0o644); err != nil {
			return err
		}
		b.Reset()
		header := &doc.GenManHeader{Section: "1", Date: &manDate, Source: "td2048", Manual: "td2048 manual"}
		if err := doc.GenMan(c, header, &b); err != nil {
			return err
		}
		// No date in the title line (.TH): a page changes only when the command does.
		page := bytes.Replace(b.Bytes(), []byte(`"`+manDate.Format("Jan 2006")+`"`), []byte(`""`), 1)
		name := strings.ReplaceAll(c.CommandPath(), " ", "-") + ".1"
		if err := os.WriteFile(filepath.Join(man, name), page, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// topicIndex is the root page's list of the help topics, which cobra's
// pages do not link.
func topicIndex(r *cobra.Command) string {
	var b strings.Builder
	b.WriteString("### Help topics\n\n")
	for _, c := range r.Commands() {
		if c.IsAdditionalHelpTopicCommand() {
			fmt.Fprintf(&b, "* [%s](%s_%s.md)\t - %s\n", c.Name(), r.Name(), c.Name(), c.Short)
		}
	}
	return b.String() + "\n"
}

// manDate is the date the man pages are made with, which genDocs removes.
var manDate = time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC)
