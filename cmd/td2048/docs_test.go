package main

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// repoRoot is the repository's root, from this package's folder.
const repoRoot = "../.."

// docFiles returns the repository's documents: README.md, CONTRIBUTING.md
// and every Markdown file under docs/, as paths from this package.
func docFiles(t *testing.T) []string {
	t.Helper()
	files := []string{filepath.Join(repoRoot, "README.md"), filepath.Join(repoRoot, "CONTRIBUTING.md")}
	err := filepath.WalkDir(filepath.Join(repoRoot, "docs"), func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".md") {
			files = append(files, path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// A mdLine is one line of a Markdown file outside its code: fenced and
// indented code blocks are left out, and inline code spans blanked.
type mdLine struct {
	n         int
	text, raw string // raw keeps the code spans
}

var codeSpan = regexp.MustCompile("`[^`]*`")

// prose returns the lines of a Markdown text outside its code.
func prose(text string) []mdLine {
	var out []mdLine
	fenced, prevBlank := false, true
	indented := false
	for i, l := range strings.Split(text, "\n") {
		switch {
		case strings.HasPrefix(strings.TrimSpace(l), "```"):
			fenced = !fenced
			continue
		case fenced:
			continue
		case strings.TrimSpace(l) == "":
			prevBlank = true
			continue
		case strings.HasPrefix(l, "    ") && (prevBlank || indented) && !isListItemText(out, l):
			indented = true
			prevBlank = false
			continue
		}
		indented, prevBlank = false, false
		out = append(out, mdLine{i + 1, codeSpan.ReplaceAllString(l, "``"), l})
	}
	return out
}

// isListItemText reports whether an indented line goes on a list item
// (a continuation paragraph) rather than starting a code block: the last
// prose line was a list item or its text.
func isListItemText(prev []mdLine, l string) bool {
	if len(prev) == 0 {
		return false
	}
	last := strings.TrimSpace(prev[len(prev)-1].text)
	return strings.HasPrefix(last, "- ") || strings.HasPrefix(strings.TrimLeft(l, " "), "- ") ||
		strings.HasPrefix(prev[len(prev)-1].text, "  ")
}

// slug is GitHub's anchor for a heading: lower case, spaces to hyphens,
// every character but letters, digits, hyphens and underscores dropped.
func slug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(heading)) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// anchors returns the anchors of a Markdown file's headings, a repeated
// heading's with -1, -2, ... as GitHub numbers them.
func anchors(text string) map[string]bool {
	seen := map[string]int{}
	out := map[string]bool{}
	for _, l := range prose(text) {
		t := strings.TrimLeft(l.raw, "#")
		if len(t) == len(l.raw) || !strings.HasPrefix(t, " ") {
			continue
		}
		s := slug(t)
		if k := seen[s]; k > 0 {
			out[fmt.Sprintf("%s-%d", s, k)] = true
		} else {
			out[s] = true
		}
		seen[s]++
	}
	return out
}

var mdLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

func TestSlug(t *testing.T) {
	for in, want := range map[string]string{
		"hint --json":                           "hint---json",
		"Beside TDL2048+":                       "beside-tdl2048",
		"Threes! in four commands":              "threes-in-four-commands",
		"Learning: after-state TD(0)":           "learning-after-state-td0",
		"7. Tile-downgrading evaluation (`-h`)": "7-tile-downgrading-evaluation--h",
	} {
		t.Run(in, func(t *testing.T) {
			if got := slug(in); got != want {
				t.Errorf("slug(%q) = %q, want %q", in, got, want)
			}
		})
	}
}

// TestDocLinks: every relative link of the documents points to a file
// that exists and, with #anchor, to a heading of that file.
func TestDocLinks(t *testing.T) {
	cache := map[string]map[string]bool{}
	for _, file := range docFiles(t) {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range prose(string(data)) {
			for _, m := range mdLink.FindAllStringSubmatch(l.text, -1) {
				target := m[1]
				if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				path, anchor, _ := strings.Cut(target, "#")
				dest := file
				if path != "" {
					dest = filepath.Join(filepath.Dir(file), path)
				}
				where := fmt.Sprintf("%s:%d: %s", strings.TrimPrefix(file, repoRoot+"/"), l.n, target)
				info, err := os.Stat(dest)
				if err != nil {
					t.Errorf("%s: no such file", where)
					continue
				}
				if anchor == "" {
					continue
				}
				if info.IsDir() || !strings.HasSuffix(dest, ".md") {
					t.Errorf("%s: an anchor in something not a Markdown file", where)
					continue
				}
				if cache[dest] == nil {
					d, err := os.ReadFile(dest)
					if err != nil {
						t.Fatal(err)
					}
					cache[dest] = anchors(string(d))
				}
				if !cache[dest][anchor] {
					t.Errorf("%s: no heading with that anchor", where)
				}
			}
		}
	}
}

// TestDocWords: the documents speak to users, not of how the project was
// made: no issue numbers, work sessions, dates of work, references to
// the lab reports the project was given by number, or files outside the
// repository. Code (blocks and spans) is not checked: a package is called
// session.
func TestDocWords(t *testing.T) {
	banned := []struct {
		re   *regexp.Regexp
		what string
	}{
		{regexp.MustCompile(`(?i)\bissues? #?\d`), "an issue number"},
		{regexp.MustCompile(`(?i)\bsessions?\b`), "a session"},
		{regexp.MustCompile(`\b20\d\d-[01]\d-[0-3]\d\b|\b[01]\d-[0-3]\d \d\d:\d\d\b`), "a date"},
		{regexp.MustCompile(`(?i)\bseed 0\d\d\b`), "a seed by number"},
		{regexp.MustCompile(`(?i)machine class`), "this machine class"},
		{regexp.MustCompile(`RULES\.md|DESIGN\.md|RUN-SPEC|/work/`), "a file outside the repository"},
	}
	for _, file := range docFiles(t) {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range prose(string(data)) {
			for _, b := range banned {
				if m := b.re.FindString(l.text); m != "" {
					t.Errorf("%s:%d: %s (%q)", strings.TrimPrefix(file, repoRoot+"/"), l.n, b.what, m)
				}
			}
		}
	}
}

// TestDocCourseJudge: the documents name the course judge's command with
// the file it judges (--load), without which it judges random games of
// its own; and no claim rests on an unnamed "student's report".
func TestDocCourseJudge(t *testing.T) {
	for _, file := range docFiles(t) {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for i, l := range strings.Split(string(data), "\n") {
			name := strings.TrimPrefix(file, repoRoot+"/")
			if strings.Contains(l, "threes-judge ") && !strings.Contains(l, "--load") {
				t.Errorf("%s:%d: the course judge without --load: %q", name, i+1, l)
			}
			if strings.Contains(strings.ToLower(l), "student's report") {
				t.Errorf("%s:%d: an unnamed report: %q", name, i+1, l)
			}
		}
	}
}
