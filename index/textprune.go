package index

import (
	"encoding/binary"
	"math"
	"math/bits"
	"slices"

	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/twindex/twindex/index/internal/backend"
	"github.com/twindex/twindex/index/internal/plan"
	"github.com/twindex/twindex/index/internal/rank"
	"github.com/twindex/twindex/index/internal/slots"
)

// boundSlack widens the sums of the terms' bounds against rounding: a
// term's share is below its bound by far more than an ulp, but the sums
// of shares and of bounds round apart.
const boundSlack = 1 + 1e-9

// pruneDepth returns how many of the text leg's best hits a search needs,
// or 0 when it needs every match scored, as the full walk of textLeg
// scores them: a text-only search by score, in the simple syntax,
// without phrases, words of parts, filters, expansions or shards, of two
// terms or more, which all score and of which the query's own each match
// a document alone (so that a document matches when it holds one of
// them).
func (s *search) pruneDepth(tp *plan.Text, tol *tolerance, conj []conjLeaf) int {
	if s.ix.opts.noPrune || tol != nil || s.plan.Strict || len(tp.Required) > 0 || len(conj) > 0 || s.filter.active ||
		s.rec != nil || s.g != nil || s.req.Explain || s.req.Order != OrderScore ||
		s.req.Mode.legs() != runsText {
		return 0
	}
	if len(tp.Terms) < 2 {
		return 0 // one term's lists are all read whichever way
	}
	for _, f := range s.ix.opts.textFields() {
		if f.Weight < 0 {
			return 0 // BM25 of a negative frequency has no ceiling
		}
	}
	for _, qt := range tp.Terms {
		if !qt.Positive || qt.Tolerant || !qt.Added && qt.Leaves == 0 || qt.Added && !qt.Single || qt.Weight < 0 {
			return 0
		}
	}
	need := s.req.Offset + s.req.Limit
	if s.getsFeedback(tp) {
		need = max(need, FeedbackDocs)
	}
	return need
}

// cursor is a posting list's place in the pruned walk.
type cursor struct {
	ti  int // its term
	rd  termReader
	doc bleveindex.TermFieldDoc
	at  uint64 // the doc number of the posting it is at; done at the end
}

// done is a cursor's place past its list's end.
const done = math.MaxUint64

// docNumber is the doc number of a posting's internal ID: scorch's, the
// one backend that counts for the pruned walk, are 8 bytes big-endian.
func docNumber(d *bleveindex.TermFieldDoc) uint64 {
	if d == nil {
		return done
	}
	return binary.BigEndian.Uint64(d.ID)
}

func (c *cursor) next() error {
	d, err := c.rd.r.Next(c.doc.Reset())
	c.at = docNumber(d)
	return err
}

// reach moves the cursor to the first posting at or after doc number n,
// whose internal ID is iid.
func (c *cursor) reach(n uint64, iid []byte) error {
	if c.at >= n {
		return nil
	}
	d, err := c.rd.r.Advance(iid, c.doc.Reset())
	c.at = docNumber(d)
	return err
}

// unit is what the pruned walk bounds apart: a term's lists in the title
// and the body, or in the symbols field, whose declarations weigh far
// more than a word (Options.SymbolWeight) but are few.
type unit struct {
	ti int
	// bound is the most the unit adds to a document's score; for a part
	// of an identifier, in a document without the whole (whole, the most
	// in one with it).
	bound, whole float64
	curs         []*cursor
}

