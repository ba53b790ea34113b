//go:build !js && !wasip1

package backend

import (
	"fmt"
	"slices"
	"testing"

	"github.com/blevesearch/bleve/v2/index/scorch"
	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/twindex/twindex/index/internal/document"
)

// TestEachPostingSegmentWithoutField holds that EachPosting reads a term
// of a field that a later segment lacks: zap gives such a segment an
// empty dictionary, whose postings list must not take an earlier
// segment's as its own (that read nil memory). The index is in memory:
// scorch's persister would merge the two batches' segments on disk, in
// some runs before the reader opens.
func TestEachPostingSegmentWithoutField(t *testing.T) {
	q := bleveindex.NewAnalysisQueue(1)
	t.Cleanup(q.Close)
	idx, err := Open(Scorch, "", q, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer idx.Close()
	field := func(name, term string, n int) bleveindex.Field {
		tf := &bleveindex.TokenFreq{Term: []byte(term)}
		tf.SetFrequency(n)
		return document.Preanalyzed(name, nil, bleveindex.TokenFrequencies{term: tf}, n)
	}
	b := bleveindex.NewBatch()
	for i := range 5 {
		b.Update(document.New(fmt.Sprintf("a%d", i), field("t", "hello", i+1)))
	}
	if err := idx.Batch(b); err != nil {
		t.Fatal(err)
	}
	b = bleveindex.NewBatch()
	b.Update(document.New("b", field("other", "hello", 1)))
	if err := idx.Batch(b); err != nil {
		t.Fatal(err)
	}
	r, err := idx.Reader()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if n := len(r.(*scorch.IndexSnapshot).Segments()); n != 2 {
		t.Fatalf("%d segments, want the two batches'", n)
	}
	var freqs []uint64
	ok, err := EachPosting(r, "t", []byte("hello"), func(_ bleveindex.IndexInternalID, freq uint64) { freqs = append(freqs, freq) })
	slices.Sort(freqs) // in doc numbers' order, which the batch's map sets
	if !ok || err != nil || fmt.Sprint(freqs) != "[1 2 3 4 5]" {
		t.Fatalf("EachPosting: %v, %v, frequencies %v; want 1 to 5", ok, err, freqs)
	}
}
