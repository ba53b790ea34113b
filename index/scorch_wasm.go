//go:build js || wasip1

package index

import (
	"context"

	bleveindex "github.com/blevesearch/bleve_index_api"
)

const defaultBackend = UpsideDown

func newScorch(string, *bleveindex.AnalysisQueue, backendOptions) (bleveindex.Index, error) {
	return nil, ErrBackend
}

func forceMerge(context.Context, bleveindex.Index) error { return nil }

func persistError(string) error { return nil }

func segmentPrefixCounts(bleveindex.IndexReader, string, []byte, func(string, uint64)) (bool, error) {
	return false, nil
}
