package index

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/analysis"

	"github.com/twindex/twindex/index/internal/edits"
	"github.com/twindex/twindex/index/internal/plan"
	"github.com/twindex/twindex/index/internal/terms"
	"github.com/twindex/twindex/tokenize"
)

// Weights of expanded terms, relative to a word as typed.
const (
	typingWeight   = 0.5 // the other completions of a word still being typed
	tolerantWeight = 0.5 // one-edit and prefix matches of the tolerant pass
	farWeight      = 0.1 // two-edit matches of the tolerant pass
)

// partWeight weighs a part of a query identifier (read, file of ReadFile)
// in a document that does not hold the whole identifier: a whole-identifier
// match ranks above a match of its parts.
const partWeight = 0.5

// tolerance is what the tolerant pass adds to each query word.
type tolerance struct {
	fuzzy  Fuzzy
	prefix bool
	// unknown: only the words no document holds are tolerated (the
	// fallback for such a word among others that match).
	unknown bool
}

// textPlan builds the term table. With tol set it is the tolerant pass's:
// every word of a positive leaf also stands for its fuzzy matches, and
// with tol.prefix for its completions.
func (s *search) textPlan(tol *tolerance) (*plan.Text, error) {
	tp := &plan.Text{ByLeaf: map[*plan.Leaf]*plan.TextLeaf{}}
	exact := map[string]int{}
	direct := map[int]bool{} // terms that some leaf uses as a word, not as a part
	use := func(i int, l *plan.Leaf, bit int) int {
		t := &tp.Terms[i]
		t.Positive = t.Positive || !l.Negated
		if bit < 64 {
			t.Leaves |= 1 << bit
		}
		return i
	}
	addExact := func(term string) int {
		i, ok := exact[term]
		if !ok {
			i = len(tp.Terms)
			exact[term] = i
			tp.Terms = append(tp.Terms, plan.Term{Dict: []string{term}, Weight: 1, Single: true, Part: -1})
		}
		return i
	}
	addSet := func(dict []string, weight float64) int {
		tp.Terms = append(tp.Terms, plan.Term{Dict: dict, Weight: weight, Part: -1})
		return len(tp.Terms) - 1
	}
	addTolerant := func(dict []string, weight float64) int {
		i := addSet(dict, weight)
		tp.Terms[i].Tolerant = true
		return i
	}
	for li, l := range s.plan.Leaves {
		toks := s.ix.textA.Analyze([]byte(l.Text))
		// A prefix whose last word the analyzer drops (a stop word: the*)
		// still stands for that word's completions.
		tail := ""
		if l.Prefix || l.Typing {
			if w, end := terms.LastWord(l.Text); len(toks) == 0 || toks[len(toks)-1].End != end {
				tail = w
			}
		}
		// A phrase's stop words must stand where they stand in it, though
		// the text index holds none ("of the file" is not "file"); a
		// phrase of stop words alone restricts the matches that other
		// words make.
		var stops analysis.TokenStream
		if l.Phrase && !l.Prefix {
			stops = s.ix.textA.Stops([]byte(l.Text))
		}
		if len(toks) == 0 && tail == "" && len(stops) == 0 {
			continue
		}
		tl := &plan.TextLeaf{Leaf: l}
		end, first := 0, 0
		for _, tok := range toks {
			end = max(end, tok.End)
		}
		if len(toks) > 0 {
			first = toks[0].Position
		}
		if len(stops) > 0 && (len(toks) == 0 || stops[0].Position < first) {
			first = stops[0].Position
		}
		groupAt := map[int]int{}
		group := func(rel int) int {
			g, ok := groupAt[rel]
			if !ok {
				g = len(tl.Groups)
				groupAt[rel] = g
				tl.Groups = append(tl.Groups, plan.Group{Rel: rel})
			}
			return g
		}
		// The stop words are groups of their own where no token is, made
		// in the order of their positions with the tokens'.
		i := 0
		for _, st := range stops {
			for ; i < len(toks) && toks[i].Position <= st.Position; i++ {
				group(toks[i].Position - first)
			}
			if i == 0 || toks[i-1].Position != st.Position {
				g := group(st.Position - first)
				tl.Groups[g].Stop = string(st.Term)
			}
		}
		ids := make([][]int, len(toks))
		for i, tok := range toks {
			rel := tok.Position - first
			g := group(rel)
			term := string(tok.Term)
			// CJK text is already indexed by its characters and pairs:
			// no completions for it.
			last := tok.End == end && tok.Type != analysis.Ideographic
			// What the word's completions start with: its term and, as a
			// stem may end otherwise (happi), its folded spelling.
			prefixes := func() []string { return []string{term, tokenize.Fold(l.Text[tok.Start:tok.End])} }
			switch {
			case l.Prefix && last:
				dict, err := s.expandPrefix(prefixes(), MaxExpansions)
				if err != nil {
					return nil, err
				}
				if len(dict) > 0 {
					ids[i] = append(ids[i], use(addSet(dict, 1), l, li))
				}
			default:
				ids[i] = append(ids[i], use(addExact(term), l, li))
				if l.Typing && last && utf8.RuneCountInString(term) >= plan.MinTypingRunes {
					dict, err := s.expandPrefix(prefixes(), plan.TypingExpansions)
					if err != nil {
						return nil, err
					}
					if dict = terms.Without(dict, term); len(dict) > 0 {
						ids[i] = append(ids[i], use(addSet(dict, typingWeight), l, li))
					}
				}
			}
			if tol != nil && !l.Negated && !l.Quoted && !(l.Prefix && last) {
				near, far, err := s.tolerate(term, tokenize.Fold(l.Text[tok.Start:tok.End]), tol)
				if err != nil {
					return nil, err
				}
				if len(near) > 0 {
					ids[i] = append(ids[i], use(addTolerant(near, tolerantWeight), l, li))
				}
				if len(far) > 0 {
					ids[i] = append(ids[i], use(addTolerant(far, farWeight), l, li))
				}
			}
			tl.Groups[g].Terms = append(tl.Groups[g].Terms, ids[i]...)
		}
		// Groups with a part of three characters or more: a compound
		// (xreader of xReader) shares its first part's group but is not
		// a part.
		long := map[int]bool{}
		for _, tok := range toks {
			if utf8.RuneCount(tok.Term) > 2 && !slices.ContainsFunc(toks, func(b *analysis.Token) bool { return within(b, tok) }) {
				long[groupAt[tok.Position-first]] = true
			}
		}
		for g := range tl.Groups {
			tl.Groups[g].Minor = len(tl.Groups[g].Terms) > 0 && !long[g]
		}
		for i, w := range hyphenated(l.Text, toks) {
			if w > 0 {
				tl.Groups[groupAt[toks[i].Position-first]].Prose = w
			}
		}
		// A token whose span holds other tokens' spans is a compound, and
		// they are its parts.
		var parts [][2]int // part's term, compound's term
		for i, a := range toks {
			var covered []int
			for j, b := range toks {
				if j != i && within(b, a) {
					covered = append(covered, groupAt[b.Position-first])
					// A hyphenated compound is prose (low-dose, T-cell):
					// its parts apart mean the same.
					if len(ids[i]) > 0 && !strings.ContainsFunc(l.Text[a.Start:a.End], func(r rune) bool { return strings.ContainsRune(hyphens, r) || unicode.IsDigit(r) }) {
						for _, t := range ids[j] {
							parts = append(parts, [2]int{t, ids[i][0]})
						}
					}
				}
			}
			if covered == nil {
				continue
			}
			// The compound shares its first part's group: count each once,
			// so that compound sees whether it covers every group.
			covered = append(covered, groupAt[a.Position-first])
			slices.Sort(covered)
			covered = slices.Compact(covered)
			for _, t := range ids[i] {
				tl.Covers = append(tl.Covers, plan.Cover{Term: t, Groups: covered})
			}
		}
		for _, p := range parts {
			if t := &tp.Terms[p[0]]; !direct[p[0]] && t.Part < 0 {
				t.Part = p[1]
			}
		}
		for i := range toks {
			if len(ids[i]) > 0 && !slices.ContainsFunc(parts, func(p [2]int) bool { return p[0] == ids[i][0] }) {
				for _, t := range ids[i] {
					direct[t] = true
					tp.Terms[t].Part = -1
				}
			}
		}
		if tail != "" {
			rel := 0
			if len(tl.Groups) > 0 {
				rel = tl.Groups[len(tl.Groups)-1].Rel + 1
			}
			n := MaxExpansions
			if l.Typing {
				n = plan.TypingExpansions
			}
			dict, err := s.expandPrefix([]string{tokenize.Fold(tail)}, n)
			if err != nil {
				return nil, err
			}
			// Minor: a stop word being typed (the as of errors.As) is no
			// part that a word of parts asks for; no cover spans it.
			g := plan.Group{Rel: rel, Minor: true}
			if len(dict) > 0 {
				w := 1.0
				if l.Typing {
					w = typingWeight
				}
				g.Terms = []int{use(addSet(dict, w), l, li)}
			}
			tl.Groups = append(tl.Groups, g)
		}
		tl.Unite()
		tp.Leaves = append(tp.Leaves, tl)
		tp.ByLeaf[l] = tl
		if l.Quoted {
			tp.Required = append(tp.Required, tl)
		}
		if !l.Negated && (len(toks) > 0 || tail != "") {
			tp.Words++
			if li < 64 {
				tp.WordLeaves |= 1 << li
			}
		}
	}
	for _, f := range s.added {
		tp.Terms = append(tp.Terms, plan.Term{Dict: []string{f.term}, Weight: f.weight, Positive: true, Single: true, Added: true, Part: -1})
	}
	if len(tp.Terms) > maxTextTerms {
		return nil, fmt.Errorf("%w: the query's words make %d terms, the limit is %d", ErrInvalidRequest, len(tp.Terms), maxTextTerms)
	}
	return tp, nil
}

