package server

import "errors"

var (
	// ErrNoRoot is returned by Sync on an index that mirrors no folder.
	ErrNoRoot = errors.New("this index mirrors no folder: it was opened without one (a PATH or --root)")
)
