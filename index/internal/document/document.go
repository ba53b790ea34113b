// Package document is a document of a bleve index as twindex writes it:
// bleve_index_api's Document and Field, implemented without bleve's
// document package, so that the browser build does not link it (and
// through it bleve's geo code and json-iterator). Its fields are analyzed
// by the caller, not by a bleve analyzer: a write analyzes a document's
// text once, for the store's length counters and the index together.
//
// Invariants: a field's terms and length are those its analysis set
// (Analyzed.Set) before bleve reads them; Analyze runs that analysis at
// most once, unless the field came analyzed.
//
// Concurrency: a Doc and its fields belong to the write that made them.
// Fields analyzed together (one analysis setting several of them) must
// belong to one document, which bleve analyzes on one goroutine.
package document

import (
	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/twindex/twindex/index/internal/compact"
)

// Doc is a document of one of the bleve indexes.
type Doc struct {
	id     string
	fields []bleveindex.Field
}

var _ bleveindex.Document = (*Doc)(nil)

// New is the document id with fields.
func New(id string, fields ...bleveindex.Field) *Doc {
	return &Doc{id: id, fields: fields}
}

func (d *Doc) ID() string { return d.id }

func (d *Doc) Size() int {
	n := 64 + len(d.id)
	for _, f := range d.fields {
		if s, ok := f.(interface{ Size() int }); ok {
			n += s.Size()
		}
	}
	return n
}

func (d *Doc) VisitFields(visit bleveindex.FieldVisitor) {
	for _, f := range d.fields {
		visit(f)
	}
}

func (d *Doc) VisitComposite(bleveindex.CompositeFieldVisitor) {}
func (d *Doc) HasComposite() bool                              { return false }
func (d *Doc) Indexed() bool                                   { return false }

func (d *Doc) NumPlainTextBytes() uint64 {
	var n uint64
	for _, f := range d.fields {
		n += f.NumPlainTextBytes()
	}
	return n
}

func (d *Doc) StoredFieldsBytes() uint64 {
	var n uint64
	for _, f := range d.fields {
		if f.Options().IsStored() {
			n += uint64(len(f.Value()))
		}
	}
	return n
}

// AddIDField adds the _id field scorch looks documents up by: the ID,
// indexed as one term and stored, as bleve's document package adds it.
func (d *Doc) AddIDField() {
	d.fields = append(d.fields, &whole{name: "_id", value: []byte(d.id),
		opts: bleveindex.IndexField | bleveindex.StoreField})
}

// whole is a field whose value, when indexed, is one term, as a bleve
// text field without an analyzer makes it.
type whole struct {
	name  string
	value []byte
	opts  bleveindex.FieldIndexingOptions
	freqs bleveindex.TokenFrequencies
}

var _ bleveindex.Field = (*whole)(nil)

// Stored is a field that is stored, not indexed.
func Stored(name string, value []byte) bleveindex.Field {
	return &whole{name: name, value: value, opts: bleveindex.StoreField}
}

func (f *whole) Name() string                             { return f.name }
func (f *whole) Value() []byte                            { return f.value }
func (f *whole) ArrayPositions() []uint64                 { return nil }
func (f *whole) EncodedFieldType() byte                   { return 't' }
func (f *whole) Options() bleveindex.FieldIndexingOptions { return f.opts }
func (f *whole) NumPlainTextBytes() uint64                { return uint64(len(f.value)) }
func (f *whole) Size() int                                { return 96 + len(f.name) + 2*len(f.value) }

func (f *whole) AnalyzedLength() int {
	if f.freqs == nil {
		return 0
	}
	return 1
}

func (f *whole) AnalyzedTokenFrequencies() bleveindex.TokenFrequencies { return f.freqs }

func (f *whole) Analyze() {
	tf := &bleveindex.TokenFreq{Term: f.value}
	tf.SetFrequency(1)
	f.freqs = bleveindex.TokenFrequencies{string(f.value): tf}
}

