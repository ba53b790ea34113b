package window_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/blevesearch/bleve/v2/analysis"

	"github.com/twindex/twindex/index/internal/window"
	"github.com/twindex/twindex/tokenize"
)

// TestFind pins the windows of a phrase: the word with the longest
// prefixes is looked for, only where a token can start, with as many
// words around it as the phrase has; overlapping windows join.
func TestFind(t *testing.T) {
	text := tokenize.NewText()
	// "for range v": the prefixes of "rang" (ran) are the longest.
	st := window.New(text, []window.Word{{Rel: 0, Terms: []string{"for"}}, {Rel: 1, Terms: []string{"rang"}}, {Rel: 2, Terms: []string{"v"}}})
	if st == nil {
		t.Fatal("no starts")
	}
	// Padded: windows that hold half the text are not worth finding.
	s := strings.Repeat("q ", 40) + "x for range v y; errant w forRange v z; for ranges va b c d for range"
	folded, offsets := tokenize.FoldMap(s)
	got, ok := st.Find(s, folded, offsets)
	// "errant" holds "ran" where no token starts; the last "for range"
	// has no word after it that a "v" starts, so its window is dropped.
	want := [][2]int{{82, 93}, {104, 116}, {120, 133}} // "for range v", "w forRange v", "for ranges va"
	if !ok || !slices.Equal(got, want) {
		t.Fatalf("Find = %v %v, want %v", got, ok, want)
	}
	folded, _, upper, _ := tokenize.FoldCase([]byte(s))
	if plain, ok := st.FindPlain(folded, upper); !ok || !slices.Equal(plain, want) {
		t.Fatalf("FindPlain = %v %v, want %v", plain, ok, want)
	}
	dense := strings.Repeat("for range v x y z ", 40)
	if _, ok := st.Find(dense, dense, nil); ok {
		t.Error("Find found windows that hold most of the text")
	}
	dense = strings.Repeat("forRange v ", 40)
	if _, ok := st.Find(dense, strings.ToLower(dense), nil); ok {
		t.Error("Find found windows where the prefix starts every eleven bytes")
	}
	// Where no "for" comes before a "range" nor a "v" after, no window
	// can hold the phrase: none, and no analysis of the text.
	dense = strings.Repeat("Range ", 40)
	if got, ok := st.Find(dense, strings.ToLower(dense), nil); !ok || len(got) != 0 {
		t.Errorf("Find = %v %v in a text without the other words, want none", got, ok)
	}
	if st := window.New(text, []window.Word{{Rel: 0, Terms: []string{"t"}}, {Rel: 1, Terms: []string{"x"}}}); st != nil {
		t.Error("starts for words of one letter")
	}
	fr, _ := tokenize.NewTextLang("fr")
	if st := window.New(fr, []window.Word{{Rel: 0, Terms: []string{"maison"}}, {Rel: 1, Terms: []string{"blanch"}}}); st != nil {
		t.Error("starts in a language whose prefixes it cannot tell")
	}
}

func TestMerge(t *testing.T) {
	got := window.Merge([][2]int{{10, 20}, {0, 5}, {5, 8}, {15, 30}, {40, 41}})
	if want := [][2]int{{0, 8}, {10, 30}, {40, 41}}; !slices.Equal(got, want) {
		t.Fatalf("Merge = %v, want %v", got, want)
	}
}

// FuzzFind checks the claim the package rests on: a phrase occurs in a
// text as often in its windows, analyzed alone, as in the whole text
// analyzed, and FindPlain finds what Find finds where folding only
// lowered letters.
func FuzzFind(f *testing.F) {
	f.Add("x package main y; packageMain, Package_main", "package main")
	f.Add("the typeT type t (t *T) type, t", "type t")
	f.Add("for ranges v. for-range V forRangeV", "for range v")
	f.Add("Pâckage main; ÉTÉ type t; possibility dying", "possibility dying")
	f.Add("a\u0301b main x; XMLPackage main", "package main")
	f.Add("a int; A  Int, aInt x_int a_int; a→int", "a int")
	filler := strings.Repeat("w1q w2q w3q w4q w5q w6q w7q w8q ", 8)
	f.Add(filler+"a→int "+filler+"x_int "+filler+"A_Int "+filler+"ba int", "a int")
	f.Add("but not; butNot; But, not; nbut not", "but not")
	f.Add("of the file; Of The File; ofthe file", "of the file")
	text := tokenize.NewText()
	f.Fuzz(func(t *testing.T, s, phrase string) {
		// The phrase's tokens and, where no token is, its stop words.
		toks := text.Analyze([]byte(phrase))
		for _, st := range text.Stops([]byte(phrase)) {
			if !slices.ContainsFunc(toks, func(tok *analysis.Token) bool { return tok.Position == st.Position }) {
				toks = append(toks, st)
			}
		}
		slices.SortStableFunc(toks, func(a, b *analysis.Token) int { return a.Position - b.Position })
		if len(toks) < 2 || len(toks) > 4 {
			return
		}
		stop := map[*analysis.Token]bool{}
		for _, st := range text.Stops([]byte(phrase)) {
			for _, tok := range toks {
				if tok.Position == st.Position && string(tok.Term) == string(st.Term) && tok.Start == st.Start {
					stop[tok] = true
				}
			}
		}
		var words []window.Word
		var terms []string
		for _, tok := range toks {
			words = append(words, window.Word{Rel: tok.Position - toks[0].Position, Terms: []string{string(tok.Term)}, Stop: stop[tok]})
			terms = append(terms, string(tok.Term))
		}
		st := window.New(text, words)
		if st == nil {
			return
		}
		folded, offsets := tokenize.FoldMap(s)
		spans, ok := st.Find(s, folded, offsets)
		if !ok {
			return
		}
		occurrences := func(lists [][]int) int {
			n := 0
			for _, p := range lists[0] {
				all := true
				for i, w := range words[1:] {
					all = all && slices.Contains(lists[i+1], p+w.Rel)
				}
				if all {
					n++
				}
			}
			return n
		}
		whole := occurrences(text.Positions([]byte(s), terms))
		inWindows := occurrences(text.PositionsIn(s, spans, terms))
		if whole != inWindows {
			t.Fatalf("%q in %q: %d occurrences, %d in the windows %v", phrase, s, whole, inWindows, spans)
		}
		if plainFolded, _, upper, changed := tokenize.FoldCase([]byte(s)); changed == nil {
			plain, ok := st.FindPlain(plainFolded, upper)
			if !ok || !slices.Equal(plain, spans) {
				t.Fatalf("%q in %q: FindPlain %v %v, Find %v", phrase, s, plain, ok, spans)
			}
		}
	})
}
