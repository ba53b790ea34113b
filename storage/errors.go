package storage

import (
	"errors"
	"fmt"
)

var (
	// ErrLocked is returned by Open when another process holds the store
	// open for writing.
	ErrLocked = errors.New("storage: locked by another process")

	// ErrClosed is returned by View and Update after Close.
	ErrClosed = errors.New("storage: closed")

	// ErrCorrupt is returned, wrapped (in a *CorruptError from CheckFile
	// and Open), for a store file that cannot be read safely.
	ErrCorrupt = errors.New("storage: corrupt file")

	// ErrFault is returned, wrapped, when a fault injected through
	// Options.Fault fires.
	ErrFault = errors.New("storage: injected fault")
)

// CorruptError is returned by CheckFile, and Open, for a bbolt file whose
// pages are damaged: bbolt would fault or panic reading it.
type CorruptError struct {
	Path string // the file
	Page uint64 // the page where the damage shows (0 or 1: a meta page)
	Msg  string // what is wrong there
}

func (e *CorruptError) Error() string {
	return fmt.Sprintf("storage: corrupt %s: page %d: %s", e.Path, e.Page, e.Msg)
}

// Unwrap makes errors.Is(err, ErrCorrupt) hold.
func (e *CorruptError) Unwrap() error { return ErrCorrupt }
