package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"runtime/debug"
	"syscall"

	"github.com/twindex/twindex/folder"
	"github.com/twindex/twindex/index"
	"github.com/twindex/twindex/server"
)

// location says where an index lives and which folder its file IDs are
// relative to.
type location struct {
	folder.Location
	e *env // where to say that a new index went to the user cache
}

// locate finds the index for path (folder.Locate): the command's --index,
// else the global one, else $TWINDEX_INDEX, else the nearest index at or
// above path, else a new one at the root of the git repository holding
// path, or at path.
func locate(e *env, flagIndex, path string) (location, error) {
	if flagIndex == "" {
		flagIndex = e.index
	}
	if flagIndex == "" {
		flagIndex = e.getenv("TWINDEX_INDEX")
	}
	l, err := folder.Locate(flagIndex, path)
	if err != nil {
		return location{}, usageErr("", "%w", err)
	}
	return location{l, e}, nil
}

// bulkMemory is the Go runtime's soft memory limit while a command writes
// in bulk. A load in batches of folder.BatchDocs holds about 250 MB live
// at its peaks (analyzed documents, segments being built), and by
// default the heap grows to twice what is live before a collection; the
// limit makes it collect sooner when near, so that a build of the
// yardstick's corpus stays under 512 MiB of RSS with the segment files
// mapped beside the heap.
const bulkMemory = 384 << 20

// limitMemory sets bulkMemory as the soft memory limit, unless GOMEMLIMIT
// sets one.
func limitMemory(e *env) {
	if e.getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(bulkMemory)
	}
}

// searchGC is the collector's percent in a search of one query (GOGC
// unless set). Such a process lives tens of milliseconds, most of them
// the folder's sync, which allocates a few MB: with the default, a cycle
// each time the heap doubles from 4 MB, a sync of the Go tree ran eight of
// them, 15% of the process's time; at 400 the heap grows to five times
// what is live first (RSS 70 -> 73 MB there). A sync that finds files to
// write sets the default back: building the yardstick's corpus through a
// first search peaked at 550 MB of RSS at 400 throughout, 491-505 MB so
// (481-503 MB with the default). A batch (--queries) keeps the default:
// its fold cache fills, and at 400 the yardstick's 300 queries peaked at
// 433 MB of RSS against 253, in the same time.
const searchGC = 400

// tuneSearchGC sets searchGC, unless GOGC is set, and bulkMemory for a
// search process, and returns what sets the collector's percent back.
func tuneSearchGC(e *env) (restore func()) {
	limitMemory(e)
	if e.getenv("GOGC") != "" {
		return func() {}
	}
	old := debug.SetGCPercent(searchGC)
	return func() { debug.SetGCPercent(old) }
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
	if create {
		if err := l.Prepare(); err != nil {
			return nil, &exitError{code: exitIndex, err: fmt.Errorf("make the index folder: %w", err),
				hint: "pass --index DIR (or set TWINDEX_INDEX) to put the index in a folder you can write"}
		}
		if !l.Exists && l.Cached != "" && l.e != nil {
			fmt.Fprintf(l.e.stderr, "twindex: %s %s; its index goes in %s\n", l.Root, l.Cached, l.Dir)
		}
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
	var ce *index.CorruptError
	switch {
	case errors.Is(err, index.ErrLocked):
		hint = "another twindex process is using " + dir + "; wait for it to finish and retry"
	case errors.Is(err, index.ErrNewerSchema):
		hint = "this index was written by a newer twindex: upgrade, or delete " + dir + " and re-index"
	case errors.As(err, &ce) && ce.InStore():
		hint = "the document store is damaged, which 'twindex rebuild' cannot repair: move " + dir +
			" aside and index the source again ('twindex index' re-reads a folder's files)"
	case errors.Is(err, index.ErrCorrupt):
		hint = "'twindex rebuild' rebuilds damaged indexes from the document store"
	case errors.Is(err, index.ErrLanguage):
		hint = "an index's language is chosen when it is made: search it without --lang, or delete " + dir + " and index again with --lang"
	case errors.Is(err, syscall.ENOSPC):
		hint = "free disk space, then run the command again: what was committed stays"
	default:
		hint = "if the index is damaged, 'twindex check' tells what drifted and 'twindex rebuild' repairs the indexes from the store"
	}
	return &exitError{code: exitIndex, err: err, hint: hint}
}

// ownedLocation finds the index a long-running command (mcp, serve) owns
// and the folder it mirrors, fixed from then on: PATH or --root when
// given; else the root the index recorded, or the folder holding a
// .twindex/ index; else none.
func ownedLocation(e *env, name, flagIndex, flagRoot string, pos []string) (location, error) {
	hint := fmt.Sprintf("run 'twindex %s --help'", name)
	path := flagRoot
	switch {
	case len(pos) > 1:
		return location{}, usageErr(hint, "want at most one PATH, got %q", pos)
	case len(pos) == 1 && flagRoot != "" && pos[0] != flagRoot:
		return location{}, usageErr(hint, "PATH %s and --root %s differ: give one", pos[0], flagRoot)
	case len(pos) == 1:
		path = pos[0]
	}
	base := path
	if base == "" {
		base = "."
	}
	loc, err := locate(e, flagIndex, base)
	if err != nil {
		return loc, err
	}
	if path == "" {
		return loc, nil
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return loc, usageErr(hint, "%w", err)
	}
	if !isDirPath(abs) {
		return loc, usageErr(hint, "%s is not a folder: PATH is the folder the index mirrors", path)
	}
	switch {
	case !loc.Explicit:
		// Found by walking up from PATH (or new in it): the root is the
		// folder holding the index, and PATH is in it.
	case loc.Root == "":
		loc.Root = abs
	case loc.Root != abs:
		return loc, usageErr("pass that folder, or another --index for this one",
			"the index %s mirrors %s, not %s", loc.Dir, loc.Root, abs)
	}
	return loc, nil
}

// host opens (or creates) the index at loc for a command that owns it,
// recording its root in an explicit index directory.
func (l *location) host(opts *index.Options, maxSize int64) (*server.Host, error) {
	ix, err := l.open(opts, true)
	if err != nil {
		return nil, err
	}
	if l.Root != "" {
		if err := l.RecordRoot(l.Root); err != nil {
			ix.Close()
			return nil, fmt.Errorf("record the index root: %w", err)
		}
	}
	return server.NewHost(ix, hostOptions(l, opts, maxSize)), nil
}
