package index

import (
	"github.com/blevesearch/bleve/v2/document"
	bleveindex "github.com/blevesearch/bleve_index_api"
)

// analyzedField is an indexed (not stored) bleve field that twindex
// analyzes itself instead of through a bleve analyzer: the trigram field
// counts its trigrams without a token per window (Trigram.Frequencies),
// and a write analyzes its text fields once, for both the store's length
// counters and the text index. Analyze runs analyze unless the field came
// analyzed.
type analyzedField struct {
	name     string
	text     []byte
	analyze  func([]byte) (bleveindex.TokenFrequencies, int)
	analyzed bool
	freqs    bleveindex.TokenFrequencies
	length   int
}

var _ document.Field = (*analyzedField)(nil)

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

// textField returns a text-index field of the given text, analyzed now.
func (ix *Index) textField(name, text string) *analyzedField {
	f := &analyzedField{name: name, text: []byte(text), analyze: ix.textA.Frequencies}
	f.Analyze()
	return f
}
