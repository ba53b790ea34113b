package index_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/blevesearch/bleve/v2/analysis"

	"github.com/twindex/twindex/index"
	"github.com/twindex/twindex/tokenize"
)

// TestExactRunsAgreeWithPositions checks that a quoted phrase found by
// its text as written (record.Folded.HasRun) gives the hits, order and scores that
// judging every document by its words' positions gives: case that splits
// words (readFile), words inside longer ones (overall), connectors
// (x_all, all-rights), stems (all right), accents and stop words.
func TestExactRunsAgreeWithPositions(t *testing.T) {
	bodies := []string{
		"All rights reserved.", "all rights reserved", "ALL RIGHTS", "overall rights", "x_all rights",
		"all-rights here", "all rightsizing", "overall rights, all good", "the source codes or source", "all right then", "(all rights)", "Copyright: all rights.",
		"ReadFile now", "readfile now", "readFile now", "Readfile Now", "XMLParser now", "xmlparser now",
		"the source code", "Source Code", "sourceCode", "source.code", "it can be found here",
		"Can Be Found", "naïve approach", "Naive approach", "all\nrights", "all  rights",
	}
	queries := []string{
		`"all rights"`, `"All Rights"`, `"ALL rights"`, `"rights reserved"`, `"all right"`,
		`"readfile now"`, `"ReadFile now"`, `"readFile now"`, `"xmlparser now"`, `"XMLParser now"`,
		`"source code"`, `"Source code"`, `"can be found"`, `"naive approach"`, `"all  rights"`,
		`"code" "source"`, `x "all rights"`,
	}
	for _, backend := range []index.Backend{index.Compact, index.UpsideDown, index.Scorch} {
		open := func(analyze bool, cache int) *index.Index {
			ix, err := index.OpenMemory(&index.Options{Backend: backend, CacheBytes: cache})
			if errors.Is(err, index.ErrBackend) {
				return nil // the js/wasm build has compact only
			}
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { ix.Close() })
			if analyze {
				index.AnalyzeRuns(ix)
			}
			for i, b := range bodies {
				mustUpsert(t, ix, index.Doc{ID: fmt.Sprint(i), Title: fmt.Sprintf("doc %d", i), Body: b})
			}
			return ix
		}
		slow := open(true, 0)
		if slow == nil {
			continue
		}
		// With the index's fold cache (case masks) and with none (each
		// search folds into its own, keeping ASCII text as stored).
		for _, cache := range []int{0, -1} {
			fast := open(false, cache)
			for _, q := range queries {
				for _, mode := range []index.Mode{index.ModeText, index.ModeAuto} {
					req := index.Request{Query: q, Mode: mode, Limit: 100}
					a, b := search(t, fast, req), search(t, slow, req)
					if a.Total != b.Total || !slices.Equal(ids(a), ids(b)) {
						t.Errorf("%s cache %d %s %q: %d %v, by positions %d %v", backend, cache, mode, q, a.Total, ids(a), b.Total, ids(b))
						continue
					}
					for i := range a.Hits {
						if a.Hits[i].Score != b.Hits[i].Score || a.Hits[i].Snippet != b.Hits[i].Snippet {
							t.Errorf("%s cache %d %s %q: hit %s scores %v %q, by positions %v %q", backend, cache, mode, q, a.Hits[i].ID, a.Hits[i].Score, a.Hits[i].Snippet, b.Hits[i].Score, b.Hits[i].Snippet)
						}
					}
				}
			}
		}
	}
}

// TestInitialAgreesWithPositions checks that ^, judged in the first
// words of a field (docRuns.atStart), gives the hits, order and scores
// that the positions of the whole field give: fields that open with
// separators, a symbol, a number, an identifier that splits, a stop word,
// or hold the phrase later than their start, long after.
func TestInitialAgreesWithPositions(t *testing.T) {
	filler := strings.Repeat(" w1q w2q w3q w4q w5q", 200)
	bodies := []string{
		"package main" + filler, "\n\n  // Package main" + filler, "packageMain x" + filler, "Package_main" + filler,
		filler + " package main", "the file is here" + filler, "(the) file" + filler, "...   The   FILE", "é package main" + filler,
		"→ package main" + filler, "12 package main", "main package" + filler, "package" + filler + " main", "Copyright 2024" + filler,
		"copyright", "the" + filler + " file",
	}
	queries := []string{`^package`, `^"package main"`, `^"the file"`, `^main`, `^copyright`, `^"w1q w2q"`, `title:^doc`, `^"12 package"`, `^file`}
	backends(t, func(t *testing.T, fast *index.Index) {
		slow, err := index.OpenMemory(&index.Options{Backend: index.Compact})
		if err != nil {
			t.Fatal(err)
		}
		defer slow.Close()
		index.AnalyzeRuns(slow)
		for i, b := range bodies {
			d := index.Doc{ID: fmt.Sprint(i), Title: fmt.Sprintf("doc %d", i), Body: b}
			mustUpsert(t, fast, d)
			mustUpsert(t, slow, d)
		}
		for _, q := range queries {
			req := index.Request{Query: q, Syntax: index.SyntaxRaw, Mode: index.ModeText, Limit: 100}
			a, b := search(t, fast, req), search(t, slow, req)
			if a.Total != b.Total || !slices.Equal(ids(a), ids(b)) {
				t.Errorf("%s: %d %v, by positions %d %v", q, a.Total, ids(a), b.Total, ids(b))
			}
		}
	})
}

