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

// backendOptions are the Options a bleve index is opened with.
type backendOptions struct {
	bulk     bool // Options.BulkLoad
	readOnly bool // Options.ReadOnly
}

// newUpsideDown is in upsidedown.go; newScorch in scorch.go (native only).
func newBackend(b Backend, dir string, q *bleveindex.AnalysisQueue, o backendOptions) (bleveindex.Index, error) {
	switch b {
	case UpsideDown:
		return newUpsideDown(dir, q)
	case Scorch:
		return newScorch(dir, q, o)
	}
	return nil, ErrBackend
}
