package index

import (
	"html"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/twindex/twindex/index/internal/find"
)

// Snippet geometry: a window of about 32 words of prose.
const (
	snippetSpans  = 64      // occurrences of each term considered for the window
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
//
// Text-leg matches are words whose analyzed terms are query terms. Only
// words inside the shown window are analyzed; the window is chosen from
// cheap candidates: the places where a term's first three characters start
// a word or a camelCase part.
func (s *search) snippet(q *snippetQuery, title, body string, f *folded) (field, snip string) {
	if snip := s.render(q, body, f.body, f.bodyMap); snip != "" || title == "" {
		return fieldBody, snip
	}
	if snip := s.render(q, title, f.title, f.titleMap); snip != "" {
		return fieldTitle, snip
	}
	lo, hi := window(body, nil)
	return fieldBody, s.mark(body, lo, hi, nil)
}

// snippetQuery is what snippets look for: the query's folded terms as
// substrings (keys 0..n-1) and its analyzed terms (keys n..), each with a
// probe, its first three characters.
type snippetQuery struct {
	subs   []find.Finder
	terms  map[string]int
	probes []probe
}

type probe struct {
	find find.Finder
	key  int
}

// snippetQuery returns what the snippets of exact or tolerant hits look
// for, made on first use.
func (s *search) snippetQuery(tolerant bool) *snippetQuery {
	i := 0
	if tolerant {
		i = 1
	}
	if s.snip[i] == nil {
		s.snip[i] = s.snippetTerms(tolerant)
	}
	return s.snip[i]
}

func (s *search) snippetTerms(tolerant bool) *snippetQuery {
	q := &snippetQuery{terms: map[string]int{}}
	leaves := s.plan.positive()
	// Exact substrings, unless only words were searched for.
	if legs := s.req.Mode.legs(); legs&runsSubstring != 0 || legs&runsText == 0 {
		for _, l := range leaves {
			q.subs = append(q.subs, find.New(l.folded))
		}
	}
	key := map[*leaf]int{}
	for i, l := range leaves {
		key[l] = len(leaves) + i
	}
	// The words of the text leg, with their expansions; a tolerant hit
	// matched those of the tolerant pass.
	tp := s.exactPlan
	if tolerant {
		tp = s.tolPlan
	}
	if tp != nil {
		for _, tl := range tp.leaves {
			k, ok := key[tl.leaf]
			if !ok {
				continue
			}
			for _, g := range tl.groups {
				for _, ti := range g.terms {
					for _, t := range tp.terms[ti].dict {
						if _, ok := q.terms[t]; ok {
							continue
						}
						q.terms[t] = k
						// A prefix's completions share their probe.
						p := t[:runePrefix(t, 3)]
						if !slices.ContainsFunc(q.probes, func(o probe) bool { return o.find.Needle() == p && o.key == k }) {
							q.probes = append(q.probes, probe{find.New(p), k})
						}
					}
				}
			}
		}
	}
	return q
}

// render returns the snippet of one field, or "" when the field has no
// match.
func (s *search) render(q *snippetQuery, text, ftext string, fmap []int) string {
	if len(ftext) > snippetScan {
		ftext = ftext[:snippetScan]
	}
	orig := func(i int) int {
		if fmap != nil {
			return fmap[i]
		}
		return i
	}
	var exact, guess []span
	for key, sub := range q.subs {
		n := len(sub.Needle())
		if n == 0 {
			continue
		}
		for i, k := 0, 0; k < snippetSpans; k++ {
			j := sub.Index(ftext[i:])
			if j < 0 {
				break
			}
			exact = append(exact, span{orig(i + j), orig(i + j + n), key})
			i += j + n
		}
	}
	for _, p := range q.probes {
		n := len(p.find.Needle())
		for i, k := 0, 0; k < snippetSpans; {
			j := p.find.Index(ftext[i:])
			if j < 0 {
				break
			}
			if at := orig(i + j); partStart(text, at) {
				guess = append(guess, span{at, orig(i + j + n), p.key})
				k++
			}
			i += j + n
		}
	}
	if len(exact)+len(guess) == 0 {
		return ""
	}
	lo, hi := window(text, sortSpans(append(slices.Clone(exact), guess...)))
	spans := exact
	if len(guess) > 0 {
		spans = append(spans, s.wordSpans(q, text, lo, hi, guess)...)
	}
	spans = sortSpans(spans)
	if len(spans) == 0 {
		return ""
	}
	return s.mark(text, lo, hi, spans)
}

// wordSpans analyzes the words around the candidates that fall in
// text[lo:hi] and returns their tokens that are query terms.
func (s *search) wordSpans(q *snippetQuery, text string, lo, hi int, guess []span) []span {
	var out []span
	seen := map[int]bool{}
	for _, g := range guess {
		if g.start < lo || g.start >= hi {
			continue
		}
		start, end := wordAround(text, g.start)
		if seen[start] {
			continue
		}
		seen[start] = true
		for _, tok := range s.ix.textA.Analyze([]byte(text[start:end])) {
			if key, ok := q.terms[string(tok.Term)]; ok {
				out = append(out, span{start + tok.Start, start + tok.End, key})
			}
		}
	}
	return out
}

// sortSpans sorts spans and merges overlapping ones.
func sortSpans(spans []span) []span {
	slices.SortFunc(spans, func(a, b span) int {
		if a.start != b.start {
			return a.start - b.start
		}
		return b.end - a.end
	})
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

// window picks the part of text to show: the window of about
// snippetBytes holding the most distinct matched terms, starting a little
// before its first match, on word boundaries where possible.
func window(text string, spans []span) (lo, hi int) {
	lo, hi = 0, min(len(text), snippetBytes)
	if len(spans) > 0 {
		best, bestKeys := 0, -1
		var keys []int
		for i := range spans {
			keys = keys[:0]
			for j := i; j < len(spans) && spans[j].end <= spans[i].start+snippetBytes-snippetBefore; j++ {
				if !slices.Contains(keys, spans[j].key) {
					keys = append(keys, spans[j].key)
				}
			}
			if len(keys) > bestKeys {
				best, bestKeys = i, len(keys)
			}
		}
		lo = max(0, spans[best].start-snippetBefore)
		hi = min(len(text), lo+snippetBytes)
	}
	return wordBoundary(text, lo, false), wordBoundary(text, hi, true)
}

// mark renders text[lo:hi], HTML-escaped, with the spans in it marked.
func (s *search) mark(text string, lo, hi int, spans []span) string {
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

// partStart reports whether byte i of text can begin an analyzed term: it
// follows a non-letter, or starts a camelCase part or a letter/digit run.
func partStart(text string, i int) bool {
	if i == 0 {
		return true
	}
	prev, _ := utf8.DecodeLastRuneInString(text[:i])
	r, n := utf8.DecodeRuneInString(text[i:])
	switch {
	case !unicode.IsLetter(prev) && !unicode.IsDigit(prev):
		return true
	case unicode.IsUpper(r) && !unicode.IsUpper(prev):
		return true
	case unicode.IsUpper(r) && unicode.IsUpper(prev):
		// XMLParser: "Parser" starts where an upper is followed by a lower.
		next, _ := utf8.DecodeRuneInString(text[i+n:])
		return unicode.IsLower(next)
	}
	return unicode.IsDigit(r) != unicode.IsDigit(prev)
}
