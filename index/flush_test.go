//go:build !js && !wasip1

package index

import (
	"context"
	"fmt"
	"testing"

	bleveindex "github.com/blevesearch/bleve_index_api"
)

// TestCloseLeavesNothingToReplay reopens the bleve indexes directly,
// without the recovery in Open, and checks they persisted every write.
func TestCloseLeavesNothingToReplay(t *testing.T) {
	dir := t.TempDir()
	ix, err := Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		var b Batch
		for j := range 50 {
			b.Upsert(Doc{ID: fmt.Sprintf("%d-%d", i, j), Body: "some words to index"})
		}
		if _, err := ix.Apply(context.Background(), &b); err != nil {
			t.Fatal(err)
		}
	}
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{textDir, trigramDir} {
		idx, err := newScorch(dir+"/"+name, bleveindex.NewAnalysisQueue(1))
		if err != nil {
			t.Fatal(err)
		}
		seq, err := appliedSeq(idx)
		idx.Close()
		if err != nil || seq != 5 {
			t.Errorf("%s index persisted up to write %d (%v), want 5", name, seq, err)
		}
	}
}
