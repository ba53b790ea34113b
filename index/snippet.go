package index

import (
	"html"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/analysis"

	"github.com/twindex/twindex/index/internal/find"
	"github.com/twindex/twindex/index/internal/plan"
	"github.com/twindex/twindex/index/internal/record"
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
// match, HTML-escaped, matches wrapped in the request's markers, and the
// byte offset of that match in the body (-1 when the body shows none). A
// declaration of a query term at prefer (-1: none) is the best match, and
// matches before floor (the licence comment) count only when there are no
// others.
//
// Text-leg matches are words whose analyzed terms are query terms. Only
// words inside the shown window are analyzed; the window is chosen from
// cheap candidates: the places where a term's first three characters start
// a word or a camelCase part.
func (s *search) snippet(q *snippetQuery, title, body string, f *record.Folded, prefer, floor int) (field, snip string, at int) {
	if snip, at := s.render(q, body, f.Body, f.BodyMap, prefer, floor); snip != "" || title == "" {
		return fieldBody, snip, at
	}
	if snip, _ := s.render(q, title, f.Title, f.TitleMap, -1, 0); snip != "" {
		return fieldTitle, snip, -1
	}
	lo, hi, _ := window(body, nil, -1, 0)
	return fieldBody, s.mark(body, lo, hi, nil), -1
}

// snippetQuery is what snippets and lines look for: the query's folded
// terms as substrings (keys 0..n-1), its analyzed terms (keys n..), each
// with a probe, its first three characters, and its quoted phrases of
// several words as runs of words.
type snippetQuery struct {
	subs   []find.Finder
	terms  map[string]int
	probes []probe
	runs   []phraseRun
	tp     *plan.Text
	// defines holds the folded text of the query's terms: a declared
	// name among them is the best match.
	defines map[string]bool
}

type probe struct {
	find find.Finder
	key  int
}

// phraseRun is a quoted phrase the text leg matched as a run of words.
type phraseRun struct {
	tl  *plan.TextLeaf
	key int
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
	q := &snippetQuery{terms: map[string]int{}, defines: map[string]bool{}}
	leaves := s.plan.Positive()
	for _, l := range leaves {
		q.defines[l.Folded] = true
	}
	// Exact substrings, unless only words were searched for.
	if legs := s.req.Mode.legs(); legs&runsSubstring != 0 || legs&runsText == 0 {
		for _, l := range leaves {
			q.subs = append(q.subs, find.New(l.Folded))
		}
	}
	key := map[*plan.Leaf]int{}
	for i, l := range leaves {
		key[l] = len(leaves) + i
	}
	// The words of the text leg, with their expansions: of the tolerant
	// pass when it ranked the text leg, its tolerant ones only for a hit
	// it matched approximately.
	tp := s.exactPlan
	if s.tolPlan != nil {
		tp = s.tolPlan
	}
	if tp != nil {
		q.tp = tp
		for _, tl := range tp.Leaves {
			k, ok := key[tl.Leaf]
			if !ok {
				continue
			}
			if tl.Quoted && tl.NeedsPositions() {
				q.runs = append(q.runs, phraseRun{tl, k})
				continue
			}
			for _, g := range tl.Groups {
				for _, ti := range g.Terms {
					if tp.Terms[ti].Tolerant && !tolerant {
						continue
					}
					for _, t := range tp.Terms[ti].Dict {
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

// matchSpans returns the exact matches in a field (substrings, and the
// runs of quoted phrases), up to limit occurrences of each term, and
// guesses: the places where a word that may be a query word starts.
func (s *search) matchSpans(q *snippetQuery, text, ftext string, fmap []int, limit int) (exact, guess []span) {
	if len(ftext) > snippetScan {
		ftext = ftext[:snippetScan]
	}
	orig := func(i int) int {
		if fmap != nil {
			return fmap[i]
		}
		return i
	}
	for key, sub := range q.subs {
		n := len(sub.Needle())
		if n == 0 {
			continue
		}
		for i, k := 0, 0; k < limit; k++ {
			j := sub.Index(ftext[i:])
			if j < 0 {
				break
			}
			exact = append(exact, span{orig(i + j), orig(i + j + n), key})
			i += j + n
		}
	}
	if len(q.runs) > 0 {
		exact = append(exact, q.runSpans(s.ix.textA.Analyze([]byte(text[:orig(len(ftext))])))...)
	}
	for _, p := range q.probes {
		n := len(p.find.Needle())
		for i, k := 0, 0; k < limit; {
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
	return exact, guess
}

// runSpans returns where the quoted phrases run in a field, given its
// tokens: from the first word's start to the last one's end.
func (q *snippetQuery) runSpans(toks analysis.TokenStream) []span {
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
		for _, o := range r.tl.Occurrences(q.tp, pos) {
			out = append(out, span{at[o[0]][0], at[o[1]][1], r.key})
		}
	}
	return out
}

// render returns the snippet of one field, or "" when the field has no
// match, and the offset of its best match; see snippet for prefer and
// floor.
func (s *search) render(q *snippetQuery, text, ftext string, fmap []int, prefer, floor int) (string, int) {
	exact, guess := s.matchSpans(q, text, ftext, fmap, snippetSpans)
	if len(exact)+len(guess) == 0 {
		return "", -1
	}
	// Matches in the licence comment count when there are no others.
	if floor > 0 && slices.ContainsFunc(slices.Concat(exact, guess), func(sp span) bool { return sp.start >= floor }) {
		out := func(sp span) bool { return sp.start < floor }
		exact, guess = slices.DeleteFunc(exact, out), slices.DeleteFunc(guess, out)
	} else {
		floor = 0
	}
	lo, hi, at := window(text, sortSpans(append(slices.Clone(exact), guess...)), prefer, floor)
	spans := exact
	if len(guess) > 0 {
		spans = append(spans, s.wordSpans(q, text, lo, hi, guess)...)
	}
	spans = sortSpans(spans)
	if len(spans) == 0 {
		return "", -1
	}
	// The best match: the first at or after the window's anchor.
	best := spans[0].start
	if i := slices.IndexFunc(spans, func(sp span) bool { return sp.start >= at }); i >= 0 {
		best = spans[i].start
	}
	return s.mark(text, lo, hi, spans), best
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
// snippetBytes holding the most distinct matched terms, or the one that
// starts at prefer (a declaration) when prefer >= 0, starting a little
// before its first match but not before floor, on word boundaries where
// possible. at is the window's first match.
func window(text string, spans []span, prefer, floor int) (lo, hi, at int) {
	lo, hi, at = floor, min(len(text), floor+snippetBytes), -1
	switch {
	case prefer >= 0:
		at = prefer
	case len(spans) > 0:
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
		at = spans[best].start
	}
	if at >= 0 {
		lo = max(floor, at-snippetBefore)
		hi = min(len(text), lo+snippetBytes)
	}
	lo = wordBoundary(text, lo, false)
	if lo < floor {
		lo = floor
	}
	return lo, wordBoundary(text, hi, true), at
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
