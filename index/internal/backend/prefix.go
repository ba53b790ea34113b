//go:build !js && !wasip1

package backend

import (
	"github.com/blevesearch/bleve/v2/index/scorch"
	bleveindex "github.com/blevesearch/bleve_index_api"
	segment "github.com/blevesearch/scorch_segment_api/v2"
	"github.com/blevesearch/vellum"

	"github.com/twindex/twindex/index/internal/terms"
)

// PrefixCounts calls fn with each term of field that starts with
// prefix and the number of live documents of one segment holding it, for
// each segment of r (a term in several segments comes once for each), and
// returns true; for a reader other than scorch's it does nothing and
// returns false.
//
// scorch's own FieldDictPrefix sums the counts its segments' dictionary
// iterators report, which zap v16.2.8 gets wrong: the iterator reuses one
// postings list whose one-posting state it never resets (blevesearch/zapx
// pull request 445), so in a merged segment, after a term that one
// document holds once, every later term of the walk reports 1. Here a
// count of 1 is read again from a postings list of its own, and so is
// every count of a segment with deleted documents, which the iterator
// counts too. Cost: one pass over the prefix's range of each segment's
// dictionary, plus a dictionary lookup per term reported held once (in a
// merged segment, most of the range after its first such term).
func PrefixCounts(r bleveindex.IndexReader, field string, prefix []byte, fn func(term string, count uint64)) (bool, error) {
	snap, ok := r.(*scorch.IndexSnapshot)
	if !ok {
		return false, nil
	}
	end := prefixEnd(prefix)
	for _, ss := range snap.Segments() {
		dict, err := ss.Segment().Dictionary(field)
		if err != nil {
			return true, err
		}
		deleted := ss.Deleted()
		recount := deleted != nil && !deleted.IsEmpty()
		var pl segment.PostingsList
		it := dict.AutomatonIterator(nil, prefix, end)
		for {
			e, err := it.Next()
			if err != nil {
				return true, err
			}
			if e == nil {
				break
			}
			n := e.Count
			if n == 1 || recount {
				if pl, err = dict.PostingsList([]byte(e.Term), deleted, pl); err != nil {
					return true, err
				}
				n = pl.Count()
			}
			if n > 0 {
				fn(e.Term, n)
			}
		}
	}
	return true, nil
}

// prefixEnd returns the first key after every key that starts with
// prefix, or nil when there is none (a prefix of 0xff bytes only).
func prefixEnd(prefix []byte) []byte {
	end := []byte(string(prefix))
	for i := len(end) - 1; i >= 0; i-- {
		if end[i]++; end[i] != 0 {
			return end[:i+1]
		}
	}
	return nil
}

// NearTerms returns a walk of a scorch reader's dictionaries for the
// terms near a word, nil for another reader; a term comes once for each
// segment holding it. scorch's
// FieldDictFuzzy builds a Levenshtein automaton for every call (80 us for
// a word of five letters at two edits, 800 us for "configuration"), and
// did-you-mean asks for two distances in three fields: this walk asks
// scorch once per word and distance, and walks the other fields' segment
// dictionaries with the automaton that call built (its builders are made
// once, in scorch's init), so the same terms come out. Deleted documents
// are not looked at, as scorch's walk does not look at them either.
func NearTerms(r bleveindex.IndexReader) terms.FuzzyWalk {
	snap, ok := r.(*scorch.IndexSnapshot)
	if !ok {
		return nil
	}
	type key struct {
		word string
		dist int
	}
	built := map[key]vellum.Automaton{}
	return func(field, word string, dist int, prefix string, fn func(term string)) error {
		a, ok := built[key{word, dist}]
		if !ok {
			d, fa, err := snap.FieldDictFuzzyAutomaton(field, word, dist, prefix)
			if err != nil {
				return err
			}
			if a, ok := fa.(vellum.Automaton); ok {
				built[key{word, dist}] = a
			}
			return terms.Drain(d, func(e *bleveindex.DictEntry) { fn(e.Term) })
		}
		var start, end []byte
		if prefix != "" {
			start = []byte(prefix)
			end = prefixEnd(start)
		}
		for _, ss := range snap.Segments() {
			dict, err := ss.Segment().Dictionary(field)
			if err != nil {
				return err
			}
			it := dict.AutomatonIterator(a, start, end)
			for {
				e, err := it.Next()
				if err != nil {
					return err
				}
				if e == nil {
					break
				}
				fn(e.Term)
			}
		}
		return nil
	}
}
