//go:build !js && !wasip1

package index

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/twindex/twindex/storage"
)

// Open opens the index in directory dir, creating it if needed. It
// returns ErrLocked (wrapped) when another process has it open, and
// ErrNewerSchema for an index from a newer twindex. If a crash left a bleve
// index behind the store, Open brings it up to date before returning.
func Open(dir string, opts *Options) (*Index, error) {
	o := opts.WithDefaults()
	if o.Backend != Scorch {
		return nil, fmt.Errorf("open %s: %w: on-disk indexes need %s", dir, ErrBackend, Scorch)
	}
	if o.ReadOnly {
		if _, err := os.Stat(filepath.Join(dir, storeFile)); errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("open %s: %w: no index there yet", dir, ErrReadOnly)
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("open %s: %w", dir, err)
	}
	st, err := storage.Open(filepath.Join(dir, storeFile), &storage.Options{
		Fault: o.fault, NoSync: o.NoSync, CheckRecord: filepath.Join(dir, checkedFile),
	})
	if errors.Is(err, storage.ErrLocked) {
		return nil, fmt.Errorf("open %s: %w", dir, ErrLocked)
	}
	if errors.Is(err, storage.ErrCorrupt) {
		return nil, fmt.Errorf("open %s: %w", dir, &CorruptError{Path: filepath.Join(dir, storeFile), Err: err})
	}
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", dir, err)
	}
	return open(dir, st, o)
}
