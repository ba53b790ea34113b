package snippet_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/blevesearch/bleve/v2/analysis"

	"github.com/twindex/twindex/index/internal/snippet"
	"github.com/twindex/twindex/tokenize"
)

// query returns a Query for the folded substrings subs and the analyzed
// words of words, marked with [ and ].
func query(subs []string, words string) *snippet.Query {
	a := tokenize.NewText()
	q := &snippet.Query{Analyze: a.Analyze, MarkStart: "[", MarkEnd: "]", MaxLine: 512}
	for _, s := range subs {
		q.AddSub(s)
	}
	for i, t := range a.Terms(words) {
		q.AddTerm(t, len(subs)+i)
	}
	return q
}

func field(text string) snippet.Field {
	folded, m := tokenize.FoldMap(text)
	return snippet.Field{Text: text, Folded: folded, Map: m}
}

func TestSnippet(t *testing.T) {
	tests := []struct {
		name        string
		q           *snippet.Query
		title, body string
		prefer      int
		want        string
		wantAt      int
		wantInTitle bool
	}{
		{"substring, escaped", query([]string{"read"}, ""), "t", "she reads a <book>", -1, "she [read]s a &lt;book&gt;", 4, false},
		{"folded", query([]string{"creme"}, ""), "", "Crème brûlée", -1, "[Crème] brûlée", 0, false},
		{"analyzed words", query(nil, "reading"), "", "he reads a book", -1, "he [reads] a book", 3, false},
		{"title", query([]string{"quartz"}, ""), "Quartz", "nothing", -1, "[Quartz]", -1, true},
		{"no match", query([]string{"zz"}, ""), "t", "plain body", -1, "plain body", -1, false},
	}
	for _, tt := range tests {
		snip, at, inTitle := tt.q.Snippet(field(tt.title), field(tt.body), tt.prefer, 0)
		if snip != tt.want || at != tt.wantAt || inTitle != tt.wantInTitle {
			t.Errorf("%s: got %q %d %v, want %q %d %v", tt.name, snip, at, inTitle, tt.want, tt.wantAt, tt.wantInTitle)
		}
	}
}

// TestWords checks that queries sharing a Words show the snippets they
// show without it, and analyze each word once.
func TestWords(t *testing.T) {
	a := tokenize.NewText()
	analyzed := 0
	counting := func(text []byte) analysis.TokenStream {
		analyzed++
		return a.Analyze(text)
	}
	var words snippet.Words
	bodies := []string{"she reads a book; he reads it", "reads nothing", "the readers' book reads"}
	for _, w := range []string{"reading", "readers", "books"} {
		for _, body := range bodies {
			want, wantAt, _ := query(nil, w).Snippet(field(""), field(body), -1, 0)
			q := query(nil, w)
			q.Analyze, q.Words = counting, &words
			if got, at, _ := q.Snippet(field(""), field(body), -1, 0); got != want || at != wantAt {
				t.Errorf("%q in %q with Words: %q %d, want %q %d", w, body, got, at, want, wantAt)
			}
		}
	}
	// The words around the probes "rea" and "boo": reads, book;, readers', book.
	if analyzed != 4 {
		t.Errorf("%d words analyzed, want 4", analyzed)
	}
}

func TestLines(t *testing.T) {
	body := "line 1\nshe reads\r\nline 3\nline 4\nread it\n"
	var got []snippet.Line
	n := query([]string{"read"}, "").Lines(field(body), snippet.LineOptions{Before: 1, After: 1, Max: 5}, func(l snippet.Line) { got = append(got, l) })
	want := []snippet.Line{{1, "line 1", false}, {2, "she [read]s", true}, {3, "line 3", false}, {4, "line 4", false}, {5, "[read] it", true}}
	if n != 2 || !slices.Equal(got, want) {
		t.Errorf("got %d %v, want 2 %v", n, got, want)
	}
}

func TestLocate(t *testing.T) {
	for _, tt := range []struct{ at, line, col int }{{0, 1, 1}, {3, 1, 4}, {4, 2, 1}, {6, 2, 3}} {
		if line, col := snippet.Locate("abc\ndef", tt.at); line != tt.line || col != tt.col {
			t.Errorf("%d: %d:%d, want %d:%d", tt.at, line, col, tt.line, tt.col)
		}
	}
}

// FuzzSnippet renders arbitrary text: nothing panics, markers balance,
// and once they are taken out no markup is left.
func FuzzSnippet(f *testing.F) {
	f.Add(`<script>alert(1)</script> payload`, "payload")
	f.Add("Crème brûlée \u200d👩‍👩‍👧 \u202eRTL\u202c", "creme")
	f.Add("a\x00b\xffc getUserById", "user")
	f.Fuzz(func(t *testing.T, body, sub string) {
		q := query([]string{tokenize.Fold(sub)}, sub)
		q.MarkStart, q.MarkEnd = "<mark>", "</mark>"
		snip, _, _ := q.Snippet(field(""), field(body), -1, 0)
		q.Lines(field(body), snippet.LineOptions{Before: 1, After: 1, Max: 3}, func(l snippet.Line) { snip += "\n" + l.Text })
		if strings.Count(snip, "<mark>") != strings.Count(snip, "</mark>") {
			t.Fatalf("unbalanced markers in %q", snip)
		}
		if plain := strings.NewReplacer("<mark>", "", "</mark>", "").Replace(snip); strings.ContainsAny(plain, "<>\"") {
			t.Fatalf("unescaped markup in %q", snip)
		}
	})
}

func ExampleQuery_Snippet() {
	q := &snippet.Query{MarkStart: "<b>", MarkEnd: "</b>"}
	q.AddSub("needle")
	body := "hay & hay\nthe Needle is here"
	snip, at, _ := q.Snippet(snippet.Field{}, snippet.Field{Text: body, Folded: strings.ToLower(body)}, -1, 0)
	line, col := snippet.Locate(body, at)
	fmt.Println(snip, line, col)
	// Output: hay &amp; hay
	// the <b>Needle</b> is here 2 5
}
