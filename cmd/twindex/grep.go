package main

import (
	"bufio"
	"fmt"
	"html"
	"path/filepath"
	"slices"
	"strings"

	"github.com/twindex/twindex/folder"
	"github.com/twindex/twindex/index"
	"github.com/twindex/twindex/internal/plain"
)

// grepOptions say how the text format prints hits: as ripgrep prints
// matches.
type grepOptions struct {
	filesOnly   bool // -l: the paths of the hits only
	count       bool // -c: path:count of matching lines
	lineNumbers bool // -n (the default on a terminal), -N
	// heading prints each hit's path on a line of its own above its
	// lines, hits apart by a blank line (ripgrep on a terminal); without
	// it every line starts with the path (in a pipe).
	heading bool
	context bool // -A, -B or -C asked for context: groups apart by "--"
	// root is the folder the index mirrors, abs the searched PATH made
	// absolute, and arg PATH as given ("" when none was): a file's path
	// is printed as ripgrep prints it, arg joined with the file's path
	// below PATH. IDs of other documents are printed as they are.
	root, abs, arg string
}

// checkGrep checks the flags of the text format.
func (f *searchFlags) checkGrep() error {
	hint := "run 'twindex search --help'"
	for _, c := range []struct {
		name string
		n    int
	}{{"--context", f.context}, {"--after-context", f.after}, {"--before-context", f.before}} {
		if c.n < 0 || c.n > index.MaxContext {
			return usageErr(hint, "%s %d out of range 0..%d", c.name, c.n, index.MaxContext)
		}
	}
	switch {
	case f.maxCount < 0 || f.maxCount > index.MaxLines:
		return usageErr(hint, "--max-count %d out of range 0..%d", f.maxCount, index.MaxLines)
	case f.filesOnly && f.count:
		return usageErr(hint, "--files-with-matches and --count: give one")
	case f.color != "auto" && f.color != "always" && f.color != "never":
		return usageErr(hint, "unknown --color %q (want auto, always or never)", f.color)
	}
	return nil
}

// lineOptions is what the text format asks of the engine: the matching
// lines, with context, of each hit; only their count for --count; none
// for --files-with-matches.
func (f *searchFlags) lineOptions() *index.LineOptions {
	switch {
	case f.format != "text" && f.context == 0 && f.after == 0 && f.before == 0 && f.maxCount == 0:
		return nil // json and the others: lines when asked
	case f.filesOnly:
		return nil
	case f.count:
		return &index.LineOptions{Max: 1}
	}
	lo := &index.LineOptions{Before: f.context, After: f.context, Max: f.maxCount}
	if f.before > 0 {
		lo.Before = f.before
	}
	if f.after > 0 {
		lo.After = f.after
	}
	return lo
}

// grepOptions picks ripgrep's defaults: on a terminal, headings and line
// numbers; in a pipe, path:text on every line. root, abs and arg are
// grepOptions'.
func (f *searchFlags) grepOptions(terminal bool, root, abs, arg string) *grepOptions {
	g := &grepOptions{filesOnly: f.filesOnly, count: f.count, heading: terminal, lineNumbers: terminal,
		context: f.context > 0 || f.after > 0 || f.before > 0, root: root, abs: abs, arg: arg}
	if f.heading.set {
		g.heading = f.heading.on
	}
	if f.lineNumbers.set {
		g.lineNumbers = f.lineNumbers.on
	}
	return g
}

// useColor: --color always or never, else (auto) only on a terminal and
// without NO_COLOR.
func (f *searchFlags) useColor(e *env) bool {
	switch f.color {
	case "always":
		return true
	case "never":
		return false
	}
	return useColor(e)
}

