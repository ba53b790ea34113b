// Package compact is an in-memory bleve index (bleve_index_api's Index)
// that keeps, per field, a sorted dictionary and positionless postings
// (document numbers, four bytes each, and frequencies, a byte each with
// those of 255 and more apart) in flat slices, and nothing else
// bleve's other backends keep: no term vectors, no doc values, no
// back-index rows. It is what twindex needs from a backend, built fast
// and small, and it links no protobuf, upsidedown or geo code, which
// matters in the browser.
//
// An index is a list of immutable segments, each with a bitmap of its
// documents deleted since, held in one state value that every write
// replaces whole. A write builds a segment of its documents, marks the
// versions they replace deleted, and merges segments so that there are
// O(log n) of them (a segment is merged into the one before it once it
// holds at least half as many live documents), then publishes the new
// state.
//
// Invariants: nothing reachable from a published state is changed, so a
// Reader sees one point in time for as long as it is kept and never waits
// for writers, and a cache of what a state holds may key on its Version. Within a state, internal IDs are 8-byte big-endian
// document numbers, increasing with the segment and with the document's
// place in it; they are valid for the Reader that returned them only
// (merges renumber). Every posting list is in increasing document order,
// and a term's count is the number of its live documents.
//
// Composite fields, term vectors and doc values are not supported:
// documents with composite fields are refused, and DocValueReader
// returns ErrUnsupported.
package compact
