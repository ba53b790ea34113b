package index

import (
	"math"
	"slices"
	"strings"

	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/twindex/twindex/decl"
	"github.com/twindex/twindex/index/internal/bloom"
	"github.com/twindex/twindex/index/internal/document"
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
	// number of the document's stored record (see lengthField): what the
	// substring leg scores a document by when its grams decide the query,
	// and finds its folded text by in the cache.
	fieldTitleGrams = "t"
	fieldLength     = "n"
)

// prepared is a document's text-index fields, analyzed before its write
// (the store records their lengths, the text index their terms) or when
// bleve indexes it, and the folded names it declares, for the trigram
// index.
type prepared struct {
	title, body, symbols, boiler *document.Analyzed // symbols and boiler nil when empty
	// words are the title's, body's and licence comment's words as
	// written where stemming changed them (fieldWords), which fuzzy
	// matching compares typos with.
	words   *document.Analyzed
	defines []string
	// pairs is the Bloom filter of the title's and body's adjacent
	// term pairs (record.Header.Pairs), made when the fields are
	// analyzed before the write; nil otherwise. pairHashes are the
	// pairs' hashes (tokenize.PairHash), which Check asks a record's
	// filter for.
	pairs      []byte
	pairHashes []uint64
}

// bodyTokens is the analyzed length of the whole body.
func (p *prepared) bodyTokens() int {
	n := p.body.AnalyzedLength()
	if p.boiler != nil {
		n += p.boiler.AnalyzedLength()
	}
	return n
}

// prepare splits a document's text into the text index's fields, analyzed
// now when analyze is set, with the filter of its adjacent term pairs,
// else when bleve calls Analyze. Title, body, licence comment and words
// are analyzed together, by the first Analyze of any of them, since the
// words come of all three.
func (ix *Index) prepare(d *Doc, analyze bool) prepared {
	f := ix.scan(d)
	p := prepared{
		title: document.NewAnalyzed(fieldTitle, []byte(d.Title)),
		body:  document.NewAnalyzed(fieldBody, []byte(d.Body[f.Boilerplate:])),
		words: document.NewAnalyzed(fieldWords, nil),
	}
	// The body's pairs are the stored body's, which the licence comment
	// starts: it is counted first, and the rest continues it (it ends
	// at a line's end, where no word does).
	together := []*document.Analyzed{p.title}
	if f.Boilerplate > 0 {
		p.boiler = document.NewAnalyzed(fieldBoiler, []byte(d.Body[:f.Boilerplate]))
		together = append(together, p.boiler)
	}
	together = append(together, p.body)
	var adj *tokenize.Adjacent
	if analyze && !ix.opts.noPairs {
		adj = &tokenize.Adjacent{}
	}
	all := func() {
		words := bleveindex.TokenFrequencies{}
		for _, af := range together {
			af.Set(ix.textA.Count(af.Value(), words, adj))
			if af == p.boiler && adj != nil {
				adj.Continue()
			}
		}
		p.words.Set(words, len(words))
		if adj != nil {
			p.pairHashes = adj.Pairs()
			p.pairs = bloom.New(p.pairHashes, pairBits)
		}
	}
	for _, af := range append(together, p.words) {
		af.SetAnalyze(all)
	}
	if len(f.Names) > 0 {
		var b strings.Builder
		for _, n := range f.Names {
			b.WriteString(n.Text)
			b.WriteByte('\n')
		}
		p.symbols = document.AnalyzedBy(fieldSymbols, []byte(b.String()), ix.textA.Frequencies)
		p.defines = folded(f.Names)
	}
	if analyze {
		all()
		if p.symbols != nil {
			p.symbols.Analyze()
		}
	}
	return p
}

// pairBits is the bits of a document's pairs filter for each pair: one
// in twelve of the pairs a document lacks passes it (bloom: two probes),
// and the document's text is read to judge the phrase. The Go tree's
// 12,500 documents hold 6.4 million distinct pairs: 4.6 MiB of filters.
// At 3 bits (earlier builds) one in four passed: the phrases of the
// yardstick's tail whose words are common and apart in many documents
// ("type t", "a int") took 1.1-1.25x their time now. Records written
// with another size are read, and checked, as they are (bloom.MayHold
// takes any size; Check asks a filter for its text's pairs, not for
// these bytes).
const pairBits = 6

// scan returns what d declares and its licence comment (package decl),
// nothing with Options.noDecl.
func (ix *Index) scan(d *Doc) decl.File {
	if ix.opts.noDecl {
		return decl.File{}
	}
	return decl.Scan(decl.LangOf(d.ID, d.Kind, d.Title), d.Body)
}

