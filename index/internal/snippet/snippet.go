// Package snippet shows where a query matched a document: a window of a
// field around its best match, and the lines of a body that hold matches,
// HTML-escaped with the matches wrapped in markers.
//
// A match is a span of a field's original text. A Query finds them three
// ways: its substrings in the field's folded text (mapped back to the
// original's bytes), its phrase runs among the field's tokens, and its
// analyzed terms among the tokens of the words where a term's first three
// characters start a word or a camelCase part. Only the words that can be
// shown are analyzed, as analysis is the cost of a snippet, and a Words
// remembers them for the next queries.
//
// Offsets are byte offsets into Field.Text. Text that is not valid UTF-8
// is shown as it is, escaped, and windows are cut on rune boundaries.
//
// A Query is built by one goroutine (its Add methods) and then only read:
// Snippet and Lines are safe for concurrent use when Analyze and the Run
// functions are.
package snippet

import (
	"slices"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/blevesearch/bleve/v2/analysis"

	"github.com/twindex/twindex/index/internal/find"
	"github.com/twindex/twindex/index/internal/window"
	"github.com/twindex/twindex/tokenize"
)

// Snippet geometry: a window of about 32 words of prose.
const (
	// Spans bounds the occurrences of each term considered for the window.
	Spans = 64
	// moreSpans bounds them again for a field whose first Spans show
	// none.
	moreSpans = 16 * Spans
	width     = 240     // target window length
	before    = 60      // context kept before the best match
	scan      = 1 << 20 // only this much of a field is searched for matches
	// headScan is how much of a long field is searched first: a window
	// there that holds every key of the query is the one the whole field
	// gives, as no later window holds more and the earlier ones hold the
	// same matches.
	headScan = 4096
	// reach is how far past a window's end its last word may go
	// (wordBoundary).
	reach = 24
)

// Field is a field's text and its folded form (tokenize.FoldMap): Map[i]
// is the byte of Text that byte i of Folded comes from, with
// Map[len(Folded)] == len(Text); nil when the offsets are the same.
//
// A field whose folding did nothing but lower ASCII letters (FoldCase's
// changed mask nil) may be given by its folding alone: Folded, and Upper,
// FoldCase's mask of the letters it lowered, with Text empty and Map nil.
// Only the parts of it that a snippet reads are then restored: restoring
// whole long bodies was a fifth of a text search's time.
type Field struct {
	Text, Folded string
	Map          []int
	Upper        []uint64
}

// Restored returns f with its Text: restored whole for a field given by
// its folding. Cost: a copy of the field, for those.
func (f Field) Restored() Field {
	if f.Upper != nil {
		f.Text, f.Upper = f.original(0, len(f.Folded)), nil
	}
	return f
}

// Shape returns the text that offsets into the field count in: Text, or
// for a field given by its folding, Folded, which has Text's bytes but
// for the case of ASCII letters (its spaces, lines and rune starts).
func (f *Field) Shape() string {
	if f.Upper != nil {
		return f.Folded
	}
	return f.Text
}

