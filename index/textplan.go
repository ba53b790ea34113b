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
	"github.com/twindex/twindex/query"
	"github.com/twindex/twindex/tokenize"
)

// Weights of expanded terms, relative to a word as typed.
const (
	typingWeight   = 0.5 // the other completions of a word still being typed
	tolerantWeight = 0.5 // one-edit and prefix matches of the tolerant pass
	farWeight      = 0.1 // two-edit matches of the tolerant pass
)

// tterm is one entry of the text leg's term table: the term of a query
// word, or the set of indexed terms that a prefix or a fuzzy word stands
// for, read as one term (as FTS5 reads a prefix query).
type tterm struct {
	dict     []string
	weight   float64
	positive bool   // some leaf not under a NOT uses it: it creates matches and scores
	tolerant bool   // a tolerant pass's expansion: its matches are not exact
	single   bool   // the term of one query word: its df is its posting lists' count
	leaves   uint64 // bit i: leaf i of the plan uses it (for coordination)
	added    bool   // added by feedback: scores the matches, makes none
	// part is the entry of the whole identifier whose part this term is
	// (read and file of ReadFile), -1 for none: a document without the
	// whole identifier weighs the part partWeight.
	part int
}

// partWeight weighs a part of a query identifier (read, file of ReadFile)
// in a document that does not hold the whole identifier: a whole-identifier
// match ranks above a match of its parts.
const partWeight = 0.5

// tleaf is what the text leg makes of a leaf: its tokens grouped by
// position, each group satisfied by any of its terms.
type tleaf struct {
	*plan.Leaf
	groups []tgroup // by position, first at rel 0
	covers []tcover
}

type tgroup struct {
	rel   int   // position relative to the leaf's first
	terms []int // entries of the term table
}

// tcover says that a compound's term (getuserbyid), when present,
// satisfies the groups of its parts (get, user, id): the same identifier
// written without case changes has no part terms.
type tcover struct {
	term   int
	groups []int
}

// textPlan is the text leg's view of a query.
type textPlan struct {
	terms      []tterm
	leaves     []*tleaf
	byLeaf     map[*plan.Leaf]*tleaf
	words      int    // positive leaves with terms
	wordLeaves uint64 // bit i: leaf i of the plan is one of them
	// required are the quoted leaves of a simple query, which every
	// match holds.
	required []*tleaf
}

// tolerance is what the tolerant pass adds to each query word.
type tolerance struct {
	fuzzy  Fuzzy
	prefix bool
	// unknown: only the words no document holds are tolerated (the
	// fallback for such a word among others that match).
	unknown bool
}

// needsPositions reports whether matching l takes its words' positions.
func (tl *tleaf) needsPositions() bool {
	return tl.Initial || (tl.Phrase && len(tl.groups) > 1)
}

// positional reports whether judging a document under a strict plan may
// take its words' positions: a phrase, ^ or NEAR.
func (tp *textPlan) positional() bool {
	for _, tl := range tp.leaves {
		if tl.needsPositions() || tl.Near {
			return true
		}
	}
	return false
}

// present reports whether the terms present in one field (bits of the
// term table) satisfy every group of the leaf, ignoring positions.
func (tl *tleaf) present(bits []uint64) bool {
	has := func(t int) bool { return bits[t/64]&(1<<(t%64)) != 0 }
	for gi, g := range tl.groups {
		ok := slices.ContainsFunc(g.terms, has)
		for _, c := range tl.covers {
			if ok {
				break
			}
			ok = has(c.term) && slices.Contains(c.groups, gi)
		}
		if !ok {
			return false
		}
	}
	return true
}

// compound reports whether a present compound term covers every group:
// an identifier's parts are adjacent within it, so no positions are
// needed (the phrase "types2.Package" or prefix "getUs"*).
func (tl *tleaf) compound(bits []uint64) bool {
	for _, c := range tl.covers {
		if bits[c.term/64]&(1<<(c.term%64)) != 0 && len(c.groups) >= len(tl.groups) {
			return true
		}
	}
	return false
}

