package index

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/twindex/twindex/index/internal/record"
	"github.com/twindex/twindex/storage"
)

// warmIndex returns a memory index of n documents with cacheBytes of fold
// cache.
func warmIndex(t *testing.T, n, cacheBytes int) *Index {
	t.Helper()
	ix, err := OpenMemory(&Options{CacheBytes: cacheBytes})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	var docs []Doc
	for i := range n {
		docs = append(docs, Doc{ID: fmt.Sprintf("d%04d", i), Title: "Über " + fmt.Sprint(i), Body: strings.Repeat("Some Text ", 50)})
	}
	if err := ix.Upsert(context.Background(), docs...); err != nil {
		t.Fatal(err)
	}
	return ix
}

// cached counts the documents whose current record the fold cache holds.
func cached(t *testing.T, ix *Index) int {
	t.Helper()
	n := 0
	err := ix.read(readsStore, func(_, _ bleveindex.IndexReader, tx storage.Tx) error {
		n = 0
		return tx.Scan(bucketDocs, nil, func(k, v []byte) error {
			seq, err := record.Seq(v)
			if err == nil && ix.fold.Peek(string(k), seq) != nil {
				n++
			}
			return err
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// WarmFolds folds every document into the cache, in chunks with a pause
// before each; stops where the cache is full, and at once when its
// context has ended.
func TestWarmFolds(t *testing.T) {
	const docs = 2*warmChunk + 10
	ix := warmIndex(t, docs, 0)
	pauses := 0
	n, err := ix.WarmFolds(context.Background(), func() { pauses++ })
	if err != nil || n != docs || pauses != 3 {
		t.Fatalf("WarmFolds: %d folded, %d pauses, %v; want %d, 3", n, pauses, err, docs)
	}
	if got := cached(t, ix); got != docs {
		t.Errorf("%d of %d documents cached after WarmFolds", got, docs)
	}
	if n, err := ix.WarmFolds(context.Background(), nil); n != 0 || err != nil {
		t.Errorf("WarmFolds of a warm cache: %d folded, %v", n, err)
	}

	small := warmIndex(t, docs, 40<<10) // room for about 60 of 522-byte texts
	n, err = small.WarmFolds(context.Background(), nil)
	if err != nil || n == 0 || n >= docs || cached(t, small) != n {
		t.Errorf("WarmFolds into a small cache: %d folded (%d cached), %v", n, cached(t, small), err)
	}

	// A text that does not fit is passed over, not the end.
	mixed, err := OpenMemory(&Options{CacheBytes: 40 << 10})
	if err != nil {
		t.Fatal(err)
	}
	defer mixed.Close()
	if err := mixed.Upsert(context.Background(), Doc{ID: "a-big", Body: strings.Repeat("big ", 20<<10)}, Doc{ID: "b", Body: "small"}, Doc{ID: "c", Body: "small"}); err != nil {
		t.Fatal(err)
	}
	if n, err := mixed.WarmFolds(context.Background(), nil); n != 2 || err != nil {
		t.Errorf("WarmFolds past a text too big for the cache: %d folded, %v; want 2", n, err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	cold := warmIndex(t, docs, 0)
	if n, err := cold.WarmFolds(ctx, nil); n != 0 || !errors.Is(err, context.Canceled) {
		t.Errorf("WarmFolds with an ended context: %d folded, %v", n, err)
	}
	none := warmIndex(t, 3, -1)
	if n, err := none.WarmFolds(context.Background(), nil); n != 0 || err != nil {
		t.Errorf("WarmFolds with no cache: %d folded, %v", n, err)
	}
}
