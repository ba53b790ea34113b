//go:build !js && !wasip1

package index

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/index/scorch/mergeplan"
	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/twindex/twindex/storage"
)

const defaultBackend = Scorch

func newScorch(dir string, q *bleveindex.AnalysisQueue) (idx bleveindex.Index, err error) {
	if dir != "" {
		// scorch keeps its snapshot list in a bbolt file, which bbolt
		// cannot open safely once truncated.
		if err := storage.CheckFile(filepath.Join(dir, "root.bolt")); err != nil {
			return nil, &CorruptError{Path: dir, Err: err}
		}
	}
	// unsafe_batch: Batch returns once the batch is searchable, and scorch
	// persists it in the background. The store and its write log are the
	// durable record; Open replays whatever scorch had not persisted.
	idx, err = scorch.NewScorch(scorch.Name, map[string]interface{}{"path": dir, "unsafe_batch": true}, q)
	if err != nil {
		return nil, err
	}
	// scorch panics on some damaged segment files (zap decodes lengths
	// without bounds checks); that is bad input, not a bug of ours.
	defer func() {
		if r := recover(); r != nil {
			func() {
				defer func() { _ = recover() }()
				_ = idx.Close()
			}()
			idx, err = nil, &CorruptError{Path: dir, Err: fmt.Errorf("%v", r)}
		}
	}()
	if err := idx.Open(); err != nil {
		if errors.Is(err, fs.ErrPermission) {
			return nil, err
		}
		return nil, &CorruptError{Path: dir, Err: err}
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
