//go:build !js && !wasip1

package backend

import (
	"encoding/binary"

	"github.com/blevesearch/bleve/v2/index/scorch"
	bleveindex "github.com/blevesearch/bleve_index_api"
	segment "github.com/blevesearch/scorch_segment_api/v2"
)

// EachPosting calls fn with the internal ID (valid during the call) and
// the frequency of each live document of r that holds term in field, in
// ID order, read from the segments' postings lists, and returns true; for
// a reader other than scorch's it does nothing and returns false.
//
// scorch's TermFieldReader does the same through an interface call and a
// TermFieldDoc per posting, and counts the bytes each reads: for a gram
// that most documents hold (a query of one or two characters), that was
// a third of the time its postings took.
func EachPosting(r bleveindex.IndexReader, field string, term []byte, fn func(id bleveindex.IndexInternalID, freq uint64)) (bool, error) {
	snap, ok := r.(*scorch.IndexSnapshot)
	if !ok {
		return false, nil
	}
	var (
		base uint64 // the segment's first doc number in the snapshot
		id   = make(bleveindex.IndexInternalID, 8)
		it   segment.PostingsIterator
	)
	for _, ss := range snap.Segments() {
		dict, err := ss.Segment().Dictionary(field)
		if err != nil {
			return true, err
		}
		// A postings list of its own: zap's empty dictionary, of a segment
		// without the field, would keep another segment's in one given to
		// it and read it without that segment's memory. The iterator is
		// made anew on each segment's list whatever it held.
		pl, err := dict.PostingsList(term, ss.Deleted(), nil)
		if err != nil {
			return true, err
		}
		it = pl.Iterator(true, false, false, it)
		for {
			p, err := it.Next()
			if err != nil {
				return true, err
			}
			if p == nil {
				break
			}
			binary.BigEndian.PutUint64(id, base+p.Number())
			fn(id, p.Frequency())
		}
		base += uint64(ss.FullSize())
	}
	return true, nil
}
