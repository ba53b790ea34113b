package index_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/twindex/twindex/index"
	"github.com/twindex/twindex/query"
)

// The raw syntax's constructs and precedence, in both legs. n1 is the
// document of FTS5's NEAR examples ("A B C D x x x E F x"); in the text
// leg "a" is a stop word, so the examples that hinge on it are checked in
// the substring leg only.
var rawCorpus = []index.Doc{
	{ID: "n1", Body: "A B C D x x x E F x"},
	{ID: "p1", Title: "one", Body: "one two three four"},
	{ID: "p2", Body: "three two one"},
	{ID: "p3", Title: "two three", Body: "five six"},
	{ID: "p4", Body: "one four"},
}

var rawCases = []struct {
	q               string
	text, substring string // expected IDs, sorted, space separated; "-" when the leg differs from FTS5 by design
}{
	// FTS5 documentation, section 3.3 (phrases): all three are one phrase.
	{`"one two"`, "p1", "p1"},
	{`one + two`, "p1", "p1"},
	{`"one two" + three`, "p1", "p1"},
	// Implicit AND, OR, NOT and their precedence (NOT > AND > OR).
	{`one two`, "p1 p2", "p1 p2"},
	{`one AND two`, "p1 p2", "p1 p2"},
	{`one OR five`, "p1 p2 p3 p4", "p1 p2 p3 p4"},
	{`one OR two AND three`, "p1 p2 p3 p4", "p1 p2 p3 p4"},
	{`(one OR two) AND three`, "p1 p2 p3", "p1 p2 p3"},
	{`one NOT two`, "p4", "p4"},
	{`one NOT two OR five`, "p3 p4", "p3 p4"},
	{`one NOT (two OR four)`, "", ""},
	{`three NOT two three`, "", ""},
	// 3.4: prefix queries, on a word and on a phrase's last word.
	{`thr*`, "p1 p2 p3", "p1 p2 p3"},
	{`"one two thr" *`, "p1", "p1"},
	{`one + two + thr*`, "p1", "p1"},
	{`fiv* OR fou*`, "p1 p3 p4", "p1 p3 p4"},
	// 3.5: initial token.
	{`^one`, "p1 p4", "p1 p4"},
	{`^two`, "p3", "p3"},
	{`^"two three"`, "p3", "p3"},
	// 3.6: NEAR, FTS5's examples on n1.
	{`NEAR(e d, 4)`, "n1", "n1"},
	{`NEAR(e d, 3)`, "n1", "n1"},
	{`NEAR(e d, 2)`, "", ""},
	{`NEAR("c d" "e f", 3)`, "n1", "n1"},
	{`NEAR("c" "e f", 3)`, "", ""},
	{`NEAR(a d e, 6)`, "-", "n1"},
	{`NEAR(a d e, 5)`, "-", ""},
	{`NEAR(one four, 1)`, "p4", "p4"},
	{`NEAR(one four, 2)`, "p1 p4", "p1 p4"},
	{`NEAR(one four)`, "p1 p4", "p1 p4"},
	// 3.7: column filters.
	{`title:one`, "p1", "p1"},
	{`body:one`, "p1 p2 p4", "p1 p2 p4"},
	{`-title:one`, "p1 p2 p4", "p1 p2 p4"},
	{`{title body}:five`, "p3", "p3"},
	{`title:three`, "p3", "p3"},
	{`title:^two`, "p3", "p3"},
	{`title:(one OR five)`, "p1", "p1"},
	{`title: NEAR(two three, 0)`, "p3", "p3"},
	{`body:"two three"`, "p1", "p1"},
	// Leaves of one and two characters, which the substring leg finds by
	// their own grams ("-": no such word for the text leg).
	{`title:o`, "-", "p1 p3"},
	{`^t`, "-", "p2 p3"},
	{`fi OR si`, "-", "p3"},
	{`on NOT tw`, "-", "p4"},
	{`NEAR(e f, 0)`, "-", "n1 p1 p3 p4"},
}

func TestRawSyntax(t *testing.T) {
	backends(t, func(t *testing.T, ix *index.Index) {
		mustUpsert(t, ix, rawCorpus...)
		for _, c := range rawCases {
			for _, m := range []struct {
				mode index.Mode
				want string
			}{{index.ModeText, c.text}, {index.ModeSubstring, c.substring}} {
				if m.want == "-" {
					continue
				}
				r := search(t, ix, index.Request{Query: c.q, Syntax: index.SyntaxRaw, Mode: m.mode, Fallback: -1})
				if got := strings.Join(sorted(ids(r)), " "); got != m.want {
					t.Errorf("%s %s: got [%s], want [%s]", m.mode, c.q, got, m.want)
				}
			}
		}
	})
}

