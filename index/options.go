package index

import (
	"runtime"

	"github.com/twindex/twindex/index/internal/backend"
	"github.com/twindex/twindex/storage"
	"github.com/twindex/twindex/vector"
)

// defaultCacheBytes is Options.CacheBytes when it is 0.
const defaultCacheBytes = 64 << 20

// Options configure an Index. A nil *Options means the defaults.
type Options struct {
	// MaxDocBytes caps len(Title)+len(Body) of one document; a larger one
	// is refused with ErrInvalidDoc. 0 means 1 MiB.
	MaxDocBytes int
	// TitleWeight and BodyWeight weight the fields in both legs' BM25.
	// 0 means 5 and 1.
	TitleWeight, BodyWeight float64
	// SymbolWeight weighs a declaration of a query word (a function,
	// type, class, constant or variable of a source file, a heading of
	// a Markdown note; see package decl) in both legs: it adds
	// SymbolWeight times the word's idf to a document that declares it.
	// The substring leg adds each field so (the title adds about
	// TitleWeight times the idf); the text leg adds it apart from the
	// title's and body's BM25, which saturates at k1+1 = 2.2 times the
	// idf however often the word occurs. With the default, 6, a document
	// that defines a word ranks above every document that only mentions
	// it, in its body or in its title (a file name). Negative turns it
	// off. Figures in DESIGN.md.
	SymbolWeight float64
	// BoilerWeight weighs the licence comment a source file starts with
	// (decl.File.Boilerplate), repeated in every file of a project,
	// against BodyWeight for the rest of the body. 0 means 0.1.
	BoilerWeight float64
	// K is the RRF constant; 0 means 60.
	K int
	// TextWeight and SubstringWeight weight the text and substring legs
	// in RRF; 0 means 1. Request.VectorWeight weighs the vector leg.
	TextWeight, SubstringWeight float64
	// Backend is the bleve index implementation: "" means Scorch for Open
	// and Compact for OpenMemory and in js/wasm.
	Backend Backend
	// Workers bounds the goroutines of one write's analysis and of one
	// search (its two legs in auto mode, the checks of many substring
	// candidates, a page's snippets); 0 means GOMAXPROCS. 1 makes every
	// search run on the caller's goroutine alone.
	Workers int
	// NoSync skips fsync of the store on commit. A crash may then lose
	// acknowledged writes; use it only for bulk loads that can be redone.
	NoSync bool
	// BulkLoad makes an on-disk index merge its segments far less eagerly
	// (up to 30 per tier, a 400-document floor, against bleve's 10 and
	// 2,000), for a load in large batches that ends with Optimize: merging
	// as it goes writes most of such a load again and again before
	// Optimize merges it all once more (twindex-bench yardstick, against
	// --no-bulk). Searches before Optimize visit more segments, so leave it
	// off for an index written a little at a time. Figures in DESIGN.md.
	BulkLoad bool
	// RebuildCorrupt makes Open discard a bleve index it cannot read (a
	// *CorruptError) and rebuild it from the store instead of failing.
	RebuildCorrupt bool
	// Language is the ISO 639-1 code of the language whose stop words and
	// Snowball stemmer the text index uses, one of tokenize.Langs. It is
	// chosen when the index is created and recorded in it; "" means
	// English for a new index and the recorded language for an existing
	// one. Open fails with ErrLanguage when it names another language
	// than the recorded one: the index's terms are stems of that one.
	Language string
	// ReadOnly opens an index to search it only (a CLI search): writes
	// fail with ErrReadOnly, and scorch runs without its persister and
	// merger, so that neither Open nor Close writes to the bleve indexes
	// (each would otherwise persist a snapshot, with three fsyncs). The
	// store stays locked as for writing. Open fails with ErrReadOnly when
	// the index must be written first (see ErrReadOnly), and when a bleve
	// index has more than ten segments: scorch's merger, which runs only
	// in a writer, would merge some.
	ReadOnly bool
	// TrigramsLater has OpenSnapshot return before it builds the trigram
	// index, nine tenths of its time: the index then finds substrings by
	// reading every document, with exact matches and totals (but those
	// Request.Expand adds, which follow the ranks), but ranks them without
	// the trigram index (each leaf weighs as a word every document holds,
	// declarations add nothing to a substring match) until BuildTrigrams
	// is done. A write, Optimize, Check or a shard's search first builds
	// it. Other opens ignore it.
	TrigramsLater bool
	// CacheBytes bounds the cache of case-folded document text that
	// substring verification and snippets read; 0 means 64 MiB, negative
	// disables it (for a process of one search, which would fill it for
	// no later one).
	CacheBytes int
	// Dimensions fixes the dimension of document vectors; 0 means that of
	// the first vector written.
	Dimensions int
	// Vectors tunes the vector index (exact below a size, HNSW above); nil
	// means the defaults.
	Vectors *vector.Options
	// Embedder, when set, embeds documents written without a vector
	// (title and body) and the query of a vector or hybrid search given
	// without one. A failure stores the documents without vectors, or
	// searches by keywords, with a warning, never an empty result.
	Embedder Embedder
	// Reranker, when set, reorders the first Request.Rerank hits of a
	// first page; a failure keeps the order, with a warning.
	Reranker Reranker
	// fault injects storage write errors, for the package's tests
	// (export_test.go); see storage.FaultFunc.
	fault storage.FaultFunc
	// noDecl indexes without declarations and licence comments, as
	// schema 2 did, for the package's tests.
	noDecl bool
	// noPairs stores no filter of adjacent pairs in the records, as
	// before, for the package's tests.
	noPairs bool
	// noPrune has the text leg score every match (no pruned walk), for
	// the package's tests.
	noPrune bool
	// noSeek has every term the text leg reads create matches (no
	// creators, no countSets, no conjHolders) and read every list it
	// reads onto the matches to its end (no seeker), for the package's
	// tests.
	noSeek bool
	// holdAll finds every word of several units a query has from the
	// posting bitmaps (conjHolders), however few documents its rarest
	// unit has, for the package's tests.
	holdAll bool
}

// WithDefaults returns *o (the zero Options when o is nil) with every
// unset field at its default, as Open uses it.
func (o *Options) WithDefaults() Options {
	var r Options
	if o != nil {
		r = *o
	}
	if r.MaxDocBytes <= 0 {
		r.MaxDocBytes = 1 << 20
	}
	if r.TitleWeight == 0 {
		r.TitleWeight = 5
	}
	if r.BodyWeight == 0 {
		r.BodyWeight = 1
	}
	switch {
	case r.SymbolWeight == 0:
		r.SymbolWeight = 6
	case r.SymbolWeight < 0:
		r.SymbolWeight = 0
	}
	if r.BoilerWeight == 0 {
		r.BoilerWeight = 0.1
	}
	if r.K <= 0 {
		r.K = 60
	}
	if r.TextWeight == 0 {
		r.TextWeight = 1
	}
	if r.SubstringWeight == 0 {
		r.SubstringWeight = 1
	}
	if r.Backend == "" {
		r.Backend = backend.Default
	}
	if r.CacheBytes == 0 {
		r.CacheBytes = defaultCacheBytes
	}
	if r.Workers <= 0 {
		r.Workers = runtime.GOMAXPROCS(0)
	}
	return r
}
