package index

import (
	"context"
	"fmt"
	"html"
	"slices"
	"strings"

	"github.com/twindex/twindex/fusion"
	"github.com/twindex/twindex/index/internal/rank"
	"github.com/twindex/twindex/index/internal/record"
	"github.com/twindex/twindex/storage"
	"github.com/twindex/twindex/vector"
)

// VectorDepth is how many nearest documents the vector leg ranks at least:
// its list for RRF, and Total in vector mode.
const VectorDepth = 100

// embedDocs fills in the vectors of the documents written without one,
// when an Embedder is set, and returns warnings for those it could not.
// It runs before Apply takes the write lock: it blocks on the network.
func (ix *Index) embedDocs(ctx context.Context, ops []op) []string {
	if ix.opts.Embedder == nil {
		return nil
	}
	var idx []int
	var texts []string
	for i := range ops {
		if ops[i].kind != opRemove && len(ops[i].doc.Vector) == 0 {
			idx = append(idx, i)
			texts = append(texts, ops[i].doc.Title+"\n"+ops[i].doc.Body)
		}
	}
	if len(texts) == 0 {
		return nil
	}
	vecs, err := ix.opts.Embedder.Embed(ctx, texts)
	if err == nil && len(vecs) != len(texts) {
		err = fmt.Errorf("%d vectors for %d texts", len(vecs), len(texts))
	}
	if err != nil {
		return []string{fmt.Sprintf("embedding failed, %d document(s) stored without vectors: %v", len(texts), err)}
	}
	for j, i := range idx {
		ops[i].doc.Vector = vecs[j]
	}
	return nil
}

// updateVectors keeps the vector index in step with a committed write.
// The caller holds writeMu.
func (ix *Index) updateVectors(ids []string, docs map[string]*Doc) {
	vecs := ix.vecs.Load()
	if vecs == nil {
		return
	}
	for _, id := range ids {
		if d := docs[id]; d != nil && len(d.Vector) == vecs.Dim() {
			vecs.Put(id, d.Vector) // validated by CheckDoc and the dimension check
		} else {
			vecs.Delete(id)
		}
	}
}

// loadVectors builds the vector index from the store if it is not built,
// holding writeMu meanwhile. It returns false when no document has a
// vector.
func (ix *Index) loadVectors() (bool, error) {
	if ix.vecs.Load() != nil {
		return true, nil
	}
	ix.writeMu.Lock()
	defer ix.writeMu.Unlock()
	if ix.vecs.Load() != nil {
		return true, nil
	}
	ix.mu.RLock()
	err := ix.ready(readsStore)
	ix.mu.RUnlock()
	if err != nil {
		return false, err
	}
	// The store's latest state: with writeMu held, every write in it
	// reaches the vectors as it is published.
	var vecs *vector.Set
	err = ix.store.View(func(tx storage.Tx) error {
		dim := int(getUint(tx, metaDim))
		if dim == 0 {
			return nil
		}
		var err error
		if vecs, err = vector.New(dim, ix.opts.Vectors); err != nil {
			return fmt.Errorf("%w: %w", ErrInvalidRequest, err)
		}
		return tx.Scan(bucketDocs, nil, func(k, v []byte) error {
			h, _, err := record.DecodeHeader(v)
			if err != nil {
				return fmt.Errorf("document %q: %w", k, err)
			}
			if vec := h.Vector(); len(vec) == dim {
				if err := vecs.Put(string(k), vec); err != nil {
					return fmt.Errorf("%w: %w", ErrInvalidDoc, err)
				}
			}
			return nil
		})
	})
	if err != nil || vecs == nil {
		return false, err
	}
	ix.vecs.Store(vecs)
	return true, nil
}

// queryVector returns the vector to search with: the request's, or its
// query embedded. ok is false, with a warning, when there is none and the
// search must fall back to keywords.
func (ix *Index) queryVector(ctx context.Context, req *Request) (vec []float32, warning string, err error) {
	if len(req.Vector) > 0 {
		return req.Vector, "", nil
	}
	if ix.opts.Embedder == nil {
		return nil, "", fmt.Errorf("%w: mode %s needs Request.Vector or an Embedder (Options.Embedder)", ErrInvalidRequest, req.Mode)
	}
	vecs, err := ix.opts.Embedder.Embed(ctx, []string{req.Query})
	if err == nil && len(vecs) != 1 {
		err = fmt.Errorf("%d vectors for one query", len(vecs))
	}
	if err != nil {
		return nil, fmt.Sprintf("embedding the query failed, searched by keywords only: %v", err), nil
	}
	return vecs[0], "", nil
}

// vectorLeg returns the documents nearest to the query vector that pass
// the filters, best first.
func (s *search) vectorLeg(k int) ([]rank.Scored, error) {
	hits, err := s.ix.vecs.Load().Search(s.qvec, k, func(id string) bool {
		return s.tx.Get(bucketDocs, []byte(id)) != nil && s.keep(id)
	})
	if err != nil { // Search fails only on the query vector, the caller's
		return nil, fmt.Errorf("%w: %w", ErrInvalidRequest, err)
	}
	out := make([]rank.Scored, len(hits))
	for i, h := range hits {
		out[i] = rank.Scored{ID: h.ID, Score: h.Score}
	}
	return out, nil
}

// rerank reorders the first n hits of a first page by the Reranker's
// scores of their title and snippet; on failure it leaves them and
// returns a warning.
func (ix *Index) rerank(ctx context.Context, q string, hits []Hit, n int) string {
	n = min(n, len(hits))
	if ix.opts.Reranker == nil || n < 2 {
		return ""
	}
	texts := make([]string, n)
	marks := strings.NewReplacer("<mark>", "", "</mark>", "")
	for i, h := range hits[:n] {
		texts[i] = h.Title + "\n" + html.UnescapeString(marks.Replace(h.Snippet))
	}
	scores, err := ix.opts.Reranker.Rerank(ctx, q, texts)
	if err == nil && len(scores) != n {
		err = fmt.Errorf("%d scores for %d documents", len(scores), n)
	}
	if err != nil {
		return fmt.Sprintf("reranking failed, the fused order is kept: %v", err)
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case scores[a] > scores[b]:
			return -1
		case scores[a] < scores[b]:
			return 1
		}
		return 0
	})
	top := slices.Clone(hits[:n])
	for i, j := range order {
		hits[i] = top[j]
		if hits[i].Explain != nil {
			hits[i].Explain.Rerank = &scores[j]
		}
	}
	return ""
}

// runVector is a vector search: the nearest documents that pass the
// filters, scored by cosine similarity.
func (s *search) runVector() (*Result, error) {
	vec, err := s.vectorLeg(max(s.req.Offset+s.req.Limit, VectorDepth))
	if err != nil {
		return nil, fmt.Errorf("vector leg: %w", err)
	}
	fused := make([]fusion.Hit, len(vec))
	for i, v := range vec {
		fused[i] = fusion.Hit{ID: v.ID, Score: v.Score, Legs: []fusion.LegRank{{Leg: LegVector, Rank: i + 1, Score: v.Score}}}
	}
	if s.req.Order != OrderScore {
		if err := s.sortByDate(fused); err != nil {
			return nil, err
		}
	}
	return s.finish(&Result{Mode: s.req.Mode}, fused, len(fused))
}
