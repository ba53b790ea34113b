//go:build !js && !wasip1

package index

import (
	"context"
	"testing"

	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/twindex/twindex/storage"
)

// TestTrigramSeqsAreRecordsOnDisk is TestTrigramSeqsAreRecords for the
// trigram index that a replay of the store's log, and a Rebuild, write.
func TestTrigramSeqsAreRecordsOnDisk(t *testing.T) {
	ctx := context.Background()
	t.Run("replay", func(t *testing.T) {
		ix, err := Open(t.TempDir(), nil)
		if err != nil {
			t.Fatal(err)
		}
		defer ix.Close()
		fillSeqs(t, ix)
		seq, err := ix.storedSeq()
		if err != nil {
			t.Fatal(err)
		}
		logged := 0
		err = ix.store.View(func(tx storage.Tx) error {
			return tx.Scan(bucketLog, nil, func(_, _ []byte) error { logged++; return nil })
		})
		if err != nil || logged != int(seq) {
			t.Fatalf("%d writes logged of %d (%v): the replay would not read the log", logged, seq, err)
		}
		// Every document with a number no record has, then the log's
		// writes replayed over them.
		wrong := func(d *Doc, _ uint64, hash []byte) bleveindex.Document { return ix.trigramDoc(d, 999, hash) }
		if err := ix.reindex(ctx, ix.tri, wrong, seq, nil); err != nil {
			t.Fatal(err)
		}
		if err := ix.replay(ctx, ix.tri, ix.trigramDoc, 0, seq); err != nil {
			t.Fatal(err)
		}
		checkSeqs(t, ix)
	})
	t.Run("rebuild", func(t *testing.T) {
		ix, err := Open(t.TempDir(), nil)
		if err != nil {
			t.Fatal(err)
		}
		defer ix.Close()
		fillSeqs(t, ix)
		if err := ix.Rebuild(ctx); err != nil {
			t.Fatal(err)
		}
		checkSeqs(t, ix)
	})
}
