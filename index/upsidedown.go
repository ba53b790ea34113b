package index

import (
	"fmt"

	"github.com/blevesearch/bleve/v2/index/upsidedown"
	"github.com/blevesearch/bleve/v2/index/upsidedown/store/gtreap"
	bleveindex "github.com/blevesearch/bleve_index_api"
)

func newUpsideDown(dir string, q *bleveindex.AnalysisQueue) (bleveindex.Index, error) {
	if dir != "" {
		return nil, fmt.Errorf("%w: upsidedown is memory-only here", ErrBackend)
	}
	idx, err := upsidedown.NewUpsideDownCouch(gtreap.Name, map[string]interface{}{"path": ""}, q)
	if err != nil {
		return nil, err
	}
	if err := idx.Open(); err != nil {
		return nil, err
	}
	return idx, nil
}
