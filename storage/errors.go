package storage

import "errors"

var (
	// ErrLocked is returned by Open when another process holds the store
	// open for writing.
	ErrLocked = errors.New("storage: locked by another process")

	// ErrClosed is returned by View and Update after Close.
	ErrClosed = errors.New("storage: closed")

	// ErrCorrupt is returned, wrapped, by CheckFile and Open for a store
	// file that cannot be read safely.
	ErrCorrupt = errors.New("storage: corrupt file")

	// ErrFault is returned, wrapped, when a fault injected through
	// Options.Fault fires.
	ErrFault = errors.New("storage: injected fault")
)
