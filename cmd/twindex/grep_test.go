package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/twindex/twindex/index"
)

// TestSearchFlags checks how search reads ripgrep's flags: what it asks of
// the engine (LineOptions), how it prints (in a pipe and on a terminal),
// and the combinations it refuses.
func TestSearchFlags(t *testing.T) {
	type layout struct{ heading, numbers bool }
	tests := []struct {
		name                  string
		args                  []string
		lines                 *index.LineOptions // nil: no lines asked
		pipe                  layout             // stdout a pipe
		term                  layout             // stdout a terminal
		files, count, context bool
		limit                 int
		color                 string
		err                   string
	}{
		{name: "defaults", args: []string{"q"}, lines: &index.LineOptions{}, term: layout{true, true}, limit: index.DefaultLimit, color: "auto"},
		{name: "-n in a pipe", args: []string{"q", "-n"}, lines: &index.LineOptions{}, pipe: layout{false, true}, term: layout{true, true}, limit: index.DefaultLimit, color: "auto"},
		{name: "-N on a terminal", args: []string{"-N", "q"}, lines: &index.LineOptions{}, term: layout{true, false}, limit: index.DefaultLimit, color: "auto"},
		{name: "-N after -n", args: []string{"-nN", "q"}, lines: &index.LineOptions{}, term: layout{true, false}, limit: index.DefaultLimit, color: "auto"},
		{name: "-n after -N", args: []string{"-N", "q", "-n"}, lines: &index.LineOptions{}, pipe: layout{false, true}, term: layout{true, true}, limit: index.DefaultLimit, color: "auto"},
		{name: "--heading after --no-heading", args: []string{"--no-heading", "--heading", "q"}, lines: &index.LineOptions{}, pipe: layout{true, false}, term: layout{true, true}, limit: index.DefaultLimit, color: "auto"},
		{name: "--no-heading after --heading", args: []string{"--heading", "q", "--no-heading"}, lines: &index.LineOptions{}, term: layout{false, true}, limit: index.DefaultLimit, color: "auto"},
		{name: "--heading in a pipe", args: []string{"q", "--heading"}, lines: &index.LineOptions{}, pipe: layout{true, false}, term: layout{true, true}, limit: index.DefaultLimit, color: "auto"},
		{name: "--no-heading on a terminal", args: []string{"q", "--no-heading"}, lines: &index.LineOptions{}, term: layout{false, true}, limit: index.DefaultLimit, color: "auto"},
		{name: "-C", args: []string{"q", "-C", "2"}, lines: &index.LineOptions{Before: 2, After: 2}, term: layout{true, true}, context: true, limit: index.DefaultLimit, color: "auto"},
		{name: "-A over -C", args: []string{"-C2", "-A", "5", "q"}, lines: &index.LineOptions{Before: 2, After: 5}, term: layout{true, true}, context: true, limit: index.DefaultLimit, color: "auto"},
		{name: "-B alone", args: []string{"q", "-B1"}, lines: &index.LineOptions{Before: 1}, term: layout{true, true}, context: true, limit: index.DefaultLimit, color: "auto"},
		{name: "-m is per hit, -k the hits", args: []string{"q", "-m", "3", "-k", "7"}, lines: &index.LineOptions{Max: 3}, term: layout{true, true}, limit: 7, color: "auto"},
		{name: "-l asks for no lines", args: []string{"-l", "q"}, files: true, term: layout{true, true}, limit: index.DefaultLimit, color: "auto"},
		{name: "-c asks for one line and the count", args: []string{"-c", "q"}, lines: &index.LineOptions{Max: 1}, count: true, term: layout{true, true}, limit: index.DefaultLimit, color: "auto"},
		{name: "--json asks for no lines", args: []string{"q", "--json"}, term: layout{true, true}, limit: index.DefaultLimit, color: "auto"},
		{name: "--json with -C", args: []string{"q", "--json", "-C1"}, lines: &index.LineOptions{Before: 1, After: 1}, term: layout{true, true}, context: true, limit: index.DefaultLimit, color: "auto"},
		{name: "--color", args: []string{"q", "--color=never"}, lines: &index.LineOptions{}, term: layout{true, true}, limit: index.DefaultLimit, color: "never"},
		{name: "-l and -c", args: []string{"-lc", "q"}, err: "--files-with-matches and --count"},
		{name: "context out of range", args: []string{"q", "-C", "1000"}, err: "--context 1000 out of range"},
		{name: "negative -A", args: []string{"q", "-A", "-1"}, err: "--after-context -1 out of range"},
		{name: "negative -m", args: []string{"q", "-m", "-1"}, err: "--max-count -1 out of range"},
		{name: "-m over the most", args: []string{"q", "-m", "100000"}, err: "--max-count 100000 out of range"},
		{name: "unknown --color", args: []string{"q", "--color", "sometimes"}, err: `unknown --color "sometimes"`},
		{name: "unknown --format", args: []string{"q", "--format", "xml"}, err: `unknown --format "xml"`},
		{name: "-C wants a number", args: []string{"q", "-C", "x"}, err: `invalid value "x" for flag -C`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := &env{stdout: io.Discard, stderr: io.Discard, getenv: func(string) string { return "" }}
			f, pos, err := parseSearch(e, tt.args)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(pos) != 1 || pos[0] != "q" {
				t.Errorf("positionals %q, want [q]", pos)
			}
			got := f.lineOptions()
			if (got == nil) != (tt.lines == nil) || (got != nil && *got != *tt.lines) {
				t.Errorf("LineOptions %+v, want %+v", got, tt.lines)
			}
			if f.limit != tt.limit || f.color != tt.color {
				t.Errorf("limit %d color %q, want %d %q", f.limit, f.color, tt.limit, tt.color)
			}
			for _, c := range []struct {
				terminal bool
				want     layout
			}{{false, tt.pipe}, {true, tt.term}} {
				g := f.grepOptions(c.terminal, "/root", "/root", "")
				if (layout{g.heading, g.lineNumbers}) != c.want || g.filesOnly != tt.files || g.count != tt.count || g.context != tt.context {
					t.Errorf("terminal %v: %+v, want %+v files %v count %v context %v", c.terminal, *g, c.want, tt.files, tt.count, tt.context)
				}
			}
		})
	}
}

