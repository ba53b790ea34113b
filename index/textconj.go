package index

import (
	"encoding/binary"
	"math"

	"github.com/twindex/twindex/index/internal/backend"
	"github.com/twindex/twindex/index/internal/plan"
	"github.com/twindex/twindex/index/internal/rank"
	"github.com/twindex/twindex/index/internal/slots"
)

// conjLeaf is a word of several parts in a simple query (a conjunctive
// leaf of the text plan) and its bit among the leaves a document matched.
type conjLeaf struct {
	bit uint64
	tl  *plan.TextLeaf
}

// conjunctions returns the words of a simple query that a document holds
// only by their units (plan.TextLeaf.Conjunctive: ReadFile, errors.I),
// among its first 64 leaves (those past it have no bit, and match by any
// part, as every word did before).
func (s *search) conjunctions(tp *plan.Text) []conjLeaf {
	if s.plan.Strict {
		return nil // the tree judges every leaf
	}
	var out []conjLeaf
	for li, l := range s.plan.Leaves[:min(len(s.plan.Leaves), 64)] {
		if tl := tp.ByLeaf[l]; tl != nil && !l.Negated && tl.Conjunctive() {
			out = append(out, conjLeaf{1 << li, tl})
		}
	}
	return out
}

// holds reports whether a document's presence bits (pres, a column after
// the other, nw words each), with mask applied into scratch (nw words)
// when not nil, hold every part of the word in one field it may match in.
func (c conjLeaf) holds(pres, mask, scratch []uint64, nw int) bool {
	for col := range 2 {
		if c.tl.Fields&(1<<col) == 0 {
			continue
		}
		bits := pres[col*nw : (col+1)*nw]
		if mask != nil {
			for i := range scratch {
				scratch[i] = bits[i] & mask[i]
			}
			bits = scratch
		}
		if c.tl.Holds(bits) {
			return true
		}
	}
	return false
}

// creators returns, by term, whether the full walk adds the documents its
// postings hold as matches. A document holds a word of parts only if it
// holds its unit whose lists are shortest (a part, or any part of a
// hyphenated word; a minor part is not asked for, so never that one) or
// the compound covering it, so the other
// parts' words are read only onto the matches found: for types2.Package,
// the few hundred documents with types2, not the 12,000 with package. A
// set of words (completions, typos) that creates none needs its holders
// counted apart (countSets). A word in held creates nothing: its holders
// are matches already (conjHolders).
func creators(tp *plan.Text, conj []conjLeaf, readers [][]termReader, held map[*plan.TextLeaf]bool) []bool {
	creates := make([]bool, len(tp.Terms))
	words := map[*plan.TextLeaf]bool{}
	for _, c := range conj {
		words[c.tl] = true
	}
	create := func(g plan.Group) {
		for _, ti := range g.Terms {
			creates[ti] = true
		}
	}
	for _, tl := range tp.Leaves {
		if tl.Negated {
			continue // its words are read onto the matches
		}
		if held[tl] {
			continue // its holders are matches already
		}
		if !words[tl] {
			for _, g := range tl.Groups {
				create(g)
			}
			continue
		}
		u, _ := rarestUnit(tl, readers)
		for _, gi := range tl.Units[u] {
			create(tl.Groups[gi])
		}
		for _, c := range tl.Covers {
			creates[c.Term] = true
		}
	}
	return creates
}

// rarestUnit returns the unit of a word of parts whose groups' terms
// have the fewest postings, and their number: a document holds the word
// only if it holds that unit or a compound covering it.
func rarestUnit(tl *plan.TextLeaf, readers [][]termReader) (rarest int, least uint64) {
	least = math.MaxUint64
	for u := range tl.Units {
		if n := unitPostings(tl, u, readers); n < least {
			rarest, least = u, n
		}
	}
	return rarest, least
}

// unitPostings returns the postings of the terms of unit u's groups.
func unitPostings(tl *plan.TextLeaf, u int, readers [][]termReader) uint64 {
	var n uint64
	for _, gi := range tl.Units[u] {
		for _, ti := range tl.Groups[gi].Terms {
			for _, rd := range readers[ti] {
				n += rd.r.Count()
			}
		}
	}
	return n
}

// selective reports whether a word of parts is worth finding from the
// posting bitmaps (conjHolders) rather than by creating a match of each
// document of its rarest unit and seeking the other units' lists: when
// that unit has holdingMin postings or more, and the others, were they
// independent of it, would keep under a quarter of its documents.
func (s *search) selective(tl *plan.TextLeaf, readers [][]termReader) bool {
	rarest, docs := rarestUnit(tl, readers)
	if docs < holdingMin {
		return false
	}
	keep := 1.0
	for u := range tl.Units {
		if u != rarest {
			keep *= min(1, float64(unitPostings(tl, u, readers))/max(s.n, 1))
		}
	}
	return keep < 0.25
}

// holdingMin is the postings of a word's rarest unit under which creating
// a match of each costs less than finding the word's holders from the
// posting bitmaps.
const holdingMin = 256

// conjHolders adds to the tally, as matches, the documents holding the
// words of several units among conj (ReadFile, types2.Package): those
// holding, in one field the word may match in, a term of each unit (its
// own, or a compound covering it), read from the backend's posting
// bitmaps (backend.Holding), in the order of their doc numbers. It
// returns the words so matched, which then create no matches of their
// own (creators), or nil where the backend cannot tell, a shard gathers
// the collection's statistics, or no word has two units: a word of one
// unit is found by that unit's lists anyway.
//
// The rarest unit's lists would otherwise create a match of each of its
// documents, most of which may lack the other parts (ast of
// ast.FilterFuncDuplicates: 335 documents of the Go tree, 8 holding every
// part), and seek the other units' lists for each.
//
// Cost: a dictionary lookup per term, field and segment, and unions and
// intersections of bitmaps; no posting is decoded.
func (s *search) conjHolders(tp *plan.Text, conj []conjLeaf, readers [][]termReader, slot *slots.Table, t *rank.Tally) (map[*plan.TextLeaf]bool, error) {
	if s.rec != nil || s.ix.opts.noSeek || !s.ix.opts.Backend.docNumbers() {
		return nil, nil
	}
	fields := s.ix.opts.textFields()
	var conjs []backend.Conjunction
	var words []*plan.TextLeaf
	for _, c := range conj {
		if len(c.tl.Units) < 2 || !s.ix.opts.holdAll && !s.selective(c.tl, readers) {
			continue
		}
		for col := range 2 {
			if c.tl.Fields&(1<<col) == 0 {
				continue
			}
			units := make(backend.Conjunction, len(c.tl.Units))
			for u := range c.tl.Units {
				for _, ti := range c.tl.UnitTerms(u) {
					for _, rd := range readers[ti] {
						if fields[rd.field].Column == col {
							units[u] = append(units[u], backend.FieldTerm{Field: fields[rd.field].Name, Term: rd.term})
						}
					}
				}
			}
			conjs = append(conjs, units)
		}
		words = append(words, c.tl)
	}
	if len(words) == 0 {
		return nil, nil
	}
	docs, ok, err := backend.Holding(s.textR, conjs)
	if !ok || err != nil {
		return nil, err
	}
	iid := make([]byte, 8)
	for _, n := range docs {
		binary.BigEndian.PutUint64(iid, n)
		if _, ok := slot.Get(iid); !ok {
			t.Add(iid)
		}
	}
	held := make(map[*plan.TextLeaf]bool, len(words))
	for _, tl := range words {
		held[tl] = true
	}
	return held, nil
}
