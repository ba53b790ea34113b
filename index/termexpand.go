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
	count uint64
	dist  int // edits from the fuzzy word; 0 for a prefix
}

// expandPrefix returns the most frequent indexed terms of the text fields
// that start with any of prefixes, up to n.
func (s *search) expandPrefix(prefixes []string, n int) ([]string, error) {
	if err := s.probeDicts(); err != nil {
		return nil, err
	}
	found := map[string]uint64{}
	for i, p := range prefixes {
		// A prefix that another one starts with adds nothing to its range.
		if p == "" || slices.ContainsFunc(prefixes[:i], func(o string) bool { return strings.HasPrefix(p, o) }) ||
			slices.ContainsFunc(prefixes[i+1:], func(o string) bool { return o != p && strings.HasPrefix(p, o) }) {
			continue
		}
		for _, f := range []string{fieldTitle, fieldBody} {
			d, err := s.textR.FieldDictPrefix(f, []byte(p))
			if err != nil {
				return nil, err
			}
			if err := drain(d, func(e *bleveindex.DictEntry) { found[e.Term] = max(found[e.Term], e.Count) }); err != nil {
				return nil, err
			}
		}
	}
	out := make([]expansion, 0, len(found))
	for t, c := range found {
		out = append(out, expansion{term: t, count: c})
	}
	return terms(best(out, n)), nil
}

// expandFuzzy returns the indexed terms of the text fields within dist
// edits of term (term itself excluded), nearest first, then most
// frequent, up to fuzzyExpansions. A term two edits away must keep the
// first character: a Levenshtein automaton of distance 2 walks much of
// the dictionary unless anchored, while typos rarely hit the first
// letter (one that does is still found at one edit). Scorch finds the
// terms with automata; other backends by a pass over the dictionary.
func (s *search) expandFuzzy(term string, dist int) ([]expansion, error) {
	if dist <= 0 || term == "" {
		return nil, nil
	}
	dist = min(dist, int(MaxFuzzy))
	if err := s.probeDicts(); err != nil {
		return nil, err
	}
	q := []rune(term)
	first := string(q[:1])
	found := map[string]expansion{}
	add := func(e *bleveindex.DictEntry) {
		if e.Term == term {
			return
		}
		d := edits.Distance(q, e.Term, dist)
		if d > dist || (d > 1 && !strings.HasPrefix(e.Term, first)) {
			return
		}
		x := found[e.Term]
		found[e.Term] = expansion{term: e.Term, count: max(x.count, e.Count), dist: d}
	}
	// The body's dictionary holds nearly every word; the title's is read
	// only when the body's has nothing near.
	for _, f := range []string{fieldBody, fieldTitle} {
		if f == fieldTitle && len(found) > 0 {
			break
		}
		fz, ok := s.textR.(bleveindex.IndexReaderFuzzy)
		if !ok {
			d, err := s.textR.FieldDict(f)
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
			fd, err := fz.FieldDictFuzzy(f, term, d, prefix)
			if err != nil {
				return nil, err
			}
			if err := drain(fd, add); err != nil {
				return nil, err
			}
		}
	}
	out := make([]expansion, 0, len(found))
	for _, e := range found {
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
	for _, f := range []string{fieldTitle, fieldBody} {
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
