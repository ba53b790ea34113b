package main

import (
	"context"
	"errors"
	"fmt"
	"syscall"

	"github.com/twindex/twindex/folder"
	"github.com/twindex/twindex/index"
)

// location says where an index lives and which folder its file IDs are
// relative to.
type location struct {
	folder.Location
}

// locate finds the index for path: --index or $TWINDEX_INDEX if set, else
// the nearest .twindex/ at or above path, else path/.twindex (not created).
func locate(e *env, flagIndex, path string) (location, error) {
	if flagIndex == "" {
		flagIndex = e.getenv("TWINDEX_INDEX")
	}
	l, err := folder.Locate(flagIndex, path)
	if err != nil {
		return location{}, usageErr("", "%w", err)
	}
	return location{l}, nil
}

// fill opens the index for a command that fills it from files or JSONL
// and searches it or exits: a new index is opened with BulkLoad, which
// holds merging back, and filled optimizes it once filled.
func (l *location) fill(opts *index.Options) (ix *index.Index, filled func(context.Context) error, err error) {
	bulk := !l.Exists
	o := *opts
	o.BulkLoad = bulk
	if ix, err = l.open(&o, true); err != nil {
		return nil, nil, err
	}
	return ix, func(ctx context.Context) error {
		if !bulk {
			return nil
		}
		if err := ix.Optimize(ctx); err != nil {
			return indexErr(err, l.Dir)
		}
		return nil
	}, nil
}

// open opens the index at loc. Read-only commands pass create=false and get
// an error instead of an empty new index.
func (l *location) open(opts *index.Options, create bool) (*index.Index, error) {
	if !create && !l.Exists {
		return nil, &exitError{code: exitIndex, err: fmt.Errorf("no index at %s", l.Dir),
			hint: "run 'twindex index' in the folder first, or pass --index DIR"}
	}
	ix, err := index.Open(l.Dir, opts)
	if err != nil {
		return nil, indexErr(err, l.Dir)
	}
	l.Exists = true
	return ix, nil
}

// indexErr maps an engine error to exit 3 with a hint.
func indexErr(err error, dir string) error {
	hint := ""
	switch {
	case errors.Is(err, index.ErrLocked):
		hint = "another twindex process is using " + dir + "; wait for it to finish and retry"
	case errors.Is(err, index.ErrNewerSchema):
		hint = "this index was written by a newer twindex: upgrade, or delete " + dir + " and re-index"
	case errors.Is(err, index.ErrCorrupt):
		hint = "'twindex rebuild' rebuilds damaged indexes from the document store"
	case errors.Is(err, syscall.ENOSPC):
		hint = "free disk space, then run the command again: what was committed stays"
	default:
		hint = "if the index is damaged, 'twindex check' tells what drifted and 'twindex rebuild' repairs the indexes from the store"
	}
	return &exitError{code: exitIndex, err: err, hint: hint}
}

// openAt opens the existing index for the current folder (or --index) for
// the commands that do not create one.
func openAt(e *env, flagIndex string) (*index.Index, location, error) {
	return openAtWith(e, flagIndex, nil)
}

// openAtWith is openAt with engine options.
func openAtWith(e *env, flagIndex string, opts *index.Options) (*index.Index, location, error) {
	loc, err := locate(e, flagIndex, ".")
	if err != nil {
		return nil, loc, err
	}
	ix, err := loc.open(opts, false)
	return ix, loc, err
}
