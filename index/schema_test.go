//go:build !js && !wasip1

package index

import (
	"context"
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"

	"github.com/twindex/twindex/storage"
)

// TestOldSchemaRebuildsGrams checks that Open rebuilds the trigram index
// of an index written before the short grams (schema 2), and only then
// records schema 3, and that it leaves the trigram index of a current one
// alone.
func TestOldSchemaRebuildsGrams(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	marker := filepath.Join(dir, trigramDir, "marker")
	reopen := func(schema uint64) *Index {
		t.Helper()
		ix, err := Open(dir, nil)
		if err != nil {
			t.Fatal(err)
		}
		if schema != 0 {
			err := ix.store.Update(func(tx storage.Tx) error {
				return tx.Put(bucketMeta, metaSchema, binary.AppendUvarint(nil, schema))
			})
			if err != nil {
				t.Fatal(err)
			}
		}
		return ix
	}
	ix := reopen(0)
	if err := ix.Upsert(ctx, Doc{ID: "a", Body: "fd io x"}, Doc{ID: "b", Body: "no short"}); err != nil {
		t.Fatal(err)
	}
	ix.Close()
	for _, tc := range []struct {
		schema  uint64
		rebuilt bool
	}{{SchemaVersion, false}, {3, false}, {2, true}} {
		ix := reopen(tc.schema)
		ix.Close()
		if err := os.WriteFile(marker, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		ix = reopen(0)
		_, err := os.Stat(marker)
		if gone := os.IsNotExist(err); gone != tc.rebuilt {
			t.Errorf("schema %d: trigram index rebuilt %v, want %v", tc.schema, gone, tc.rebuilt)
		}
		if had, err := ix.checkSchema(); err != nil || had != SchemaVersion {
			t.Errorf("schema %d: reopened as %d, %v", tc.schema, had, err)
		}
		r, err := ix.Search(ctx, Request{Query: "fd", Mode: ModeSubstring})
		if err != nil || r.Total != 1 {
			t.Errorf("schema %d: fd: %v, %v", tc.schema, r, err)
		}
		ix.Close()
	}
}