// In auto mode a raw query's hits are those of either leg.
func TestRawSyntaxAutoUnitesLegs(t *testing.T) {
	backends(t, func(t *testing.T, ix *index.Index) {
		mustUpsert(t, ix, index.Doc{ID: "a", Body: "running quickly"}, index.Doc{ID: "b", Body: "the runner"})
		// "runs" stems to "run": the text leg finds a; the substring
		// "runn" is in both.
		r := search(t, ix, index.Request{Query: `runs OR runn`, Syntax: index.SyntaxRaw, Fallback: -1})
		if got := strings.Join(sorted(ids(r)), " "); got != "a b" {
			t.Fatalf("got %s", got)
		}
	})
}

func TestRawSyntaxErrors(t *testing.T) {
	ix, err := index.OpenMemory(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	for _, q := range []string{`one AND`, `"open`, `NEAR(one)`, `(a OR b`, `nosuch:x`, `a.b`} {
		_, err := ix.Search(ctx, index.Request{Query: q, Syntax: index.SyntaxRaw})
		var qe *query.Error
		if !errors.As(err, &qe) || !errors.Is(err, index.ErrInvalidRequest) {
			t.Errorf("%q: got %v, want a *query.Error wrapped with ErrInvalidRequest", q, err)
			continue
		}
		if qe.Pos < 0 || qe.Pos+qe.Len > len(q) || !strings.Contains(qe.Caret(), "^") {
			t.Errorf("%q: bad error span %d+%d: %s", q, qe.Pos, qe.Len, qe.Caret())
		}
	}
	if _, err := ix.Search(ctx, index.Request{Query: "x", Syntax: "regex"}); !errors.Is(err, index.ErrInvalidRequest) {
		t.Errorf("unknown syntax: %v", err)
	}
	if _, err := ix.Search(ctx, index.Request{Query: "x", Fuzzy: 3}); !errors.Is(err, index.ErrInvalidRequest) {
		t.Errorf("fuzzy 3: %v", err)
	}
}

// With Prefix, while a word is being typed it also matches as a prefix,
// below the word itself; a trailing space ends it. Without Prefix a word
// is a whole word, and the fallback completes none.
func TestSearchAsYouType(t *testing.T) {
	backends(t, func(t *testing.T, ix *index.Index) {
		mustUpsert(t, ix,
			index.Doc{ID: "long", Body: "the configuration file"},
			index.Doc{ID: "short", Body: "the config file"},
		)
		r := search(t, ix, index.Request{Query: "confi", Prefix: true, Mode: index.ModeText, Fallback: -1})
		if got := strings.Join(sorted(ids(r)), " "); got != "long short" {
			t.Fatalf("confi: %s", got)
		}
		for _, req := range []index.Request{
			{Query: "confi ", Prefix: true, Mode: index.ModeText, Fallback: -1},
			{Query: "confi", Mode: index.ModeText, Fallback: -1},
		} {
			if r = search(t, ix, req); r.Total != 0 {
				t.Fatalf("%q prefix %v: %v", req.Query, req.Prefix, ids(r))
			}
		}
		// A completion of the word as written, past its stem "configur".
		r = search(t, ix, index.Request{Query: "configurat", Prefix: true, Mode: index.ModeText, Fallback: -1})
		if got := ids(r); !slices.Equal(got, []string{"long"}) {
			t.Fatalf("configurat: %v", got)
		}
		r = search(t, ix, index.Request{Query: "config", Prefix: true, Mode: index.ModeText, Fallback: -1})
		if got := ids(r); !slices.Equal(got, []string{"short", "long"}) {
			t.Fatalf("config: %v, want the whole word first", got)
		}
		if !strings.Contains(r.Hits[1].Snippet, "<mark>configuration</mark>") {
			t.Errorf("completion not highlighted: %s", r.Hits[1].Snippet)
		}
		// A quoted phrase is never being typed.
		r = search(t, ix, index.Request{Query: `"confi`, Prefix: true, Mode: index.ModeText, Fallback: -1})
		if r.Total != 0 {
			t.Fatalf(`"confi: %v`, ids(r))
		}
	})
}

// A prefix reads at most MaxExpansions terms, the most frequent ones.
func TestPrefixBound(t *testing.T) {
	ix, err := index.OpenMemory(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	const words = index.MaxExpansions + 6
	var docs []index.Doc
	want := 0
	// One term each (no digits, no suffix to stem): preaazq in 1
	// document, preabzq in 2, ...
	word := func(i int) string { return fmt.Sprintf("pre%c%czq", 'a'+i/26, 'a'+i%26) }
	for i := range words {
		for j := range i + 1 {
			docs = append(docs, index.Doc{ID: fmt.Sprintf("d%03d-%03d", i, j), Body: word(i)})
		}
		if i >= words-index.MaxExpansions {
			want += i + 1
		}
	}
	mustUpsert(t, ix, docs...)
	r := search(t, ix, index.Request{Query: "pre*", Syntax: index.SyntaxRaw, Mode: index.ModeText, Fallback: -1})
	if r.Total != want {
		t.Fatalf("pre*: %d hits, want %d (the %d most frequent words)", r.Total, want, index.MaxExpansions)
	}
	r = search(t, ix, index.Request{Query: word(0), Mode: index.ModeText, Fallback: -1})
	if r.Total != 1 {
		t.Fatalf("%s: %d", word(0), r.Total)
	}
}

func TestFuzzy(t *testing.T) {
	backends(t, func(t *testing.T, ix *index.Index) {
		mustUpsert(t, ix,
			index.Doc{ID: "en", Body: "the parser reads the configuration"},
			index.Doc{ID: "ru", Body: "Привет, мир! Да."},
			index.Doc{ID: "jp", Body: "日本語の文章"},
		)
		cases := []struct {
			q     string
			fuzzy index.Fuzzy
			want  string
		}{
			{"cnofiguration", index.FuzzyAuto, "en"}, // a transposition is one edit
			{"cnofgiuration", index.FuzzyAuto, "en"}, // two edits for a long word
			{"configuraton", 1, "en"},                // where the stemmer cuts: compared as written
			{"configurashun", index.FuzzyAuto, ""},   // three edits
			{"raeds", 1, "en"},
			{"parsre", 1, "en"},
			{"parsre", index.FuzzyOff, ""},
			{"превет", 1, "ru"},            // one edit, two bytes
			{"мор", index.FuzzyAuto, "ru"}, // three characters (six bytes): one edit
			{"до", index.FuzzyAuto, ""},    // two characters (four bytes): no edit
			{"до", 1, "ru"},
		}
		for _, c := range cases {
			r := search(t, ix, index.Request{Query: c.q + " ", Mode: index.ModeText, Fuzzy: c.fuzzy, Fallback: -1})
			if got := strings.Join(ids(r), " "); got != c.want {
				t.Errorf("%q fuzzy %v: got [%s], want [%s]", c.q, c.fuzzy, got, c.want)
				continue
			}
			for _, h := range r.Hits {
				if !slices.Equal(h.MatchedIn, []string{index.LegFuzzy}) || !r.Tolerant {
					t.Errorf("%q: hit %s matchedIn %v, tolerant %v", c.q, h.ID, h.MatchedIn, r.Tolerant)
				}
			}
		}
	})
}

// The fallback appends tolerant hits after the exact ones, with the
// filters applied, only when there are fewer exact hits than its threshold.
func TestFallback(t *testing.T) {
	backends(t, func(t *testing.T, ix *index.Index) {
		mustUpsert(t, ix,
			index.Doc{ID: "exact", Kind: "note", Body: "lemon tart"},
			index.Doc{ID: "typo1", Kind: "note", Body: "lemmon cake"},
			index.Doc{ID: "typo2", Kind: "code", Body: "lemons and limes"},
			index.Doc{ID: "prefix", Kind: "note", Body: "lemonade stand"},
		)
		// In the text leg "lemon" finds exact and typo2 ("lemons" stems to
		// "lemon"): two, fewer than three. The tolerant pass adds typo1
		// (one edit) and, as typed into a search box, prefix (a completion).
		r := search(t, ix, index.Request{Query: "lemon ", Mode: index.ModeText})
		if got := ids(r); !r.Tolerant || len(got) != 3 || got[2] != "typo1" {
			t.Fatalf("lemon without Prefix: %v (tolerant %v), want typo1 after the exact hits", got, r.Tolerant)
		}
		r = search(t, ix, index.Request{Query: "lemon ", Prefix: true, Mode: index.ModeText})
		got := ids(r)
		if !r.Tolerant || len(got) != 4 || strings.Join(sorted(got[:2]), " ") != "exact typo2" ||
			strings.Join(sorted(got[2:]), " ") != "prefix typo1" {
			t.Fatalf("lemon: %v (tolerant %v), want the exact hits first", got, r.Tolerant)
		}
		for i, h := range r.Hits {
			want := []string{index.LegText}
			if i >= 2 {
				want = []string{index.LegFuzzy}
			}
			if !slices.Equal(h.MatchedIn, want) {
				t.Errorf("%s marked %v, want %v", h.ID, h.MatchedIn, want)
			}
			if i > 0 && h.Score > r.Hits[i-1].Score {
				t.Errorf("scores not descending at %d", i)
			}
		}
		// Filters hold inside the tolerant pass.
		r = search(t, ix, index.Request{Query: "lemon ", Prefix: true, Kinds: []string{"note"}, Mode: index.ModeText})
		if got := ids(r); len(got) != 3 || got[0] != "exact" || strings.Join(sorted(got[1:]), " ") != "prefix typo1" {
			t.Fatalf("kind note: %v", got)
		}
		// Enough exact hits: no fallback.
		r = search(t, ix, index.Request{Query: "lemon ", Mode: index.ModeText, Fallback: 2})
		if r.Tolerant || r.Total != 2 {
			t.Fatalf("fallback 1: %v tolerant %v", ids(r), r.Tolerant)
		}
		// Paging through exact and tolerant hits.
		all := search(t, ix, index.Request{Query: "lemon ", Prefix: true, Fallback: 4})
		if !all.Tolerant || all.Total != 4 {
			t.Fatalf("auto, fallback 4: %v", ids(all))
		}
		var paged []string
		for off := 0; off < all.Total; off++ {
			p := search(t, ix, index.Request{Query: "lemon ", Prefix: true, Fallback: 4, Limit: 1, Offset: off})
			paged = append(paged, ids(p)...)
			if p.Total != all.Total {
				t.Fatalf("total %d on page %d, want %d", p.Total, off, all.Total)
			}
		}
		if !slices.Equal(paged, ids(all)) {
			t.Fatalf("paged %v, all %v", paged, ids(all))
		}
	})
}

func TestDidYouMean(t *testing.T) {
	backends(t, func(t *testing.T, ix *index.Index) {
		mustUpsert(t, ix,
			index.Doc{ID: "a", Body: "A lemon and the Configuration of things"},
			index.Doc{ID: "b", Body: "lemon pie"},
		)
		// Two transpositions: beyond auto fuzziness for five letters.
		r := search(t, ix, index.Request{Query: "lmeno"})
		if r.Total != 0 || r.DidYouMean != "lemon" {
			t.Fatalf("lmeno: %d hits, did you mean %q", r.Total, r.DidYouMean)
		}
		r = search(t, ix, index.Request{Query: "cnofgiuration lmeno", Mode: index.ModeText, Fallback: -1})
		if r.DidYouMean != "configuration lemon" {
			t.Fatalf("did you mean %q", r.DidYouMean)
		}
		if r = search(t, ix, index.Request{Query: "lemon"}); r.DidYouMean != "" {
			t.Fatalf("hits and a suggestion %q", r.DidYouMean)
		}
		if r = search(t, ix, index.Request{Query: "qqqqqqqq"}); r.DidYouMean != "" {
			t.Fatalf("suggestion %q for nothing near", r.DidYouMean)
		}
		// A word of two letters still being typed gets no suggestion; typed
		// whole (a space after it, or without Prefix), it does.
		for _, c := range []struct {
			query  string
			prefix bool
			want   string
		}{{"pi", true, ""}, {"pi ", true, "pie "}, {"pi", false, "pie"}, {"pei", true, "pie"}} {
			r = search(t, ix, index.Request{Query: c.query, Prefix: c.prefix, Mode: index.ModeText, Fallback: -1})
			if r.Total != 0 || r.DidYouMean != c.want {
				t.Errorf("%q prefix %v: %d hits, did you mean %q, want %q", c.query, c.prefix, r.Total, r.DidYouMean, c.want)
			}
		}
		// The word as written comes from wherever it first stands in the
		// text, here past the first parts that surface analyzes.
		mustUpsert(t, ix, index.Doc{ID: "c", Body: strings.Repeat("filler words on a line\n", 300) + "the Hippo"})
		if r = search(t, ix, index.Request{Query: "hpiop"}); r.DidYouMean != "hippo" {
			t.Fatalf("hpiop: did you mean %q, want hippo", r.DidYouMean)
		}
	})
}

// When a word of the query is in no document, the fallback runs even with
// many exact hits, and ranks the text leg again with approximate words
// counted as matched: the documents with every word, some approximately,
// come before those with fewer words, however often those hold them.
func TestTolerantRanksAllWordsFirst(t *testing.T) {
	backends(t, func(t *testing.T, ix *index.Index) {
		mustUpsert(t, ix,
			index.Doc{ID: "json-only", Body: "json json json json json encoder"},
			index.Doc{ID: "json-short", Body: "json"},
			index.Doc{ID: "both", Body: "how to unmarshal a long json document with many other words in it"},
			index.Doc{ID: "other", Body: "unrelated text"},
		)
		for _, mode := range []index.Mode{index.ModeText, index.ModeAuto} {
			r := search(t, ix, index.Request{Query: "unmarshl json", Mode: mode})
			got := ids(r)
			if !r.Tolerant || len(got) != 3 || got[0] != "both" {
				t.Fatalf("%s: %v (tolerant %v), want both first", mode, got, r.Tolerant)
			}
			if !slices.Equal(r.Hits[0].MatchedIn, []string{index.LegFuzzy}) || !slices.Equal(r.Hits[1].MatchedIn, []string{index.LegText}) {
				t.Errorf("%s: marked %v and %v", mode, r.Hits[0].MatchedIn, r.Hits[1].MatchedIn)
			}
			if !strings.Contains(r.Hits[0].Snippet, "<mark>unmarshal</mark>") {
				t.Errorf("%s: approximate word not marked: %s", mode, r.Hits[0].Snippet)
			}
		}
		// Ordered by date, the same hits and marks.
		r := search(t, ix, index.Request{Query: "unmarshl json", Order: index.OrderDateDesc})
		for _, h := range r.Hits {
			if want := index.LegText; h.ID == "both" {
				want = index.LegFuzzy
				if !slices.Equal(h.MatchedIn, []string{want}) {
					t.Errorf("by date: %s marked %v", h.ID, h.MatchedIn)
				}
			} else if !slices.Contains(h.MatchedIn, want) {
				t.Errorf("by date: %s marked %v", h.ID, h.MatchedIn)
			}
		}
		if r.Total != 3 || !r.Tolerant {
			t.Errorf("by date: %v (tolerant %v)", ids(r), r.Tolerant)
		}
		// Without the fallback, "json" alone ranks them.
		if r := search(t, ix, index.Request{Query: "unmarshl json", Fallback: -1}); r.Tolerant || ids(r)[2] != "both" {
			t.Fatalf("no fallback: %v (tolerant %v)", ids(r), r.Tolerant)
		}
	})
}

// A word that no document holds whole but the substring leg finds inside
// longer words (nmars of Unmarshal) is a piece of them: auto mode does
// not tolerate it when the substring leg finds Request.Fallback
// documents or more, so its hits and total are the documents that hold
// the text, without those of the words near it (mars, smart). With
// fewer, or in text mode, which has no substring leg, the fallback runs.
func TestFragmentNotTolerated(t *testing.T) {
	backends(t, func(t *testing.T, ix *index.Index) {
		mustUpsert(t, ix,
			index.Doc{ID: "u1", Body: "json.Unmarshal reads the data"},
			index.Doc{ID: "u2", Body: "xml.Unmarshal and more"},
			index.Doc{ID: "u3", Title: "decode", Body: "Unmarshals a value"},
			index.Doc{ID: "mars", Body: "mars is a planet"},
			index.Doc{ID: "smart", Body: "a smart idea"},
		)
		r := search(t, ix, index.Request{Query: "nmars"})
		if got := sorted(ids(r)); r.Tolerant || r.Total != 3 || strings.Join(got, " ") != "u1 u2 u3" {
			t.Fatalf("nmars: %v total %d (tolerant %v), want the three holders of the text alone", got, r.Total, r.Tolerant)
		}
		for _, h := range r.Hits {
			if !slices.Equal(h.MatchedIn, []string{index.LegSubstring}) {
				t.Errorf("nmars: %s matched in %v", h.ID, h.MatchedIn)
			}
		}
		// Asked for four, the substring leg's three are not enough: the
		// word is tolerated, and the words near it add their documents.
		r = search(t, ix, index.Request{Query: "nmars", Fallback: 4})
		if got := ids(r); !r.Tolerant || !slices.Contains(got, "mars") || r.Total <= 3 {
			t.Fatalf("nmars, fallback 4: %v (tolerant %v)", got, r.Tolerant)
		}
		r = search(t, ix, index.Request{Query: "nmars", Mode: index.ModeText})
		if got := ids(r); !r.Tolerant || !slices.Contains(got, "mars") {
			t.Fatalf("nmars in text mode: %v (tolerant %v)", got, r.Tolerant)
		}
		// A misspelled word beside a known one: the substring leg finds
		// nothing, so the misspelling alone is tolerated, as before.
		r = search(t, ix, index.Request{Query: "unmarshall data"})
		if got := ids(r); !r.Tolerant || len(got) == 0 || got[0] != "u1" {
			t.Fatalf("unmarshall data: %v (tolerant %v), want u1 first", got, r.Tolerant)
		}
	})
}

// A word of one part beside minor ones, of one or two letters (the go
// of WTF16Go, a trailing I being typed in errors.I, whose completions
// are the commonest words), is held by that part: a document with only a
// minor part's words is no match of it, on every backend (the memory
// backend, which cannot count a set of completions apart, reads them as
// matches and then drops those that do not hold the word).
func TestMinorPartsAlone(t *testing.T) {
	backends(t, func(t *testing.T, ix *index.Index) {
		mustUpsert(t, ix,
			index.Doc{ID: "wtf", Body: "convert WTF16 to go strings"},
			index.Doc{ID: "go", Body: "go is a language; it is in use"},
			index.Doc{ID: "errs", Body: "errors.Is reports whether an error matches"},
			index.Doc{ID: "if", Body: "if it is so, it is in"},
		)
		for _, c := range []struct {
			req  index.Request
			want string
		}{
			{index.Request{Query: "WTF16Go", Mode: index.ModeText}, "wtf"},
			{index.Request{Query: "wtf16go"}, "wtf"},
			{index.Request{Query: "errors.I", Prefix: true, Mode: index.ModeText}, "errs"},
			{index.Request{Query: "errors.I", Prefix: true}, "errs"},
			// A word of minor parts alone is held by any of them.
			{index.Request{Query: "go", Mode: index.ModeText}, "go wtf"},
		} {
			r := search(t, ix, c.req)
			if got := strings.Join(sorted(ids(r)), " "); got != c.want || r.Total != len(r.Hits) {
				t.Errorf("%q %s: %s (total %d), want %s", c.req.Query, c.req.Mode, got, r.Total, c.want)
			}
		}
	})
}

// A query of five words or more gets feedback: the words its best
// document holds rerank the other matches, and match nothing themselves.
func TestFeedback(t *testing.T) {
	backends(t, func(t *testing.T, ix *index.Index) {
		mustUpsert(t, ix,
			index.Doc{ID: "top", Body: "alpha beta gamma delta epsilon zeta theta"},
			index.Doc{ID: "kin", Body: "alpha zeta theta other words here"},
			index.Doc{ID: "short", Body: "alpha kappa"},
			index.Doc{ID: "only-feedback", Body: "zeta theta"},
			index.Doc{ID: "more", Body: "zeta theta and more"},
		)
		r := search(t, ix, index.Request{Query: "alpha beta gamma delta epsilon", Mode: index.ModeText})
		if got := ids(r); !slices.Equal(got, []string{"top", "kin", "short"}) {
			t.Errorf("five words: %v, want kin (which shares zeta and theta with top) before short", got)
		}
		// Four words: no feedback; the shorter document first.
		r = search(t, ix, index.Request{Query: "alpha beta gamma delta", Mode: index.ModeText})
		if got := ids(r); !slices.Equal(got, []string{"top", "short", "kin"}) {
			t.Errorf("four words: %v", got)
		}
		// A raw query keeps its own terms.
		r = search(t, ix, index.Request{Query: "alpha OR beta OR gamma OR delta OR epsilon", Syntax: index.SyntaxRaw, Mode: index.ModeText})
		if got := ids(r); !slices.Equal(got, []string{"top", "short", "kin"}) {
			t.Errorf("raw: %v", got)
		}
	})
}
