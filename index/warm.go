package index

import (
	"context"
	"fmt"

	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/twindex/twindex/index/internal/record"
	"github.com/twindex/twindex/storage"
)

// warmChunk is how many documents WarmFolds folds in one read of the
// store, so that a write waits for at most one chunk.
const warmChunk = 256

// WarmFolds fills the cache of case-folded text (Options.CacheBytes) with
// the documents' text, in ID order, until the cache has no room for the
// next one or holds them all, and returns how many it folded. That text is
// what broad substring searches, quoted phrases and snippets read: a
// server that warms it after its start answers its first broad searches
// as its later ones (on the yardstick's Go tree, a first "the error"
// through a fresh server took 97-107 ms, later ones 21-28). It stops when
// ctx ends. pause, when not nil, is called before each chunk: a server
// waits there while it has requests in progress. Cost: a decompression
// and a fold per document, in reads of the store of warmChunk documents
// each; nothing for an index whose cache keeps nothing.
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
	folded := 0
	for start := 0; start < len(ids); start += warmChunk {
		if pause != nil {
			pause()
		}
		if err := ctx.Err(); err != nil {
			return folded, err
		}
		full := false
		err := ix.read(readsStore, func(_, _ bleveindex.IndexReader, tx storage.Tx) error {
			for _, id := range ids[start:min(start+warmChunk, len(ids))] {
				rec := tx.Get(bucketDocs, []byte(id))
				if rec == nil {
					continue // removed since
				}
				seq, err := record.Seq(rec)
				if err != nil {
					return fmt.Errorf("document %q: %w", id, err)
				}
				if ix.fold.Peek(id, seq) != nil {
					continue
				}
				title, body, err := record.DecodeRecordText(rec)
				if err != nil {
					return fmt.Errorf("document %q: %w", id, err)
				}
				if full = !ix.fold.Room(len(title) + len(body)); full {
					return nil
				}
				if _, err := ix.fold.Get(id, seq, func() ([]byte, []byte, error) { return title, body, nil }); err != nil {
					return err
				}
				folded++
			}
			return nil
		})
		if err != nil || full {
			return folded, err
		}
	}
	return folded, nil
}
