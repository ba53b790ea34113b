//go:build !js

package backend

import (
	"fmt"

	"github.com/blevesearch/bleve/v2/index/upsidedown"
	"github.com/blevesearch/bleve/v2/registry"
	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/twindex/twindex/index/internal/memkv"
)

// memKVStore is the name under which memkv's store is registered with
// bleve's KV store registry, for upsidedown to open it by.
const memKVStore = "twindex.memkv"

// init registers memkv's store, here and nowhere else. Registration
// fails only if another package took the name, a build mistake that must
// not go unnoticed, hence the panic.
func init() {
	if err := registry.RegisterKVStore(memKVStore, memkv.New); err != nil {
		panic("backend: " + err.Error())
	}
}

func openUpsideDown(dir string, q *bleveindex.AnalysisQueue) (bleveindex.Index, error) {
	if dir != "" {
		return nil, fmt.Errorf("%w: upsidedown is memory-only here", ErrUnavailable)
	}
	idx, err := upsidedown.NewUpsideDownCouch(memKVStore, nil, q)
	if err != nil {
		return nil, err
	}
	if err := idx.Open(); err != nil {
		return nil, err
	}
	return idx, nil
}
