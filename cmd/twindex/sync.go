package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/twindex/twindex/folder"
	"github.com/twindex/twindex/internal/plain"
	"github.com/twindex/twindex/server"
)

const defaultMaxSize = folder.DefaultMaxSize

// syncOptions configure a folder sync.
type syncOptions struct {
	quiet  bool
	always bool // report skips even when nothing changed (the index command)
	// writes, if set, is called once before the sync writes files in.
	writes func()
	// walk, if set, is what a sync on the index opened read-only found
	// (folder.ReadOnlyError): an index held in this process takes it
	// rather than walk the folder again.
	walk *folder.Walk
}

// syncFolder brings the index up to date with the files under scope, an
// absolute folder or file (Engine.Sync), drawing progress on a terminal
// and reporting on stderr the files refused or skipped and, unless
// quiet, what changed.
func syncFolder(ctx context.Context, e *env, eng server.Engine, scope string, o syncOptions) (*folder.Report, error) {
	var prog *progress
	progress := func(done, total int) {
		if total > 0 && o.writes != nil {
			o.writes()
			o.writes = nil
		}
		if prog == nil {
			prog = newProgress(e, o.quiet, "indexing", total)
		}
		prog.update(done)
	}
	var rep *folder.Report
	var err error
	if h, ok := eng.(*server.Host); ok && o.walk != nil {
		rep, err = h.SyncWalked(ctx, scope, o.walk, progress)
	} else {
		rep, err = eng.Sync(ctx, scope, progress)
	}
	if prog != nil {
		prog.done()
	}
	for _, r := range rep.Invalid {
		fmt.Fprintf(e.stderr, "twindex: skipped %s: %s\n", r.ID, r.Reason)
	}
	for _, w := range rep.Warnings {
		fmt.Fprintf(e.stderr, "twindex: warning: %s\n", w)
	}
	switch {
	case errors.Is(err, folder.ErrOutsideRoot):
		return rep, usageErr("pass --index to use another index", "%w", err)
	case errors.Is(err, folder.ErrWalk):
		return rep, usageErr("", "%w", err)
	case errors.Is(err, server.ErrNoRoot):
		return rep, usageErr("start the server with the folder (twindex serve PATH), or search with --no-sync", "the server that owns %s: %w", eng.Info().Dir, err)
	case err != nil:
		return rep, err
	}
	info := eng.Info()
	changed := rep.Written+rep.Removed > 0
	if changed && !o.quiet {
		fmt.Fprintf(e.stderr, "twindex: indexed %d, removed %d, unchanged %d in %s (%s)\n",
			rep.Written, rep.Removed, rep.Unchanged, rep.Elapsed.Round(time.Millisecond), info.Root)
	}
	if changed || o.always {
		reportSkips(e, rep, info.MaxSize)
	}
	return rep, nil
}

func reportSkips(e *env, rep *folder.Report, maxSize int64) {
	if n := len(rep.Oversize); n > 0 {
		fmt.Fprintf(e.stderr, "twindex: skipped %d file(s) over %s (raise --max-size to index them): %s\n",
			n, plain.Bytes(maxSize), plain.List(rep.Oversize, 5))
	}
	if n := len(rep.BadNames); n > 0 {
		fmt.Fprintf(e.stderr, "twindex: skipped %d file(s) whose names are not valid UTF-8: %s\n", n, plain.List(rep.BadNames, 5))
	}
}

func isDirPath(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}
