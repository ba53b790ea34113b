package tokenize_test

import (
	"bytes"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/analysis"
	bleveindex "github.com/blevesearch/bleve_index_api"
	"github.com/kljensen/snowball/english"

	"github.com/twindex/twindex/tokenize"
)

// nastySeeds are inputs that have broken tokenizers before.
var nastySeeds = []string{
	"",
	"a",
	"\x00",
	"ab\x00cd",
	"\xff\xfe\xfd",
	"abc\xc3",
	"\xe6\x97",
	"héllo\x80wörld",
	// A 1 MB token makes the fuzzer crawl; TestHugeInputs covers that size.
	strings.Repeat("a", 16<<10),
	strings.Repeat("aB", 1<<8),
	strings.Repeat("a_", 1<<8),
	"a" + strings.Repeat("\u0301", 1000),
	strings.Repeat("\u0301", 100),
	"\u200fשלום עולם\u200e abc",
	"مرحبا\u200fبالعالم",
	"👩‍👩‍👧‍👦 family 🏳️‍🌈",
	"e\u0301X\u0327",
	"東京都\u3099カ\u3099",
	"İstanbul ǅemal K Å ẞ",
	"XMLHttpRequest2Go IDs URLsFor",
	"...---___",
	"a.-_b",
	"\ufffd\ufffd\ufffd",
}

// isBoundaries marks the rune boundaries of in, counting each invalid byte
// as one rune.
func runeBoundaries(in []byte) []bool {
	b := make([]bool, len(in)+1)
	for i := 0; i < len(in); {
		b[i] = true
		_, size := utf8.DecodeRune(in[i:])
		i += size
	}
	b[len(in)] = true
	return b
}

// checkTextStream checks the invariants of a Text token stream: exact
// offsets on rune boundaries, terms that are the folded (and, for plain
// English words, stemmed) text they cover, bounded length, ordered
// positions.
func checkTextStream(t *testing.T, in []byte, ts analysis.TokenStream) {
	t.Helper()
	checkOffsets(t, in, ts)
	for i, tok := range ts {
		want := tokenize.Fold(string(in[tok.Start:tok.End]))
		if stemmable(want) {
			want = english.Stem(want, false)
		}
		if string(tok.Term) != want {
			t.Fatalf("token %d: term %q, want %q from input %q", i, tok.Term, want, in[tok.Start:tok.End])
		}
	}
}

// checkOffsets checks what holds for the tokens of Text in every
// language: exact offsets on rune boundaries, valid terms of bounded
// length, ordered positions.
func checkOffsets(t *testing.T, in []byte, ts analysis.TokenStream) {
	t.Helper()
	bounds := runeBoundaries(in)
	prevPos := 1
	for i, tok := range ts {
		if tok.Start < 0 || tok.End > len(in) || tok.Start >= tok.End {
			t.Fatalf("token %d %q: offsets [%d:%d] out of range 0..%d", i, tok.Term, tok.Start, tok.End, len(in))
		}
		if !bounds[tok.Start] || !bounds[tok.End] {
			t.Fatalf("token %d %q: offsets [%d:%d] not on rune boundaries", i, tok.Term, tok.Start, tok.End)
		}
		if len(tok.Term) == 0 || len(tok.Term) > tokenize.MaxTermLen || !utf8.Valid(tok.Term) {
			t.Fatalf("token %d: bad term %q", i, tok.Term)
		}
		if tok.Position < prevPos {
			t.Fatalf("token %d %q: position %d after %d", i, tok.Term, tok.Position, prevPos)
		}
		prevPos = tok.Position
	}
}

func stemmable(s string) bool {
	if len(s) <= 3 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < 'a' || s[i] > 'z' {
			return false
		}
	}
	return true
}

// checkTrigramStream checks that every trigram is three folded runes and
// that folding the input it covers gives back its term.
func checkTrigramStream(t *testing.T, in []byte, ts analysis.TokenStream) {
	t.Helper()
	bounds := runeBoundaries(in)
	for i, tok := range ts {
		if tok.Start < 0 || tok.End > len(in) || tok.Start >= tok.End {
			t.Fatalf("gram %d %q: offsets [%d:%d] out of range 0..%d", i, tok.Term, tok.Start, tok.End, len(in))
		}
		if !bounds[tok.Start] || !bounds[tok.End] {
			t.Fatalf("gram %d %q: offsets [%d:%d] not on rune boundaries", i, tok.Term, tok.Start, tok.End)
		}
		if tok.Position != i+1 {
			t.Fatalf("gram %d %q: position %d", i, tok.Term, tok.Position)
		}
		if n := utf8.RuneCount(tok.Term); !utf8.Valid(tok.Term) || n < 1 || n > 3 {
			t.Fatalf("gram %d: term %q is not one to three runes", i, tok.Term)
		}
		if f := tokenize.Fold(string(in[tok.Start:tok.End])); f != string(tok.Term) {
			t.Fatalf("gram %d: term %q, but input %q folds to %q", i, tok.Term, in[tok.Start:tok.End], f)
		}
	}
	folded := tokenize.Fold(string(in))
	n := utf8.RuneCountInString(folded)
	if want := max(n, 0) + max(n-1, 0) + max(n-2, 0); len(ts) != want {
		t.Fatalf("%d grams, want %d for %d folded runes", len(ts), want, n)
	}
}