// TestSearchColor checks --color against NO_COLOR; stdout is never a
// terminal here, so auto is off.
func TestSearchColor(t *testing.T) {
	for _, tt := range []struct {
		color, noColor string
		want           bool
	}{
		{"auto", "", false},
		{"always", "", true},
		{"always", "1", true},
		{"never", "", false},
	} {
		e := &env{stdout: io.Discard, stderr: io.Discard, getenv: func(k string) string {
			if k == "NO_COLOR" {
				return tt.noColor
			}
			return ""
		}}
		f, _, err := parseSearch(e, []string{"q", "--color", tt.color})
		if err != nil {
			t.Fatal(err)
		}
		if got := f.useColor(e); got != tt.want {
			t.Errorf("--color %s NO_COLOR=%q: color %v, want %v", tt.color, tt.noColor, got, tt.want)
		}
	}
}

// TestLastWordPrefix: a * at the end of a simple query is --prefix.
func TestLastWordPrefix(t *testing.T) {
	for _, tt := range []struct {
		q      string
		raw    bool
		flag   bool
		want   string
		prefix bool
	}{
		{q: "pelic*", want: "pelic", prefix: true},
		{q: "open fi*", want: "open fi", prefix: true},
		{q: "pelic", want: "pelic"},
		{q: "pelic", flag: true, want: "pelic", prefix: true},
		{q: "pelic *", want: "pelic *"},
		{q: "*", want: "*"},
		{q: "  *", want: "  *"},
		{q: "pelic*", raw: true, want: "pelic*"},
	} {
		req := index.Request{Prefix: tt.flag}
		if tt.raw {
			req.Syntax = index.SyntaxRaw
		}
		q, prefix := lastWordPrefix(tt.q, req)
		if q != tt.want || prefix != tt.prefix {
			t.Errorf("lastWordPrefix(%q, raw %v, --prefix %v) = %q, %v; want %q, %v", tt.q, tt.raw, tt.flag, q, prefix, tt.want, tt.prefix)
		}
	}
}

// -l and -c list every hit without their text (-c with their lines
// counted), a page of index.MaxBareLimit at a time, unless --limit says
// how many; elsewhere --limit is the page.
func TestListsPathsRequest(t *testing.T) {
	for _, tt := range []struct {
		args  []string
		bare  bool
		limit int
		err   string
	}{
		{args: []string{"-l", "q"}, bare: true, limit: index.MaxBareLimit},
		{args: []string{"-l", "-k", "5", "q"}, bare: true, limit: 5},
		{args: []string{"-l", "--limit", "5000", "q"}, bare: true, limit: 5000},
		{args: []string{"q"}, limit: index.DefaultLimit},
		{args: []string{"-l", "--json", "q"}, limit: index.DefaultLimit},
		{args: []string{"-c", "q"}, bare: true, limit: index.MaxBareLimit},
		{args: []string{"-c", "-k", "7", "q"}, bare: true, limit: 7},
		{args: []string{"-c", "--json", "q"}, limit: index.DefaultLimit},
		{args: []string{"-k", "500", "q"}, err: "--limit 500 out of range 1..100"},
		{args: []string{"-l", "-k", "20000", "q"}, err: "--limit 20000 out of range 1..10000"},
	} {
		e := &env{stdout: io.Discard, stderr: io.Discard, getenv: func(string) string { return "" }}
		f, _, err := parseSearch(e, tt.args)
		if err != nil {
			t.Fatal(err)
		}
		req, err := f.request(false)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%q: error %v, want %q", tt.args, err, tt.err)
			}
			continue
		}
		if err != nil || req.Bare != tt.bare || req.Limit != tt.limit {
			t.Errorf("%q: bare %v limit %d (%v), want %v %d", tt.args, req.Bare, req.Limit, err, tt.bare, tt.limit)
		}
		if err := req.Validate(); err != nil {
			t.Errorf("%q: the engine refuses the request: %v", tt.args, err)
		}
	}
}

