package index

import (
	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/twindex/twindex/index/internal/slots"
)

// termReader is the posting list of one of a term's indexed words in one
// field (an index into textFields).
type termReader struct {
	field int
	r     bleveindex.TermFieldReader
}

// textField is one field the text leg reads.
type textField struct {
	name string
	// column is what presence bits and column filters see: 0 the
	// title, 1 the body (the symbols and the licence comment are body).
	column int
	// weight weighs the field's frequencies in the sum that BM25
	// saturates; the symbols field is scored apart.
	weight  float64
	symbols bool
}

// The text index's fields in the order the text leg reads them; lengths
// are recorded for the first three.
const (
	tfTitle = iota
	tfBody
	tfBoiler
	tfSymbols
	numTextFields
)

// textFields returns the fields the text leg reads, weighted.
func (o *Options) textFields() [numTextFields]textField {
	return [numTextFields]textField{
		tfTitle:   {name: fieldTitle, column: 0, weight: o.TitleWeight},
		tfBody:    {name: fieldBody, column: 1, weight: o.BodyWeight},
		tfBoiler:  {name: fieldBoiler, column: 1, weight: o.BoilerWeight * o.BodyWeight},
		tfSymbols: {name: fieldSymbols, column: 1, weight: o.SymbolWeight, symbols: true},
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
			if f.symbols && f.weight == 0 || fi == tfBoiler && !qt.single {
				continue
			}
			for _, term := range qt.dict {
				r, err := s.textR.TermFieldReader(s.ctx, []byte(term), f.name, true, true, false)
				if err != nil {
					return readers, nil, 0, err
				}
				if r.Count() == 0 {
					r.Close()
					continue
				}
				readers[ti] = append(readers[ti], termReader{fi, r})
				if fi == tfSymbols {
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
			df = float64(max(c[tfTitle], c[tfBody], c[tfBoiler]))
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
// field lengths its postings told and the terms present per column.
type textTally struct {
	tp     *textPlan
	fields [numTextFields]textField
	avg    [2]float64 // average title and body lengths
	nw     int        // words of a term bit set
	slot   *slots.Table
	accs   []docScore
	tfw    []float64 // weighted term frequency, by slot*len(terms)+term
	lens   []float64 // field lengths seen, by slot*3+field (title, body, boiler); 0 unknown
	pres   []uint64  // terms present, by (slot*2+column)*nw
	df     []float64 // matches per term, for sets of words
	// sym holds the symbols field's frequencies, by slot*len(terms)+term:
	// few documents declare a query word.
	sym map[int]float64
	// byField, kept for Explain only, splits tfw by field: by
	// (slot*len(terms)+term)*numTextFields+field.
	byField []float64
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
		fields: s.ix.opts.textFields(),
		avg:    [2]float64{s.avgTitle, s.avgBody},
		slot:   newSlots(hint),
		accs:   make([]docScore, 0, hint),
		tfw:    make([]float64, 0, hint*n),
		lens:   make([]float64, 0, hint*3),
		pres:   make([]uint64, 0, hint*2*nw),
		df:     make([]float64, n),
		sym:    map[int]float64{},
	}
	if s.req.Explain {
		a.byField = make([]float64, 0, hint*n*numTextFields)
	}
	s.slots = append(s.slots, a.slot)
	return a
}

// add gives the document with internal ID iid a slot.
func (a *textTally) add(iid []byte) int32 {
	k := a.slot.Add(iid)
	a.accs = append(a.accs, docScore{})
	a.tfw = append(a.tfw, make([]float64, len(a.tp.terms))...)
	a.lens = append(a.lens, 0, 0, 0)
	a.pres = append(a.pres, make([]uint64, 2*a.nw)...)
	if a.byField != nil {
		a.byField = append(a.byField, make([]float64, len(a.tp.terms)*numTextFields)...)
	}
	return k
}

// has reports whether term ti is present in slot k's document, in any
// field.
func (a *textTally) has(k int, ti int) bool {
	w, bit := ti/64, uint64(1)<<(ti%64)
	return a.pres[k*2*a.nw+w]&bit != 0 || a.pres[(k*2+1)*a.nw+w]&bit != 0
}

// record adds a posting of term ti in field f to slot k.
func (a *textTally) record(k int32, ti, f int, d *bleveindex.TermFieldDoc) {
	n := len(a.tp.terms)
	at := int(k)*n + ti
	if !a.has(int(k), ti) {
		a.df[ti]++
	}
	fd := &a.fields[f]
	if fd.symbols {
		a.sym[at] += float64(d.Freq)
		a.accs[k].declares = true
	} else {
		if d.Norm > 0 {
			a.lens[int(k)*3+f] = 1 / (d.Norm * d.Norm)
		}
		a.tfw[at] += fd.weight * float64(d.Freq)
	}
	if a.byField != nil {
		a.byField[at*numTextFields+f] += float64(d.Freq)
	}
	a.pres[(int(k)*2+fd.column)*a.nw+ti/64] |= 1 << (ti % 64)
	qt := &a.tp.terms[ti]
	a.accs[k].leaves |= qt.leaves
	if !qt.tolerant {
		a.accs[k].exactLeaves |= qt.leaves
	}
}

// score sets slot k's scores, over all terms and over the exact ones:
// BM25 as FTS5 computes it with column weights, plus what declarations
// add. Per term, the weighted sum of the fields' frequencies saturates
// once, against the length of the whole document; a field whose length no
// posting told is taken to be of average length (the licence comment: of
// none). The symbols field adds apart: symbolScore.
func (a *textTally) score(k int, idfs []float64) {
	acc := &a.accs[k]
	acc.score, acc.exact = 0, 0
	dl := a.length(k)
	for ti, qt := range a.tp.terms {
		if qt.positive {
			c := a.term(k, ti, dl, idfs, nil)
			acc.score += c
			if !qt.tolerant {
				acc.exact += c
			}
		}
	}
}

// length is slot k's document length for BM25, in tokens.
func (a *textTally) length(k int) float64 {
	dl := a.lens[k*3+tfBoiler]
	for f := range 2 {
		if l := a.lens[k*3+f]; l > 0 {
			dl += l
		} else {
			dl += a.avg[f]
		}
	}
	return dl
}

// term returns term ti's share of slot k's score, given the document's
// length dl; with split set, it also adds the share of each field to
// split.
func (a *textTally) term(k, ti int, dl float64, idfs []float64, split *[numTextFields]float64) float64 {
	n := len(a.tp.terms)
	qt := &a.tp.terms[ti]
	w := qt.weight * idfs[ti]
	if qt.part >= 0 && !a.has(k, qt.part) {
		w *= partWeight
	}
	sat := w * bm25(a.tfw[k*n+ti], dl, a.avg[0]+a.avg[1])
	sym := 0.0
	// A declaration of a part (func Read for ReadFile) declares
	// something else.
	if a.accs[k].declares && qt.part < 0 {
		if f := a.sym[k*n+ti]; f > 0 {
			sym = w * a.fields[tfSymbols].weight * f * (bm25K1 + 1) / (f + bm25K1)
		}
	}
	if split != nil {
		split[tfSymbols] += sym
		for f := range tfSymbols {
			if a.tfw[k*n+ti] > 0 {
				split[f] += sat * a.fields[f].weight * a.byField[(k*n+ti)*numTextFields+f] / a.tfw[k*n+ti]
			}
		}
	}
	return sat + sym
}

// tallied is a text pass's tally kept for Explain, with its terms' idfs.
type tallied struct {
	a    *textTally
	idfs []float64
}

// fieldScores splits the score of the document with internal ID iid by
// field, scaled to total (its score in the leg); nil when the pass did
// not see the document.
func (t *tallied) fieldScores(iid []byte, total float64) map[string]float64 {
	k, ok := t.a.slot.Get(iid)
	if !ok {
		return nil
	}
	var split [numTextFields]float64
	sum, dl := 0.0, t.a.length(int(k))
	for ti, qt := range t.a.tp.terms {
		if qt.positive {
			sum += t.a.term(int(k), ti, dl, t.idfs, &split)
		}
	}
	out := map[string]float64{}
	for f, x := range split {
		if x > 0 && sum > 0 {
			out[t.a.fields[f].name] = x * total / sum
		}
	}
	return out
}
