//go:build !js && !wasip1

package backend

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	bleveindex "github.com/blevesearch/bleve_index_api"
)

// A scorch index opens on disk, is reopened read-only, and one whose
// snapshot list is damaged is a *CorruptError naming its directory.
func TestScorchOnDisk(t *testing.T) {
	q := bleveindex.NewAnalysisQueue(1)
	t.Cleanup(q.Close)
	dir := filepath.Join(t.TempDir(), "text")
	for _, o := range []*Options{nil, {BulkLoad: true}, {ReadOnly: true}} {
		idx, err := Open(Scorch, dir, q, o)
		if err != nil {
			t.Fatalf("Open %+v: %v", o, err)
		}
		if n := Segments(idx); n != 0 {
			t.Errorf("Open %+v: %d segments, want 0", o, n)
		}
		if err := idx.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if err := PersistError(dir); err != nil {
		t.Errorf("PersistError: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "root.bolt"), []byte("not bbolt"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Open(Scorch, dir, q, nil)
	if ce, ok := errors.AsType[*CorruptError](err); !ok || ce.Path != dir {
		t.Fatalf("Open of a damaged index: %v, want a *CorruptError naming %s", err, dir)
	}
}

func TestUpsideDownOnDisk(t *testing.T) {
	q := bleveindex.NewAnalysisQueue(1)
	t.Cleanup(q.Close)
	want := "index: backend not available: upsidedown is memory-only here"
	if _, err := Open(UpsideDown, t.TempDir(), q, nil); !errors.Is(err, ErrUnavailable) || err.Error() != want {
		t.Fatalf("Open: %v, want %q", err, want)
	}
}
