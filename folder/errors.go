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
