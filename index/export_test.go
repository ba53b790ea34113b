package index

import (
	"encoding/binary"

	"github.com/twindex/twindex/storage"
)

// WithFault returns a copy of opts (nil: the defaults) whose store fails
// its writes as fault says; see storage.FaultFunc.
func WithFault(opts *Options, fault storage.FaultFunc) *Options {
	var o Options
	if opts != nil {
		o = *opts
	}
	o.fault = fault
	return &o
}

// PauseWrites makes every Apply of ix call f after it commits to the store
// (step "store") and after it writes the bleve indexes (step "indexes"),
// before it publishes the write.
func PauseWrites(ix *Index, f func(step string)) { ix.pause = f }

// WithoutDeclarations returns a copy of opts (nil: the defaults) that
// indexes documents as schema 2 did: no symbols, no licence comment.
func WithoutDeclarations(opts *Options) *Options {
	return copyWith(opts, func(o *Options) { o.noDecl = true })
}

// WithoutPairs returns a copy of opts (nil: the defaults) that stores
// no filter of adjacent term pairs, as indexes written before them:
// phrases are judged without it.
func WithoutPairs(opts *Options) *Options {
	return copyWith(opts, func(o *Options) { o.noPairs = true })
}

// WithoutPruning returns a copy of opts (nil: the defaults) whose text
// leg scores every match, as before the pruned walk (textprune.go).
func WithoutPruning(opts *Options) *Options {
	return copyWith(opts, func(o *Options) { o.noPrune = true })
}

// WithoutSeeking returns a copy of opts (nil: the defaults) whose text
// leg lets every term create matches and reads the lists it reads onto
// its matches (those under a NOT, those feedback adds) to their ends.
func WithoutSeeking(opts *Options) *Options {
	return copyWith(opts, func(o *Options) { o.noSeek = true })
}

// HoldingAll returns a copy of opts (nil: the defaults) whose text leg
// finds the holders of every word of several parts from the posting
// bitmaps where the backend can, not only those of words whose parts are
// common (conjHolders).
func HoldingAll(opts *Options) *Options {
	return copyWith(opts, func(o *Options) { o.holdAll = true })
}

// copyWith returns a copy of opts (nil: the defaults) that set changed.
func copyWith(opts *Options, set func(*Options)) *Options {
	var o Options
	if opts != nil {
		o = *opts
	}
	set(&o)
	return &o
}

// SetSchema records schema version n in ix's store, as an older build
// would have.
func SetSchema(ix *Index, n uint64) error {
	return ix.store.Update(func(tx storage.Tx) error {
		return tx.Put(bucketMeta, metaSchema, binary.AppendUvarint(nil, n))
	})
}

// ScoreFromText makes the substring leg of ix score every match from its
// text, never from the index alone (indexScores).
func ScoreFromText(ix *Index) { ix.textScores = true }

// ReadLengths makes the substring leg of ix read each candidate's
// fieldLength posting, never the snapshot's list held whole (backend.Whole).
func ReadLengths(ix *Index) { ix.lengths = nil }

// JoinByIDs makes fused searches of ix place the substring leg's matches
// in the text leg by their external IDs, never by a table of doc numbers
// (backend.Join).
func JoinByIDs(ix *Index) { ix.join = nil }

// AnalyzeRuns makes the text leg of ix judge quoted phrases by their
// words' positions only, never by their text as written (record.Folded.HasRun).
func AnalyzeRuns(ix *Index) { ix.analyzeRuns = true }

// SetReadOnlyMaxSegments sets the most segments a bleve index may have to
// be opened with Options.ReadOnly, until restore is called.
func SetReadOnlyMaxSegments(n int) (restore func()) {
	old := readOnlyMaxSegments
	readOnlyMaxSegments = n
	return func() { readOnlyMaxSegments = old }
}
