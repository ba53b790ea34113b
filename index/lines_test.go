package index_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/twindex/twindex/index"
)

// hit returns the one hit of a search for q in mode over docs.
func oneHit(t *testing.T, ix *index.Index, req index.Request) index.Hit {
	t.Helper()
	r := search(t, ix, req)
	if len(r.Hits) != 1 {
		t.Fatalf("%q: hits %q, want one", req.Query, ids(r))
	}
	return r.Hits[0]
}

func TestHitLineAndColumn(t *testing.T) {
	backends(t, func(t *testing.T, ix *index.Index) {
		mustUpsert(t, ix,
			index.Doc{ID: "a.txt", Title: "a", Body: "first line\nsecond line\n    the needle is here\nlast"},
			index.Doc{ID: "os/file.go", Title: "file.go", Body: licence + "package os\n\n// ReadFile reads a file; see ReadFile.\n// It calls ReadFile.\nfunc ReadFile(name string) ([]byte, error) {\n}\n"},
			index.Doc{ID: "t.md", Title: "Quartz", Body: "nothing to see"},
			index.Doc{ID: "lic.go", Title: "lic.go", Body: licence + "package lic\n\n// Open opens the file.\nfunc Open() {}\n"},
		)
		for _, mode := range []index.Mode{index.ModeAuto, index.ModeSubstring, index.ModeText} {
			h := oneHit(t, ix, index.Request{Query: "needle ", Mode: mode})
			if h.Line != 3 || h.Column != 9 {
				t.Errorf("%s: needle at %d:%d, want 3:9", mode, h.Line, h.Column)
			}
			// The declaration is the best match, not the first mention.
			h = oneHit(t, ix, index.Request{Query: "ReadFile ", Mode: mode, IDs: []string{"os/file.go"}})
			if h.Line != 9 || h.Column != 6 || !strings.HasPrefix(h.Snippet, "…") || !strings.Contains(h.Snippet, "func <mark>ReadFile</mark>(") {
				t.Errorf("%s: ReadFile at %d:%d %q, want the declaration at 9:6", mode, h.Line, h.Column, h.Snippet)
			}
			// A match in the title alone has no line.
			h = oneHit(t, ix, index.Request{Query: "quartz ", Mode: mode})
			if h.Line != 0 || h.Column != 0 || h.Field != "title" {
				t.Errorf("%s: title match at %d:%d in %s", mode, h.Line, h.Column, h.Field)
			}
			// The licence comment holds "file" too; the snippet starts
			// after it.
			h = oneHit(t, ix, index.Request{Query: "file ", Mode: mode, IDs: []string{"lic.go"}})
			if h.Line != 7 || strings.Contains(h.Snippet, "LICENSE") {
				t.Errorf("%s: file at line %d, snippet %q: want line 7, not the licence", mode, h.Line, h.Snippet)
			}
		}
	})
}

func TestLines(t *testing.T) {
	var b strings.Builder
	for i := 1; i <= 12; i++ {
		switch i {
		case 3:
			b.WriteString("she reads a <book>\r\n")
		case 4:
			b.WriteString("READ again\n")
		case 9:
			b.WriteString("reading read the file; read file\n")
		default:
			fmt.Fprintf(&b, "line %d\n", i)
		}
	}
	body := b.String()
	long := strings.Repeat("word ", 200) + "needle" + strings.Repeat(" word", 200)
	type want struct {
		n     int
		text  string
		match bool
	}
	tests := []struct {
		name     string
		req      index.Request
		matching int
		lines    []want
	}{
		{"substring, context", index.Request{Query: "read ", Mode: index.ModeSubstring, Lines: &index.LineOptions{Before: 1, After: 1}}, 3, []want{
			{2, "line 2", false}, {3, "she [read]s a &lt;book&gt;", true}, {4, "[READ] again", true}, {5, "line 5", false},
			{8, "line 8", false}, {9, "[read]ing [read] the file; [read] file", true}, {10, "line 10", false}}},
		{"max", index.Request{Query: "read ", Mode: index.ModeSubstring, Lines: &index.LineOptions{Max: 1, After: 2}}, 3, []want{
			{3, "she [read]s a &lt;book&gt;", true}, {4, "READ again", false}, {5, "line 5", false}}},
		{"text: stems", index.Request{Query: "reading ", Mode: index.ModeText, Lines: &index.LineOptions{}}, 3, []want{
			{3, "she [reads] a &lt;book&gt;", true}, {4, "[READ] again", true}, {9, "[reading] [read] the file; [read] file", true}}},
		{"text: a quoted phrase is a run", index.Request{Query: `"read file"`, Mode: index.ModeText, Lines: &index.LineOptions{}}, 1, []want{
			{9, "reading read the file; [read file]", true}}},
		{"markers", index.Request{Query: "again ", Lines: &index.LineOptions{}, MarkStart: "{", MarkEnd: "}"}, 1, []want{
			{4, "READ {again}", true}}},
	}
	backends(t, func(t *testing.T, ix *index.Index) {
		mustUpsert(t, ix, index.Doc{ID: "d", Body: body}, index.Doc{ID: "long", Body: "short\n" + long + "\n"})
		for _, tt := range tests {
			tt.req.IDs = []string{"d"}
			h := oneHit(t, ix, tt.req)
			var got []want
			for _, l := range h.Lines {
				text := strings.NewReplacer("<mark>", "[", "</mark>", "]").Replace(l.Text)
				got = append(got, want{l.N, text, l.Match})
			}
			if !slices.Equal(got, tt.lines) || h.MatchingLines != tt.matching {
				t.Errorf("%s:\n got %d matching, %v\nwant %d matching, %v", tt.name, h.MatchingLines, got, tt.matching, tt.lines)
			}
		}
		h := oneHit(t, ix, index.Request{Query: "needle ", Lines: &index.LineOptions{}})
		if len(h.Lines) != 1 || h.Lines[0].N != 2 || len(h.Lines[0].Text) > index.MaxLineBytes+40 ||
			!strings.HasPrefix(h.Lines[0].Text, "…") || !strings.HasSuffix(h.Lines[0].Text, "…") || !strings.Contains(h.Lines[0].Text, "<mark>needle</mark>") {
			t.Errorf("long line: %+v", h.Lines)
		}
	})
}

func TestLinesValidate(t *testing.T) {
	for _, lo := range []index.LineOptions{{Before: -1}, {After: index.MaxContext + 1}, {Max: -1}, {Max: index.MaxLines + 1}} {
		r := index.Request{Query: "x", Lines: &lo}
		if err := r.Validate(); err == nil {
			t.Errorf("%+v: no error", lo)
		}
	}
}
