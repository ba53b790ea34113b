package index

import (
	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/twindex/twindex/index/internal/rank"
	"github.com/twindex/twindex/index/internal/slots"
)

// termReader is the posting list of one of a term's indexed words in one
// field (an index into textFields).
type termReader struct {
	field int
	r     bleveindex.TermFieldReader
}

// textFields returns the fields the text leg reads, weighted.
func (o *Options) textFields() [rank.NumFields]rank.Field {
	return [rank.NumFields]rank.Field{
		rank.Title:   {Name: fieldTitle, Column: 0, Weight: o.TitleWeight},
		rank.Body:    {Name: fieldBody, Column: 1, Weight: o.BodyWeight},
		rank.Boiler:  {Name: fieldBoiler, Column: 1, Weight: o.BoilerWeight * o.BodyWeight},
		rank.Symbols: {Name: fieldSymbols, Column: 1, Weight: o.SymbolWeight},
	}
}

// openTextReaders opens the posting lists of every term of the plan, in
// every field. Their counts give each term's idf (of its largest list;
// a set of words' idf is set from its matches later) and a size for the
// accumulators: the matches are at least the largest count and at most
// the counts' sum and the documents; twice the largest keeps most
// queries from growing them without allocating what a query of many
// terms would never fill. The caller closes the readers, also on error.
func (s *search) openTextReaders(tp *textPlan) (readers [][]termReader, idfs []float64, hint int, err error) {
	readers = make([][]termReader, len(tp.terms))
	idfs = make([]float64, len(tp.terms))
	maxDF := 0
	fields := s.ix.opts.textFields()
	for ti, qt := range tp.terms {
		df := 0.0
		for fi, f := range fields {
			// The licence comment counts for the words as typed, not for
			// completions or typos.
			if fi == rank.Symbols && f.Weight == 0 || fi == rank.Boiler && !qt.single {
				continue
			}
			for _, term := range qt.dict {
				r, err := s.textR.TermFieldReader(s.ctx, []byte(term), f.Name, true, true, false)
				if err != nil {
					return readers, nil, 0, err
				}
				if r.Count() == 0 {
					r.Close()
					continue
				}
				readers[ti] = append(readers[ti], termReader{fi, r})
				if fi == rank.Symbols {
					continue // a subset of the body's documents
				}
				df = max(df, float64(r.Count()))
				if qt.positive {
					hint += int(r.Count())
					maxDF = max(maxDF, int(r.Count()))
				}
			}
		}
		if qt.single && (s.g != nil || s.rec != nil) {
			c, err := s.termDocs(qt.dict[0])
			if err != nil {
				return readers, nil, 0, err
			}
			df = float64(max(c[rank.Title], c[rank.Body], c[rank.Boiler]))
		}
		idfs[ti] = rank.IDF(s.n, df)
	}
	return readers, idfs, min(hint, int(s.n), 2*maxDF), nil
}

func closeTextReaders(readers [][]termReader) {
	for _, rs := range readers {
		for _, r := range rs {
			r.r.Close()
		}
	}
}

// newTextTally returns an empty tally of the pass whose terms tp holds,
// sized for hint documents, and its slot table, which the search
// releases when it ends.
func (s *search) newTextTally(tp *textPlan, hint int) (*slots.Table, *rank.Tally) {
	newSlots := slots.New
	if s.ix.opts.Backend.docNumbers() {
		newSlots = slots.NewDocNumbers
	}
	slot := newSlots(hint)
	s.slots = append(s.slots, slot)
	terms := make([]rank.Term, len(tp.terms))
	for i, t := range tp.terms {
		terms[i] = rank.Term{Weight: t.weight, Positive: t.positive, Tolerant: t.tolerant, Leaves: t.leaves, Part: t.part}
	}
	return slot, rank.New(&rank.Config{
		Terms:      terms,
		Fields:     s.ix.opts.textFields(),
		Avg:        [2]float64{s.avgTitle, s.avgBody},
		PartWeight: partWeight,
		Slots:      slot,
		Hint:       hint,
		Split:      s.req.Explain,
	})
}
