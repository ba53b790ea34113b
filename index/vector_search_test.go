package index_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/twindex/twindex/index"
	"github.com/twindex/twindex/vector"
)

// wordEmbedder embeds a text as counts of three marker words: enough to
// make similarity predictable. fail makes it fail.
type wordEmbedder struct{ fail bool }

func (e *wordEmbedder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	if e.fail {
		return nil, errors.New("embedding service down")
	}
	out := make([][]float32, len(texts))
	for i, t := range texts {
		v := []float32{0.01, 0.01, 0.01}
		for j, w := range []string{"cat", "dog", "fish"} {
			v[j] += float32(strings.Count(t, w))
		}
		out[i] = v
	}
	return out, nil
}

type fixedReranker struct{ fail bool }

// Rerank prefers longer texts, or fails.
func (r *fixedReranker) Rerank(_ context.Context, _ string, docs []string) ([]float64, error) {
	if r.fail {
		return nil, errors.New("reranker down")
	}
	out := make([]float64, len(docs))
	for i, d := range docs {
		out[i] = float64(len(d))
	}
	return out, nil
}

func TestVectorAndHybridSearch(t *testing.T) {
	emb := &wordEmbedder{}
	ix, err := index.OpenMemory(&index.Options{Embedder: emb, Reranker: &fixedReranker{}})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	mustUpsert(t, ix,
		index.Doc{ID: "cats", Kind: "a", Body: "cat cat cat"},
		index.Doc{ID: "dogs", Kind: "a", Body: "dog dog"},
		index.Doc{ID: "mixed", Kind: "b", Body: "cat dog fish, a longer text about pets"},
		index.Doc{ID: "given", Kind: "b", Body: "no words", Vector: []float32{0, 0, 1}},
	)
	// Vector: nearest by cosine, filters applied; the query is embedded.
	r := search(t, ix, index.Request{Query: "cat", Mode: index.ModeVector, Limit: 2})
	if got := ids(r); !slices.Equal(got, []string{"cats", "mixed"}) || r.Hits[0].MatchedIn[0] != index.LegVector {
		t.Fatalf("vector: %v %v", got, r.Hits[0].MatchedIn)
	}
	r = search(t, ix, index.Request{Vector: []float32{0, 0, 1}, Mode: index.ModeVector, Kinds: []string{"b"}, Limit: 1})
	if got := ids(r); !slices.Equal(got, []string{"given"}) {
		t.Fatalf("vector with a given query vector and a filter: %v", got)
	}
	_, err = ix.Search(ctx, index.Request{Vector: []float32{0, 1}, Mode: index.ModeVector})
	if !errors.Is(err, index.ErrInvalidRequest) || !errors.Is(err, vector.ErrInvalidVector) {
		t.Fatalf("query vector of the wrong dimension: %v", err)
	}
	// Hybrid: RRF of the keyword legs and the vector leg.
	r = search(t, ix, index.Request{Query: "fish", Mode: index.ModeHybrid, Explain: true, Fallback: -1})
	if r.Hits[0].ID != "mixed" || !slices.Contains(r.Hits[0].MatchedIn, index.LegVector) || !slices.Contains(r.Hits[0].MatchedIn, index.LegText) {
		t.Fatalf("hybrid: %v %v", ids(r), r.Hits[0].MatchedIn)
	}
	// Vectors follow writes.
	mustUpsert(t, ix, index.Doc{ID: "cats", Body: "fish only now"})
	r = search(t, ix, index.Request{Query: "cat", Mode: index.ModeVector, Limit: 1})
	if r.Hits[0].ID == "cats" {
		t.Fatalf("stale vector: %v", ids(r))
	}
	if _, err := ix.Remove(ctx, "mixed"); err != nil {
		t.Fatal(err)
	}
	r = search(t, ix, index.Request{Query: "cat dog", Mode: index.ModeVector})
	if slices.Contains(ids(r), "mixed") {
		t.Fatalf("removed document found: %v", ids(r))
	}
	// Rerank reorders the top of the first page.
	r = search(t, ix, index.Request{Query: "dog fish", Mode: index.ModeText, Rerank: 5, Explain: true, Fallback: -1})
	for i := 1; i < len(r.Hits); i++ {
		if len(r.Hits[i].Title+r.Hits[i].Snippet) > len(r.Hits[i-1].Title+r.Hits[i-1].Snippet)+len("<mark></mark>")*4 {
			t.Fatalf("not reranked: %v", ids(r))
		}
	}
	if len(r.Hits) > 1 && r.Hits[0].Explain.Rerank == nil {
		t.Fatal("no rerank score in explain")
	}
}

func TestVectorFailuresDegrade(t *testing.T) {
	emb := &wordEmbedder{}
	rr := &fixedReranker{fail: true}
	ix, err := index.OpenMemory(&index.Options{Embedder: emb, Reranker: rr})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	mustUpsert(t, ix, index.Doc{ID: "a", Body: "cat"}, index.Doc{ID: "b", Body: "cat dog"})
	// The embedder fails: the write is stored without vectors, with a
	// warning, and a vector search falls back to keywords, with a warning.
	emb.fail = true
	var b index.Batch
	b.Upsert(index.Doc{ID: "c", Body: "cat fish"})
	a, err := ix.Apply(ctx, &b)
	if err != nil || len(a.Warnings) != 1 {
		t.Fatalf("apply: %v %v", a, err)
	}
	r := search(t, ix, index.Request{Query: "cat", Mode: index.ModeHybrid, Fallback: -1})
	if r.Total != 3 || len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0], "keywords only") {
		t.Fatalf("degraded search: %v %v", ids(r), r.Warnings)
	}
	// The reranker fails: the order is kept, with a warning.
	plain := search(t, ix, index.Request{Query: "cat", Fallback: -1})
	r = search(t, ix, index.Request{Query: "cat", Rerank: 3, Fallback: -1})
	if !slices.Equal(ids(r), ids(plain)) || len(r.Warnings) != 1 {
		t.Fatalf("failed rerank: %v vs %v, %v", ids(r), ids(plain), r.Warnings)
	}
	// Without an embedder a vector search needs a vector.
	ix2, _ := index.OpenMemory(nil)
	defer ix2.Close()
	if _, err := ix2.Search(ctx, index.Request{Query: "x", Mode: index.ModeVector}); !errors.Is(err, index.ErrInvalidRequest) {
		t.Fatalf("no vector, no embedder: %v", err)
	}
	if _, err := ix2.Search(ctx, index.Request{Query: "x", Mode: "semantic"}); !errors.Is(err, index.ErrInvalidRequest) {
		t.Fatalf("unknown search mode: %v", err)
	}
}
