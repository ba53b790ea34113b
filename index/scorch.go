//go:build !js && !wasip1

package index

import (
	"context"

	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/index/scorch/mergeplan"
	bleveindex "github.com/blevesearch/bleve_index_api"
)

const defaultBackend = Scorch

func newScorch(dir string, q *bleveindex.AnalysisQueue) (bleveindex.Index, error) {
	// unsafe_batch: Batch returns once the batch is searchable, and scorch
	// persists it in the background. The store and its write log are the
	// durable record; Open replays whatever scorch had not persisted.
	idx, err := scorch.NewScorch(scorch.Name, map[string]interface{}{"path": dir, "unsafe_batch": true}, q)
	if err != nil {
		return nil, err
	}
	if err := idx.Open(); err != nil {
		return nil, err
	}
	return idx, nil
}

// forceMerge merges a scorch index's segments down to one; other backends
// have nothing to merge.
func forceMerge(ctx context.Context, idx bleveindex.Index) error {
	s, ok := idx.(*scorch.Scorch)
	if !ok {
		return nil
	}
	return s.ForceMerge(ctx, &mergeplan.SingleSegmentMergePlanOptions)
}
