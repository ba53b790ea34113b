package backend

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	bleveindex "github.com/blevesearch/bleve_index_api"
	"github.com/twindex/twindex/index/internal/document"
)

func TestOpenUnavailable(t *testing.T) {
	q := bleveindex.NewAnalysisQueue(1)
	t.Cleanup(q.Close)
	for _, tc := range []struct {
		name, kind, dir, msg string
	}{
		{"compact on disk", Compact, t.TempDir(), "index: backend not available: compact is memory-only"},
		{"unknown kind", "lucene", "", "index: backend not available: unknown kind \"lucene\" (want scorch, upsidedown or compact)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			idx, err := Open(tc.kind, tc.dir, q, nil)
			if idx != nil || !errors.Is(err, ErrUnavailable) || err.Error() != tc.msg {
				t.Fatalf("Open(%q, %q): %v, %v; want ErrUnavailable reading %q", tc.kind, tc.dir, idx, err, tc.msg)
			}
		})
	}
}

// openCompact opens a compact index in memory, closed when the test ends.
func openCompact(t *testing.T) bleveindex.Index {
	t.Helper()
	return openMemory(t, Compact)
}

// openMemory opens an index of kind in memory, closed when the test ends.
func openMemory(t *testing.T, kind string) bleveindex.Index {
	t.Helper()
	q := bleveindex.NewAnalysisQueue(1)
	t.Cleanup(q.Close)
	idx, err := Open(kind, "", q, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { idx.Close() })
	return idx
}

// A compact index in memory is one segment per batch, none before the
// first; it has no directory, and nothing for ForceMerge or PersistError.
func TestCompactInMemory(t *testing.T) {
	idx := openCompact(t)
	if n := Segments(idx); n != 0 {
		t.Errorf("Segments of a new index: %d, want 0", n)
	}
	if err := ForceMerge(context.Background(), idx); err != nil {
		t.Errorf("ForceMerge: %v", err)
	}
	if err := PersistError(""); err != nil {
		t.Errorf("PersistError: %v", err)
	}
	if n := Size(""); n != 0 {
		t.Errorf("Size of memory: %d, want 0", n)
	}
}

func TestSize(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, n := range map[string]int{"a": 3, "sub/b": 5} {
		if err := os.WriteFile(filepath.Join(dir, name), make([]byte, n), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if got := Size(dir); got != 8 {
		t.Errorf("Size: %d, want 8", got)
	}
	if got := Size(filepath.Join(dir, "none")); got != 0 {
		t.Errorf("Size of a missing directory: %d, want 0", got)
	}
}

func TestEachID(t *testing.T) {
	idx := openCompact(t)
	b := bleveindex.NewBatch()
	for _, id := range []string{"a", "b", "c"} {
		b.Update(document.New(id, document.Stored("h", []byte(id))))
	}
	if err := idx.Batch(b); err != nil {
		t.Fatal(err)
	}
	var got []string
	if err := EachID(context.Background(), idx, func(_ bleveindex.IndexReader, id string) error {
		got = append(got, id)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	slices.Sort(got)
	if !slices.Equal(got, []string{"a", "b", "c"}) {
		t.Errorf("EachID gave %v, want a, b, c", got)
	}
	stop := errors.New("stop")
	n := 0
	if err := EachID(context.Background(), idx, func(bleveindex.IndexReader, string) error { n++; return stop }); err != stop || n != 1 {
		t.Errorf("EachID after fn's error: %v after %d calls, want stop after 1", err, n)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := EachID(ctx, idx, func(bleveindex.IndexReader, string) error { return nil }); !errors.Is(err, context.Canceled) {
		t.Errorf("EachID with an ended context: %v", err)
	}
}
