package index

import (
	"fmt"

	"github.com/blevesearch/bleve/v2/index/upsidedown"
	bleveindex "github.com/blevesearch/bleve_index_api"
)

func newUpsideDown(dir string, q *bleveindex.AnalysisQueue) (bleveindex.Index, error) {
	if dir != "" {
		return nil, fmt.Errorf("%w: upsidedown is memory-only here", ErrBackend)
	}
	return openUpsideDown(nil, q)
}

// openUpsideDown opens an upsidedown index over kv, or over a new empty
// store when kv is nil.
func openUpsideDown(kv *memKV, q *bleveindex.AnalysisQueue) (bleveindex.Index, error) {
	idx, err := upsidedown.NewUpsideDownCouch(memKVName, map[string]interface{}{memKVConfig: kv}, q)
	if err != nil {
		return nil, err
	}
	if err := idx.Open(); err != nil {
		return nil, err
	}
	return idx, nil
}
