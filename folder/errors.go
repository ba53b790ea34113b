package folder

import "errors"

// ErrOutsideRoot is returned, wrapped, by Sync for a scope that is not
// under the root.
var ErrOutsideRoot = errors.New("outside the index root")

// ErrWalk matches every *WalkError.
var ErrWalk = errors.New("folder: cannot walk")

// WalkError is returned by Sync when its scope cannot be read.
type WalkError struct {
	Path string // the scope
	Err  error  // what reading it returned
}

func (e *WalkError) Error() string { return "walk " + e.Path + ": " + e.Err.Error() }

func (e *WalkError) Unwrap() []error { return []error{ErrWalk, e.Err} }

// ReadOnlyError is returned by Sync on an index opened read-only
// (index.Options.ReadOnly) that the folder has changes for; it matches
// index.ErrReadOnly. Walk is what the sync found: a sync of the same
// root, scopes and size limit on the index opened for writing takes it
// (Options.Walk) instead of walking the folder again.
type ReadOnlyError struct {
	Walk *Walk
	Err  error // the write's
}

func (e *ReadOnlyError) Error() string { return e.Err.Error() }

func (e *ReadOnlyError) Unwrap() error { return e.Err }