// grep prints hits as ripgrep does. Hits are in rank order, not path
// order: the best first.
func (o *output) grep(w *bufio.Writer, res *index.Result) {
	g := o.grepOpts
	printed := false // lines of an earlier hit
	for i, h := range res.Hits {
		path := o.displayPath(h)
		switch {
		case g.filesOnly:
			fmt.Fprintln(w, o.paint(ansiPath, path))
			continue
		case g.count:
			fmt.Fprintf(w, "%s:%d\n", o.paint(ansiPath, path), h.MatchingLines)
			continue
		}
		if g.heading {
			if i > 0 {
				w.WriteByte('\n')
			}
			head := o.paint(ansiPath, path)
			if note := hitNote(h); note != "" {
				head += "  " + o.paint(ansiDim, note)
			}
			fmt.Fprintln(w, head)
		}
		last := 0
		for j, l := range h.Lines {
			// ripgrep's group separator: between groups of lines that are
			// not contiguous, and, without headings, between files.
			if g.context && ((last > 0 && l.N > last+1) || (j == 0 && !g.heading && printed)) {
				fmt.Fprintln(w, o.paint(ansiDim, "--"))
			}
			last = l.N
			sep := "-"
			if l.Match {
				sep = ":"
			}
			var b strings.Builder
			if !g.heading {
				b.WriteString(o.paint(ansiPath, path) + sep)
			}
			if g.lineNumbers {
				b.WriteString(o.paint(ansiLine, fmt.Sprint(l.N)) + sep)
			}
			b.WriteString(o.markup(l.Text, false))
			fmt.Fprintln(w, b.String())
		}
		printed = printed || len(h.Lines) > 0
		if len(h.Lines) == 0 {
			// Found by its title, its vector or its links: no line of
			// the body shows a match.
			if g.heading {
				if s := o.snippet(h.Snippet); s != "" {
					fmt.Fprintf(w, "%s %s\n", o.paint(ansiDim, "("+plain.OrDash(h.Field)+")"), s)
				}
			} else {
				fmt.Fprintln(w, o.paint(ansiPath, path))
			}
		}
		if h.Explain != nil {
			fmt.Fprintln(w, o.paint(ansiDim, "explain: "+explainLine(h.Explain)))
		}
	}
}

// hitNote is what the heading says beside a hit's path: its own title
// (an HTML page's), and how it was found when not by its words.
func hitNote(h index.Hit) string {
	var parts []string
	if h.Title != "" && h.Title != plain.Base(h.ID) {
		parts = append(parts, plain.Clean(h.Title))
	}
	if slices.Contains(h.MatchedIn, index.LegFuzzy) {
		parts = append(parts, "(fuzzy)")
	}
	if h.Via != nil {
		parts = append(parts, fmt.Sprintf("(via %s, %s)", plain.Clean(h.Via.Seed), plain.OrDash(h.Via.Type)))
	}
	return strings.Join(parts, "  ")
}

// displayPath is a hit's path as ripgrep prints it: a file's as the
// searched PATH was given (absolute, relative, ./) followed by the file's
// path below it; without a PATH, relative to the current folder. Any
// other document's ID is printed as it is.
func (o *output) displayPath(h index.Hit) string {
	g := o.grepOpts
	if g == nil || g.root == "" || g.abs == "" || !folder.IsFile(h.Meta) {
		return plain.Clean(h.ID)
	}
	rel, err := filepath.Rel(g.abs, filepath.Join(g.root, filepath.FromSlash(h.ID)))
	switch {
	case err != nil:
		return plain.Clean(h.ID)
	case g.arg == "":
		return plain.Clean(filepath.ToSlash(rel))
	case rel == ".":
		return plain.Clean(filepath.ToSlash(g.arg)) // PATH is the file
	}
	return plain.Clean(filepath.ToSlash(strings.TrimSuffix(g.arg, string(filepath.Separator)) + string(filepath.Separator) + rel))
}

// paint wraps s in an ANSI color when color is on.
func (o *output) paint(color, s string) string {
	if !o.color || s == "" {
		return s
	}
	return color + s + ansiReset
}

// markup turns the engine's HTML-escaped text with <mark> marks into
// terminal text: marks become color (or nothing), entities are unescaped,
// and control characters, which could drive the terminal, become spaces.
// A snippet's whitespace is collapsed onto one line; a line's is kept
// (tabs and indentation, as ripgrep prints them).
func (o *output) markup(s string, collapse bool) string {
	sanitize := func(s string) string {
		s = html.UnescapeString(s)
		if collapse {
			return plain.Clean(s)
		}
		return keepTabs(s)
	}
	var b strings.Builder
	for i, part := range strings.Split(s, "<mark>") {
		pre := part
		if i > 0 {
			in, after, ok := strings.Cut(part, "</mark>")
			if !ok {
				in, after = part, ""
			}
			b.WriteString(o.paint(ansiMatch, sanitize(in)))
			pre = after
		}
		b.WriteString(sanitize(pre))
	}
	if collapse {
		return strings.TrimSpace(b.String())
	}
	return b.String()
}

// snippet renders a snippet on one line.
func (o *output) snippet(s string) string { return o.markup(s, true) }

// keepTabs replaces control characters other than tab by a space.
func keepTabs(s string) string {
	return strings.Map(func(r rune) rune {
		if r != '\t' && (r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0)) {
			return ' '
		}
		return r
	}, s)
}

func explainLine(x *index.Explain) string {
	var legs []string
	for _, l := range x.Legs {
		legs = append(legs, fmt.Sprintf("%s #%d (%.4f)", l.Leg, l.Rank, l.Score))
	}
	if x.Rerank != nil {
		legs = append(legs, fmt.Sprintf("reranked (%.4f)", *x.Rerank))
	}
	return fmt.Sprintf("RRF k=%d: %s", x.K, strings.Join(legs, ", "))
}
