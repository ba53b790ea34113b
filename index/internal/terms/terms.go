// Package terms expands query words into indexed terms: it walks a text
// index's dictionaries for the entries within some edits of a word (the
// distance is edits.Distance's) or starting with a prefix, keeps their
// document counts, and chooses the candidates a word stands for, the
// same ones on every backend and every shard: nearest first, then most
// frequent, then in term order. It also holds the small choices of typo
// tolerance built on them (which neighbours are near, when a word is
// known, the did-you-mean rewrite).
//
// Caching, the collection's statistics and the readers' lifetimes are
// the engine's: a walk reads the reader it is given and nothing else.
// The functions are safe for concurrent use as far as the reader and the
// Term function they are given are.
package terms

import (
	"cmp"
	"slices"
	"strings"
	"unicode"
)

// Expansion is an indexed term that a prefix or a fuzzy word stands for.
type Expansion struct {
	Term  string
	Word  string // the word as written that matched, when the words' dictionary gave it
	Count uint64 // documents holding Term
	Dist  int    // edits from the fuzzy word; 0 for a prefix
}

// Best returns the first n of es sorted nearest first, then most
// frequent, then by term, in es's first places; what is left of es past
// them is no longer a reordering of es. Only those n are sorted: each
// other entry costs a comparison with the n-th best so far, and the few
// better ones an insertion (a prefix of a few letters has hundreds of
// completions, of which a search keeps MaxExpansions). Cost: about
// len(es) comparisons in most orders; O(len(es)·n) at worst (es ordered
// worst first).
func Best(es []Expansion, n int) []Expansion {
	n = max(0, min(n, len(es)))
	top := es[:n]
	slices.SortFunc(top, better)
	for _, e := range es[n:] {
		if n == 0 || better(e, top[n-1]) >= 0 {
			continue
		}
		i, _ := slices.BinarySearchFunc(top, e, better)
		copy(top[i+1:], top[i:n-1])
		top[i] = e
	}
	return top
}

// better orders expansions nearest first, then most frequent, then by
// term.
func better(a, b Expansion) int {
	if c := cmp.Compare(a.Dist, b.Dist); c != 0 {
		return c
	}
	if c := cmp.Compare(b.Count, a.Count); c != 0 {
		return c
	}
	return strings.Compare(a.Term, b.Term)
}

// Terms returns the terms of es, in order.
func Terms(es []Expansion) []string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.Term
	}
	return out
}

// Without removes term from dict, in place, and returns what is left.
func Without(dict []string, term string) []string {
	return slices.DeleteFunc(dict, func(t string) bool { return t == term })
}

// Split divides a word's expansions for the tolerant pass: near, those
// one edit away and the completions more (own, the word's term, left
// out, and those already fuzzy matches); far, those two edits away.
func Split(fuzzy []Expansion, more []string, own string) (near, far []string) {
	for _, e := range fuzzy {
		if e.Dist <= 1 {
			near = append(near, e.Term)
		} else {
			far = append(far, e.Term)
		}
	}
	for _, t := range Without(more, own) {
		if !slices.Contains(near, t) && !slices.Contains(far, t) {
			near = append(near, t)
		}
	}
	return near, far
}

// knownWordDocs is the fewest documents (at least 1 in 1,000) that make a
// query word known.
const knownWordDocs = 3

// Known reports whether a word that n of docs documents hold is taken as
// spelled right: its neighbours would be other words, not the one meant,
// so the tolerant pass does not fuzz it.
func Known(n uint64, docs float64) bool {
	return float64(n) >= max(knownWordDocs, docs/1000)
}

// LastWord returns the last word of text (letters and digits) and the
// offset where it ends, or "" and 0 when text has none. It is read as
// written, for a prefix whose last word the analyzer drops.
func LastWord(text string) (word string, end int) {
	trimmed := strings.TrimRightFunc(text, notWord)
	return trimmed[strings.LastIndexFunc(trimmed, notWord)+1:], len(trimmed)
}

func notWord(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }

// Edit replaces the bytes Start to End of a query with Word.
type Edit struct {
	Start, End int
	Word       string
}

// Respell returns query with edits applied, which are in order of Start,
// or "" when there are none. An edit that starts inside one applied
// before it is skipped: it is a compound's part, and the compound was
// replaced whole.
func Respell(query string, edits []Edit) string {
	if len(edits) == 0 {
		return ""
	}
	var b strings.Builder
	at := 0
	for _, e := range edits {
		if e.Start < at {
			continue
		}
		b.WriteString(query[at:e.Start])
		b.WriteString(e.Word)
		at = e.End
	}
	b.WriteString(query[at:])
	return b.String()
}