// pruned ranks the text leg's matches by MaxScore (Turtle and Flood,
// 1995) where the backend counts them without reading their postings
// (backend.UnionCounts): the lists are grouped in units ordered by the
// most each can add to a document's score (rank.Tally.Bound, times the
// coordination of the words they hold); once need documents are scored,
// the units whose bounds sum below the need-th best score are read only
// for the documents the others hold, as a document holding none but them
// cannot reach it. The walk goes document by document in the order of
// doc numbers, recording all of each candidate's postings, as the full
// walk does term by term, so its scores are the full walk's to the bit
// (a term's frequencies are summed in the order of its lists); the
// list holds every match scoring at least the need-th best (ties
// included) and counts them all. It returns false, having read nothing,
// when the backend cannot count or the walk cannot prune: when the terms
// but the most common one are held by fewer than need documents, the
// need-th best is a document of that term alone, whose lists then stay
// essential, and the walk would cost more than the full one.
//
// Cost: the postings of the rarest units, and a seek in the others'
// lists per document those hold; the full walk reads every posting.
func (s *search) pruned(list *textList, tp *plan.Text, readers [][]termReader, idfs []float64, slot *slots.Table, t *rank.Tally, need int) (bool, error) {
	terms := tp.Terms
	// At most the documents holding each term, and all of them.
	var most, all uint64
	for _, rs := range readers {
		var docs uint64
		for _, rd := range rs {
			docs += rd.r.Count()
		}
		most, all = max(most, docs), all+docs
	}
	if all-most < uint64(need) {
		return false, nil
	}
	fields := s.ix.opts.textFields()
	// A set of words' idf is of the documents holding any of them, as
	// the full walk counts its matches; a word's is known.
	sets := make([]backend.Union, len(terms))
	for ti, rs := range readers {
		for _, rd := range rs {
			sets[ti].Terms = append(sets[ti].Terms, backend.FieldTerm{Field: fields[rd.field].Name, Term: rd.term})
		}
		sets[ti].Alone, sets[ti].Total = !terms[ti].Single, !terms[ti].Added
	}
	each, total, ok, err := backend.UnionCounts(s.textR, sets)
	if !ok || err != nil {
		return ok, err
	}
	// A page past the matches needs them all, and no more room.
	need = max(1, min(need, int(total)))
	for ti, qt := range terms {
		if !qt.Single {
			idfs[ti] = rank.IDF(s.n, float64(each[ti]))
		}
	}
	// The cursors, and the units they make.
	var curs []*cursor
	var units []*unit
	for ti, rs := range readers {
		var words, decls unit
		for _, rd := range rs {
			c := &cursor{ti: ti, rd: rd}
			if err := c.next(); err != nil {
				return true, err
			}
			curs = append(curs, c)
			if rd.field == rank.Symbols {
				decls.curs = append(decls.curs, c)
			} else {
				words.curs = append(words.curs, c)
			}
		}
		for i, u := range []unit{words, decls} {
			if len(u.curs) > 0 {
				u.ti = ti
				u.bound, u.whole = t.Bound(ti, idfs[ti], i == 1, false), t.Bound(ti, idfs[ti], i == 1, true)
				units = append(units, &u)
			}
		}
	}
	slices.SortStableFunc(units, func(a, b *unit) int {
		switch {
		case a.bound < b.bound:
			return -1
		case a.bound > b.bound:
			return 1
		}
		return 0
	})
	coord := coordTable(tp.Words)
	bounds := unitBounds(units, terms, coord, tp.Words)
	cut := rank.NewCutoff(need)
	hits := make([]rank.Hit, 0, min(need*8, int(total)))
	iid := make([]byte, 8)
	seen := 0 // candidates
	for ess := 0; ; {
		// The next candidate: the first document an essential unit holds.
		n := uint64(done)
		for _, u := range units[ess:] {
			for _, c := range u.curs {
				n = min(n, c.at)
			}
		}
		if n == done {
			break
		}
		binary.BigEndian.PutUint64(iid, n)
		matched := false
		for _, u := range units[:ess] {
			for _, c := range u.curs {
				if err := c.reach(n, iid); err != nil {
					return true, err
				}
			}
		}
		for _, c := range curs {
			if c.at == n && !terms[c.ti].Added {
				matched = true
				break
			}
		}
		if matched {
			k := t.Add(iid)
			for _, c := range curs {
				if c.at == n {
					t.Record(k, c.ti, c.rd.field, &c.doc)
				}
			}
			a := t.ScoreDoc(k, idfs)
			sc := a.Exact
			if tp.Words > 1 {
				sc *= coord[bits.OnesCount64(a.ExactLeaves)]
			}
			// A score below the need-th best so far stays below it.
			if theta, full := cut.Score(); !full || sc >= theta {
				hits = append(hits, rank.Hit{Score: sc, Slot: k})
				cut.Add(sc)
				if theta, full = cut.Score(); full {
					for ess < len(units) && bounds[ess+1] < theta {
						ess++
					}
				}
			}
		}
		for _, u := range units[ess:] {
			for _, c := range u.curs {
				if c.at == n {
					if err := c.next(); err != nil {
						return true, err
					}
				}
			}
		}
		if seen++; seen%256 == 0 {
			if err := s.ctx.Err(); err != nil {
				return true, err
			}
		}
	}
	slot.Freeze()
	list.List = rank.NewCounted(s.textIDs, slot, hits, int(total))
	return true, nil
}

// unitBounds returns, for each i, a bound on the score of a document
// holding no unit but units[:i] (coordinated by coord when the query has
// several words): a part weighs whole only beside its whole identifier's
// units. The bounds grow with i.
func unitBounds(units []*unit, terms []plan.Term, coord []float64, words int) []float64 {
	bounds := make([]float64, len(units)+1)
	held := make([]bool, len(terms))
	for i := range units {
		held[units[i].ti] = true
		sum, leaves := 0.0, uint64(0)
		for _, u := range units[:i+1] {
			if p := terms[u.ti].Part; p >= 0 && held[p] {
				sum += u.whole
			} else {
				sum += u.bound
			}
			leaves |= terms[u.ti].Leaves
		}
		bounds[i+1] = sum * boundSlack
		if words > 1 {
			bounds[i+1] *= coord[bits.OnesCount64(leaves)]
		}
	}
	return bounds
}
