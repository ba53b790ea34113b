package index

import (
	"html"
	"strings"

	"github.com/twindex/twindex/index/internal/record"
)

// locate returns the 1-based line and byte column of offset at in text.
func locate(text string, at int) (line, col int) {
	line = 1 + strings.Count(text[:at], "\n")
	return line, at - (strings.LastIndexByte(text[:at], '\n') + 1) + 1
}

// lines returns the body's lines that hold a match, with o.Before and
// o.After lines of context, at most o.Max matching ones, and how many
// lines hold a match. The matches are those snippets mark, over the whole
// body: every occurrence of each substring, every word around a probe
// that analyzes to a query term, every run of a quoted phrase.
func (s *search) lines(q *snippetQuery, body string, f *record.Folded, o *LineOptions) ([]Line, int) {
	exact, guess := s.matchSpans(q, body, f.Body, f.BodyMap, len(body)+1)
	spans := exact
	if len(guess) > 0 {
		spans = append(spans, s.wordSpans(q, body, 0, len(body), guess)...)
	}
	spans = sortSpans(spans)
	if len(spans) == 0 {
		return nil, 0
	}
	// The matching lines, as [start, end) of their text, with their spans.
	type hitLine struct {
		n, start, end int
		spans         []span
	}
	var hits []hitLine
	n, pos := 1, 0 // the line at byte pos
	for _, sp := range spans {
		n += strings.Count(body[pos:sp.start], "\n")
		pos = sp.start
		// A match over a line break belongs to the line it starts on.
		if k := len(hits); k > 0 && hits[k-1].n == n {
			hits[k-1].spans = append(hits[k-1].spans, sp)
			continue
		}
		start := strings.LastIndexByte(body[:sp.start], '\n') + 1
		end := len(body)
		if i := strings.IndexByte(body[sp.start:], '\n'); i >= 0 {
			end = sp.start + i
		}
		hits = append(hits, hitLine{n, start, end, []span{sp}})
	}
	count := len(hits)
	hits = hits[:min(len(hits), o.Max)]
	var out []Line
	last := 0 // the last line number in out
	// context appends the lines numbered from..to (inclusive) that start
	// at byte start, up to the line numbered before.
	context := func(from, start int, upto int) {
		for n := from; n < upto && start < len(body); n++ {
			end := len(body)
			if i := strings.IndexByte(body[start:], '\n'); i >= 0 {
				end = start + i
			}
			if n > last {
				out = append(out, Line{N: n, Text: s.markLine(body, start, end, nil)})
				last = n
			}
			start = end + 1
		}
	}
	for i, h := range hits {
		// Context before: walk back from the line's start.
		from, start := h.n, h.start
		for from > max(1, last+1) && h.n-from < o.Before {
			start = strings.LastIndexByte(body[:start-1], '\n') + 1
			from--
		}
		context(from, start, h.n)
		out = append(out, Line{N: h.n, Text: s.markLine(body, h.start, h.end, h.spans), Match: true})
		last = h.n
		// Context after, up to the next matching line.
		upto := h.n + o.After + 1
		if i+1 < len(hits) {
			upto = min(upto, hits[i+1].n)
		}
		context(h.n+1, h.end+1, upto)
	}
	return out, count
}

// markLine renders text[lo:hi], a line, HTML-escaped with its spans
// marked; a line longer than MaxLineBytes is cut around its first match.
func (s *search) markLine(text string, lo, hi int, spans []span) string {
	if strings.HasSuffix(text[lo:hi], "\r") {
		hi--
	}
	cutBefore, cutAfter := false, false
	if hi-lo > MaxLineBytes {
		from := lo
		if len(spans) > 0 {
			from = max(lo, spans[0].start-snippetBefore)
		}
		from = max(lo, wordBoundary(text, from, false))
		to := min(hi, wordBoundary(text, from+MaxLineBytes, true))
		cutBefore, cutAfter = from > lo, to < hi
		lo, hi = from, to
	}
	var b strings.Builder
	if cutBefore {
		b.WriteString("…")
	}
	at := lo
	for _, sp := range spans {
		a, e := max(sp.start, at), min(sp.end, hi)
		if a >= e {
			continue
		}
		b.WriteString(html.EscapeString(text[at:a]))
		b.WriteString(s.req.MarkStart)
		b.WriteString(html.EscapeString(text[a:e]))
		b.WriteString(s.req.MarkEnd)
		at = e
	}
	b.WriteString(html.EscapeString(text[at:hi]))
	if cutAfter {
		b.WriteString("…")
	}
	return b.String()
}
