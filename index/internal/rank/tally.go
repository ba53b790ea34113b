package rank

import (
	"slices"
	"sync"

	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/twindex/twindex/index/internal/slots"
)

// The text index's fields in the order the text leg reads them, as
// indexes of Config.Fields; lengths are recorded for the first three.
const (
	Title   = iota
	Body    // the body without the licence comment it starts with
	Boiler  // that licence comment
	Symbols // the names the document declares, scored apart
	NumFields
)

// Field is one field the text leg reads.
type Field struct {
	Name string
	// Column is what presence bits and column filters see: 0 the
	// title, 1 the body (the symbols and the licence comment are body).
	Column int
	// Weight weighs the field's frequencies in the sum that BM25
	// saturates; the symbols field is scored apart.
	Weight float64
}

// Term is what a Tally needs of one entry of a query's term table.
type Term struct {
	Weight   float64
	Positive bool   // some leaf not under a NOT uses it: it scores
	Tolerant bool   // a tolerant pass's expansion: its matches are not exact
	Leaves   uint64 // bit i: leaf i of the query uses it (for coordination)
	// Part is the term of the whole identifier whose part this term is
	// (read and file of ReadFile), -1 for none: a document without the
	// whole identifier weighs the part Config.PartWeight.
	Part int
}

// Doc is a Tally's account of one document: its scores over all terms
// and over the exact ones (not a tolerant pass's expansions).
type Doc struct {
	Score, Exact        float64
	Leaves, ExactLeaves uint64 // bit i: the document matched leaf i
	Declares            bool   // it has postings in the symbols field
}

// Config describes the pass a Tally counts for.
type Config struct {
	Terms  []Term
	Fields [NumFields]Field
	Avg    [2]float64 // average title and body lengths, in tokens
	// PartWeight weighs a part of a query identifier in a document that
	// does not hold the whole identifier.
	PartWeight float64
	// Slots numbers the documents; the caller releases it.
	Slots *slots.Table
	Hint  int  // the documents expected, to size the tally
	Split bool // keep the frequencies by field, for FieldScores
}

// Tally holds one pass's statistics of each document it has seen, by
// slot: its Doc, each term's weighted frequency, the field lengths its
// postings told and the terms present per column.
type Tally struct {
	terms  []Term
	fields [NumFields]Field
	avg    [2]float64
	partW  float64
	nw     int // words of a term bit set
	slot   *slots.Table
	docs   []Doc
	tfw    []float64 // weighted term frequency, by slot*len(terms)+term
	lens   []float64 // field lengths seen, by slot*3+field (title, body, boiler); 0 unknown
	pres   []uint64  // terms present, by (slot*2+column)*nw
	df     []float64 // matches per term
	// sym holds the symbols field's frequencies, by slot*len(terms)+term,
	// as tfw does; nil until the field has a posting. It was a map, as few
	// documents declare a query word, but a common part of an identifier
	// ("type", "index") is declared in hundreds, and the map's growth and
	// lookups were 5.6% of the identifier class in text mode.
	sym []float64
	// byField, kept for FieldScores only, splits tfw by field: by
	// (slot*len(terms)+term)*NumFields+field.
	byField []float64
	idfs    []float64 // the terms' idfs, as of the last Score
	bufs    *tallyBufs
}

// tallyBufs are a Tally's arrays by slot, handed from a released tally to
// the next: as a query is typed, each keystroke's search made them anew,
// the largest part of what it allocated (BenchmarkKeystrokes).
type tallyBufs struct {
	docs           []Doc
	tfw, lens, sym []float64
	pres           []uint64
}

var tallyPool = sync.Pool{New: func() any { return new(tallyBufs) }}

