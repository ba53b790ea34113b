package index

import (
	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/twindex/twindex/index/internal/slots"
)

// termReader is the posting list of one of a term's indexed words in one
// field (0 title, 1 body).
type termReader struct {
	field int
	r     bleveindex.TermFieldReader
}

// textFieldInfo is one field the text leg reads.
type textFieldInfo struct {
	name        string
	weight, avg float64
}

// openTextReaders opens the posting lists of every term of the plan, in
// both fields. Their counts give each term's idf (of its largest list;
// a set of words' idf is set from its matches later) and a size for the
// accumulators: the matches are at least the largest count and at most
// the counts' sum and the documents; twice the largest keeps most
// queries from growing them without allocating what a query of many
// terms would never fill. The caller closes the readers, also on error.
func (s *search) openTextReaders(tp *textPlan) (readers [][]termReader, idfs []float64, hint int, err error) {
	readers = make([][]termReader, len(tp.terms))
	idfs = make([]float64, len(tp.terms))
	maxDF := 0
	for ti, qt := range tp.terms {
		df := 0.0
		for i, name := range []string{fieldTitle, fieldBody} {
			for _, term := range qt.dict {
				r, err := s.textR.TermFieldReader(s.ctx, []byte(term), name, true, true, false)
				if err != nil {
					return readers, nil, 0, err
				}
				readers[ti] = append(readers[ti], termReader{i, r})
				df = max(df, float64(r.Count()))
				if qt.positive {
					hint += int(r.Count())
					maxDF = max(maxDF, int(r.Count()))
				}
			}
		}
		idfs[ti] = idf(s.n, df)
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

// textTally holds the text leg's statistics of each document it has
// seen, by slot: its accumulator, each term's weighted frequency, the
// field lengths its postings told and the terms present per field.
type textTally struct {
	tp     *textPlan
	fields [2]textFieldInfo
	nw     int // words of a term bit set
	slot   *slots.Table
	accs   []docScore
	tfw    []float64 // weighted term frequency, by slot*len(terms)+term
	lens   []float64 // field lengths seen, by slot*2+field; 0 unknown
	pres   []uint64  // terms present, by (slot*2+field)*nw
	df     []float64 // matches per term, for sets of words
}

// newTextTally returns an empty accumulator sized for hint documents,
// whose slot table the search releases when it ends.
func (s *search) newTextTally(tp *textPlan, hint int) *textTally {
	n := len(tp.terms)
	nw := (n + 63) / 64
	newSlots := slots.New
	if s.ix.opts.Backend == Scorch {
		newSlots = slots.NewDocNumbers
	}
	a := &textTally{
		tp: tp, nw: nw,
		fields: [2]textFieldInfo{
			{fieldTitle, s.ix.opts.TitleWeight, s.avgTitle},
			{fieldBody, s.ix.opts.BodyWeight, s.avgBody},
		},
		slot: newSlots(hint),
		accs: make([]docScore, 0, hint),
		tfw:  make([]float64, 0, hint*n),
		lens: make([]float64, 0, hint*2),
		pres: make([]uint64, 0, hint*2*nw),
		df:   make([]float64, n),
	}
	s.slots = append(s.slots, a.slot)
	return a
}

// add gives the document with internal ID iid a slot.
func (a *textTally) add(iid []byte) int32 {
	k := a.slot.Add(iid)
	a.accs = append(a.accs, docScore{})
	a.tfw = append(a.tfw, make([]float64, len(a.tp.terms))...)
	a.lens = append(a.lens, 0, 0)
	a.pres = append(a.pres, make([]uint64, 2*a.nw)...)
	return k
}

// record adds a posting of term ti in field f to slot k.
func (a *textTally) record(k int32, ti, f int, d *bleveindex.TermFieldDoc) {
	n := len(a.tp.terms)
	if d.Norm > 0 {
		a.lens[int(k)*2+f] = 1 / (d.Norm * d.Norm)
	}
	if a.tfw[int(k)*n+ti] == 0 {
		a.df[ti]++
	}
	a.tfw[int(k)*n+ti] += a.fields[f].weight * float64(d.Freq)
	a.pres[(int(k)*2+f)*a.nw+ti/64] |= 1 << (ti % 64)
	qt := &a.tp.terms[ti]
	a.accs[k].leaves |= qt.leaves
	if !qt.tolerant {
		a.accs[k].exactLeaves |= qt.leaves
	}
}

// score sets slot k's scores, over all terms and over the exact ones:
// BM25 as FTS5 computes it with column weights. Per term, the weighted sum
// of the fields' frequencies saturates once, against the length of the
// whole document. A field whose length no posting told is taken to be of
// average length.
func (a *textTally) score(k int, idfs []float64) {
	n := len(a.tp.terms)
	dl := 0.0
	for i, f := range a.fields {
		if l := a.lens[k*2+i]; l > 0 {
			dl += l
		} else {
			dl += f.avg
		}
	}
	avgDoc := a.fields[0].avg + a.fields[1].avg
	acc := &a.accs[k]
	acc.score, acc.exact = 0, 0
	for ti, qt := range a.tp.terms {
		if qt.positive {
			c := qt.weight * idfs[ti] * bm25(a.tfw[k*n+ti], dl, avgDoc)
			acc.score += c
			if !qt.tolerant {
				acc.exact += c
			}
		}
	}
}