// -l lists every hit, as rg -l lists every file, over more than a page;
// with -k it lists that many, and the footer tells how to go on.
func TestListsEveryPath(t *testing.T) {
	dir := t.TempDir()
	n := index.MaxBareLimit + 37
	files := map[string]string{"other.txt": "nothing here"}
	for i := range n {
		files[fmt.Sprintf("p/f%04d.txt", i)] = fmt.Sprintf("a pelican, number %d", i)
	}
	writeFiles(t, dir, files)
	r := twindex(t, dir, "search", "-l", "pelican").want(t, 0)
	paths := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	if got := len(paths); got != n || len(slices.Compact(slices.Sorted(slices.Values(paths)))) != n {
		t.Fatalf("-l listed %d paths (%d distinct), want %d", got, len(slices.Compact(slices.Sorted(slices.Values(paths)))), n)
	}
	if want := fmt.Sprintf("\n%d of %d result(s)\n", n, n); !strings.HasSuffix(r.stderr, want) {
		t.Errorf("footer %q, want %q", r.stderr, want)
	}
	// The order is the engine's, the first page's as a search shows it.
	if top := orderedIDs(t, dir, 0, "pelican", "-k", "20"); !slices.Equal(paths[:20], top) {
		t.Errorf("-l begins %q, the search's first page is %q", paths[:20], top)
	}
	r = twindex(t, dir, "search", "-l", "-k", "5", "pelican").want(t, 0)
	if got := strings.Count(r.stdout, "\n"); got != 5 || !strings.Contains(r.stderr, "more with --offset 5") {
		t.Errorf("-l -k 5: %d paths, footer %q", got, r.stderr)
	}
	// -c counts the same hits' lines, over the same pages, in the same
	// order.
	r = twindex(t, dir, "search", "-c", "pelican").want(t, 0)
	counts := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	if len(counts) != n {
		t.Fatalf("-c printed %d lines, want %d", len(counts), n)
	}
	for i, c := range counts {
		if c != paths[i]+":1" {
			t.Fatalf("-c line %d is %q, want %q", i, c, paths[i]+":1")
		}
	}
}

// -c counts the lines of every hit, as rg -c counts every file's; with -k
// that many hits.
func TestCountsEveryHit(t *testing.T) {
	dir := t.TempDir()
	n := 2*index.MaxLimit + 13
	files := map[string]string{"other.txt": "nothing here"}
	for i := range n {
		files[fmt.Sprintf("f%03d.txt", i)] = strings.Repeat("a pelican\nno\n", 1+i%3)
	}
	writeFiles(t, dir, files)
	r := twindex(t, dir, "search", "-c", "pelican").want(t, 0)
	lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	if len(lines) != n || len(slices.Compact(slices.Sorted(slices.Values(lines)))) != n {
		t.Fatalf("-c printed %d lines (%d distinct), want %d", len(lines), len(slices.Compact(slices.Sorted(slices.Values(lines)))), n)
	}
	for _, l := range lines {
		var i, c int
		if _, err := fmt.Sscanf(l, "f%03d.txt:%d", &i, &c); err != nil || c != 1+i%3 {
			t.Fatalf("-c line %q: want f%03d.txt:%d (%v)", l, i, 1+i%3, err)
		}
	}
	if !strings.HasSuffix(r.stderr, fmt.Sprintf("\n%d of %d result(s)\n", n, n)) {
		t.Errorf("footer %q", r.stderr)
	}
	r = twindex(t, dir, "search", "-c", "-k", "5", "pelican").want(t, 0)
	if got := strings.Count(r.stdout, "\n"); got != 5 || !strings.Contains(r.stderr, "more with --offset 5") {
		t.Errorf("-c -k 5: %d lines, footer %q", got, r.stderr)
	}
}
