package snippet_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/blevesearch/bleve/v2/analysis"

	"github.com/twindex/twindex/index/internal/snippet"
	"github.com/twindex/twindex/index/internal/window"
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

// byFolding returns the field of text given by its folding alone, or
// false when folding did more than lower ASCII letters.
func byFolding(text string) (snippet.Field, bool) {
	folded, _, upper, changed := tokenize.FoldCase([]byte(text))
	return snippet.Field{Folded: folded, Upper: upper}, changed == nil && upper != nil
}

// TestByFolding checks that a field given by its folding shows what the
// field with its text shows: snippets (declarations preferred, licence
// floors, windows anywhere, camelCase parts and phrases' runs) and lines.
func TestByFolding(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 9))
	forms := []string{"Reader", "readFile", "ReadFile", "XMLParser", "read_file", "FILE", "files", "Parse", "URL", "Errorf", "package main",
		"Package Main", "→ arrow", "naïve", "<b>&amp;</b>", "日本語"}
	a := tokenize.NewText()
	queries := []*snippet.Query{query([]string{"reader"}, "reader"), query(nil, "read file"), query([]string{"parse", "url"}, "parse url"),
		query([]string{"xml"}, "parser"), query([]string{"b>&amp"}, "")}
	runQ := &snippet.Query{Analyze: a.Analyze, MarkStart: "[", MarkEnd: "]", MaxLine: 80}
	runQ.AddRun(snippet.Run{Key: 0, Occurrences: func(pos map[string][]int) (out [][2]int) {
		for _, p := range pos["packag"] {
			if slices.Contains(pos["main"], p+1) {
				out = append(out, [2]int{p, p + 1})
			}
		}
		return out
	}})
	queries = append(queries, runQ)
	tested := 0
	for i := range 300 {
		var b strings.Builder
		for b.Len() < 100+rng.IntN([]int{400, 12000}[i%2]) {
			if rng.IntN(12) == 0 {
				b.WriteString(forms[rng.IntN(len(forms))])
			} else {
				fmt.Fprintf(&b, "W%dq", rng.IntN(500))
			}
			b.WriteString([]string{" ", " ", "\n", ". ", "(", "_"}[rng.IntN(6)])
		}
		text := b.String()
		folded, ok := byFolding(text)
		if !ok {
			continue
		}
		tested++
		whole := field(text)
		q := queries[i%len(queries)]
		for _, prefer := range []int{-1, rng.IntN(len(text))} {
			floor := []int{0, rng.IntN(len(text))}[rng.IntN(2)]
			s1, at1, in1 := q.Snippet(field("Title"), whole, prefer, floor)
			s2, at2, in2 := q.Snippet(field("Title"), folded, prefer, floor)
			if s1 != s2 || at1 != at2 || in1 != in2 {
				t.Fatalf("text %d, prefer %d, floor %d:\ntext    %q %d %v\nfolding %q %d %v", i, prefer, floor, s1, at1, in1, s2, at2, in2)
			}
		}
		var l1, l2 []snippet.Line
		o := snippet.LineOptions{Before: 1, After: 1, Max: 20}
		n1 := q.Lines(whole, o, func(l snippet.Line) { l1 = append(l1, l) })
		n2 := q.Lines(folded, o, func(l snippet.Line) { l2 = append(l2, l) })
		if n1 != n2 || !slices.Equal(l1, l2) {
			t.Fatalf("text %d: lines %d %v, by folding %d %v", i, n1, l1, n2, l2)
		}
		if got := folded.Restored(); got.Text != text || got.Upper != nil {
			t.Fatalf("text %d: Restored gives another text", i)
		}
	}
	if tested < 100 {
		t.Errorf("only %d texts fold by lowering ASCII alone", tested)
	}
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
		// The probes "lar" and "cou" find the words of the first line,
		// none of them a query term: the window is where the terms are.
		{"guesses that are not terms", query(nil, "larger counts"), "", "largest could\n" + strings.Repeat("filler ", 50) + "the counts get larger",
			-1, "…filler filler filler filler filler filler filler filler the [counts] get [larger]", 368, false},
		// A term past its probe's first Spans places, all false guesses.
		{"past the first spans", query(nil, "counts"), "", strings.Repeat("could ", 70) + "counts",
			-1, "…could could could could could could could could could could [counts]", 420, false},
		// A declaration past the part of a field scanned shows its match.
		{"declaration past the scan", query(nil, "reader"), "", strings.Repeat("x", 1<<20+100) + " type Reader struct",
			1<<20 + 106, "…" + strings.Repeat("x", 54) + " type [Reader] struct", 1<<20 + 106, false},
		// A declaration's window holds its matches after the first Spans.
		{"declaration past the first spans", query([]string{"type"}, ""), "", strings.Repeat("type x\n", 70) + "func Type() {}",
			7*70 + 5, "…" + strings.Repeat("[type] x\n", 8) + "func [Type]() {}", 7*70 + 5, false},
	}
	for _, tt := range tests {
		snip, at, inTitle := tt.q.Snippet(field(tt.title), field(tt.body), tt.prefer, 0)
		if snip != tt.want || at != tt.wantAt || inTitle != tt.wantInTitle {
			t.Errorf("%s: got %q %d %v, want %q %d %v", tt.name, snip, at, inTitle, tt.want, tt.wantAt, tt.wantInTitle)
		}
	}
}