// checkFold checks Fold and FoldMap against each other.
func checkFold(t *testing.T, s string) {
	t.Helper()
	folded := tokenize.Fold(s)
	if !utf8.ValidString(folded) {
		t.Fatalf("Fold(%q) = %q: invalid UTF-8", s, folded)
	}
	if tokenize.Fold(folded) != folded {
		t.Fatalf("Fold not idempotent on %q: %q then %q", s, folded, tokenize.Fold(folded))
	}
	if n := tokenize.FoldLen(s); n != len(folded) {
		t.Fatalf("FoldLen(%q) = %d, want %d", s, n, len(folded))
	}
	if n, m := utf8.RuneCountInString(folded), utf8.RuneCountInString(s); n > m {
		t.Fatalf("Fold(%q) has %d runes, more than the input's %d", s, n, m)
	}
	fm, offsets := tokenize.FoldMap(s)
	if fm != folded {
		t.Fatalf("FoldMap(%q) = %q, Fold = %q", s, fm, folded)
	}
	if offsets == nil {
		if len(folded) != len(s) {
			t.Fatalf("FoldMap(%q): nil offsets but lengths %d and %d", s, len(folded), len(s))
		}
		return
	}
	if len(offsets) != len(folded)+1 || offsets[len(folded)] != len(s) {
		t.Fatalf("FoldMap(%q): %d offsets ending %d, want %d ending %d", s, len(offsets), offsets[len(offsets)-1], len(folded)+1, len(s))
	}
	bounds := runeBoundaries([]byte(s))
	for i := 0; i < len(folded); {
		_, size := utf8.DecodeRuneInString(folded[i:])
		o := offsets[i]
		if o < 0 || o >= len(s) || !bounds[o] {
			t.Fatalf("FoldMap(%q): offsets[%d] = %d not a rune start", s, i, o)
		}
		for j := i; j < i+size; j++ {
			if offsets[j] != o {
				t.Fatalf("FoldMap(%q): bytes of one folded rune map to %d and %d", s, o, offsets[j])
			}
		}
		if i > 0 && o <= offsets[i-1] {
			t.Fatalf("FoldMap(%q): offsets not increasing at %d", s, i)
		}
		r, _ := utf8.DecodeRuneInString(folded[i:])
		_, srcSize := utf8.DecodeRuneInString(s[o:])
		if f := tokenize.Fold(s[o : o+srcSize]); f != string(r) {
			t.Fatalf("FoldMap(%q): folded rune %q maps to %q which folds to %q", s, r, s[o:o+srcSize], f)
		}
		i += size
	}
}

func addSeeds(f *testing.F) {
	for _, s := range nastySeeds {
		f.Add([]byte(s))
	}
	f.Add([]byte("getUserById parses XMLParser for bufio.Scanner"))
	f.Add([]byte("OAuth flow Straße Über ÉCOLE café"))
}

func FuzzText(f *testing.F) {
	addSeeds(f)
	text := tokenize.NewText()
	f.Fuzz(func(t *testing.T, in []byte) {
		checkTextStream(t, in, text.Analyze(in))
		checkFrequencies(t, text, in)
		checkWords(t, text, in)
		checkPositions(t, text, in)
		checkAdjacent(t, text, in)
		checkWindows(t, text, in)
	})
}

