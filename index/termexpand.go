package index

import (
	"cmp"
	"slices"
	"strings"

	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/twindex/twindex/index/internal/edits"
)

// MaxExpansions bounds the indexed terms one prefix or one fuzzy word
// stands for: a prefix reads its most frequent MaxExpansions terms, a
// fuzzy word its nearest (then most frequent) ones, so "a*" on a large
// index costs one pass over the dictionary's "a" range and at most this
// many posting lists.
const MaxExpansions = 32

// fuzzyExpansions bounds the indexed terms a fuzzy word stands for: the
// nearest and most frequent few, as each costs a posting list.
const fuzzyExpansions = 16

// expansion is an indexed term and how many documents hold it.
type expansion struct {
	term  string
	word  string // the word as written that matched, when fieldWords gave it
	count uint64
	dist  int // edits from the fuzzy word; 0 for a prefix
}

// expandPrefix returns the most frequent indexed terms of the text fields
// that start with any of prefixes, or whose words as written do
// (fieldWords: "configurat" completes to "configuration", whose term is
// "configur"), up to n.
func (s *search) expandPrefix(prefixes []string, n int) ([]string, error) {
	if err := s.probeDicts(); err != nil {
		return nil, err
	}
	found := map[string]uint64{}
	written := map[string]uint64{}
	for i, p := range prefixes {
		// A prefix that another one starts with adds nothing to its range.
		if p == "" || slices.ContainsFunc(prefixes[:i], func(o string) bool { return strings.HasPrefix(p, o) }) ||
			slices.ContainsFunc(prefixes[i+1:], func(o string) bool { return o != p && strings.HasPrefix(p, o) }) {
			continue
		}
		for _, f := range []string{fieldTitle, fieldBody, fieldWords} {
			d, err := s.textR.FieldDictPrefix(f, []byte(p))
			if err != nil {
				return nil, err
			}
			into := found
			if f == fieldWords {
				into = written
			}
			if err := drain(d, func(e *bleveindex.DictEntry) { into[e.Term] = max(into[e.Term], e.Count) }); err != nil {
				return nil, err
			}
		}
	}
	// Only the most frequent words are worth their terms: an analysis each.
	ws := make([]expansion, 0, len(written))
	for w, c := range written {
		ws = append(ws, expansion{term: w, count: c})
	}
	for _, w := range best(ws, n) {
		if t, ok := s.ix.textA.Term(w.term); ok {
			found[t] = max(found[t], w.count)
		}
	}
	out := make([]expansion, 0, len(found))
	for t, c := range found {
		out = append(out, expansion{term: t, count: c})
	}
	return terms(best(out, n)), nil
}

// expandFuzzy returns the indexed terms whose words are within dist edits
// of word, a query word as written (folded), nearest first, then most
// frequent, up to fuzzyExpansions; own, the word's term, is left out.
// Words are compared as written, so that a typo where the stemmer cuts
// ("configuraton") is found: those of fieldWords, which stemming changed,
// stand for their terms, and the text fields' terms are the other words
// as written. A word two edits away must keep the first character: a
// Levenshtein automaton of distance 2 walks much of the dictionary unless
// anchored, while typos rarely hit the first letter (one that does is
// still found at one edit). Scorch finds the words with automata; other
// backends by a pass over each dictionary.
func (s *search) expandFuzzy(word, own string, dist int) ([]expansion, error) {
	if dist <= 0 || word == "" {
		return nil, nil
	}
	dist = min(dist, int(MaxFuzzy))
	if err := s.probeDicts(); err != nil {
		return nil, err
	}
	q := []rune(word)
	first := string(q[:1])
	found := map[string]expansion{}
	var field string
	add := func(e *bleveindex.DictEntry) {
		if e.Term == word {
			return
		}
		d := edits.Distance(q, e.Term, dist)
		if d > dist || (d > 1 && !strings.HasPrefix(e.Term, first)) {
			return
		}
		x := expansion{term: e.Term, count: e.Count, dist: d}
		if field == fieldWords {
			t, ok := s.ix.textA.Term(e.Term)
			if !ok {
				return
			}
			x.term, x.word = t, e.Term
		}
		if x.term == own {
			return
		}
		// Of the words of one term, the nearest speaks for it.
		if y, ok := found[x.term]; ok {
			if y.dist < x.dist || (y.dist == x.dist && y.count >= x.count) {
				x.word, x.dist = y.word, y.dist
			}
			x.count = max(x.count, y.count)
		}
		found[x.term] = x
	}
	// The body's dictionary and the words' hold nearly every word; the
	// title's is read only when they have nothing near.
	for _, field = range []string{fieldBody, fieldWords, fieldTitle} {
		if field == fieldTitle && len(found) > 0 {
			break
		}
		fz, ok := s.textR.(bleveindex.IndexReaderFuzzy)
		if !ok {
			d, err := s.textR.FieldDict(field)
			if err != nil {
				return nil, err
			}
			if err := drain(d, add); err != nil {
				return nil, err
			}
			continue
		}
		for d := 1; d <= dist; d++ {
			prefix := ""
			if d > 1 {
				prefix = first
			}
			fd, err := fz.FieldDictFuzzy(field, word, d, prefix)
			if err != nil {
				return nil, err
			}
			if err := drain(fd, add); err != nil {
				return nil, err
			}
		}
	}
	// Scorch's dictionary iterators count wrong once they have read a
	// term that one document holds once (zapx#445: every later term then
	// reports 1), so the counts come from the terms' own posting lists.
	out := make([]expansion, 0, len(found))
	for _, e := range found {
		n, err := s.docFreq(e.term)
		if err != nil {
			return nil, err
		}
		e.count = n
		out = append(out, e)
	}
	return best(out, fuzzyExpansions), nil
}

// probeDicts decodes the text fields' dictionaries of every segment once,
// in this goroutine, before the first FieldDict call of a search: scorch
// decodes them for FieldDict in goroutines of its own, where a damaged
// segment's panic would kill the process instead of reaching guard.
func (s *search) probeDicts() error {
	if s.probed {
		return nil
	}
	for _, f := range []string{fieldTitle, fieldBody, fieldWords} {
		r, err := s.textR.TermFieldReader(s.ctx, nil, f, false, false, false)
		if err != nil {
			return err
		}
		r.Close()
	}
	s.probed = true
	return nil
}

// best sorts expansions nearest first, then most frequent, then by term,
// and keeps the first n.
func best(es []expansion, n int) []expansion {
	slices.SortFunc(es, func(a, b expansion) int {
		if c := cmp.Compare(a.dist, b.dist); c != 0 {
			return c
		}
		if c := cmp.Compare(b.count, a.count); c != 0 {
			return c
		}
		return strings.Compare(a.term, b.term)
	})
	return es[:min(len(es), n)]
}

func terms(es []expansion) []string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.term
	}
	return out
}

func drain(d bleveindex.FieldDict, fn func(*bleveindex.DictEntry)) error {
	defer d.Close()
	for {
		e, err := d.Next()
		if err != nil {
			return err
		}
		if e == nil {
			return nil
		}
		fn(e)
	}
}
