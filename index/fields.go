package index

import (
	"github.com/blevesearch/bleve/v2/document"
	bleveindex "github.com/blevesearch/bleve_index_api"
)

// analyzedField is an indexed (not stored) bleve field that twindex
// analyzes itself instead of through a bleve analyzer: the trigram field
// counts its trigrams without a token per window (Trigram.Frequencies),
// and a write analyzes its text fields once, for both the store's length
// counters and the text index. Analyze runs analyze, which sets freqs and
// length and marks the field analyzed (the text fields of a document are
// analyzed together), unless the field came analyzed.
type analyzedField struct {
	name     string
	text     []byte
	analyze  func()
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
		f.analyze()
	}
}

// textFields are a document's text-index fields: its title and body, and
// its words as written where stemming changed them (fieldWords), which
// fuzzy matching compares typos with. The three are analyzed together, by
// the first Analyze of any of them, since the words come of both texts.
type textFields struct{ title, body, words *analyzedField }

func (ix *Index) textFields(d *Doc) textFields {
	tf := textFields{
		title: &analyzedField{name: fieldTitle, text: []byte(d.Title)},
		body:  &analyzedField{name: fieldBody, text: []byte(d.Body)},
		words: &analyzedField{name: fieldWords},
	}
	all := func() {
		words := bleveindex.TokenFrequencies{}
		tf.title.freqs, tf.title.length = ix.textA.Count(tf.title.text, words)
		tf.body.freqs, tf.body.length = ix.textA.Count(tf.body.text, words)
		tf.words.freqs, tf.words.length = words, len(words)
		tf.title.analyzed, tf.body.analyzed, tf.words.analyzed = true, true, true
	}
	tf.title.analyze, tf.body.analyze, tf.words.analyze = all, all, all
	return tf
}

// trigramField returns the trigram index's field of text.
func (ix *Index) trigramField(text []byte) *analyzedField {
	f := &analyzedField{name: fieldGrams, text: text}
	f.analyze = func() {
		f.freqs, f.length = ix.triA.Frequencies(f.text)
		f.analyzed = true
	}
	return f
}
