package index

import (
	bleveindex "github.com/blevesearch/bleve_index_api"
)

// Backend names a bleve index implementation.
type Backend string

const (
	// Scorch is bleve's segment-based index: fast, compact, on disk or in
	// memory. Not available in the js/wasm build. In memory it never
	// merges (bleve runs its merger only beside a persister), so every
	// write stays a segment that every search visits (measured by
	// BenchmarkSearchAfterSmallWrites; figures in DESIGN.md). Use it in
	// memory only for an index written in a few large batches, where it
	// indexes faster.
	Scorch Backend = "scorch"
	// UpsideDown is bleve's key/value index, here over an in-memory
	// copy-on-write B+tree (internal/memkv): the only backend that
	// builds for js/wasm, memory only.
	UpsideDown Backend = "upsidedown"
)

// newUpsideDown is in upsidedown.go; newScorch in scorch.go (native only).
// bulk is Options.BulkLoad.
func newBackend(b Backend, dir string, q *bleveindex.AnalysisQueue, bulk bool) (bleveindex.Index, error) {
	switch b {
	case UpsideDown:
		return newUpsideDown(dir, q)
	case Scorch:
		return newScorch(dir, q, bulk)
	}
	return nil, ErrBackend
}