// checkWindows checks, for the tokens of in (the first 64), that the
// folded word of each starts with TermPrefix of its term where MayStart
// allows a token, and that
// RunWindow around a token's start, analyzed alone, holds the tokens
// near it with the positions Analyze gives them less one constant.
func checkWindows(t *testing.T, text *tokenize.Text, in []byte) {
	t.Helper()
	toks := text.Analyze(in)
	for i, tok := range toks[:min(len(toks), 64)] {
		if prefix, ok := text.TermPrefix(string(tok.Term)); ok && !strings.HasPrefix(tokenize.Fold(string(in[tok.Start:tok.End])), prefix) {
			t.Fatalf("%q: the word %q of term %q does not start with its TermPrefix %q", in, in[tok.Start:tok.End], tok.Term, prefix)
		}
		if tok.Start > 0 && !tokenize.MayStart(in[tok.Start-1], in[tok.Start]) {
			t.Fatalf("%q: %q starts at %d, where MayStart says no token can", in, tok.Term, tok.Start)
		}
		before, after := i%3, i/3%3
		lo, hi := tokenize.RunWindow(string(in), tok.Start, before, after)
		shift := 0
		for _, w := range text.Analyze(in[lo:hi]) {
			if w.Start+lo == tok.Start && string(w.Term) == string(tok.Term) {
				shift = tok.Position - w.Position
			}
		}
		at := map[[2]int]string{}
		for _, w := range text.Analyze(in[lo:hi]) {
			at[[2]int{w.Start + lo, w.Position + shift}] += string(w.Term) + " "
		}
		for _, g := range toks {
			inside := lo <= g.Start && g.End <= hi
			if g.Position >= tok.Position-before && g.Position <= tok.Position+after && !inside {
				t.Fatalf("%q: RunWindow(%d, %d, %d) = [%d, %d) leaves out %q at position %d, near %q at %d", in, tok.Start, before, after, lo, hi, g.Term, g.Position, tok.Term, tok.Position)
			}
			if inside && !strings.Contains(at[[2]int{g.Start, g.Position}], string(g.Term)+" ") {
				t.Fatalf("%q: the window [%d, %d) does not read %q at offset %d as position %d", in, lo, hi, g.Term, g.Start, g.Position)
			}
		}
	}
}

// checkPositions checks that Positions finds each term where Analyze
// puts it, and each stop word where Stops puts it: asked for every other
// term of the text (so that words whose stems could match are passed
// over as well as read) and for terms the text lacks.
func checkPositions(t *testing.T, text *tokenize.Text, in []byte) {
	t.Helper()
	all := map[string][]int{}
	var order []string
	for _, tok := range append(text.Analyze(in), text.Stops(in)...) {
		term := string(tok.Term)
		if _, ok := all[term]; !ok {
			order = append(order, term)
		}
		all[term] = append(all[term], tok.Position)
	}
	for _, l := range all {
		slices.Sort(l)
	}
	var terms []string
	for i, term := range order {
		if i%2 == 0 {
			terms = append(terms, term)
		} else if len(term) > 1 {
			terms = append(terms, term[:len(term)-1]) // a shorter term: passes the stem filter
		}
	}
	terms = append(terms, "", "zzzznotthere")
	got := text.Positions(in, terms)
	if len(got) != len(terms) {
		t.Fatalf("Positions(%q): %d lists for %d terms", in, len(got), len(terms))
	}
	for i, term := range terms {
		if !slices.Equal(got[i], all[term]) {
			t.Fatalf("Positions(%q)[%q] = %v, Analyze puts it at %v", in, term, got[i], all[term])
		}
	}
}

// checkWords checks that Count's words are the spellings of the tokens
// whose terms differ from their folded spellings (folded in English,
// lowercased in the other languages), each with frequency 1, and that
// Term maps each back to its term; and that Count counts as Frequencies.
func checkWords(t *testing.T, text *tokenize.Text, in []byte) {
	t.Helper()
	want := map[string]string{}
	for _, tok := range text.Analyze(in) {
		word := string(in[tok.Start:tok.End])
		folded := tokenize.Fold(word)
		if folded == string(tok.Term) {
			continue
		}
		if word = strings.ToLower(word); text.Lang() == tokenize.English {
			word = folded
		}
		if len(word) <= tokenize.MaxTermLen {
			want[word] = string(tok.Term)
		}
	}
	words := bleveindex.TokenFrequencies{}
	got, n := text.Count(in, words, nil)
	freqs, m := text.Frequencies(in)
	if n != m || len(got) != len(freqs) {
		t.Fatalf("Count(%q): %d tokens, %d terms; Frequencies: %d, %d", in, n, len(got), m, len(freqs))
	}
	if len(words) != len(want) {
		t.Fatalf("Count(%q): words %v, want the spellings of %v", in, words, want)
	}
	for w, term := range want {
		if tf := words[w]; tf == nil || tf.Frequency() != 1 {
			t.Fatalf("Count(%q): word %q: %+v", in, w, tf)
		}
		if got, ok := text.Term(w); !ok || got != term {
			t.Fatalf("Term(%q) = %q, %v; want %q", w, got, ok, term)
		}
	}
}

func FuzzTrigram(f *testing.F) {
	addSeeds(f)
	tri := tokenize.NewTrigram()
	f.Fuzz(func(t *testing.T, in []byte) {
		checkTrigramStream(t, in, tri.Analyze(in))
		checkFrequencies(t, tri, in)
		checkVisit(t, tri, in)
		grams := tokenize.Grams(string(in))
		seen := make(map[string]bool, len(grams))
		for _, g := range grams {
			if seen[g] {
				t.Fatalf("Grams: duplicate %q", g)
			}
			seen[g] = true
		}
	})
}