// Analyzed is an indexed (not stored) field that twindex analyzes itself
// instead of through a bleve analyzer: the trigram field counts its
// trigrams without a token per window, and a write analyzes its text
// fields once, for both the store's length counters and the text index.
// Analyze runs the field's analysis, which calls Set on it (and on the
// fields analyzed with it), unless the field came analyzed.
type Analyzed struct {
	name    string
	text    []byte
	analyze func()
	// visit, when set, gives the terms analyze would one by one, for
	// VisitTerms, and returns the field's length.
	visit    func([]byte, func(term []byte, freq int)) int
	analyzed bool
	freqs    bleveindex.TokenFrequencies
	length   int
}

var (
	_ bleveindex.Field    = (*Analyzed)(nil)
	_ compact.TermVisitor = (*Analyzed)(nil)
)

// NewAnalyzed is the field name of text, to be analyzed by the analysis
// SetAnalyze gives it.
func NewAnalyzed(name string, text []byte) *Analyzed {
	return &Analyzed{name: name, text: text}
}

// AnalyzedBy is a field of text that analyze analyzes alone.
func AnalyzedBy(name string, text []byte, analyze func([]byte) (bleveindex.TokenFrequencies, int)) *Analyzed {
	f := &Analyzed{name: name, text: text}
	f.analyze = func() { f.Set(analyze(f.text)) }
	return f
}

// Preanalyzed is a field whose terms and length are known.
func Preanalyzed(name string, text []byte, freqs bleveindex.TokenFrequencies, length int) *Analyzed {
	return &Analyzed{name: name, text: text, analyzed: true, freqs: freqs, length: length}
}

// Set gives the field its terms and length, and marks it analyzed.
func (f *Analyzed) Set(freqs bleveindex.TokenFrequencies, length int) {
	f.freqs, f.length, f.analyzed = freqs, length, true
}

// SetAnalyze makes analyze the field's analysis, which Analyze runs when
// the field is not analyzed yet; analyze must call Set on it.
func (f *Analyzed) SetAnalyze(analyze func()) { f.analyze = analyze }

// SetVisit gives VisitTerms the field's terms one by one, by visit, which
// returns the field's length, when the field was not analyzed beforehand.
func (f *Analyzed) SetVisit(visit func(text []byte, fn func(term []byte, freq int)) int) {
	f.visit = visit
}

func (f *Analyzed) Name() string                             { return f.name }
func (f *Analyzed) ArrayPositions() []uint64                 { return nil }
func (f *Analyzed) Options() bleveindex.FieldIndexingOptions { return bleveindex.IndexField }
func (f *Analyzed) Value() []byte                            { return f.text }
func (f *Analyzed) NumPlainTextBytes() uint64                { return uint64(len(f.text)) }
func (f *Analyzed) EncodedFieldType() byte                   { return 't' }
func (f *Analyzed) AnalyzedLength() int                      { return f.length }

func (f *Analyzed) AnalyzedTokenFrequencies() bleveindex.TokenFrequencies { return f.freqs }

// Size estimates the field's memory for bleve's statistics, which call it
// once per document on the goroutine that builds the segment: it counts
// each distinct term as a map entry, a TokenFreq and a short term rather
// than walk the map.
func (f *Analyzed) Size() int {
	const termBytes = 80
	return 96 + len(f.name) + len(f.text) + termBytes*len(f.freqs)
}

func (f *Analyzed) Analyze() {
	if !f.analyzed {
		f.analyze()
	}
}

// VisitTerms gives the compact backend the field's terms without the map
// Analyze builds, when the field was not analyzed beforehand and has a
// visitor (the trigram field): indexing a corpus then makes no map per
// document, most of the time and memory a page took to build its trigram
// index.
func (f *Analyzed) VisitTerms(fn func(term []byte, freq int)) int {
	if !f.analyzed && f.visit != nil {
		return f.visit(f.text, fn)
	}
	f.Analyze()
	for _, tf := range f.freqs {
		fn(tf.Term, tf.Frequency())
	}
	return f.length
}
