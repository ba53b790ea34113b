//go:build js

package index

import (
	"fmt"

	bleveindex "github.com/blevesearch/bleve_index_api"
)

// newUpsideDown is not in the js/wasm build: upsidedown links protobuf,
// most of the size bleve added to the browser's engine.
func newUpsideDown(string, *bleveindex.AnalysisQueue) (bleveindex.Index, error) {
	return nil, fmt.Errorf("%w: %s is not in the js/wasm build", ErrBackend, UpsideDown)
}
