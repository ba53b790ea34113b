package index

import (
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
	fieldSymbols = "symbols"     // text index: the declared names, one per line
	fieldBoiler  = "boilerplate" // text index: the licence comment the body starts with
	fieldGrams   = "g"           // trigram index: title and body grams together
	fieldDefines = "d"           // trigram index: the folded declared names, whole
	fieldHash    = "h"           // both: stored content hash, not indexed
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

// prepared is a document's text-index fields, analyzed before its write
// (the store records their lengths, the text index their terms) or when
// bleve indexes it, and the folded names it declares, for the trigram
// index.
type prepared struct {
	title, body, symbols, boiler *analyzedField // symbols and boiler nil when empty
	defines                      []string
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
// now when analyze is set, else when bleve calls Analyze.
func (ix *Index) prepare(d *Doc, analyze bool) prepared {
	var f decl.File
	if !ix.opts.noDecl {
		f = decl.Scan(langOf(d), d.Body)
	}
	field := func(name, text string) *analyzedField {
		af := &analyzedField{name: name, text: []byte(text), analyze: ix.textA.Frequencies}
		if analyze {
			af.Analyze()
		}
		return af
	}
	p := prepared{title: field(fieldTitle, d.Title), body: field(fieldBody, d.Body[f.Boilerplate:])}
	if f.Boilerplate > 0 {
		p.boiler = field(fieldBoiler, d.Body[:f.Boilerplate])
	}
	if len(f.Names) > 0 {
		var b strings.Builder
		for _, n := range f.Names {
			b.WriteString(n.Text)
			b.WriteByte('\n')
			p.defines = append(p.defines, tokenize.Fold(n.Text))
		}
		p.symbols = field(fieldSymbols, b.String())
		slices.Sort(p.defines)
		p.defines = slices.Compact(p.defines)
	}
	return p
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
	if p.symbols != nil {
		bd.AddField(p.symbols)
	}
	if p.boiler != nil {
		bd.AddField(p.boiler)
	}
	bd.AddField(document.NewTextFieldCustom(fieldHash, nil, hash, bleveindex.StoreField, nil))
	return bd
}

// trigramDoc is a document of the trigram index.
func (ix *Index) trigramDoc(d *Doc, hash []byte) bleveindex.Document {
	return ix.preparedTrigramDoc(d, hash, prepared{})
}

// preparedTrigramDoc is trigramDoc with the declared names found
// beforehand, when p has its fields.
func (ix *Index) preparedTrigramDoc(d *Doc, hash []byte, p prepared) bleveindex.Document {
	if p.title == nil {
		p = ix.prepare(d, false)
	}
	bd := document.NewDocument(d.ID)
	// One field for both: the grams that span the joint only add
	// candidates, which verification removes.
	text := make([]byte, 0, len(d.Title)+1+len(d.Body))
	text = append(append(append(text, d.Title...), '\n'), d.Body...)
	bd.AddField(&analyzedField{name: fieldGrams, text: text, analyze: ix.triA.Frequencies})
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
