package snippet

import (
	"strings"
)

// Line is one line of a body: its 1-based number N, its text HTML-escaped
// with its matches marked, and whether it holds a match (else it is
// context).
type Line struct {
	N     int
	Text  string
	Match bool
}

// LineOptions asks Lines for Before and After lines of context around
// each matching line, and at most Max matching lines.
type LineOptions struct {
	Before, After int
	Max           int
}

// Locate returns the 1-based line and byte column of offset at in text.
func Locate(text string, at int) (line, col int) {
	line = 1 + strings.Count(text[:at], "\n")
	return line, at - (strings.LastIndexByte(text[:at], '\n') + 1) + 1
}

// Lines gives add, in order, the body's lines that hold a match, with
// context lines shared by two matches given once, and returns how many
// lines hold a match. The
// matches are those Snippet marks, over the whole body: every occurrence
// of each substring, every word around a probe that analyzes to a query
// term, every run of a quoted phrase. A line longer than MaxLine shows
// that much around its first match; a line's break is left out.
//
// Cost: a scan of the body's first MiB per substring and probe, the
// analysis of that much when the query has runs, and the analysis of
// every word a probe finds.
func (q *Query) Lines(body Field, o LineOptions, add func(Line)) int {
	body = body.Restored()
	text := body.Text
	exact, guess, _ := q.matchSpans(body, len(text)+1)
	spans := exact
	if len(guess) > 0 {
		spans = append(spans, q.wordSpans(&body, 0, len(text), guess)...)
	}
	spans = sortSpans(spans)
	if len(spans) == 0 {
		return 0
	}
	// The matching lines, as [start, end) of their text, with their spans.
	type hitLine struct {
		n, start, end int
		spans         []span
	}
	var hits []hitLine
	n, pos := 1, 0 // the line at byte pos
	for _, sp := range spans {
		n += strings.Count(text[pos:sp.start], "\n")
		pos = sp.start
		// A match over a line break belongs to the line it starts on.
		if k := len(hits); k > 0 && hits[k-1].n == n {
			hits[k-1].spans = append(hits[k-1].spans, sp)
			continue
		}
		start := strings.LastIndexByte(text[:sp.start], '\n') + 1
		end := len(text)
		if i := strings.IndexByte(text[sp.start:], '\n'); i >= 0 {
			end = sp.start + i
		}
		hits = append(hits, hitLine{n, start, end, []span{sp}})
	}
	count := len(hits)
	hits = hits[:min(len(hits), o.Max)]
	last := 0 // the last line number given to add
	// context appends the lines numbered from..to (inclusive) that start
	// at byte start, up to the line numbered before.
	context := func(from, start int, upto int) {
		for n := from; n < upto && start < len(text); n++ {
			end := len(text)
			if i := strings.IndexByte(text[start:], '\n'); i >= 0 {
				end = start + i
			}
			if n > last {
				add(Line{N: n, Text: q.markLine(text, start, end, nil)})
				last = n
			}
			start = end + 1
		}
	}
	for i, h := range hits {
		// Context before: walk back from the line's start.
		from, start := h.n, h.start
		for from > max(1, last+1) && h.n-from < o.Before {
			start = strings.LastIndexByte(text[:start-1], '\n') + 1
			from--
		}
		context(from, start, h.n)
		add(Line{N: h.n, Text: q.markLine(text, h.start, h.end, h.spans), Match: true})
		last = h.n
		// Context after, up to the next matching line.
		upto := h.n + o.After + 1
		if i+1 < len(hits) {
			upto = min(upto, hits[i+1].n)
		}
		context(h.n+1, h.end+1, upto)
	}
	return count
}

// markLine renders text[lo:hi], a line, HTML-escaped with its spans
// marked; a line longer than MaxLine is cut around its first match.
func (q *Query) markLine(text string, lo, hi int, spans []span) string {
	if strings.HasSuffix(text[lo:hi], "\r") {
		hi--
	}
	cutBefore, cutAfter := false, false
	if hi-lo > q.MaxLine {
		from := lo
		if len(spans) > 0 {
			from = max(lo, spans[0].start-before)
		}
		from = max(lo, wordBoundary(text, from, false))
		to := min(hi, wordBoundary(text, from+q.MaxLine, true))
		cutBefore, cutAfter = from > lo, to < hi
		lo, hi = from, to
	}
	var b strings.Builder
	if cutBefore {
		b.WriteString("…")
	}
	q.writeMarked(&b, text[lo:hi], lo, spans)
	if cutAfter {
		b.WriteString("…")
	}
	return b.String()
}