// within reports whether token b is a part of compound token a: its
// span is inside a's and shorter.
func within(b, a *analysis.Token) bool {
	return b.Start >= a.Start && b.End <= a.End && b.End-b.Start < a.End-a.Start
}

// hyphens are the dashes that join a hyphenated word: the hyphens, the
// figure and en dashes (T–cell, 1990–2000), not the em dash that sets a
// clause apart (read—file).
const hyphens = "-\u2010\u2011\u2012\u2013\ufe63\uff0d"

// hyphenated returns, by token of text, the number of the hyphenated
// word that holds it (1 for the first), 0 for none: words joined by
// hyphens (low-dose, T–cell, 1,2-dichloroethane; not by the dots and
// slashes of a path), of which client and go of k8s.io/client-go are
// one, and k8s and io two. A compound token spanning more than one such
// word is of none.
func hyphenated(text string, toks analysis.TokenStream) []int {
	type span struct{ start, end int }
	var words []span // dash-joined runs of letters and digits
	alnum := func(r rune) bool { return unicode.In(r, unicode.L, unicode.M, unicode.N) }
	start, joined := -1, false
	prev := rune(0)
	for i, r := range text {
		_, n := utf8.DecodeRuneInString(text[i:])
		next, _ := utf8.DecodeRuneInString(text[i+n:])
		switch {
		case alnum(r):
			if start < 0 {
				start, joined = i, false
			}
		case start >= 0 && strings.ContainsRune(hyphens, r) && alnum(prev) && alnum(next):
			joined = true
		case start >= 0 && r == ',' && unicode.IsDigit(prev) && unicode.IsDigit(next):
			// 3,4 of phosphatidylinositol-3,4-bisphosphate
		default:
			if start >= 0 && joined {
				words = append(words, span{start, i})
			}
			start = -1
		}
		prev = r
	}
	if start >= 0 && joined {
		words = append(words, span{start, len(text)})
	}
	out := make([]int, len(toks))
	for i, tok := range toks {
		for w, sp := range words {
			if tok.Start >= sp.start && tok.End <= sp.end {
				out[i] = w + 1
			}
		}
	}
	return out
}

