package index

import (
	"math"
	"slices"
	"strings"

	"github.com/blevesearch/bleve/v2/document"
	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/twindex/twindex/decl"
	"github.com/twindex/twindex/tokenize"
)

// Bleve field names. The text index splits a document's body in three:
// its licence comment (boilerplate), the rest (body), and the names it
// declares (symbols, which are also in the body's text). Column filters
// (body:word) see all three as the body.
const (
	fieldTitle   = "title"       // text index
	fieldBody    = "body"        // text index: the body without its licence comment
	fieldWords   = "w"           // text index: words as written where stemming changed them (prepare)
	fieldSymbols = "symbols"     // text index: the declared names, one per line
	fieldBoiler  = "boilerplate" // text index: the licence comment the body starts with
	fieldGrams   = "g"           // trigram index: title and body grams together
	fieldDefines = "d"           // trigram index: the folded declared names, whole
	fieldHash    = "h"           // both: stored content hash, not indexed
	// fieldTitleGrams is the trigram index's grams of the title alone,
	// whose length is the folded title's in bytes plus one; fieldLength
	// has one term, lengthTerm, whose length is the folded title's and
	// body's together plus one and whose frequency is the write sequence
	// number of the document's stored record, or one after it (see
	// lengthField): what the substring leg scores a document by when its
	// grams decide the query, and finds its folded text by in the cache.
	fieldTitleGrams = "t"
	fieldLength     = "n"
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

// prepared is a document's text-index fields, analyzed before its write
// (the store records their lengths, the text index their terms) or when
// bleve indexes it, and the folded names it declares, for the trigram
// index.
type prepared struct {
	title, body, symbols, boiler *analyzedField // symbols and boiler nil when empty
	// words are the title's, body's and licence comment's words as
	// written where stemming changed them (fieldWords), which fuzzy
	// matching compares typos with.
	words   *analyzedField
	defines []string
}

// bodyTokens is the analyzed length of the whole body.
func (p *prepared) bodyTokens() int {
	n := p.body.length
	if p.boiler != nil {
		n += p.boiler.length
	}
	return n
}

// langOf is the language whose declarations a document holds: by its ID's
// extension, else its kind, else its title's extension.
func langOf(d *Doc) decl.Lang {
	for _, s := range []string{d.ID, d.Kind, d.Title} {
		if l := decl.LangOf(s); l != decl.None {
			return l
		}
	}
	return decl.None
}

// prepare splits a document's text into the text index's fields, analyzed
// now when analyze is set, else when bleve calls Analyze. Title, body,
// licence comment and words are analyzed together, by the first Analyze
// of any of them, since the words come of all three.
func (ix *Index) prepare(d *Doc, analyze bool) prepared {
	var f decl.File
	if !ix.opts.noDecl {
		f = decl.Scan(langOf(d), d.Body)
	}
	p := prepared{
		title: &analyzedField{name: fieldTitle, text: []byte(d.Title)},
		body:  &analyzedField{name: fieldBody, text: []byte(d.Body[f.Boilerplate:])},
		words: &analyzedField{name: fieldWords},
	}
	together := []*analyzedField{p.title, p.body}
	if f.Boilerplate > 0 {
		p.boiler = &analyzedField{name: fieldBoiler, text: []byte(d.Body[:f.Boilerplate])}
		together = append(together, p.boiler)
	}
	all := func() {
		words := bleveindex.TokenFrequencies{}
		for _, af := range together {
			af.freqs, af.length = ix.textA.Count(af.text, words)
			af.analyzed = true
		}
		p.words.freqs, p.words.length, p.words.analyzed = words, len(words), true
	}
	for _, af := range together {
		af.analyze = all
	}
	p.words.analyze = all
	if len(f.Names) > 0 {
		var b strings.Builder
		for _, n := range f.Names {
			b.WriteString(n.Text)
			b.WriteByte('\n')
			p.defines = append(p.defines, tokenize.Fold(n.Text))
		}
		p.symbols = ix.analyzedBy(fieldSymbols, []byte(b.String()), ix.textA.Frequencies)
		slices.Sort(p.defines)
		p.defines = slices.Compact(p.defines)
	}
	if analyze {
		all()
		if p.symbols != nil {
			p.symbols.Analyze()
		}
	}
	return p
}

// analyzedBy is a field of text that analyze analyzes alone.
func (ix *Index) analyzedBy(name string, text []byte, analyze func([]byte) (bleveindex.TokenFrequencies, int)) *analyzedField {
	f := &analyzedField{name: name, text: text}
	f.analyze = func() {
		f.freqs, f.length = analyze(f.text)
		f.analyzed = true
	}
	return f
}

// textDoc is a document of the text index, analyzed when bleve indexes it.
func (ix *Index) textDoc(d *Doc, hash []byte) bleveindex.Document {
	return ix.preparedTextDoc(d, hash, prepared{})
}

// preparedTextDoc is textDoc with the fields prepared beforehand, when p
// has them.
func (ix *Index) preparedTextDoc(d *Doc, hash []byte, p prepared) bleveindex.Document {
	if p.title == nil {
		p = ix.prepare(d, false)
	}
	bd := document.NewDocument(d.ID)
	bd.AddField(p.title)
	bd.AddField(p.body)
	bd.AddField(p.words)
	if p.symbols != nil {
		bd.AddField(p.symbols)
	}
	if p.boiler != nil {
		bd.AddField(p.boiler)
	}
	bd.AddField(document.NewTextFieldCustom(fieldHash, nil, hash, bleveindex.StoreField, nil))
	return bd
}

// trigramDocs returns the function that makes a trigram index document of
// a document whose stored record was written by write seq, or by one
// before it: the sequence number fieldLength carries, which the fold
// cache is checked against, may be too high, never too low, so that it
// can only miss (see lengthField).
func (ix *Index) trigramDocs(seq uint64) func(*Doc, []byte) bleveindex.Document {
	return func(d *Doc, hash []byte) bleveindex.Document { return ix.preparedTrigramDoc(d, seq, hash, prepared{}) }
}

// preparedTrigramDoc is a document of the trigram index (see trigramDocs),
// with the declared names found beforehand when p has its fields.
func (ix *Index) preparedTrigramDoc(d *Doc, seq uint64, hash []byte, p prepared) bleveindex.Document {
	if p.title == nil {
		p = ix.prepare(d, false)
	}
	bd := document.NewDocument(d.ID)
	// One field for both: the grams that span the joint only add
	// candidates, which verification removes.
	text := make([]byte, 0, len(d.Title)+1+len(d.Body))
	text = append(append(append(text, d.Title...), '\n'), d.Body...)
	bd.AddField(ix.analyzedBy(fieldGrams, text, ix.gramFrequencies))
	title := tokenize.FoldLen(d.Title)
	if d.Title != "" {
		bd.AddField(ix.analyzedBy(fieldTitleGrams, []byte(d.Title), func(b []byte) (bleveindex.TokenFrequencies, int) {
			freqs, _ := ix.triA.Frequencies(b)
			return freqs, title + 1
		}))
	}
	bd.AddField(lengthField(title+tokenize.FoldLen(d.Body), seq))
	if len(p.defines) > 0 {
		freqs := make(bleveindex.TokenFrequencies, len(p.defines))
		for _, name := range p.defines {
			tf := &bleveindex.TokenFreq{Term: []byte(name)}
			tf.SetFrequency(1)
			freqs[name] = tf
		}
		bd.AddField(&analyzedField{name: fieldDefines, text: []byte(strings.Join(p.defines, "\n")), analyzed: true, freqs: freqs, length: len(freqs)})
	}
	bd.AddField(document.NewTextFieldCustom(fieldHash, nil, hash, bleveindex.StoreField, nil))
	return bd
}

// lengthTerm is fieldLength's one term.
const lengthTerm = "l"

// lengthField is fieldLength of a document whose folded title and body
// have n bytes and whose record was written by write seq. A field's length
// reaches a search as the norm of each of its postings, 1/sqrt(length)
// (lengthOf inverts it); the length is n+1 because zap reads a merged
// segment's term of one posting and a norm of 1/sqrt(0) as no posting.
// The frequency is seq: a fold cache entry of the document is of its
// record when their sequence numbers are equal, and a number too high
// (replay and rebuild write every document with the last write's, as no
// version of the document has that number unless it is the record's)
// only misses the cache.
func lengthField(n int, seq uint64) *analyzedField {
	tf := &bleveindex.TokenFreq{Term: []byte(lengthTerm)}
	tf.SetFrequency(int(seq))
	return &analyzedField{name: fieldLength, analyzed: true, length: n + 1,
		freqs: bleveindex.TokenFrequencies{lengthTerm: tf}}
}

// lengthOf is the length n of lengthField(n) (or of a title's grams) from
// the norm of one of its postings.
func lengthOf(norm float64) float64 {
	return math.Round(1/(norm*norm)) - 1
}

// gramFrequencies is the trigram field's analysis. It reports the field's
// length as 1, whatever the text: zap (v16) stores a field's length with
// each of its postings, as a varint in place of a norm, and nothing reads
// it for this field, so 1 costs one byte a posting where the grams' count
// costs two or three (the index's size, in DESIGN.md). Not 0: zap takes a
// zero there to mean that a merged segment's term of one posting has none.
func (ix *Index) gramFrequencies(text []byte) (bleveindex.TokenFrequencies, int) {
	freqs, _ := ix.triA.Frequencies(text)
	return freqs, 1
}
