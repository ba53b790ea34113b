package index_test

import (
	"fmt"
	"testing"

	"github.com/twindex/twindex/index"
)

// A memory index on Compact keeps a few segments as it is written one
// document at a time, reports them in Stats, and Optimize merges each
// leg into one.
func TestCompactSegments(t *testing.T) {
	ix, err := index.OpenMemory(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	for i := range 40 {
		mustUpsert(t, ix, index.Doc{ID: fmt.Sprint("d", i), Title: fmt.Sprint("note ", i), Body: "a quokka note"})
	}
	st, err := ix.Stats()
	if err != nil {
		t.Fatal(err)
	}
	if st.TextSegments < 2 || st.TextSegments > 7 || st.TrigramSegments < 2 || st.TrigramSegments > 7 {
		t.Fatalf("%d text and %d trigram segments for 40 writes, want 2 to 7 (log2 of 40, +1)", st.TextSegments, st.TrigramSegments)
	}
	if err := ix.Optimize(ctx); err != nil {
		t.Fatal(err)
	}
	if st, _ = ix.Stats(); st.TextSegments != 1 || st.TrigramSegments != 1 {
		t.Fatalf("after Optimize: %d text and %d trigram segments", st.TextSegments, st.TrigramSegments)
	}
	if r := search(t, ix, index.Request{Query: "quokka", Limit: 100}); r.Total != 40 {
		t.Fatalf("after Optimize: %d hits", r.Total)
	}
}