// maxTextTerms bounds the text leg's term table (words, compounds' parts
// and expansion sets), whose presence bits each match carries.
const maxTextTerms = 256

// tolerate returns the indexed terms a query word (its term, and its
// folded spelling) also stands for in the tolerant pass: near, those
// whose words are one edit from the word as written and, with
// tol.prefix, its completions; far, those two edits away, weighed much
// lower so that they rank below the near ones.
func (s *search) tolerate(term, word string, tol *tolerance) (near, far []string, err error) {
	dist := int(tol.fuzzy)
	if tol.fuzzy == FuzzyAuto {
		dist = edits.Auto(utf8.RuneCountInString(word))
	}
	typing := tol.prefix && utf8.RuneCountInString(term) >= plan.MinTypingRunes
	if s.rec != nil {
		// A shard gathering statistics records the word's neighbours and
		// completions whatever it holds itself: whether the word is
		// known is the collection's to say.
		if dist > 0 {
			if _, _, err := s.fuzzyCounts(word, term, min(dist, int(MaxFuzzy))); err != nil {
				return nil, nil, err
			}
		}
		if typing {
			if _, _, err := s.prefixCounts([]string{term, word}); err != nil {
				return nil, nil, err
			}
		}
	}
	if _, global := s.g.LookupTerm(term); (dist > 0 || tol.unknown) && !global {
		s.rec.Taint() // the word is judged known or not by this shard alone
	}
	if dist > 0 || tol.unknown {
		n, err := s.docFreq(term)
		if err != nil {
			return nil, nil, err
		}
		if tol.unknown && n > 0 {
			return nil, nil, nil
		}
		if terms.Known(n, s.n) {
			dist = 0
		}
	}
	fz, err := s.expandFuzzy(word, term, dist)
	if err != nil {
		return nil, nil, err
	}
	var more []string
	if typing {
		if more, err = s.expandPrefix([]string{term, word}, plan.TypingExpansions); err != nil {
			return nil, nil, err
		}
	}
	near, far = terms.Split(fz, more, term)
	return near, far, nil
}