// TestGuessesConfirmed checks that a snippet marks a query term whenever
// its field holds one, among words that share the terms' probes (their
// first three letters) but are not terms, before and after it.
func TestGuessesConfirmed(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	a := tokenize.NewText()
	q := query(nil, "larger counts")
	terms := a.Terms("larger counts")
	lookalikes := []string{"largest", "large", "Largo", "could", "country", "counter", "coupon", "countless", "LargeFile", "courtCase"}
	marked := 0
	for i := range 500 {
		var b strings.Builder
		for b.Len() < 200+rng.IntN(6000) {
			switch r := rng.IntN(30); {
			case r < 4:
				b.WriteString(lookalikes[rng.IntN(len(lookalikes))])
			case r == 4 && rng.IntN(8) == 0:
				b.WriteString([]string{"larger", "counts", "Counts", "countLarger"}[rng.IntN(4)])
			default:
				fmt.Fprintf(&b, "w%dq", rng.IntN(300))
			}
			b.WriteString([]string{" ", " ", "\n", ". ", "("}[rng.IntN(5)])
		}
		text := b.String()
		holds := slices.ContainsFunc(a.Analyze([]byte(text)), func(tok *analysis.Token) bool { return slices.Contains(terms, string(tok.Term)) })
		snip, _, _ := q.Snippet(field(""), field(text), -1, 0)
		if got := strings.Contains(snip, "["); got != holds {
			t.Fatalf("text %d holds a term: %v, its snippet marks one: %v\n%s\nsnippet: %s", i, holds, got, text, snip)
		}
		if holds {
			marked++
		}
	}
	if marked < 100 || marked > 400 {
		t.Errorf("%d of 500 texts hold a term: the test needs both kinds", marked)
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
		snip, at, _ := q.Snippet(field(""), field(body), -1, 0)
		q.Lines(field(body), snippet.LineOptions{Before: 1, After: 1, Max: 3}, func(l snippet.Line) { snip += "\n" + l.Text })
		if folded, ok := byFolding(body); ok {
			got, gotAt, _ := q.Snippet(field(""), folded, -1, 0)
			q.Lines(folded, snippet.LineOptions{Before: 1, After: 1, Max: 3}, func(l snippet.Line) { got += "\n" + l.Text })
			if got != snip || gotAt != at {
				t.Fatalf("by folding %q %d, by text %q %d", got, gotAt, snip, at)
			}
		}
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

// TestRunStarts checks that a phrase's runs, looked for in the windows
// its Starts find, give the snippets and lines that analyzing each field
// whole gives: long fields, forms written as the phrase and not (stems,
// identifiers, accents that fold), and phrases whose words all start
// often.
func TestRunStarts(t *testing.T) {
	a := tokenize.NewText()
	forms := []string{"package main", "Packaged MAIN", "packageMain", "package_main", "main package", "Pâckage main",
		"type t", "typeT", "(t *T) type", "type, t", "set up", "setUp", "sets the up", "ünïcode"}
	rng := rand.New(rand.NewPCG(3, 5))
	for _, phrase := range []string{"package main", "type t", "set up"} {
		words := []window.Word{}
		var terms []string
		for _, tok := range a.Analyze([]byte(phrase)) {
			words = append(words, window.Word{Rel: tok.Position - 1, Terms: []string{string(tok.Term)}})
			terms = append(terms, string(tok.Term))
		}
		occurrences := func(pos map[string][]int) [][2]int {
			var out [][2]int
			for _, p := range pos[terms[0]] {
				if slices.Contains(pos[terms[1]], p+1) {
					out = append(out, [2]int{p, p + 1})
				}
			}
			return out
		}
		starts := window.New(a, words)
		if starts == nil {
			t.Fatalf("%q: no starts", phrase)
		}
		mk := func(st *window.Starts) *snippet.Query {
			q := &snippet.Query{Analyze: a.Analyze, MarkStart: "[", MarkEnd: "]", MaxLine: 512}
			q.AddRun(snippet.Run{Key: 0, Occurrences: occurrences, Starts: st})
			return q
		}
		whole, windowed := mk(nil), mk(starts)
		for range 200 {
			var b strings.Builder
			for range 20 + rng.IntN(400) {
				if rng.IntN(30) == 0 {
					b.WriteString(forms[rng.IntN(len(forms))])
				} else {
					fmt.Fprintf(&b, "w%dq", rng.IntN(300))
				}
				b.WriteString([]string{" ", "\n", ". ", " "}[rng.IntN(4)])
			}
			body := field(b.String())
			s1, at1, in1 := whole.Snippet(field("t"), body, -1, 0)
			s2, at2, in2 := windowed.Snippet(field("t"), body, -1, 0)
			if s1 != s2 || at1 != at2 || in1 != in2 {
				t.Fatalf("%q in %q:\nwhole    %q %d %v\nwindowed %q %d %v", phrase, body.Text, s1, at1, in1, s2, at2, in2)
			}
			var l1, l2 []snippet.Line
			n1 := whole.Lines(body, snippet.LineOptions{Before: 1, After: 1, Max: 50}, func(l snippet.Line) { l1 = append(l1, l) })
			n2 := windowed.Lines(body, snippet.LineOptions{Before: 1, After: 1, Max: 50}, func(l snippet.Line) { l2 = append(l2, l) })
			if !slices.Equal(l1, l2) || n1 != n2 {
				t.Fatalf("%q in %q: lines whole %v %d, windowed %v %d", phrase, body.Text, l1, n1, l2, n2)
			}
		}
	}
}

// TestHeadRendersAsWhole checks that a long field's snippet judged by its
// head is the one the whole field gives: texts of filler with the query's
// words (as substrings, terms, parts of identifiers) placed anywhere,
// near the head's end too, with and without a licence comment's floor;
// and that the head decides often enough for the test to mean something.
func TestHeadRendersAsWhole(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	forms := []string{"reader", "Reader", "readFile", "ReadFile", "read_file", "file", "files", "filing", "parse", "Parser", "url", "URL", "err", "error", "Errorf", "returns"}
	// Terms that share a probe ("err" of err and error) make spans of the
	// same bytes with different keys.
	queries := []struct {
		subs  []string
		words string
	}{{[]string{"reader"}, "reader"}, {nil, "read file"}, {[]string{"readfile"}, "readFile"}, {[]string{"parse", "url"}, "parse url"}, {nil, "file"}, {nil, "return err error"}}
	decided, runs := 0, 0
	for i := range 400 {
		// Every fourth text has its first forms just before the head's
		// end, so that its window reaches past it.
		first := 0
		if i%4 == 0 {
			first = 4096 - 40 - rng.IntN(260)
		}
		var b strings.Builder
		for b.Len() < 8000+rng.IntN(20000) {
			if b.Len() >= first && rng.IntN(40) == 0 || b.Len() >= first && first > 0 && b.Len() < first+60 {
				b.WriteString(forms[rng.IntN(len(forms))])
			} else {
				fmt.Fprintf(&b, "w%dq", rng.IntN(500))
			}
			b.WriteString([]string{" ", " ", "\n", ". ", "(", "_"}[rng.IntN(6)])
		}
		text := b.String()
		f := field(text)
		qs := queries[i%len(queries)]
		q := query(qs.subs, qs.words)
		for _, floor := range []int{0, rng.IntN(3000)} {
			snip, at := q.Render(f, -1, floor)
			wantSnip, wantAt := q.RenderWhole(f, -1, floor)
			if snip != wantSnip || at != wantAt {
				t.Fatalf("text %d, %v %q, floor %d: head gives %q at %d, the whole field %q at %d", i, qs.subs, qs.words, floor, snip, at, wantSnip, wantAt)
			}
			runs++
			if q.HeadDecides(f, floor) {
				decided++
			}
		}
	}
	if decided < runs/5 || decided == runs {
		t.Errorf("the head decided %d of %d snippets: the test needs both", decided, runs)
	}
}