// New returns an empty tally. Cost: allocations for c.Hint documents,
// unless a released tally's arrays hold them.
func New(c *Config) *Tally {
	n := len(c.Terms)
	nw := (n + 63) / 64
	b := tallyPool.Get().(*tallyBufs)
	t := &Tally{
		terms: c.Terms, fields: c.Fields, avg: c.Avg, partW: c.PartWeight,
		nw:   nw,
		slot: c.Slots,
		docs: slices.Grow(b.docs[:0], c.Hint),
		tfw:  slices.Grow(b.tfw[:0], c.Hint*n),
		lens: slices.Grow(b.lens[:0], c.Hint*3),
		pres: slices.Grow(b.pres[:0], c.Hint*2*nw),
		df:   make([]float64, n),
		bufs: b,
	}
	if c.Split {
		t.byField = make([]float64, 0, c.Hint*n*NumFields)
	}
	return t
}

// Release hands the tally's arrays to the next New. Neither the tally
// nor what it returned (Docs, Present) may be used after.
func (t *Tally) Release() {
	if t.bufs == nil {
		return
	}
	b := t.bufs
	b.docs, b.tfw, b.lens, b.pres = t.docs[:0], t.tfw[:0], t.lens[:0], t.pres[:0]
	if t.sym != nil {
		b.sym = t.sym[:0]
	}
	*t = Tally{}
	tallyPool.Put(b)
}

// Add gives the document with internal ID iid, which has none, a slot.
func (t *Tally) Add(iid []byte) int32 {
	k := t.slot.Add(iid)
	t.docs = append(t.docs, Doc{})
	t.tfw = append(t.tfw, make([]float64, len(t.terms))...)
	if t.sym != nil {
		t.sym = append(t.sym, make([]float64, len(t.terms))...)
	}
	t.lens = append(t.lens, 0, 0, 0)
	t.pres = append(t.pres, make([]uint64, 2*t.nw)...)
	if t.byField != nil {
		t.byField = append(t.byField, make([]float64, len(t.terms)*NumFields)...)
	}
	return k
}

// Docs returns the documents by slot; the caller does not modify them.
func (t *Tally) Docs() []Doc { return t.docs }

// Present returns the terms present in slot k's document: a bit set of
// the terms (of (len(terms)+63)/64 words) per column.
func (t *Tally) Present(k int) []uint64 { return t.pres[k*2*t.nw : (k+1)*2*t.nw] }

// Matches returns the number of documents term ti is present in.
func (t *Tally) Matches(ti int) float64 { return t.df[ti] }

// has reports whether term ti is present in slot k's document, in any
// field.
func (t *Tally) has(k int, ti int) bool {
	w, bit := ti/64, uint64(1)<<(ti%64)
	return t.pres[k*2*t.nw+w]&bit != 0 || t.pres[(k*2+1)*t.nw+w]&bit != 0
}

// Record adds a posting of term ti in field f to slot k.
func (t *Tally) Record(k int32, ti, f int, d *bleveindex.TermFieldDoc) {
	n := len(t.terms)
	at := int(k)*n + ti
	if !t.has(int(k), ti) {
		t.df[ti]++
	}
	fd := &t.fields[f]
	if f == Symbols {
		if t.sym == nil {
			t.sym = append(t.bufs.sym[:0], make([]float64, len(t.tfw))...)
		}
		t.sym[at] += float64(d.Freq)
		t.docs[k].Declares = true
	} else {
		if d.Norm > 0 {
			t.lens[int(k)*3+f] = 1 / (d.Norm * d.Norm)
		}
		t.tfw[at] += fd.Weight * float64(d.Freq)
	}
	if t.byField != nil {
		t.byField[at*NumFields+f] += float64(d.Freq)
	}
	t.pres[(int(k)*2+fd.Column)*t.nw+ti/64] |= 1 << (ti % 64)
	qt := &t.terms[ti]
	t.docs[k].Leaves |= qt.Leaves
	if !qt.Tolerant {
		t.docs[k].ExactLeaves |= qt.Leaves
	}
}

// Score sets every document's scores, over all terms and over the exact
// ones, given the terms' idfs: BM25 as FTS5 computes it with column
// weights, plus what declarations add. Per term, the weighted sum of the
// fields' frequencies saturates once, against the length of the whole
// document; a field whose length no posting told is taken to be of
// average length (the licence comment: of none). The symbols field adds
// apart. Cost: O(documents · terms).
func (t *Tally) Score(idfs []float64) {
	t.idfs = idfs
	for k := range t.docs {
		t.score(k)
	}
}

