package snippet

import (
	"slices"

	"github.com/blevesearch/bleve/v2/analysis"

	"github.com/twindex/twindex/index/internal/window"
	"github.com/twindex/twindex/tokenize"
)

// span is a match in a field: bytes [start, end), and its key.
type span struct{ start, end, key int }

// matchSpans returns the exact matches in a field (substrings, and the
// runs of quoted phrases), up to limit occurrences of each term, and
// guesses: the places where a word that may be a query word starts.
// capped reports whether some term has more occurrences than limit.
func (q *Query) matchSpans(f Field, limit int) (exact, guess []span, capped bool) {
	exact, guess, capped = q.spansIn(f, 0, min(len(f.Folded), scan), limit)
	if len(q.runs) > 0 {
		ftext := f.Folded[:min(len(f.Folded), scan)]
		text := f.original(0, f.orig(len(ftext)))
		exact = append(exact, q.runSpans(q.runTokens(text, ftext, f.Map))...)
	}
	return exact, guess, capped
}

// spansIn returns the matches of the subs and the guesses of the probes
// in the field's folded bytes [from, to), up to limit of each, and
// whether a sub or probe has more.
func (q *Query) spansIn(f Field, from, to, limit int) (exact, guess []span, capped bool) {
	ftext := f.Folded[:to]
	for key, sub := range q.subs {
		n := len(sub.Needle())
		if n == 0 {
			continue
		}
		for i, k := from, 0; ; k++ {
			j := sub.Index(ftext[i:])
			if j < 0 {
				break
			}
			if k == limit {
				capped = true
				break
			}
			exact = append(exact, span{f.orig(i + j), f.orig(i + j + n), key})
			i += j + n
		}
	}
	for _, p := range q.probes {
		n := len(p.find.Needle())
		for i, k := from, 0; ; {
			j := p.find.Index(ftext[i:])
			if j < 0 {
				break
			}
			if at := f.orig(i + j); f.partStart(at) {
				if k == limit {
					capped = true
					break
				}
				guess = append(guess, span{at, f.orig(i + j + n), p.key})
				k++
			}
			i += j + n
		}
	}
	return exact, guess, capped
}

// runTokens returns the tokens of text (whose folding is folded, offsets
// its map back) where the runs can occur: of the windows that their
// Starts find (numbered apart, tokenize.SpanGap), or of all of text.
func (q *Query) runTokens(text, folded string, offsets []int) analysis.TokenStream {
	var spans [][2]int
	for _, r := range q.runs {
		if r.Starts == nil {
			return q.analyze(text)
		}
		found, ok := r.Starts.Find(text, folded, offsets)
		if !ok {
			return q.analyze(text)
		}
		spans = append(spans, found...)
	}
	var toks analysis.TokenStream
	for k, sp := range window.Merge(spans) {
		for _, tok := range q.analyze(text[sp[0]:sp[1]]) {
			tok.Start += sp[0]
			tok.End += sp[0]
			tok.Position += k * tokenize.SpanGap
			toks = append(toks, tok)
		}
	}
	return toks
}

// analyze returns the tokens of text that runs are made of: Analyze's,
// and the stop words when Stops is set.
func (q *Query) analyze(text string) analysis.TokenStream {
	toks := q.Analyze([]byte(text))
	if q.Stops != nil {
		toks = append(toks, q.Stops([]byte(text))...)
	}
	return toks
}

// runSpans returns where the quoted phrases run in a field, given its
// tokens: from the first word's start to the last one's end.
func (q *Query) runSpans(toks analysis.TokenStream) []span {
	pos := map[string][]int{}
	at := map[int][2]int{} // position -> the bytes its tokens cover
	for _, tok := range toks {
		pos[string(tok.Term)] = append(pos[string(tok.Term)], tok.Position)
		r, ok := at[tok.Position]
		if !ok {
			r = [2]int{tok.Start, tok.End}
		}
		at[tok.Position] = [2]int{min(r[0], tok.Start), max(r[1], tok.End)}
	}
	var out []span
	for _, r := range q.runs {
		for _, o := range r.Occurrences(pos) {
			out = append(out, span{at[o[0]][0], at[o[1]][1], r.Key})
		}
	}
	return out
}

// covered reports whether one of spans holds byte i.
func covered(spans []span, i int) bool {
	return slices.ContainsFunc(spans, func(sp span) bool { return sp.start <= i && i < sp.end })
}

// sortSpans sorts spans and merges overlapping ones. Spans of the same
// bytes keep the lowest key: the order is total, so that a window's keys
// do not depend on the order spans were found in (the head of a field
// and the whole give the same).
func sortSpans(spans []span) []span {
	slices.SortFunc(spans, cmpSpans)
	return mergeOverlaps(spans)
}

// cmpSpans orders spans by start, the longest first, then by key.
func cmpSpans(a, b span) int {
	if a.start != b.start {
		return a.start - b.start
	}
	if a.end != b.end {
		return b.end - a.end
	}
	return a.key - b.key
}

// mergeOverlaps merges the overlapping spans of sorted spans, in place.
func mergeOverlaps(spans []span) []span {
	merged := spans[:0]
	for _, sp := range spans {
		if n := len(merged); n > 0 && sp.start < merged[n-1].end {
			if sp.end > merged[n-1].end {
				merged[n-1].end = sp.end
			}
			continue
		}
		merged = append(merged, sp)
	}
	return merged
}

// mergeSorted appends the spans of a and b, each sorted, to dst in order.
func mergeSorted(dst, a, b []span) []span {
	for len(a) > 0 && len(b) > 0 {
		if cmpSpans(a[0], b[0]) <= 0 {
			dst, a = append(dst, a[0]), a[1:]
		} else {
			dst, b = append(dst, b[0]), b[1:]
		}
	}
	return append(append(dst, a...), b...)
}
