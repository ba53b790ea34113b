package index

import (
	"errors"

	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/twindex/twindex/index/internal/backend"
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
	// copy-on-write B+tree (internal/memkv), memory only. Not available
	// in the js/wasm build.
	UpsideDown Backend = "upsidedown"
	// Compact is twindex's own in-memory index (internal/compact): per
	// field a sorted dictionary and positionless postings in flat
	// slices, in segments merged as they grow. Memory only; the default
	// of OpenMemory, the backend of the js/wasm build and of snapshots.
	Compact Backend = "compact"
)

// newBackend opens one bleve index, its damage a *CorruptError.
func newBackend(b Backend, dir string, q *bleveindex.AnalysisQueue, o *backend.Options) (bleveindex.Index, error) {
	idx, err := backend.Open(string(b), dir, q, o)
	if ce, ok := errors.AsType[*backend.CorruptError](err); ok {
		return nil, &CorruptError{Path: ce.Path, Err: ce.Err}
	}
	return idx, err
}

// docNumbers reports whether the backend's internal IDs are 8-byte
// document numbers, which the text leg's slot tables index directly.
func (b Backend) docNumbers() bool { return b == Scorch || b == Compact }
