package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/twindex/twindex/index"
)

// indexDirName is the index folder at a root, like .git.
const indexDirName = ".twindex"

// rootFile, inside an index directory given with --index, records the
// folder its file IDs are relative to. The default .twindex/ needs none:
// its root is the folder holding it.
const rootFile = "cli-root"

// location says where an index lives and which folder its file IDs are
// relative to.
type location struct {
	dir      string // the index directory
	root     string // absolute folder file IDs are relative to; "" when unknown
	explicit bool   // dir came from --index or $TWINDEX_INDEX
	exists   bool   // dir holds an index already
}

// locate finds the index for path: --index or $TWINDEX_INDEX if set, else
// the nearest .twindex/ at or above path, else path/.twindex (not created).
func locate(e *env, flagIndex, path string) (location, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return location{}, usageErr("", "path %s: %w", path, err)
	}
	if flagIndex == "" {
		flagIndex = e.getenv("TWINDEX_INDEX")
	}
	if flagIndex != "" {
		dir, err := filepath.Abs(flagIndex)
		if err != nil {
			return location{}, usageErr("", "index %s: %w", flagIndex, err)
		}
		loc := location{dir: dir, explicit: true, exists: isIndexDir(dir)}
		if b, err := os.ReadFile(filepath.Join(dir, rootFile)); err == nil {
			loc.root = strings.TrimSpace(string(b))
		}
		return loc, nil
	}
	start := abs
	if fi, err := os.Stat(abs); err == nil && !fi.IsDir() {
		start = filepath.Dir(abs)
	}
	for d := start; ; {
		if fi, err := os.Stat(filepath.Join(d, indexDirName)); err == nil && fi.IsDir() {
			return location{dir: filepath.Join(d, indexDirName), root: d, exists: true}, nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	return location{dir: filepath.Join(start, indexDirName), root: start}, nil
}

func isIndexDir(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, "store.db"))
	return err == nil
}

// recordRoot remembers root in an explicit index directory.
func (l *location) recordRoot(root string) error {
	l.root = root
	if !l.explicit {
		return nil
	}
	return os.WriteFile(filepath.Join(l.dir, rootFile), []byte(root+"\n"), 0o644)
}

// fill opens the index for a command that fills it from files or JSONL
// and searches it or exits: a new index is opened with BulkLoad, which
// holds merging back, and filled optimizes it once filled.
func (l *location) fill(opts *index.Options) (ix *index.Index, filled func(context.Context) error, err error) {
	bulk := !l.exists
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
			return indexErr(err, l.dir)
		}
		return nil
	}, nil
}

// open opens the index at loc. Read-only commands pass create=false and get
// an error instead of an empty new index.
func (l *location) open(opts *index.Options, create bool) (*index.Index, error) {
	if !create && !l.exists {
		return nil, &exitError{code: exitIndex, err: fmt.Errorf("no index at %s", l.dir),
			hint: "run 'twindex index' in the folder first, or pass --index DIR"}
	}
	ix, err := index.Open(l.dir, opts)
	if err != nil {
		return nil, indexErr(err, l.dir)
	}
	l.exists = true
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

// relID turns an absolute path under root into a document ID: the relative
// path with '/' separators, "" for root itself.
func relID(root, abs string) (string, bool) {
	rel, err := filepath.Rel(root, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	if rel == "." {
		return "", true
	}
	return filepath.ToSlash(rel), true
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
