package index

import (
	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/twindex/twindex/index/internal/compact"
)

// bleveDoc is a document of one of the bleve indexes, as twindex writes
// it; bleve's document package is not used, so that the browser build
// does not link it (and through it bleve's geo code and json-iterator).
type bleveDoc struct {
	id     string
	fields []bleveindex.Field
}

var _ bleveindex.Document = (*bleveDoc)(nil)

func newBleveDoc(id string, fields ...bleveindex.Field) *bleveDoc {
	return &bleveDoc{id: id, fields: fields}
}

func (d *bleveDoc) ID() string { return d.id }

func (d *bleveDoc) Size() int {
	n := 64 + len(d.id)
	for _, f := range d.fields {
		if s, ok := f.(interface{ Size() int }); ok {
			n += s.Size()
		}
	}
	return n
}

func (d *bleveDoc) VisitFields(visit bleveindex.FieldVisitor) {
	for _, f := range d.fields {
		visit(f)
	}
}

func (d *bleveDoc) VisitComposite(bleveindex.CompositeFieldVisitor) {}
func (d *bleveDoc) HasComposite() bool                              { return false }
func (d *bleveDoc) Indexed() bool                                   { return false }

func (d *bleveDoc) NumPlainTextBytes() uint64 {
	var n uint64
	for _, f := range d.fields {
		n += f.NumPlainTextBytes()
	}
	return n
}

func (d *bleveDoc) StoredFieldsBytes() uint64 {
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
func (d *bleveDoc) AddIDField() {
	d.fields = append(d.fields, &wholeField{name: "_id", value: []byte(d.id),
		opts: bleveindex.IndexField | bleveindex.StoreField})
}

// wholeField is a field whose value, when indexed, is one term, as a
// bleve text field without an analyzer makes it.
type wholeField struct {
	name  string
	value []byte
	opts  bleveindex.FieldIndexingOptions
	freqs bleveindex.TokenFrequencies
}

var _ bleveindex.Field = (*wholeField)(nil)

// storedField is a field that is stored, not indexed.
func storedField(name string, value []byte) *wholeField {
	return &wholeField{name: name, value: value, opts: bleveindex.StoreField}
}

func (f *wholeField) Name() string                             { return f.name }
func (f *wholeField) Value() []byte                            { return f.value }
func (f *wholeField) ArrayPositions() []uint64                 { return nil }
func (f *wholeField) EncodedFieldType() byte                   { return 't' }
func (f *wholeField) Options() bleveindex.FieldIndexingOptions { return f.opts }
func (f *wholeField) NumPlainTextBytes() uint64                { return uint64(len(f.value)) }
func (f *wholeField) Size() int                                { return 96 + len(f.name) + 2*len(f.value) }

func (f *wholeField) AnalyzedLength() int {
	if f.freqs == nil {
		return 0
	}
	return 1
}

func (f *wholeField) AnalyzedTokenFrequencies() bleveindex.TokenFrequencies { return f.freqs }

func (f *wholeField) Analyze() {
	tf := &bleveindex.TokenFreq{Term: f.value}
	tf.SetFrequency(1)
	f.freqs = bleveindex.TokenFrequencies{string(f.value): tf}
}

// analyzedField is an indexed (not stored) bleve field that twindex
// analyzes itself instead of through a bleve analyzer: the trigram field
// counts its trigrams without a token per window (Trigram.Frequencies),
// and a write analyzes its text fields once, for both the store's length
// counters and the text index. Analyze runs analyze unless the field came
// analyzed.
type analyzedField struct {
	name    string
	text    []byte
	analyze func([]byte) (bleveindex.TokenFrequencies, int)
	// visit, when set, gives the same terms as analyze one by one, for
	// VisitTerms.
	visit    func([]byte, func(term []byte, freq int)) int
	analyzed bool
	freqs    bleveindex.TokenFrequencies
	length   int
}

var (
	_ bleveindex.Field    = (*analyzedField)(nil)
	_ compact.TermVisitor = (*analyzedField)(nil)
)

func (f *analyzedField) Name() string                             { return f.name }
func (f *analyzedField) ArrayPositions() []uint64                 { return nil }
func (f *analyzedField) Options() bleveindex.FieldIndexingOptions { return bleveindex.IndexField }
func (f *analyzedField) Value() []byte                            { return f.text }
func (f *analyzedField) NumPlainTextBytes() uint64                { return uint64(len(f.text)) }
func (f *analyzedField) EncodedFieldType() byte                   { return 't' }
func (f *analyzedField) AnalyzedLength() int                      { return f.length }

func (f *analyzedField) AnalyzedTokenFrequencies() bleveindex.TokenFrequencies { return f.freqs }

// Size estimates the field's memory for bleve's statistics, which call it
// once per document on the goroutine that builds the segment: it counts
// each distinct term as a map entry, a TokenFreq and a short term rather
// than walk the map.
func (f *analyzedField) Size() int {
	const termBytes = 80
	return 96 + len(f.name) + len(f.text) + termBytes*len(f.freqs)
}

func (f *analyzedField) Analyze() {
	if !f.analyzed {
		f.freqs, f.length = f.analyze(f.text)
		f.analyzed = true
	}
}

// VisitTerms gives the compact backend the field's terms without the map
// Analyze builds, when the field was not analyzed beforehand and has a
// visitor (the trigram field): indexing a corpus then makes no map per
// document, most of the time and memory a page took to build its trigram
// index.
func (f *analyzedField) VisitTerms(fn func(term []byte, freq int)) int {
	if !f.analyzed && f.visit != nil {
		return f.visit(f.text, fn)
	}
	f.Analyze()
	for _, tf := range f.freqs {
		fn(tf.Term, tf.Frequency())
	}
	return f.length
}

// textField returns a text-index field of the given text, analyzed now.
func (ix *Index) textField(name, text string) *analyzedField {
	f := &analyzedField{name: name, text: []byte(text), analyze: ix.textA.Frequencies}
	f.Analyze()
	return f
}