// occurrences returns where the leaf occurs in a field, as [first, last]
// positions, given the field's term positions. With initial it must start
// the field.
func (tl *tleaf) occurrences(tp *textPlan, pos map[string][]int) [][2]int {
	var out [][2]int
	at := func(g tgroup, p int) bool {
		for _, t := range g.terms {
			for _, term := range tp.terms[t].dict {
				if _, ok := slices.BinarySearch(pos[term], p); ok {
					return true
				}
			}
		}
		return false
	}
	var starts []int
	for _, t := range tl.groups[0].terms {
		for _, term := range tp.terms[t].dict {
			starts = append(starts, pos[term]...)
		}
	}
	slices.Sort(starts)
	starts = slices.Compact(starts)
	lastRel := tl.groups[len(tl.groups)-1].rel
	for _, p := range starts {
		if tl.Initial && p != 1 {
			continue
		}
		ok := true
		for _, g := range tl.groups[1:] {
			if !at(g, p+g.rel) {
				ok = false
				break
			}
		}
		if ok {
			out = append(out, [2]int{p, p + lastRel})
		}
	}
	return out
}

// textPlan builds the term table. With tol set it is the tolerant pass's:
// every word of a positive leaf also stands for its fuzzy matches, and
// with tol.prefix for its completions.
func (s *search) textPlan(tol *tolerance) (*textPlan, error) {
	tp := &textPlan{byLeaf: map[*plan.Leaf]*tleaf{}}
	exact := map[string]int{}
	direct := map[int]bool{} // terms that some leaf uses as a word, not as a part
	use := func(i int, l *plan.Leaf, bit int) int {
		t := &tp.terms[i]
		t.positive = t.positive || !l.Negated
		if bit < 64 {
			t.leaves |= 1 << bit
		}
		return i
	}
	addExact := func(term string) int {
		i, ok := exact[term]
		if !ok {
			i = len(tp.terms)
			exact[term] = i
			tp.terms = append(tp.terms, tterm{dict: []string{term}, weight: 1, single: true, part: -1})
		}
		return i
	}
	addSet := func(dict []string, weight float64) int {
		tp.terms = append(tp.terms, tterm{dict: dict, weight: weight, part: -1})
		return len(tp.terms) - 1
	}
	addTolerant := func(dict []string, weight float64) int {
		i := addSet(dict, weight)
		tp.terms[i].tolerant = true
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
		if len(toks) == 0 && tail == "" {
			continue
		}
		tl := &tleaf{Leaf: l}
		end, first := 0, 0
		for _, tok := range toks {
			end = max(end, tok.End)
		}
		if len(toks) > 0 {
			first = toks[0].Position
		}
		groupAt := map[int]int{}
		ids := make([][]int, len(toks))
		for i, tok := range toks {
			rel := tok.Position - first
			g, ok := groupAt[rel]
			if !ok {
				g = len(tl.groups)
				groupAt[rel] = g
				tl.groups = append(tl.groups, tgroup{rel: rel})
			}
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
			tl.groups[g].terms = append(tl.groups[g].terms, ids[i]...)
		}
		// A token whose span holds other tokens' spans is a compound, and
		// they are its parts.
		var parts [][2]int // part's term, compound's term
		for i, a := range toks {
			var covered []int
			for j, b := range toks {
				if j != i && b.Start >= a.Start && b.End <= a.End && b.End-b.Start < a.End-a.Start {
					covered = append(covered, groupAt[b.Position-first])
					// A hyphenated compound is prose (low-dose, T-cell):
					// its parts apart mean the same.
					if len(ids[i]) > 0 && !strings.ContainsFunc(l.Text[a.Start:a.End], func(r rune) bool { return r == '-' || unicode.IsDigit(r) }) {
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
				tl.covers = append(tl.covers, tcover{term: t, groups: covered})
			}
		}
		for _, p := range parts {
			if t := &tp.terms[p[0]]; !direct[p[0]] && t.part < 0 {
				t.part = p[1]
			}
		}
		for i := range toks {
			if len(ids[i]) > 0 && !slices.ContainsFunc(parts, func(p [2]int) bool { return p[0] == ids[i][0] }) {
				for _, t := range ids[i] {
					direct[t] = true
					tp.terms[t].part = -1
				}
			}
		}
		if tail != "" {
			rel := 0
			if len(tl.groups) > 0 {
				rel = tl.groups[len(tl.groups)-1].rel + 1
			}
			n := MaxExpansions
			if l.Typing {
				n = plan.TypingExpansions
			}
			dict, err := s.expandPrefix([]string{tokenize.Fold(tail)}, n)
			if err != nil {
				return nil, err
			}
			g := tgroup{rel: rel}
			if len(dict) > 0 {
				w := 1.0
				if l.Typing {
					w = typingWeight
				}
				g.terms = []int{use(addSet(dict, w), l, li)}
			}
			tl.groups = append(tl.groups, g)
		}
		tp.leaves = append(tp.leaves, tl)
		tp.byLeaf[l] = tl
		if l.Quoted {
			tp.required = append(tp.required, tl)
		}
		if !l.Negated {
			tp.words++
			if li < 64 {
				tp.wordLeaves |= 1 << li
			}
		}
	}
	for _, f := range s.added {
		tp.terms = append(tp.terms, tterm{dict: []string{f.term}, weight: f.weight, positive: true, single: true, added: true, part: -1})
	}
	if len(tp.terms) > maxTextTerms {
		return nil, fmt.Errorf("%w: the query's words make %d terms, the limit is %d", ErrInvalidRequest, len(tp.terms), maxTextTerms)
	}
	return tp, nil
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

// textVerdict judges a document of the text leg under a strict plan.
// bits returns the presence bits of one field (0 title, 1 body), and
// positions the field's term positions, read from the stored text.
func (tp *textPlan) verdict(p *plan.Plan, bits func(f int) []uint64, positions func(f int) (map[string][]int, error)) (plan.Verdict, error) {
	var err error
	fieldsOf := func(fs plan.Fields) []int {
		var out []int
		if fs&plan.InTitle != 0 {
			out = append(out, 0)
		}
		if fs&plan.InBody != 0 {
			out = append(out, 1)
		}
		return out
	}
	leafOK := func(l *plan.Leaf) plan.Verdict {
		tl := tp.byLeaf[l]
		if tl == nil {
			return plan.Abstain
		}
		for _, f := range fieldsOf(l.Fields) {
			if !tl.present(bits(f)) {
				continue
			}
			if !tl.needsPositions() || (!tl.Initial && tl.compound(bits(f))) {
				return plan.Yes
			}
			pos, perr := positions(f)
			if perr != nil {
				err = perr
				return plan.No
			}
			if len(tl.occurrences(tp, pos)) > 0 {
				return plan.Yes
			}
		}
		return plan.No
	}
	nearOK := func(n *query.Near) plan.Verdict {
		var tls []*tleaf
		for _, c := range n.Children {
			if tl := tp.byLeaf[p.ByNode[c]]; tl != nil {
				tls = append(tls, tl)
			}
		}
		if len(tls) == 0 {
			return plan.Abstain
		}
	fields:
		for f := range 2 {
			for _, tl := range tls {
				if tl.Fields&(1<<f) == 0 || !tl.present(bits(f)) {
					continue fields
				}
			}
			pos, perr := positions(f)
			if perr != nil {
				err = perr
				return plan.No
			}
			occ := make([][][2]int, len(tls))
			for i, tl := range tls {
				occ[i] = tl.occurrences(tp, pos)
			}
			if plan.NearWithin(occ, n.Distance) {
				return plan.Yes
			}
		}
		return plan.No
	}
	v := p.Eval(p.Root, leafOK, nearOK)
	return v, err
}