// TestPhrasesMatchPositions checks the quoted phrases of many documents,
// judged on several goroutines, against positions read from the text
// analyzer's tokens: words split from identifiers (forRange), stems
// (ranges), stop words between, words as written and not, with a kind
// filter and without.
func TestPhrasesMatchPositions(t *testing.T) {
	vocab := strings.Fields("for range ranges Range v V values forRange rangeV x_for the a for.range range_v 1 fors")
	rng := rand.New(rand.NewPCG(7, 9))
	var docs []index.Doc
	for i := range 600 {
		words := make([]string, 5+rng.IntN(20))
		for j := range words {
			words[j] = vocab[rng.IntN(len(vocab))]
		}
		docs = append(docs, index.Doc{ID: fmt.Sprint(i), Kind: []string{"a", "b"}[i%2], Title: vocab[rng.IntN(len(vocab))], Body: strings.Join(words, " ")})
	}
	holds := func(d index.Doc, phrase string, kinds []string) bool {
		return (kinds == nil || slices.Contains(kinds, d.Kind)) && holdsPhrase(d, phrase)
	}
	for _, backend := range []index.Backend{index.Compact, index.UpsideDown, index.Scorch} {
		ix, err := index.OpenMemory(&index.Options{Backend: backend, Workers: 4})
		if errors.Is(err, index.ErrBackend) {
			continue // the js/wasm build has compact only
		}
		if err != nil {
			t.Fatal(err)
		}
		defer ix.Close()
		mustUpsert(t, ix, docs...)
		for _, phrase := range []string{"for range v", "range v", "for ranges", "range values", "v for"} {
			for _, kinds := range [][]string{nil, {"b"}} {
				var want []string
				for _, d := range docs {
					if holds(d, phrase, kinds) {
						want = append(want, d.ID)
					}
				}
				var got []string
				total := 0
				for offset := 0; offset == 0 || offset < total; offset += index.MaxLimit {
					r := search(t, ix, index.Request{Query: `"` + phrase + `"`, Mode: index.ModeText, Kinds: kinds, Limit: index.MaxLimit, Offset: offset})
					got, total = append(got, ids(r)...), r.Total
				}
				if total != len(want) || !slices.Equal(sorted(got), sorted(want)) {
					t.Errorf("%s %q kinds %v: %d hits, positions say %d; only in hits %v, only by positions %v",
						backend, phrase, kinds, total, len(want), minus(got, want), minus(want, got))
				}
				if len(want) < 20 || len(want) > len(docs)-20 {
					t.Errorf("%s %q kinds %v: %d of %d documents hold it: the test needs both kinds", backend, phrase, kinds, len(want), len(docs))
				}
			}
		}
	}
}

