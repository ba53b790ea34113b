//go:build !js && !wasip1

package index_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/twindex/twindex/index"
)

// bleveFiles returns the contents of the files of both bleve indexes.
func bleveFiles(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	m := map[string][]byte{}
	for _, sub := range []string{"text", "trigram"} {
		ents, err := os.ReadDir(filepath.Join(dir, sub))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ents {
			b, err := os.ReadFile(filepath.Join(dir, sub, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			m[filepath.Join(sub, e.Name())] = b
		}
	}
	return m
}

// TestReadOnly checks that an index opened with Options.ReadOnly answers
// as it does opened for writing, refuses every write, and leaves the
// bleve indexes' files as they were; and that Open refuses ReadOnly for
// an index that must be written first.
func TestReadOnly(t *testing.T) {
	ro := &index.Options{ReadOnly: true}
	t.Run("no index yet", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "idx")
		if _, err := index.Open(dir, ro); !errors.Is(err, index.ErrReadOnly) {
			t.Errorf("Open: %v, want ErrReadOnly", err)
		}
		if _, err := os.Stat(dir); err == nil {
			t.Error("a read-only Open made the index directory")
		}
	})

	dir := t.TempDir()
	ix := mustOpen(t, dir, nil)
	mustUpsert(t, ix, corpus...)
	req := index.Request{Query: "authenticated"}
	want := ids(search(t, ix, req))
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}
	// An Open for writing after the writes persists what it needs to; the
	// read-only ones then must change nothing.
	if err := mustOpen(t, dir, nil).Close(); err != nil {
		t.Fatal(err)
	}
	before := bleveFiles(t, dir)

	t.Run("search and refuse writes", func(t *testing.T) {
		ix := mustOpen(t, dir, ro)
		if got := ids(search(t, ix, req)); !slices.Equal(got, want) {
			t.Errorf("search: %v, want %v", got, want)
		}
		if err := ix.Upsert(ctx, index.Doc{ID: "new", Body: "text"}); !errors.Is(err, index.ErrReadOnly) {
			t.Errorf("Upsert: %v, want ErrReadOnly", err)
		}
		if err := ix.Optimize(ctx); !errors.Is(err, index.ErrReadOnly) {
			t.Errorf("Optimize: %v, want ErrReadOnly", err)
		}
		if err := ix.Rebuild(ctx); !errors.Is(err, index.ErrReadOnly) {
			t.Errorf("Rebuild: %v, want ErrReadOnly", err)
		}
		if err := ix.Close(); err != nil {
			t.Fatal(err)
		}
		after := bleveFiles(t, dir)
		if len(after) != len(before) {
			t.Fatalf("files %d after, %d before", len(after), len(before))
		}
		for name, b := range before {
			if !bytes.Equal(after[name], b) {
				t.Errorf("%s changed", name)
			}
		}
	})

	t.Run("segments to merge", func(t *testing.T) {
		// Two writes of 400 documents with BulkLoad stay two segments
		// (its merge plan merges nothing that size); with at most one
		// segment allowed, they are segments to merge.
		defer index.SetReadOnlyMaxSegments(1)()
		ix := mustOpen(t, dir, &index.Options{BulkLoad: true})
		for i := range 2 {
			var docs []index.Doc
			for j := range 400 {
				docs = append(docs, index.Doc{ID: fmt.Sprint("more", i, "-", j), Body: "a segment of its own"})
			}
			mustUpsert(t, ix, docs...)
		}
		if err := ix.Close(); err != nil {
			t.Fatal(err)
		}
		if ix, err := index.Open(dir, ro); !errors.Is(err, index.ErrReadOnly) {
			if err == nil {
				st, _ := ix.Stats()
				ix.Close()
				t.Fatalf("read-only Open of %d and %d segments: no error, want ErrReadOnly", st.TextSegments, st.TrigramSegments)
			}
			t.Fatalf("read-only Open: %v, want ErrReadOnly", err)
		}
		ix = mustOpen(t, dir, nil)
		if err := ix.Optimize(ctx); err != nil {
			t.Fatal(err)
		}
		if err := ix.Close(); err != nil {
			t.Fatal(err)
		}
		if err := mustOpen(t, dir, ro).Close(); err != nil {
			t.Errorf("read-only Open after Optimize: %v", err)
		}
	})

	t.Run("bleve behind the store", func(t *testing.T) {
		// The bleve indexes of before a write, beside the store of after
		// it: what a crash between the two leaves.
		old := t.TempDir()
		if err := os.CopyFS(old, os.DirFS(dir)); err != nil {
			t.Fatal(err)
		}
		ix := mustOpen(t, dir, nil)
		mustUpsert(t, ix, index.Doc{ID: "late", Body: "authenticated late"})
		if err := ix.Close(); err != nil {
			t.Fatal(err)
		}
		for _, sub := range []string{"text", "trigram"} {
			if err := os.RemoveAll(filepath.Join(dir, sub)); err != nil {
				t.Fatal(err)
			}
			if err := os.CopyFS(filepath.Join(dir, sub), os.DirFS(filepath.Join(old, sub))); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := index.Open(dir, ro); !errors.Is(err, index.ErrReadOnly) {
			t.Fatalf("read-only Open: %v, want ErrReadOnly", err)
		}
		ix = mustOpen(t, dir, nil)
		if got := ids(search(t, ix, req)); !slices.Contains(got, "late") {
			t.Errorf("after recovery: %v, want late among them", got)
		}
	})
}
