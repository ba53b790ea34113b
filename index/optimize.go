package index

import (
	"context"
	"errors"
	"fmt"
	"sync"

	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/twindex/twindex/index/internal/backend"
	"github.com/twindex/twindex/index/internal/compact"
)

// Optimize merges each bleve index of an on-disk index down to one
// segment and compacts the store file; it merges a memory index on
// Compact down to one segment, and does nothing to other memory indexes.
// Writes wait until it is done; searches go on, each reading the segments
// as they were when it began.
func (ix *Index) Optimize(ctx context.Context) error {
	if ix.opts.ReadOnly {
		return fmt.Errorf("optimize: %w", ErrReadOnly)
	}
	ix.writeMu.Lock()
	defer ix.writeMu.Unlock()
	ix.mu.RLock()
	err, stale := ix.ready(readsIndexes), ix.stale
	ix.mu.RUnlock()
	if err != nil {
		return fmt.Errorf("optimize: %w", err)
	}
	if stale != nil {
		if err := ix.recover(ctx); err != nil {
			return fmt.Errorf("optimize: catch up after an earlier failure: %w", err)
		}
	}
	if err := ix.buildTrigrams(ctx, nil); err != nil {
		return fmt.Errorf("optimize: %w", err)
	}
	// scorch's ForceMerge never returns for an in-memory index (its merger
	// waits for a persister that memory indexes do not run), and memory
	// indexes have no files to shrink.
	if ix.dir == "" {
		for _, idx := range []bleveindex.Index{ix.text, ix.tri} {
			if c, ok := idx.(*compact.Index); ok {
				if err := c.Merge(); err != nil {
					return fmt.Errorf("optimize: %w", err)
				}
			}
		}
		return nil
	}
	// scorch merges only segments it has persisted.
	if err := ix.flush(); err != nil {
		return fmt.Errorf("optimize: %w", err)
	}
	ix.unflushed.Store(true) // the merged segments' snapshot
	// The three files are independent: merged and compacted at once.
	errs := make([]error, 3)
	var wg sync.WaitGroup
	for i, idx := range []bleveindex.Index{ix.text, ix.tri} {
		wg.Go(func() {
			defer ix.guard(&errs[i])
			errs[i] = backend.ForceMerge(ctx, idx)
		})
	}
	if c, ok := ix.store.(interface{ Compact() error }); ok {
		wg.Go(func() { errs[2] = c.Compact() })
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("optimize: %w", err)
	}
	return nil
}
