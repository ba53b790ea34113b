package index

import (
	"strconv"

	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/twindex/twindex/index/collection"
	"github.com/twindex/twindex/index/internal/backend"
	"github.com/twindex/twindex/index/internal/rank"
	"github.com/twindex/twindex/index/internal/terms"
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

// dicts are the text index's dictionaries as terms walks them.
func (s *search) dicts() terms.Dicts {
	return terms.Dicts{R: s.textR, Title: fieldTitle, Body: fieldBody, Words: fieldWords, Term: s.ix.textA.Term,
		Counts: backend.PrefixCounts, Fuzzy: s.nearTerms}
}

// nearTerms returns the search's walk of r's dictionaries for the terms
// near a word (backend.NearTerms): one for the search, so that the
// fallback's and did-you-mean's walks of a word share their automata and
// what they found.
func (s *search) nearTerms(r bleveindex.IndexReader) terms.FuzzyWalk {
	if s.near == nil || s.nearR != r {
		s.near, s.nearR = backend.NearTerms(r), r
	}
	return s.near
}

// expandPrefix returns the most frequent indexed terms of the text fields
// that start with any of prefixes, or whose words as written do
// (fieldWords: "configurat" completes to "configuration", whose term is
// "configur"), up to n.
func (s *search) expandPrefix(prefixes []string, n int) ([]string, error) {
	counts, local, err := s.prefixCounts(prefixes)
	if err != nil {
		return nil, err
	}
	if local {
		s.rec.Taint()
	}
	return s.dicts().Completions(counts, n), nil
}

// prefixCounts returns terms.Dicts.Prefixed of prefixes: from the
// collection's statistics on a shard that has them, else from this index
// (local reports that, on a shard gathering them).
func (s *search) prefixCounts(prefixes []string) (counts map[string][3]uint64, local bool, err error) {
	key := collection.ListKey(prefixes)
	if c, ok := s.g.LookupPrefix(key); ok {
		return c, false, nil
	}
	if err := s.missing("prefixes %q", prefixes); err != nil {
		return nil, false, err
	}
	if err := s.probeDicts(); err != nil {
		return nil, false, err
	}
	if counts, err = s.dicts().Prefixed(prefixes); err != nil {
		return nil, false, err
	}
	s.rec.PutPrefix(key, counts)
	return counts, s.rec != nil, nil
}

// expandFuzzy returns the indexed terms whose words are within dist edits
// of word, a query word as written (folded), nearest first, then most
// frequent, up to fuzzyExpansions; own, the word's term, is left out.
// Words are compared as written, so that a typo where the stemmer cuts
// ("configuraton") is found: those of fieldWords, which stemming changed,
// stand for their terms, and the text fields' terms are the other words
// as written (terms.Dicts.Near).
//
// A term's count is its documents' in the larger text field, from its
// posting lists (scorch's dictionaries may count wrong: see
// backend.PrefixCounts), and the collection's on a shard: its statistics
// then name the words near (collection.Stats.Fuzzy) and the terms' counts
// (collection.Stats.Terms), which a shard gathers once every shard has the same
// words near to count.
func (s *search) expandFuzzy(word, own string, dist int) ([]terms.Expansion, error) {
	if dist <= 0 || word == "" {
		return nil, nil
	}
	dist = min(dist, int(MaxFuzzy))
	fields, local, err := s.fuzzyCounts(word, own, dist)
	if err != nil {
		return nil, err
	}
	return s.nearest(fields, own, local)
}

// closestFuzzy returns expandFuzzy(word, own, MaxFuzzy)'s first term, or
// none, as did-you-mean takes it, walking the dictionaries for the
// nearest words alone (terms.Dicts.Closest). It reads this index's
// dictionaries and counts, not a collection's statistics: did-you-mean
// runs in a search of one index (a sharded search offers none).
func (s *search) closestFuzzy(word, own string) ([]terms.Expansion, error) {
	if word == "" {
		return nil, nil
	}
	if err := s.probeDicts(); err != nil {
		return nil, err
	}
	fields, err := s.dicts().Closest(word, own, int(MaxFuzzy))
	if err != nil {
		return nil, err
	}
	fz, err := s.nearest(fields, own, false)
	return fz[:min(len(fz), 1)], err
}

// nearest returns the terms the dictionaries' words near (fields, as
// terms.Dicts.Near gives them) stand for, with their counts (local: this
// index's alone, not recorded as the collection's), nearest first, then
// most frequent, up to fuzzyExpansions.
func (s *search) nearest(fields [3]map[string]int, own string, local bool) ([]terms.Expansion, error) {
	out := s.dicts().Nearest(fields, own)
	for i, e := range out {
		var c [3]uint64
		var err error
		if local {
			// Other shards found other words: this pass's counts are
			// not the collection's and are not recorded.
			c, err = s.localTermDocs(e.Term)
		} else {
			if _, ok := s.g.LookupTerm(e.Term); !ok {
				s.rec.Taint()
			}
			c, err = s.termDocs(e.Term)
		}
		if err != nil {
			return nil, err
		}
		out[i].Count = max(c[rank.Title], c[rank.Body]) // as docFreq counts
	}
	if local {
		s.rec.Taint()
	}
	return terms.Best(out, fuzzyExpansions), nil
}

// fuzzyCounts returns terms.Dicts.Near of word: from the collection's
// statistics on a shard that has them, else from this index (local
// reports that, on a shard gathering them, which reads the title's
// dictionary whatever the others hold).
func (s *search) fuzzyCounts(word, own string, dist int) (fields [3]map[string]int, local bool, err error) {
	key := word + "\x00" + strconv.Itoa(dist)
	if f, ok := s.g.LookupFuzzy(key); ok {
		return f, false, nil
	}
	if err := s.missing("fuzzy %q", word); err != nil {
		return fields, false, err
	}
	if err := s.probeDicts(); err != nil {
		return fields, false, err
	}
	if fields, err = s.dicts().Near(word, own, dist, s.rec != nil); err != nil {
		return fields, false, err
	}
	s.rec.PutFuzzy(key, fields)
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
