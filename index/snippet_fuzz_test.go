package index_test

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/twindex/twindex/index"
)

// FuzzSnippet searches a one-document index with arbitrary text and query
// in every mode: nothing panics, and every snippet and line, once its
// markers are taken out, holds no markup: the document's text comes back
// escaped. Lines are numbered in order, within the body, and the matching
// ones are those MatchingLines counts, up to the maximum; Line and Column
// point into the body.
func FuzzSnippet(f *testing.F) {
	f.Add(`<script>alert(1)</script> payload`, "payload")
	f.Add(`" onmouseover="x" &amp; </mark><mark>`, "mark")
	f.Add("Crème brûlée \u200d👩‍👩‍👧 \u202eRTL\u202c", "creme")
	f.Add("a\x00b\xffc getUserById", "user id")
	f.Add(strings.Repeat("ab", 3000)+"needle", `"b n"`)
	f.Add("combining e\u0301\u0301\u0301 marks", "e")
	f.Add("low\u2013dose 3,4-bis", "low\u2013\xe2\x80 3,4-bis-\xff-x,")
	f.Fuzz(func(t *testing.T, body, q string) {
		ix, err := index.OpenMemory(nil)
		if err != nil {
			t.Fatal(err)
		}
		defer ix.Close()
		cut := len(body) / 3
		for cut > 0 && !utf8.RuneStart(body[cut]) {
			cut--
		}
		if err := ix.Upsert(ctx, index.Doc{ID: "d", Title: body[:cut], Body: body}); err != nil {
			if errors.Is(err, index.ErrInvalidDoc) {
				return
			}
			t.Fatal(err)
		}
		for _, m := range []index.Mode{index.ModeAuto, index.ModeSubstring, index.ModeText} {
			r, err := ix.Search(ctx, index.Request{Query: q, Mode: m, Lines: &index.LineOptions{Before: 1, After: 1, Max: 3}})
			if errors.Is(err, index.ErrEmptyQuery) || errors.Is(err, index.ErrInvalidRequest) {
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, h := range r.Hits {
				plain := strings.NewReplacer("<mark>", "", "</mark>", "").Replace(h.Snippet)
				if strings.ContainsAny(plain, "<>\"") {
					t.Fatalf("%s: unescaped markup in snippet %q", m, h.Snippet)
				}
				if utf8.ValidString(body) && !utf8.ValidString(h.Snippet) {
					t.Fatalf("%s: snippet of valid text is not valid UTF-8: %q", m, h.Snippet)
				}
				if strings.Count(h.Snippet, "<mark>") != strings.Count(h.Snippet, "</mark>") {
					t.Fatalf("%s: unbalanced markers in %q", m, h.Snippet)
				}
				nlines := strings.Count(body, "\n") + 1
				if h.Line < 0 || h.Line > nlines || (h.Line == 0) != (h.Column == 0) {
					t.Fatalf("%s: match at %d:%d in %d lines", m, h.Line, h.Column, nlines)
				}
				last, matching := 0, 0
				for _, l := range h.Lines {
					plain := strings.NewReplacer("<mark>", "", "</mark>", "").Replace(l.Text)
					if strings.ContainsAny(plain, "<>\"\n") || l.N <= last || l.N > nlines {
						t.Fatalf("%s: line %+v after line %d of %d", m, l, last, nlines)
					}
					if l.Match {
						matching++
					}
					last = l.N
				}
				if matching != min(h.MatchingLines, 3) {
					t.Fatalf("%s: %d matching lines shown of %d", m, matching, h.MatchingLines)
				}
			}
		}
	})
}