// folded returns names folded, sorted, without duplicates: what the
// trigram index's fieldDefines holds.
func folded(names []decl.Name) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = tokenize.Fold(n.Text)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// recordMaker makes the bleve document of a stored document d, whose
// record write seq stored, with its content hash: what a replay or a
// rebuild reads from the store and writes to an index.
type recordMaker func(d *Doc, seq uint64, hash []byte) bleveindex.Document

// textDoc is a document of the text index, analyzed when bleve indexes
// it: a recordMaker (the text index keeps no sequence number).
func (ix *Index) textDoc(d *Doc, _ uint64, hash []byte) bleveindex.Document {
	return ix.preparedTextDoc(d, hash, prepared{})
}

// preparedTextDoc is textDoc with the fields prepared beforehand, when p
// has them.
func (ix *Index) preparedTextDoc(d *Doc, hash []byte, p prepared) bleveindex.Document {
	if p.title == nil {
		p = ix.prepare(d, false)
	}
	fields := []bleveindex.Field{p.title, p.body, p.words}
	if p.symbols != nil {
		fields = append(fields, p.symbols)
	}
	if p.boiler != nil {
		fields = append(fields, p.boiler)
	}
	return document.New(d.ID, append(fields, document.Stored(fieldHash, hash))...)
}

// trigramDoc is a recordMaker of the trigram index: its fieldLength
// carries the record's sequence number, which the fold cache's entries
// of that record have.
func (ix *Index) trigramDoc(d *Doc, seq uint64, hash []byte) bleveindex.Document {
	return ix.preparedTrigramDoc(d, seq, hash, folded(ix.scan(d).Names))
}

// preparedTrigramDoc is a document of the trigram index (see trigramDoc);
// defines are the names it declares, as folded returns them.
func (ix *Index) preparedTrigramDoc(d *Doc, seq uint64, hash []byte, defines []string) bleveindex.Document {
	// One field for both: the grams that span the joint only add
	// candidates, which verification removes.
	text := make([]byte, 0, len(d.Title)+1+len(d.Body))
	text = append(append(append(text, d.Title...), '\n'), d.Body...)
	grams := document.AnalyzedBy(fieldGrams, text, ix.gramFrequencies)
	grams.SetVisit(ix.visitGrams)
	fields := []bleveindex.Field{grams}
	title := tokenize.FoldLen(d.Title)
	if d.Title != "" {
		tg := document.AnalyzedBy(fieldTitleGrams, []byte(d.Title), func(b []byte) (bleveindex.TokenFrequencies, int) {
			freqs, _ := ix.triA.Frequencies(b)
			return freqs, title + 1
		})
		tg.SetVisit(func(b []byte, fn func([]byte, int)) int {
			ix.triA.VisitFrequencies(b, fn)
			return title + 1
		})
		fields = append(fields, tg)
	}
	fields = append(fields, lengthField(title+tokenize.FoldLen(d.Body), seq))
	if len(defines) > 0 {
		freqs := make(bleveindex.TokenFrequencies, len(defines))
		for _, name := range defines {
			tf := &bleveindex.TokenFreq{Term: []byte(name)}
			tf.SetFrequency(1)
			freqs[name] = tf
		}
		fields = append(fields, document.Preanalyzed(fieldDefines, []byte(strings.Join(defines, "\n")), freqs, len(freqs)))
	}
	return document.New(d.ID, append(fields, document.Stored(fieldHash, hash))...)
}

// lengthTerm is fieldLength's one term.
const lengthTerm = "l"

// lengthField is fieldLength of a document whose folded title and body
// have n bytes and whose record was written by write seq. A field's length
// reaches a search as the norm of each of its postings, 1/sqrt(length)
// (lengthOf inverts it); the length is n+1 because zap reads a merged
// segment's term of one posting and a norm of 1/sqrt(0) as no posting.
// The frequency is seq, the write that stored the document's record: a
// fold cache entry of the document is of that record when their sequence
// numbers are equal. A write gives its batch's; a replay and a rebuild
// each record's own, so that what the cache holds still serves after
// them (the browser builds its trigram index from the snapshot's
// records: with the last write's number for all, two thirds of the demo's
// documents missed the cache on every search, and were decoded and folded
// again).
func lengthField(n int, seq uint64) *document.Analyzed {
	tf := &bleveindex.TokenFreq{Term: []byte(lengthTerm)}
	tf.SetFrequency(int(seq))
	return document.Preanalyzed(fieldLength, nil, bleveindex.TokenFrequencies{lengthTerm: tf}, n+1)
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

// visitGrams is gramFrequencies for the compact backend, which takes the
// grams one by one (compact.TermVisitor) instead of in a map.
func (ix *Index) visitGrams(text []byte, fn func(gram []byte, freq int)) int {
	ix.triA.VisitFrequencies(text, fn)
	return 1
}
