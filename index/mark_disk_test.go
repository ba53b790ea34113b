//go:build !js && !wasip1

package index_test

import (
	"errors"
	"testing"

	"github.com/twindex/twindex/index"
)

// TestMarkCommitsWithTheBatch: a mark is read back after Apply and after
// reopening, a batch of marks alone moves it, and a batch that fails
// leaves the mark where it was.
func TestMarkCommitsWithTheBatch(t *testing.T) {
	dir := t.TempDir()
	ix := mustOpen(t, dir, nil)
	var b index.Batch
	b.Upsert(index.Doc{ID: "a", Body: "alpha"})
	b.Mark("log", 7)
	b.Mark("log", 9) // the later one wins
	if _, err := ix.Apply(ctx, &b); err != nil {
		t.Fatal(err)
	}
	mustMarked(t, ix, "log", 9)
	mustMarked(t, ix, "other", 0)

	b.Reset()
	b.Mark("log", 12)
	if _, err := ix.Apply(ctx, &b); err != nil {
		t.Fatal(err)
	}
	mustMarked(t, ix, "log", 12)

	b.Reset()
	b.Upsert(index.Doc{ID: "b", Body: "beta"})
	b.Add(index.Doc{ID: "a", Body: "again"})
	b.Mark("log", 15)
	if _, err := ix.Apply(ctx, &b); !errors.Is(err, index.ErrExists) {
		t.Fatalf("Apply: %v, want ErrExists", err)
	}
	mustMarked(t, ix, "log", 12)
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}
	ix = mustOpen(t, dir, nil)
	mustMarked(t, ix, "log", 12)
	if n, _ := ix.Count(); n != 1 {
		t.Errorf("Count %d, want 1", n)
	}
}

func mustMarked(t *testing.T, ix *index.Index, name string, want uint64) {
	t.Helper()
	got, err := ix.Marked(name)
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Errorf("Marked(%q) = %d, want %d", name, got, want)
	}
}