// TestLongPhrasesMatchPositions is TestPhrasesMatchPositions on long
// documents, whose phrases are judged in windows around the places where
// a word's term prefix occurs (docRuns.inWindows) rather than by
// analyzing them whole: stems (packaged, possibility, dying), identifiers
// that split (packageMain, typeT, (t *T)), words with an inner capital
// that fold to the phrase (packAge main: no run as written), connectors,
// stop words between, and fields that fold other than plainly (café); in
// the simple syntax and in the raw one, whose strict plan judges phrases
// apart, and in auto mode, whose text leg takes the runs the substring
// leg found as written.
func TestLongPhrasesMatchPositions(t *testing.T) {
	// Each document is long runs of filler with a few of these forms in
	// it, so that it holds a phrase in one form, or in none.
	forms := []string{
		"package main", "Packaged MAIN", "packages main", "packageMain", "packAge main", "tyPe t", "poiNt p", "package_main", "pkg.Package.main", "package the main", "XMLPackage main", "Pâckage main", "Ünïcode pâckages main",
		"main package", "main x package", "package p", "package, P", "package--p", "PackageP",
		"type t", "types T", "typeT", "(t *T) type", "type, t", "type--t", "type_t", "t. Type", "ÉTÉ type t",
		"point p", "points P", "pointP", "p.point", "point of p", "IDPoint p",
		"possibility dying", "possibly dying", "possible lie", "possibilities lying", "possible, die",
		"main of possible", "main of the possible", "mains in possibility", "main possible",
		"package main type", "package main types", "package main, Type", "package main x type",
	}
	var docs []index.Doc
	rng := rand.New(rand.NewPCG(11, 13))
	for i := range 400 {
		words := make([]string, 60+rng.IntN(300))
		for j := range words {
			words[j] = fmt.Sprintf("w%dq", rng.IntN(500))
		}
		for range 1 + rng.IntN(4) {
			words[rng.IntN(len(words))] = forms[rng.IntN(len(forms))]
		}
		if i%10 == 0 {
			words[rng.IntN(len(words))] = "café" // not folded plainly: analyzed whole
		}
		docs = append(docs, index.Doc{ID: fmt.Sprint(i), Kind: []string{"a", "b"}[i%2], Title: forms[rng.IntN(len(forms))], Body: strings.Join(words, " ")})
	}
	check := func(t *testing.T, ix *index.Index) {
		mustUpsert(t, ix, docs...)
		for _, phrase := range []string{"package main", "main package", "package p", "type t", "t type", "point p", "p point",
			"possibility dying", "possible lie", "packaged main", "package main type", "main of possible",
			"main of the possible", "of possible", "package the"} {
			want := holders(docs, phrase)
			for _, syntax := range []index.Syntax{index.SyntaxSimple, index.SyntaxRaw} {
				var got []string
				total := 0
				for offset := 0; offset == 0 || offset < total; offset += index.MaxLimit {
					r := search(t, ix, index.Request{Query: `"` + phrase + `"`, Syntax: syntax, Mode: index.ModeText, Limit: index.MaxLimit, Offset: offset})
					got, total = append(got, ids(r)...), r.Total
				}
				if total != len(want) || !slices.Equal(sorted(got), sorted(want)) {
					t.Errorf("%s %q: %d hits, positions say %d; only in hits %v, only by positions %v",
						syntax, phrase, total, len(want), minus(got, want), minus(want, got))
				}
			}
			// In auto mode the text leg takes a document as holding the
			// phrase when the substring leg found it there as written
			// (search.runs), and judges the others itself.
			var byText []string
			total := 0
			for offset := 0; offset == 0 || offset < total; offset += index.MaxLimit {
				r := search(t, ix, index.Request{Query: `"` + phrase + `"`, Mode: index.ModeAuto, Limit: index.MaxLimit, Offset: offset, Fallback: -1})
				for _, h := range r.Hits {
					if slices.Contains(h.MatchedIn, index.LegText) {
						byText = append(byText, h.ID)
					}
				}
				total = r.Total
			}
			if !slices.Equal(sorted(byText), sorted(want)) {
				t.Errorf("auto %q: %d hits of the text leg, positions say %d; only in hits %v, only by positions %v",
					phrase, len(byText), len(want), minus(byText, want), minus(want, byText))
			}
			if len(want) < 10 || len(want) > len(docs)-10 {
				t.Errorf("%q: %d of %d documents hold it: the test needs both kinds", phrase, len(want), len(docs))
			}
		}
	}
	backends(t, check)
	// With no fold cache, each search folds into its own, which keeps an
	// ASCII field's text in place of its case masks.
	t.Run("no cache", func(t *testing.T) {
		ix, err := index.OpenMemory(&index.Options{CacheBytes: -1})
		if err != nil {
			t.Fatal(err)
		}
		defer ix.Close()
		check(t, ix)
	})
}

// holders returns the IDs of the documents of docs that hold phrase
// (holdsPhrase), in their order.
func holders(docs []index.Doc, phrase string) []string {
	var out []string
	for _, d := range docs {
		if holdsPhrase(d, phrase) {
			out = append(out, d.ID)
		}
	}
	return out
}