func FuzzFold(f *testing.F) {
	for _, s := range nastySeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkFold(t, s)
	})
}

// checkFrequencies checks that an analyzer's Frequencies gives what
// bleve's TokenFrequency makes of its token stream, which it stands in for
// when documents are indexed.
func checkFrequencies(t *testing.T, a interface {
	Analyze([]byte) analysis.TokenStream
	Frequencies([]byte) (bleveindex.TokenFrequencies, int)
}, in []byte) {
	t.Helper()
	ts := a.Analyze(in)
	want := analysis.TokenFrequency(ts, nil, bleveindex.IndexField)
	got, n := a.Frequencies(in)
	if n != len(ts) {
		t.Fatalf("Frequencies(%q): %d tokens, Analyze gives %d", in, n, len(ts))
	}
	if len(got) != len(want) {
		t.Fatalf("Frequencies(%q): %d distinct terms, want %d", in, len(got), len(want))
	}
	for term, w := range want {
		g := got[term]
		if g == nil || string(g.Term) != term || g.Frequency() != w.Frequency() {
			t.Fatalf("Frequencies(%q)[%q] = %+v, want frequency %d", in, term, g, w.Frequency())
		}
	}
}

// checkVisit checks that VisitFrequencies gives what Frequencies does,
// each term once.
func checkVisit(t *testing.T, tri *tokenize.Trigram, in []byte) {
	t.Helper()
	want, wantN := tri.Frequencies(in)
	got := map[string]int{}
	n := tri.VisitFrequencies(in, func(gram []byte, freq int) {
		if _, dup := got[string(gram)]; dup {
			t.Fatalf("VisitFrequencies(%q): %q twice", in, gram)
		}
		got[string(gram)] = freq
	})
	if n != wantN || len(got) != len(want) {
		t.Fatalf("VisitFrequencies(%q): %d tokens, %d terms; Frequencies: %d, %d", in, n, len(got), wantN, len(want))
	}
	for term, w := range want {
		if got[term] != w.Frequency() {
			t.Fatalf("VisitFrequencies(%q)[%q] = %d, want %d", in, term, got[term], w.Frequency())
		}
	}
}

// checkAdjacent checks that Count's Adjacent holds the pairs of terms
// Analyze and Stops put at consecutive positions; that a text
// cut at a newline and counted in two with Continue has the pairs of the
// whole; and that two texts counted without it have each one's alone.
func checkAdjacent(t *testing.T, text *tokenize.Text, in []byte) {
	t.Helper()
	want := adjacentPairs(text, in)
	var adj tokenize.Adjacent
	text.Count(in, nil, &adj)
	if got := distinct(adj.Pairs()); !slices.Equal(got, want) {
		t.Fatalf("Count(%q): %d adjacent pairs, Analyze and Stops give %d", in, len(got), len(want))
	}
	cut := bytes.IndexByte(in, '\n') + 1
	if cut == 0 {
		return
	}
	var joined tokenize.Adjacent
	text.Count(in[:cut], nil, &joined)
	joined.Continue()
	text.Count(in[cut:], nil, &joined)
	if got := distinct(joined.Pairs()); !slices.Equal(got, want) {
		t.Fatalf("%q cut after %d and continued: %d adjacent pairs, the whole has %d", in, cut, len(got), len(want))
	}
	var apart tokenize.Adjacent
	text.Count(in[:cut], nil, &apart)
	text.Count(in[cut:], nil, &apart)
	want = append(adjacentPairs(text, in[:cut]), adjacentPairs(text, in[cut:])...)
	slices.Sort(want)
	if got := distinct(apart.Pairs()); !slices.Equal(got, slices.Compact(want)) {
		t.Fatalf("%q cut after %d: %d adjacent pairs, its two texts have %d", in, cut, len(got), len(want))
	}
}

// distinct returns hashes sorted, each once.
func distinct(hashes []uint64) []uint64 {
	hashes = slices.Clone(hashes)
	slices.Sort(hashes)
	return slices.Compact(hashes)
}

// adjacentPairs returns the PairHash of every pair of terms that Analyze
// and Stops put at consecutive positions of in, sorted, each once.
func adjacentPairs(text *tokenize.Text, in []byte) []uint64 {
	at := map[int][]string{}
	for _, tok := range append(text.Analyze(in), text.Stops(in)...) {
		at[tok.Position] = append(at[tok.Position], string(tok.Term))
	}
	var out []uint64
	for p, terms := range at {
		for _, a := range terms {
			for _, b := range at[p+1] {
				out = append(out, tokenize.PairHash(tokenize.TermHash(a), tokenize.TermHash(b)))
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}
