package index

import (
	"cmp"
	"slices"
	"strconv"
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
	counts, local, err := s.prefixCounts(prefixes)
	if err != nil {
		return nil, err
	}
	out := make([]expansion, 0, len(counts))
	for t, c := range counts {
		out = append(out, expansion{term: t, count: max(c[0], c[1])})
	}
	if local {
		s.rec.taint()
	}
	return terms(best(out, n)), nil
}

// prefixCounts returns the indexed terms of the text fields that start
// with any of prefixes, with their dictionary counts in the title and the
// body: from the collection's statistics on a shard that has them, else
// from this index (local reports that, on a shard gathering them).
func (s *search) prefixCounts(prefixes []string) (counts map[string][2]uint64, local bool, err error) {
	key := strings.Join(prefixes, "\x00")
	if c, ok := s.g.prefix(key); ok {
		return c, false, nil
	}
	if err := s.missing("prefixes %q", prefixes); err != nil {
		return nil, false, err
	}
	if err := s.probeDicts(); err != nil {
		return nil, false, err
	}
	counts = map[string][2]uint64{}
	for i, p := range prefixes {
		// A prefix that another one starts with adds nothing to its range.
		if p == "" || slices.ContainsFunc(prefixes[:i], func(o string) bool { return strings.HasPrefix(p, o) }) ||
			slices.ContainsFunc(prefixes[i+1:], func(o string) bool { return o != p && strings.HasPrefix(p, o) }) {
			continue
		}
		for fi, f := range []string{fieldTitle, fieldBody} {
			fc := map[string]uint64{}
			ok, err := segmentPrefixCounts(s.textR, f, []byte(p), func(t string, n uint64) { fc[t] += n })
			if err != nil {
				return nil, false, err
			}
			if !ok {
				d, err := s.textR.FieldDictPrefix(f, []byte(p))
				if err != nil {
					return nil, false, err
				}
				if err := drain(d, func(e *bleveindex.DictEntry) { fc[e.Term] = e.Count }); err != nil {
					return nil, false, err
				}
			}
			for t, n := range fc {
				c := counts[t]
				c[fi] = max(c[fi], n)
				counts[t] = c
			}
		}
	}
	s.rec.putPrefix(key, counts)
	return counts, s.rec != nil, nil
}

// expandFuzzy returns the indexed terms of the text fields within dist
// edits of term (term itself excluded), nearest first, then most
// frequent, up to fuzzyExpansions. A term two edits away must keep the
// first character: a Levenshtein automaton of distance 2 walks much of
// the dictionary unless anchored, while typos rarely hit the first
// letter (one that does is still found at one edit). Scorch finds the
// terms with automata; other backends by a pass over the dictionary.
// The body's dictionary holds nearly every word; the title's is used
// only when the body's has nothing near.
func (s *search) expandFuzzy(term string, dist int) ([]expansion, error) {
	if dist <= 0 || term == "" {
		return nil, nil
	}
	dist = min(dist, int(MaxFuzzy))
	fields, local, err := s.fuzzyCounts(term, dist)
	if err != nil {
		return nil, err
	}
	found := fields[0]
	if len(found) == 0 {
		found = fields[1]
	}
	out := make([]expansion, 0, len(found))
	for t, e := range found {
		out = append(out, expansion{term: t, count: e.Count, dist: e.Dist})
	}
	if local {
		s.rec.taint()
	}
	return best(out, fuzzyExpansions), nil
}

// fuzzyCounts returns the indexed terms within dist edits of term, of
// the body (0) and the title (1), with their dictionary counts and
// distances: from the collection's statistics on a shard that has them,
// else from this index, where the title's are read only when the body
// has none unless the shard is gathering (local reports that).
func (s *search) fuzzyCounts(term string, dist int) (fields [2]map[string]DictEntry, local bool, err error) {
	key := term + "\x00" + strconv.Itoa(dist)
	if f, ok := s.g.fuzzy(key); ok {
		return f, false, nil
	}
	if err := s.missing("fuzzy %q", term); err != nil {
		return fields, false, err
	}
	if err := s.probeDicts(); err != nil {
		return fields, false, err
	}
	q := []rune(term)
	first := string(q[:1])
	for fi, f := range []string{fieldBody, fieldTitle} {
		found := map[string]DictEntry{}
		fields[fi] = found
		if fi == 1 && len(fields[0]) > 0 && s.rec == nil {
			break
		}
		add := func(e *bleveindex.DictEntry) {
			if e.Term == term {
				return
			}
			d := edits.Distance(q, e.Term, dist)
			if d > dist || (d > 1 && !strings.HasPrefix(e.Term, first)) {
				return
			}
			found[e.Term] = DictEntry{Count: max(found[e.Term].Count, e.Count), Dist: d}
		}
		fz, ok := s.textR.(bleveindex.IndexReaderFuzzy)
		if !ok {
			d, err := s.textR.FieldDict(f)
			if err != nil {
				return fields, false, err
			}
			if err := drain(d, add); err != nil {
				return fields, false, err
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
				return fields, false, err
			}
			if err := drain(fd, add); err != nil {
				return fields, false, err
			}
		}
	}
	// The dictionaries' counts may be wrong (see segmentPrefixCounts):
	// each term's is read again, from term readers, as few are found.
	for fi, found := range fields {
		f := []string{fieldBody, fieldTitle}[fi]
		for t, e := range found {
			r, err := s.textR.TermFieldReader(s.ctx, []byte(t), f, false, false, false)
			if err != nil {
				return fields, false, err
			}
			e.Count = r.Count()
			r.Close()
			found[t] = e
		}
	}
	s.rec.putFuzzy(key, fields)
	return fields, s.rec != nil, nil
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