// ScoreDoc sets slot k's scores as Score sets every document's, once
// all its postings are recorded, and returns its account.
func (t *Tally) ScoreDoc(k int32, idfs []float64) Doc {
	t.idfs = idfs
	t.score(int(k))
	return t.docs[k]
}

func (t *Tally) score(k int) {
	n := len(t.terms)
	d := &t.docs[k]
	d.Score, d.Exact = 0, 0
	dl := t.length(k)
	for ti, qt := range t.terms {
		// A term the document does not hold adds nothing: most of a
		// query's terms for most of its matches (an identifier's parts,
		// a word's completions).
		if qt.Positive && (t.tfw[k*n+ti] != 0 || d.Declares) {
			c := t.term(k, ti, dl, nil)
			d.Score += c
			if !qt.Tolerant {
				d.Exact += c
			}
		}
	}
}

// Bound returns the most term ti can add to a document's score, given
// its idf, whatever the frequencies and lengths: the share of its words
// in the title and body, or with symbols the share of its declarations.
// whole reports whether the document may hold the identifier whose part
// ti is (Term.Part), if it is one.
func (t *Tally) Bound(ti int, idf float64, symbols, whole bool) float64 {
	qt := &t.terms[ti]
	// BM25 saturates below k1+1.
	w := qt.Weight * idf * (k1 + 1)
	switch {
	case qt.Part >= 0 && symbols:
		return 0 // a part declares nothing
	case qt.Part >= 0 && !whole:
		return w * t.partW
	case symbols:
		return w * t.fields[Symbols].Weight
	}
	return w
}

// length is slot k's document length for BM25, in tokens.
func (t *Tally) length(k int) float64 {
	dl := t.lens[k*3+Boiler]
	for f := range 2 {
		if l := t.lens[k*3+f]; l > 0 {
			dl += l
		} else {
			dl += t.avg[f]
		}
	}
	return dl
}

// term returns term ti's share of slot k's score, given the document's
// length dl; with split set, it also adds the share of each field to
// split.
func (t *Tally) term(k, ti int, dl float64, split *[NumFields]float64) float64 {
	n := len(t.terms)
	qt := &t.terms[ti]
	w := qt.Weight * t.idfs[ti]
	if qt.Part >= 0 && !t.has(k, qt.Part) {
		w *= t.partW
	}
	sat := w * BM25(t.tfw[k*n+ti], dl, t.avg[0]+t.avg[1])
	sym := 0.0
	// A declaration of a part (func Read for ReadFile) declares
	// something else.
	if t.docs[k].Declares && qt.Part < 0 {
		if f := t.sym[k*n+ti]; f > 0 {
			sym = w * t.fields[Symbols].Weight * f * (k1 + 1) / (f + k1)
		}
	}
	if split != nil {
		split[Symbols] += sym
		for f := range Symbols {
			if t.tfw[k*n+ti] > 0 {
				split[f] += sat * t.fields[f].Weight * t.byField[(k*n+ti)*NumFields+f] / t.tfw[k*n+ti]
			}
		}
	}
	return sat + sym
}

// FieldScores splits the score of the document with internal ID iid by
// field name, scaled to total (its score in the leg); nil when the tally
// did not see the document. It needs Config.Split and a Score before.
func (t *Tally) FieldScores(iid []byte, total float64) map[string]float64 {
	k, ok := t.slot.Get(iid)
	if !ok {
		return nil
	}
	var split [NumFields]float64
	sum, dl := 0.0, t.length(int(k))
	for ti, qt := range t.terms {
		if qt.Positive {
			sum += t.term(int(k), ti, dl, &split)
		}
	}
	out := map[string]float64{}
	for f, x := range split {
		if x > 0 && sum > 0 {
			out[t.fields[f].Name] = x * total / sum
		}
	}
	return out
}