// holdsPhrase reports whether the title or body of d holds the
// phrase, by the positions of the text analyzer's tokens and of the stop
// words it drops: its words' terms, and its stop words where no term is,
// at the positions they have in the phrase.
func holdsPhrase(d index.Doc, phrase string) bool {
	text := tokenize.NewText()
	want := text.Analyze([]byte(phrase))
	for _, st := range text.Stops([]byte(phrase)) {
		if !slices.ContainsFunc(want, func(tok *analysis.Token) bool { return tok.Position == st.Position }) {
			want = append(want, st)
		}
	}
	slices.SortStableFunc(want, func(a, b *analysis.Token) int { return a.Position - b.Position })
	for _, field := range []string{d.Title, d.Body} {
		at := map[int][]string{}
		for _, tok := range append(text.Analyze([]byte(field)), text.Stops([]byte(field))...) {
			at[tok.Position] = append(at[tok.Position], string(tok.Term))
		}
		for p := range at {
			ok := true
			for _, w := range want {
				ok = ok && slices.Contains(at[p+w.Position-want[0].Position], string(w.Term))
			}
			if ok {
				return true
			}
		}
	}
	return false
}

// minus returns the elements of a that b lacks.
func minus(a, b []string) []string {
	var out []string
	for _, x := range a {
		if !slices.Contains(b, x) {
			out = append(out, x)
		}
	}
	return out
}

// TestPhraseStopWords checks that a quoted phrase's stop words, which the
// text index does not hold, are required where the phrase has them ("of
// the file" is not "file", "to be or not to be" is not "not"), in both
// syntaxes and on every backend, and that the snippet marks the phrase
// with them.
func TestPhraseStopWords(t *testing.T) {
	docs := []index.Doc{
		{ID: "a", Body: "close of the file now; a file"},
		{ID: "b", Body: "close the file"},
		{ID: "c", Body: "file of a file"},
		{ID: "d", Body: "whether to be or not to be"},
		{ID: "e", Body: "not to see or not to be"},
		{ID: "f", Body: "the_file is kept whole"},
	}
	backends(t, func(t *testing.T, ix *index.Index) {
		mustUpsert(t, ix, docs...)
		for _, c := range []struct {
			phrase string
			want   []string
		}{
			{"of the file", []string{"a"}},
			{"the file", []string{"a", "b", "f"}},
			{"of a file", []string{"c"}},
			{"file of", []string{"c"}},
			{"to be or not to be", []string{"d"}},
			{"not to be", []string{"d", "e"}},
			{"or not to", []string{"d", "e"}},
			{"see or not", []string{"e"}},
		} {
			for _, syntax := range []index.Syntax{index.SyntaxSimple, index.SyntaxRaw} {
				r := search(t, ix, index.Request{Query: `"` + c.phrase + `"`, Syntax: syntax, Mode: index.ModeText, MarkStart: "[", MarkEnd: "]"})
				if got := sorted(ids(r)); !slices.Equal(got, c.want) {
					t.Errorf("%s %q: %v, want %v", syntax, c.phrase, got, c.want)
				}
			}
		}
		// A phrase of stop words alone restricts what the other words
		// match; alone, it matches nothing in text mode.
		for q, want := range map[string][]string{`"of the" file`: {"a"}, `"the" file`: {"a", "b", "f"}, `"in the"`: {}, `file "to be"`: {}} {
			r := search(t, ix, index.Request{Query: q, Mode: index.ModeText})
			if got := sorted(ids(r)); !slices.Equal(got, want) {
				t.Errorf("%s: %v, want %v", q, got, want)
			}
		}
		for q, want := range map[string][]string{`"of the" AND file`: {"a"}, `"to be" AND "not"`: {"d", "e"}, `"to be" AND close`: {}} {
			r := search(t, ix, index.Request{Query: q, Syntax: index.SyntaxRaw, Mode: index.ModeText})
			if got := sorted(ids(r)); !slices.Equal(got, want) {
				t.Errorf("raw %s: %v, want %v", q, got, want)
			}
		}
		// ^ holds the phrase's first word, a stop word, to the field's start.
		for q, want := range map[string][]string{`^"the file"`: {"f"}, `^"close the"`: {"b"}, `^"file of"`: {"c"}} {
			r := search(t, ix, index.Request{Query: q, Syntax: index.SyntaxRaw, Mode: index.ModeText})
			if got := sorted(ids(r)); !slices.Equal(got, want) {
				t.Errorf("raw %s: %v, want %v", q, got, want)
			}
		}
		r := search(t, ix, index.Request{Query: `"of the file"`, Mode: index.ModeText, MarkStart: "[", MarkEnd: "]"})
		if len(r.Hits) != 1 || !strings.Contains(r.Hits[0].Snippet, "close [of the file] now") {
			t.Errorf(`"of the file": hits %+v, want one whose snippet marks the phrase whole`, r.Hits)
		}
	})
}
