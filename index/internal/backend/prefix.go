//go:build !js && !wasip1

package backend

import (
	"fmt"
	"math/bits"

	"github.com/blevesearch/bleve/v2/index/scorch"
	bleveindex "github.com/blevesearch/bleve_index_api"
	segment "github.com/blevesearch/scorch_segment_api/v2"
	"github.com/blevesearch/vellum"

	"github.com/twindex/twindex/index/internal/keys"
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
	end := keys.PrefixEnd(prefix)
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

// NearTerms returns a walk of a scorch reader's dictionaries for the
// terms near a word, nil for another reader; a term comes once for each
// segment holding it. scorch's FieldDictFuzzy builds a Levenshtein
// automaton for every call (80 us for a word of five letters at two
// edits, 800 us for "configuration"), and a search that falls back and
// then suggests a spelling asks for two distances in three fields, twice:
// this walk has scorch build each word's and distance's automaton once
// (its builders are made once, in scorch's init), walks every field's
// segment dictionaries with it, so the same terms come out, and keeps
// what each walk found for the same walk asked again. It is for one
// goroutine. Deleted documents are not looked at, as scorch's walk does
// not look at them either.
//
// A walk for terms that start with a prefix stays under the prefix
// (prefixed): scorch's walk of a range goes on past its end until a term
// the automaton accepts is found there, which for a word that has no
// such term is the rest of the dictionary (on the Go tree's corpus, the
// body's walk of two edits under the first letter took 30-83% less time
// for eight of ten fragments such as "imeofday", the same for two).
func NearTerms(r bleveindex.IndexReader) terms.FuzzyWalk {
	snap, ok := r.(*scorch.IndexSnapshot)
	if !ok {
		return nil
	}
	type key struct {
		word string
		dist int
	}
	type walk struct {
		key
		field, prefix string
	}
	built := map[key]vellum.Automaton{}
	walked := map[walk][]string{}
	return func(field, word string, dist int, prefix string, fn func(term string)) error {
		w := walk{key{word, dist}, field, prefix}
		if found, ok := walked[w]; ok {
			for _, t := range found {
				fn(t)
			}
			return nil
		}
		a, ok := built[key{word, dist}]
		if !ok {
			var err error
			if a, err = automatonOf(snap, word, dist); err != nil {
				return err
			}
			built[key{word, dist}] = a
		}
		var start []byte
		if prefix != "" {
			start = []byte(prefix)
			a = newPrefixed(a, start)
		}
		var found []string
		for _, ss := range snap.Segments() {
			dict, err := ss.Segment().Dictionary(field)
			if err != nil {
				return err
			}
			it := dict.AutomatonIterator(a, start, nil)
			for {
				e, err := it.Next()
				if err != nil {
					return err
				}
				if e == nil {
					break
				}
				found = append(found, e.Term)
				fn(e.Term)
			}
		}
		walked[w] = found
		return nil
	}
}

// noField is a field no index has: the dictionary asked for an
// automaton's sake, which has nothing to walk.
const noField = "\x00"

// automatonOf returns scorch's Levenshtein automaton of word at dist
// edits, built by asking scorch for noField's terms near word.
func automatonOf(snap *scorch.IndexSnapshot, word string, dist int) (vellum.Automaton, error) {
	d, fa, err := snap.FieldDictFuzzyAutomaton(noField, word, dist, "")
	if err != nil {
		return nil, err
	}
	if err := d.Close(); err != nil {
		return nil, err
	}
	a, ok := fa.(vellum.Automaton)
	if !ok {
		return nil, fmt.Errorf("scorch's fuzzy automaton is a %T, not a vellum.Automaton: this bleve is not the one twindex was built for", fa)
	}
	return a, nil
}

// prefixed is an automaton a that also asks its keys to start with p: it
// fails at the first byte that leaves p, so that a walk stays under p. A
// state is a's state shifted left by shift, or'd with the bytes of p
// matched so far; -1 has failed.
type prefixed struct {
	a     vellum.Automaton
	p     []byte
	shift uint
}

func newPrefixed(a vellum.Automaton, p []byte) *prefixed {
	return &prefixed{a: a, p: p, shift: uint(bits.Len(uint(len(p))))}
}

func (z *prefixed) matched(s int) int { return s & (1<<z.shift - 1) }

func (z *prefixed) Start() int { return z.a.Start() << z.shift }

func (z *prefixed) IsMatch(s int) bool {
	return s >= 0 && z.matched(s) == len(z.p) && z.a.IsMatch(s>>z.shift)
}

func (z *prefixed) CanMatch(s int) bool { return s >= 0 && z.a.CanMatch(s>>z.shift) }

func (z *prefixed) WillAlwaysMatch(s int) bool {
	return s >= 0 && z.matched(s) == len(z.p) && z.a.WillAlwaysMatch(s>>z.shift)
}

func (z *prefixed) Accept(s int, b byte) int {
	if s < 0 {
		return -1
	}
	m := z.matched(s)
	if m < len(z.p) {
		if b != z.p[m] {
			return -1
		}
		m++
	}
	return z.a.Accept(s>>z.shift, b)<<z.shift | m
}
