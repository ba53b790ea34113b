package index

import (
	"html"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/twindex/twindex/tokenize"
)

// Snippet geometry: a window of about 32 words of prose.
const (
	snippetBytes  = 240     // target window length
	snippetBefore = 60      // context kept before the best match
	snippetScan   = 1 << 20 // only this much of a field is searched for matches
)

// span is a match in a field: bytes [start, end), and which query term
// (key) it matched, so the window with the most distinct terms wins.
type span struct{ start, end, key int }

// snippet picks the field to show (body when it has a match, else title
// when it has one, else body) and returns it with a window around the best
// match, HTML-escaped, matches wrapped in the request's markers.
func (s *search) snippet(d *Doc) (field, snip string) {
	bodySpans := s.spans(d.Body)
	if len(bodySpans) > 0 || d.Title == "" {
		return fieldBody, s.render(d.Body, bodySpans)
	}
	titleSpans := s.spans(d.Title)
	if len(titleSpans) > 0 {
		return fieldTitle, s.render(d.Title, titleSpans)
	}
	return fieldBody, s.render(d.Body, nil)
}

// spans finds the query's matches in text: its terms as substrings (for
// the substring leg) and words whose analyzed terms are query terms (for
// the text leg), merged and sorted.
func (s *search) spans(text string) []span {
	if len(text) > snippetScan {
		text = text[:snippetScan]
		for len(text) > 0 && !utf8.RuneStart(text[len(text)-1]) {
			text = text[:len(text)-1]
		}
	}
	var out []span
	if s.req.Mode != ModeText {
		folded, offs := tokenize.FoldMap(text)
		for key, leaf := range s.leaves {
			sub := tokenize.Fold(leaf)
			if sub == "" {
				continue
			}
			for i := 0; ; {
				j := strings.Index(folded[i:], sub)
				if j < 0 {
					break
				}
				a, b := i+j, i+j+len(sub)
				if offs != nil {
					a, b = offs[a], offs[b]
				}
				out = append(out, span{a, b, key})
				i += j + len(sub)
			}
		}
	}
	if s.req.Mode != ModeSubstring {
		out = append(out, s.textSpans(text)...)
	}
	slices.SortFunc(out, func(a, b span) int {
		if a.start != b.start {
			return a.start - b.start
		}
		return b.end - a.end
	})
	// Drop spans nested in or overlapping an earlier one.
	merged := out[:0]
	for _, sp := range out {
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

// textSpans returns the words of text that analyze to a query term. Words
// are first screened by a cheap substring test on a prefix of each term, so
// only likely words pay for analysis.
func (s *search) textSpans(text string) []span {
	terms := map[string]int{}
	var probes []string
	for key, leaf := range s.leaves {
		for _, t := range s.ix.textA.Terms(leaf) {
			if _, ok := terms[t]; !ok {
				terms[t] = len(s.leaves) + key
				p := t
				if utf8.RuneCountInString(p) > 3 {
					_, n := utf8.DecodeRuneInString(p)
					n2 := n
					for range 2 {
						_, k := utf8.DecodeRuneInString(p[n2:])
						n2 += k
					}
					p = p[:n2]
				}
				probes = append(probes, p)
			}
		}
	}
	if len(terms) == 0 {
		return nil
	}
	var out []span
	for start := 0; start < len(text); {
		r, n := utf8.DecodeRuneInString(text[start:])
		if unicode.IsSpace(r) {
			start += n
			continue
		}
		end := start
		for end < len(text) {
			r, n := utf8.DecodeRuneInString(text[end:])
			if unicode.IsSpace(r) {
				break
			}
			end += n
		}
		word := text[start:end]
		lw := tokenize.Fold(word)
		if slices.ContainsFunc(probes, func(p string) bool { return strings.Contains(lw, p) }) {
			for _, tok := range s.ix.textA.Analyze([]byte(word)) {
				if key, ok := terms[string(tok.Term)]; ok {
					out = append(out, span{start + tok.Start, start + tok.End, key})
				}
			}
		}
		start = end
	}
	return out
}

// render cuts the window with the most distinct matched terms out of text
// and marks its matches.
func (s *search) render(text string, spans []span) string {
	lo, hi := 0, min(len(text), snippetBytes)
	if len(spans) > 0 {
		best, bestKeys := 0, -1
		for i := range spans {
			keys := map[int]bool{}
			for j := i; j < len(spans) && spans[j].end <= spans[i].start+snippetBytes-snippetBefore; j++ {
				keys[spans[j].key] = true
			}
			if len(keys) > bestKeys {
				best, bestKeys = i, len(keys)
			}
		}
		lo = max(0, spans[best].start-snippetBefore)
		hi = min(len(text), lo+snippetBytes)
	}
	lo, hi = wordBoundary(text, lo, false), wordBoundary(text, hi, true)
	var b strings.Builder
	if lo > 0 {
		b.WriteString("…")
	}
	at := lo
	for _, sp := range spans {
		if sp.end <= lo || sp.start >= hi {
			continue
		}
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
	if hi < len(text) {
		b.WriteString("…")
	}
	return strings.TrimSpace(b.String())
}

// wordBoundary moves i to a rune boundary and, within a short reach, to
// the nearest space so that the window does not cut words: backwards for
// the window's start, forwards for its end.
func wordBoundary(text string, i int, forward bool) int {
	const reach = 24
	for i > 0 && i < len(text) && !utf8.RuneStart(text[i]) {
		i--
	}
	if i <= 0 || i >= len(text) {
		return i
	}
	for k := 0; k < reach; k++ {
		j := i - k
		if forward {
			j = i + k
		}
		if j <= 0 || j >= len(text) {
			break
		}
		if text[j] == ' ' || text[j] == '\n' || text[j] == '\t' {
			if forward {
				return j
			}
			return j + 1
		}
	}
	return i
}