// original returns Text[lo:hi].
func (f *Field) original(lo, hi int) string {
	if f.Upper == nil {
		return f.Text[lo:hi]
	}
	b := []byte(f.Folded[lo:hi])
	tokenize.RaiseCase(b, f.Upper, lo)
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// partStart is partStart of the field's text: for a field given by its
// folding, of the runes around i restored on the stack.
func (f *Field) partStart(i int) bool {
	if f.Upper == nil {
		return partStart(f.Text, i)
	}
	lo, hi := max(0, i-utf8.UTFMax), min(len(f.Folded), i+2*utf8.UTFMax)
	var buf [3 * utf8.UTFMax]byte
	b := append(buf[:0], f.Folded[lo:hi]...)
	tokenize.RaiseCase(b, f.Upper, lo)
	return partStart(unsafe.String(unsafe.SliceData(b), len(b)), i-lo)
}

// Query is what snippets and lines look for. Each match has a key, the
// query term it is of: the window with the most distinct keys wins.
type Query struct {
	// Analyze returns the analyzed terms of text, with their positions and
	// byte offsets; the terms of AddTerm and Run are of its making.
	Analyze func(text []byte) analysis.TokenStream
	// Stops, if set, returns the stop words Analyze drops, folded, at
	// their positions: runs hold them too.
	Stops func(text []byte) analysis.TokenStream
	// MarkStart and MarkEnd wrap each match; they are written unescaped.
	MarkStart, MarkEnd string
	// MaxLine is the longest line Lines shows whole.
	MaxLine int
	// Words, if set, remembers Analyze's analysis of single words for
	// the queries that share it.
	Words *Words

	subs    []find.Finder
	terms   map[string]int
	probes  []probe
	runs    []Run
	keys    []int // the distinct keys of the subs, terms and runs
	longest int   // the longest sub or probe, in bytes
}

// addKey notes a key and a needle's length for the head's judgment
// (render).
func (q *Query) addKey(k, needle int) {
	if !slices.Contains(q.keys, k) {
		q.keys = append(q.keys, k)
	}
	q.longest = max(q.longest, needle)
}

type probe struct {
	find find.Finder
	key  int
}

// Run is a quoted phrase matched as a run of words. Occurrences returns
// where it occurs in a field as [first, last] token positions, given the
// positions of the field's terms. Starts, if set, is where it can occur:
// when every run has them, only those windows of a field are analyzed.
type Run struct {
	Key         int
	Occurrences func(pos map[string][]int) [][2]int
	Starts      *window.Starts
}

// AddSub adds a folded substring to look for; its key is the number of
// substrings added before it.
func (q *Query) AddSub(folded string) {
	q.addKey(len(q.subs), len(folded))
	q.subs = append(q.subs, find.New(folded))
}

// AddTerm adds an analyzed term with key k, unless it was added already,
// and a probe for it: its first three characters, which a prefix's
// completions share.
func (q *Query) AddTerm(term string, k int) {
	if _, ok := q.terms[term]; ok {
		return
	}
	if q.terms == nil {
		q.terms = map[string]int{}
	}
	q.terms[term] = k
	p := term[:runePrefix(term, 3)]
	q.addKey(k, len(p))
	if !slices.ContainsFunc(q.probes, func(o probe) bool { return o.find.Needle() == p && o.key == k }) {
		q.probes = append(q.probes, probe{find.New(p), k})
	}
}

// AddRun adds a phrase run.
func (q *Query) AddRun(r Run) {
	q.addKey(r.Key, 0)
	q.runs = append(q.runs, r)
}

// Snippet picks the field to show (body when it has a match, else title
// when it has one, else body) and returns a window of it around the best
// match, HTML-escaped, matches marked, the byte offset of that match in
// the body (-1 when the body shows none), and whether the title is shown.
// A declaration of a query term at prefer (-1: none) is the best match,
// and matches before floor (a licence comment) count only when there are
// no others.
//
// Cost: a scan of each field's first MiB per substring and probe, the
// analysis of that much when the query has runs, and the analysis of the
// words around the probes in the window.
func (q *Query) Snippet(title, body Field, prefer, floor int) (snip string, at int, inTitle bool) {
	if snip, at := q.render(body, prefer, floor); snip != "" || title.Shape() == "" {
		return snip, at, false
	}
	if snip, _ := q.render(title, -1, 0); snip != "" {
		return snip, -1, true
	}
	lo, hi, _, _ := shown(body.Shape(), nil, -1, 0)
	return q.mark(&body, lo, hi, nil), -1, false
}

// orig returns the offset in Text of byte i of Folded.
func (f *Field) orig(i int) int {
	if f.Map != nil {
		return f.Map[i]
	}
	return i
}

// folded returns the offset in Folded of the first byte that comes from
// byte o of Text or after it.
func (f *Field) folded(o int) int {
	if f.Map != nil {
		i, _ := slices.BinarySearch(f.Map, o)
		return min(i, len(f.Folded))
	}
	return min(o, len(f.Folded))
}

// render returns the snippet of one field, or "" when the field has no
// match, and the offset of its best match; see Snippet for prefer and
// floor. A long field with the original's offsets is first judged by its
// head (headScan bytes): where a window there holds every key of the
// query, the rest is not searched.
func (q *Query) render(f Field, prefer, floor int) (string, int) {
	if prefer < 0 && len(q.runs) == 0 && f.Map == nil && len(f.Folded) >= 2*headScan {
		if snip, at, ok := q.renderIn(f, -1, floor, headScan); ok {
			return snip, at
		}
	}
	snip, at, _ := q.renderIn(f, prefer, floor, len(f.Folded))
	return snip, at
}

// renderIn is render of the matches in the field's first cut folded
// bytes; ok is false when they do not decide it: the window chosen holds
// fewer than all keys or ends too near cut for the matches past it to be
// known, or a licence comment's matches may have others past cut.
func (q *Query) renderIn(f Field, prefer, floor, cut int) (snip string, best int, ok bool) {
	snip, best, ok, capped := q.renderUpTo(f, prefer, floor, cut, Spans)
	if snip == "" && ok && capped {
		// No window of the first Spans places of each term holds a
		// match: the terms may be further on. Bounded, as each window
		// of false guesses costs a pass over all of them.
		snip, best, ok, _ = q.renderUpTo(f, prefer, floor, cut, moreSpans)
	}
	return snip, best, ok
}

// renderUpTo is renderIn of up to limit places of each term; capped
// reports whether a term has more.
func (q *Query) renderUpTo(f Field, prefer, floor, cut, limit int) (snip string, best int, ok, capped bool) {
	whole := cut >= len(f.Folded)
	if !whole {
		f.Folded = f.Folded[:cut]
	}
	gather := func() (exact, guess []span) {
		exact, guess, capped = q.matchSpans(f, limit)
		if prefer >= 0 && (capped || len(f.Folded) > scan) {
			// The window is the declaration's: its matches, which may
			// come after the first limit places of a term or past the
			// part of the field scanned.
			e, g, _ := q.spansIn(f, f.folded(max(0, prefer-before-reach)), f.folded(prefer+width+reach), limit)
			exact, guess = append(exact, e...), append(guess, g...)
		}
		return exact, guess
	}
	exact, guess := gather()
	if len(exact)+len(guess) == 0 {
		return "", -1, whole, capped
	}
	// Matches in the licence comment count when there are no others.
	past := func(sp span) bool { return sp.start >= floor }
	if floor > 0 && (slices.ContainsFunc(exact, past) || slices.ContainsFunc(guess, past)) {
		out := func(sp span) bool { return sp.start < floor }
		lo, hi, at, spans, decided := q.window(&f, slices.DeleteFunc(exact, out), slices.DeleteFunc(guess, out), prefer, floor, cut, whole)
		switch {
		case !decided:
			return "", -1, false, capped
		case len(spans) > 0:
			snip, best := q.marked(&f, lo, hi, at, spans)
			return snip, best, true, capped
		case !whole || capped:
			// Past the comment, the matches may be past cut or past the
			// places kept.
			return "", -1, whole, capped
		}
		// None past the comment was a match: those in it count.
		exact, guess = gather()
	} else if floor > 0 && !whole {
		return "", -1, false, capped
	}
	lo, hi, at, spans, decided := q.window(&f, exact, guess, prefer, 0, cut, whole)
	if !decided {
		return "", -1, false, capped
	}
	if len(spans) == 0 {
		return "", -1, whole, capped
	}
	snip, best = q.marked(&f, lo, hi, at, spans)
	return snip, best, true, capped
}

// window picks the part of the field to show, [lo, hi), and returns the
// matches in it, sorted: the window with the most distinct keys among the
// exact matches and the guesses that the analysis of their words
// confirms. As that analysis is the cost of a snippet, only the guesses
// in the window picked are analyzed; while one of them is not a query
// term, those are dropped and the window is picked again (no other window
// can hold more keys than it did with them; but terms that share a probe,
// such as count and counter, count once per place, under the lower key).
// decided is false when the field's first cut bytes do not decide the
// window (renderIn). at is the window's anchor (shown).
func (q *Query) window(f *Field, exact, guess []span, prefer, floor, cut int, whole bool) (lo, hi, at int, spans []span, decided bool) {
	slices.SortFunc(exact, cmpSpans)
	slices.SortFunc(guess, cmpSpans)
	var all, in []span
	for {
		var keys int
		all = mergeOverlaps(mergeSorted(all[:0], exact, guess))
		lo, hi, at, keys = shown(f.Shape(), all, prefer, floor)
		if !whole && (keys < len(q.keys) || at+width+reach+q.longest > cut) {
			return 0, 0, 0, nil, false
		}
		// The window's guesses, and the others, kept in order for the
		// next pick.
		in = in[:0]
		rest := guess[:0]
		for _, g := range guess {
			if g.start >= lo && g.start < hi {
				in = append(in, g)
			} else {
				rest = append(rest, g)
			}
		}
		if len(in) == 0 {
			return lo, hi, at, mergeOverlaps(exact), true
		}
		found := q.wordSpans(f, lo, hi, in)
		slices.SortFunc(found, cmpSpans)
		exact = mergeSorted(make([]span, 0, len(exact)+len(found)), exact, found)
		if prefer >= 0 || !slices.ContainsFunc(in, func(g span) bool { return !covered(found, g.start) }) {
			return lo, hi, at, mergeOverlaps(exact), true
		}
		guess = rest
	}
}

// marked renders the window [lo, hi) with the spans marked, and the
// offset of its best match: the first at or after the window's anchor
// at.
func (q *Query) marked(f *Field, lo, hi, at int, spans []span) (string, int) {
	best := spans[0].start
	if i := slices.IndexFunc(spans, func(sp span) bool { return sp.start >= at }); i >= 0 {
		best = spans[i].start
	}
	return q.mark(f, lo, hi, spans), best
}

// wordSpans analyzes the words around the candidates that fall in the
// field's bytes [lo, hi) and returns their tokens that are query terms.
func (q *Query) wordSpans(f *Field, lo, hi int, guess []span) []span {
	text := f.Shape()
	var out []span
	var seen []int // the words' starts: a window has few
	for _, g := range guess {
		if g.start < lo || g.start >= hi {
			continue
		}
		start, end := wordAround(text, g.start)
		if slices.Contains(seen, start) {
			continue
		}
		seen = append(seen, start)
		for _, tok := range q.Words.tokens(f.original(start, end), q.Analyze) {
			if key, ok := q.terms[tok.term]; ok {
				out = append(out, span{start + tok.start, start + tok.end, key})
			}
		}
	}
	return out
}

// shown picks the part of text to show: the window of about width bytes
// holding the most distinct matched terms, or the one that starts at
// prefer (a declaration) when prefer >= 0, starting a little before its
// first match but not before floor, on word boundaries where possible.
// at is the window's first match, nkeys how many distinct keys its
// matches have (-1 for prefer's).
func shown(text string, spans []span, prefer, floor int) (lo, hi, at, nkeys int) {
	lo, hi, at, nkeys = floor, min(len(text), floor+width), -1, -1
	switch {
	case prefer >= 0:
		at = prefer
	case len(spans) > 0:
		best, bestKeys := 0, -1
		var keys []int
		for i := range spans {
			keys = keys[:0]
			for j := i; j < len(spans) && spans[j].end <= spans[i].start+width-before; j++ {
				if !slices.Contains(keys, spans[j].key) {
					keys = append(keys, spans[j].key)
				}
			}
			if len(keys) > bestKeys {
				best, bestKeys = i, len(keys)
			}
		}
		at, nkeys = spans[best].start, bestKeys
	}
	if at >= 0 {
		lo = max(floor, at-before)
		hi = min(len(text), lo+width)
	}
	lo = wordBoundary(text, lo, false)
	if lo < floor {
		lo = floor
	}
	return lo, wordBoundary(text, hi, true), at, nkeys
}

// mark renders the field's bytes [lo, hi), HTML-escaped, with the spans
// in them marked.
func (q *Query) mark(f *Field, lo, hi int, spans []span) string {
	var b strings.Builder
	b.Grow(hi - lo + len(spans)*(len(q.MarkStart)+len(q.MarkEnd)) + 16)
	if lo > 0 {
		b.WriteString("…")
	}
	q.writeMarked(&b, f.original(lo, hi), lo, spans)
	if hi < len(f.Shape()) {
		b.WriteString("…")
	}
	return strings.TrimSpace(b.String())
}

// writeMarked writes text, the bytes of a field from lo on, to b,
// HTML-escaped, with the parts of the spans (sorted, not overlapping, in
// the field's offsets) inside it wrapped in the markers.
func (q *Query) writeMarked(b *strings.Builder, text string, lo int, spans []span) {
	at, hi := lo, lo+len(text)
	for _, sp := range spans {
		a, e := max(sp.start, at), min(sp.end, hi)
		if a >= e {
			continue
		}
		writeEscaped(b, text[at-lo:a-lo])
		b.WriteString(q.MarkStart)
		writeEscaped(b, text[a-lo:e-lo])
		b.WriteString(q.MarkEnd)
		at = e
	}
	writeEscaped(b, text[at-lo:])
}

// writeEscaped writes s to b escaped as html.EscapeString escapes it
// (TestEscaped holds them equal), in one pass and without a string of its
// own: EscapeString counts each escaped character in a pass of its own
// first, and a snippet writes three pieces per match of every hit shown.
func writeEscaped(b *strings.Builder, s string) {
	last := 0
	for i := 0; i < len(s); i++ {
		var esc string
		switch s[i] {
		case '&':
			esc = "&amp;"
		case '\'':
			esc = "&#39;"
		case '<':
			esc = "&lt;"
		case '>':
			esc = "&gt;"
		case '"':
			esc = "&#34;"
		default:
			continue
		}
		b.WriteString(s[last:i])
		b.WriteString(esc)
		last = i + 1
	}
	b.WriteString(s[last:])
}
