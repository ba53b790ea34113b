package backend

import (
	"encoding/binary"
	"sync/atomic"

	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/twindex/twindex/index/internal/rank"
)

// maxRemembered bounds the IDs one snapshot's cache keeps, and
// maxDocNumber the doc numbers it keeps them for: past either, lookups are
// scorch's own. A kept ID costs about 60 bytes with its table entry.
const (
	maxRemembered = 1 << 17
	maxDocNumber  = 1 << 20
)

// The cache is a table by doc number in chunks of idChunkSize, each made
// when one of its IDs is first kept.
const (
	idChunkShift = 10
	idChunkSize  = 1 << idChunkShift
)

type idChunk [idChunkSize]atomic.Pointer[string]

// IDs remembers the external IDs of the latest scorch snapshot searches
// read, for the searches after them. Scorch finds a document's _id through
// its segment's stored-field index, about 0.7 µs a lookup; a broad query
// resolves every match of both legs to fuse them and to count those in
// both (a two-character query on the yardstick's corpus: a seventh of its
// time), and the next queries resolve mostly the same documents. A
// snapshot is immutable and its doc numbers are its own, so the cache
// belongs to one snapshot; it is dropped when a search reads another, and
// holds the snapshot weakly (a merged-away snapshot is not kept for it).
// Safe for concurrent use.
type IDs struct {
	latest atomic.Pointer[idCache]
}

// idCache is the IDs one snapshot resolved, by doc number: read without
// a lock (a search of a two-character word looks up thousands), each kept
// once, by whichever search resolved it first.
type idCache struct {
	snap   snapshotRef
	kept   atomic.Int64
	chunks [maxDocNumber / idChunkSize]atomic.Pointer[idChunk]
}

// Of returns the resolver of r's IDs: r itself unless it is a scorch
// snapshot, else the cache of that snapshot. The resolver may be used
// only while r is open.
func (x *IDs) Of(r bleveindex.IndexReader) rank.Resolver {
	ref, ok := snapshotOf(r)
	if !ok {
		return r
	}
	c := x.latest.Load()
	if c != nil && c.snap == ref {
		return &readerIDs{c: c, r: r}
	}
	fresh := &idCache{snap: ref}
	x.latest.CompareAndSwap(c, fresh) // a search on another snapshot may win; this one keeps its own
	return &readerIDs{c: fresh, r: r}
}

// readerIDs is a search's resolver: the cache of its snapshot and its
// reader, which the cache does not keep.
type readerIDs struct {
	c *idCache
	r bleveindex.IndexReader
}

// ExternalID implements rank.Resolver. Cost: two atomic loads for an ID
// resolved before (a map under a read lock took 6.7% of the yardstick's
// two-character searches in auto mode), scorch's lookup otherwise.
func (x *readerIDs) ExternalID(iid bleveindex.IndexInternalID) (string, error) {
	if len(iid) != 8 {
		return x.r.ExternalID(iid)
	}
	n := binary.BigEndian.Uint64(iid)
	if n >= maxDocNumber {
		return x.r.ExternalID(iid)
	}
	chunk := &x.c.chunks[n>>idChunkShift]
	ch := chunk.Load()
	if ch != nil {
		if id := ch[n&(idChunkSize-1)].Load(); id != nil {
			return *id, nil
		}
	}
	id, err := x.r.ExternalID(iid)
	if err != nil {
		return "", err
	}
	if x.c.kept.Add(1) > maxRemembered {
		return id, nil
	}
	if ch == nil {
		ch = new(idChunk)
		if !chunk.CompareAndSwap(nil, ch) {
			ch = chunk.Load()
		}
	}
	ch[n&(idChunkSize-1)].Store(&id)
	return id, nil
}
