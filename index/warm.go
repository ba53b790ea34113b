package index

import (
	"context"
	"fmt"

	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/twindex/twindex/index/internal/record"
	"github.com/twindex/twindex/storage"
)

// A chunk of WarmFolds, one read of the store, ends after warmChunk
// documents or warmChunkBytes of their text, so that a write waits for
// little.
const (
	warmChunk      = 256
	warmChunkBytes = 4 << 20
)

// warmMisses is how many documents in a row that the cache has no room
// for end WarmFolds: the cache is full.
const warmMisses = 64

// WarmFolds fills the cache of case-folded text (Options.CacheBytes) with
// the documents' text, in ID order, as far as it has room without
// evicting anything, and returns how many documents it folded. That text
// is what broad substring searches, quoted phrases and snippets read: a
// server that warms it after its start answers its first broad searches
// as its later ones (on the Go tree's folder index, a first "the error"
// through a fresh server took 93-134 ms where later ones took 19-24). It
// stops when ctx ends, or after warmMisses documents in a row that do not
// fit. pause, when not nil, is called before each chunk: a server waits
// there while it has requests in progress. Cost: a fold per document
// (and a decompression of text stored compressed); nothing for an index
// whose cache keeps nothing.
func (ix *Index) WarmFolds(ctx context.Context, pause func()) (int, error) {
	if !ix.fold.Keeps() {
		return 0, nil
	}
	var ids []string
	err := ix.read(readsStore, func(_, _ bleveindex.IndexReader, tx storage.Tx) error {
		ids = ids[:0] // a read retried after a write starts over
		return tx.Scan(bucketDocs, nil, func(k, _ []byte) error {
			ids = append(ids, string(k))
			return nil
		})
	})
	if err != nil {
		return 0, err
	}
	folded, misses := 0, 0
	for next := 0; next < len(ids) && misses < warmMisses; {
		if pause != nil {
			pause()
		}
		err := ix.read(readsStore, func(_, _ bleveindex.IndexReader, tx storage.Tx) error {
			at, bytes := next, 0 // a read retried after a write starts over
			for ; at < len(ids) && at-next < warmChunk && bytes < warmChunkBytes && misses < warmMisses; at++ {
				if err := ctx.Err(); err != nil {
					return err
				}
				rec := tx.Get(bucketDocs, []byte(ids[at]))
				if rec == nil {
					continue // removed since
				}
				seq, err := record.Seq(rec)
				if err != nil {
					return fmt.Errorf("document %q: %w", ids[at], err)
				}
				if ix.fold.Peek(ids[at], seq) != nil {
					continue
				}
				t, _, err := record.DecodeRecordStored(rec, nil)
				if err != nil {
					return fmt.Errorf("document %q: %w", ids[at], err)
				}
				bytes += t.Len()
				if !ix.fold.Room(t.Len()) {
					misses++
					continue
				}
				if kept, err := ix.fold.Keep(ids[at], seq, t); err != nil {
					return fmt.Errorf("document %q: %w", ids[at], err)
				} else if !kept {
					misses++
					continue
				}
				misses = 0
				folded++
			}
			next = at
			return nil
		})
		if err != nil {
			return folded, err
		}
	}
	return folded, nil
}
