//go:build js

package backend

import (
	"fmt"

	bleveindex "github.com/blevesearch/bleve_index_api"
)

// openUpsideDown is not in the js/wasm build: upsidedown links protobuf,
// most of the size bleve added to the browser's engine.
func openUpsideDown(string, *bleveindex.AnalysisQueue) (bleveindex.Index, error) {
	return nil, fmt.Errorf("%w: %s is not in the js/wasm build", ErrUnavailable, UpsideDown)
}
