package index

import (
	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/twindex/twindex/index/internal/plan"
	"github.com/twindex/twindex/index/internal/rank"
	"github.com/twindex/twindex/index/internal/slots"
)

// termReader is the posting list of one of a term's indexed words in one
// field (an index into textFields).
type termReader struct {
	field int
	term  string
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
func (s *search) openTextReaders(tp *plan.Text) (readers [][]termReader, idfs []float64, hint int, err error) {
	readers = make([][]termReader, len(tp.Terms))
	idfs = make([]float64, len(tp.Terms))
	maxDF := 0
	fields := s.ix.opts.textFields()
	for ti, qt := range tp.Terms {
		df := 0.0
		for fi, f := range fields {
			// The licence comment counts for the words as typed, not for
			// completions or typos.
			if fi == rank.Symbols && f.Weight == 0 || fi == rank.Boiler && !qt.Single {
				continue
			}
			for _, term := range qt.Dict {
				r, err := s.textR.TermFieldReader(s.ctx, []byte(term), f.Name, true, true, false)
				if err != nil {
					return readers, nil, 0, err
				}
				if r.Count() == 0 {
					r.Close()
					continue
				}
				readers[ti] = append(readers[ti], termReader{fi, term, r})
				if fi == rank.Symbols {
					continue // a subset of the body's documents
				}
				df = max(df, float64(r.Count()))
				if qt.Positive {
					hint += int(r.Count())
					maxDF = max(maxDF, int(r.Count()))
				}
			}
		}
		if qt.Single && (s.g != nil || s.rec != nil) {
			c, err := s.termDocs(qt.Dict[0])
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
// sized for hint documents, and its slot table; the search releases both
// when it ends.
func (s *search) newTextTally(tp *plan.Text, hint int) (*slots.Table, *rank.Tally) {
	newSlots := slots.New
	if s.ix.opts.Backend.docNumbers() {
		newSlots = slots.NewDocNumbers
	}
	slot := newSlots(hint)
	s.slots = append(s.slots, slot)
	terms := make([]rank.Term, len(tp.Terms))
	for i, t := range tp.Terms {
		terms[i] = rank.Term{Weight: t.Weight, Positive: t.Positive, Tolerant: t.Tolerant, Leaves: t.Leaves, Part: t.Part}
	}
	t := rank.New(&rank.Config{
		Terms:      terms,
		Fields:     s.ix.opts.textFields(),
		Avg:        [2]float64{s.avgTitle, s.avgBody},
		PartWeight: partWeight,
		Slots:      slot,
		Hint:       hint,
		Split:      s.req.Explain,
	})
	s.tallies = append(s.tallies, t)
	return slot, t
}
