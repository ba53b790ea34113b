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
func (s *search) snippet(d *Doc, f *folded) (field, snip string) {
	bodySpans := s.spans(d.Body, f.body, f.bodyMap)
	if len(bodySpans) > 0 || d.Title == "" {
		return fieldBody, s.render(d.Body, bodySpans)
	}
	titleSpans := s.spans(d.Title, f.title, f.titleMap)
	if len(titleSpans) > 0 {
		return fieldTitle, s.render(d.Title, titleSpans)
	}
	return fieldBody, s.render(d.Body, nil)
}

// spans finds the query's matches in text, given its folded form and the
// map from folded to original offsets (nil: the same): the query's terms
// as substrings (for the substring leg) and words whose analyzed terms are
// query terms (for the text leg), merged and sorted.
func (s *search) spans(text, ftext string, fmap []int) []span {
	if len(ftext) > snippetScan {
		ftext = ftext[:snippetScan]
	}
	orig := func(i int) int {
		if fmap != nil {
			return fmap[i]
		}
		return i
	}
	var out []span
	if s.req.Mode != ModeText {
		for key, leaf := range s.leaves {
			sub := tokenize.Fold(leaf)
			if sub == "" {
				continue
			}
			for i := 0; ; {
				j := strings.Index(ftext[i:], sub)
				if j < 0 {
					break
				}
				out = append(out, span{orig(i + j), orig(i + j + len(sub)), key})
				i += j + len(sub)
			}
		}
	}
	if s.req.Mode != ModeSubstring {
		out = append(out, s.textSpans(text, ftext, orig)...)
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

// textSpans returns the words of text that analyze to a query term. A
// word is a run of non-space characters; only words where the folded text
// holds the first three characters of a query term (a stem's prefix is the
// word's, nearly always) are analyzed.
func (s *search) textSpans(text, ftext string, orig func(int) int) []span {
	terms := map[string]int{}
	var probes []string
	for key, leaf := range s.leaves {
		for _, t := range s.ix.textA.Terms(leaf) {
			if _, ok := terms[t]; ok {
				continue
			}
			terms[t] = len(s.leaves) + key
			p := t
			if n := runePrefix(p, 3); n < len(p) {
				p = p[:n]
			}
			if !slices.Contains(probes, p) {
				probes = append(probes, p)
			}
		}
	}
	var out []span
	seen := map[int]bool{}      // word starts already analyzed
	memo := map[string][]span{} // a word's matches, relative to its start
	for _, p := range probes {
		for i := 0; ; {
			j := strings.Index(ftext[i:], p)
			if j < 0 {
				break
			}
			at := orig(i + j)
			i += j + len(p)
			if !partStart(text, at) {
				continue
			}
			start, end := wordAround(text, at)
			if seen[start] {
				continue
			}
			seen[start] = true
			word := text[start:end]
			rel, ok := memo[word]
			if !ok {
				for _, tok := range s.ix.textA.Analyze([]byte(word)) {
					if key, ok := terms[string(tok.Term)]; ok {
						rel = append(rel, span{tok.Start, tok.End, key})
					}
				}
				memo[word] = rel
			}
			for _, sp := range rel {
				out = append(out, span{start + sp.start, start + sp.end, sp.key})
			}
		}
	}
	return out
}

// partStart reports whether byte i of text can begin an analyzed term: it
// follows a non-letter, or starts a camelCase part or a letter/digit run.
func partStart(text string, i int) bool {
	if i == 0 {
		return true
	}
	prev, _ := utf8.DecodeLastRuneInString(text[:i])
	r, _ := utf8.DecodeRuneInString(text[i:])
	switch {
	case !unicode.IsLetter(prev) && !unicode.IsDigit(prev):
		return true
	case unicode.IsUpper(r) && !unicode.IsUpper(prev):
		return true
	case unicode.IsUpper(r) && unicode.IsUpper(prev):
		// XMLParser: "Parser" starts where an upper is followed by a lower.
		next, _ := utf8.DecodeRuneInString(text[i+utf8.RuneLen(r):])
		return unicode.IsLower(next)
	}
	return unicode.IsDigit(r) != unicode.IsDigit(prev)
}

// runePrefix is the byte length of the first n runes of s.
func runePrefix(s string, n int) int {
	i := 0
	for ; n > 0 && i < len(s); n-- {
		_, k := utf8.DecodeRuneInString(s[i:])
		i += k
	}
	return i
}

// wordAround returns the run of non-space characters of text around byte
// i, at most maxWord bytes each way.
func wordAround(text string, i int) (start, end int) {
	const maxWord = 256
	start, end = i, i
	for start > 0 && i-start < maxWord {
		r, n := utf8.DecodeLastRuneInString(text[:start])
		if unicode.IsSpace(r) {
			break
		}
		start -= n
	}
	for end < len(text) && end-i < maxWord {
		r, n := utf8.DecodeRuneInString(text[end:])
		if unicode.IsSpace(r) {
			break
		}
		end += n
	}
	return start, end
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
