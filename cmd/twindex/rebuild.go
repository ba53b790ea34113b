package main

import (
	"context"
	"fmt"
	"time"

	"github.com/twindex/twindex/index"
)

func runRebuild(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet(e, "rebuild", "twindex rebuild [flags]", `  twindex rebuild && twindex check

Discards both indexes and rebuilds them from the document store, for an
index that 'twindex check' found out of step or whose files are damaged,
and writes anew the records whose filter of adjacent word pairs lacks a
pair their text makes.`)
	idx := fs.indexFlag()
	if _, err := fs.parse(args); err != nil {
		return err
	}
	loc, err := locate(e, *idx, ".")
	if err != nil {
		return err
	}
	if err := loc.notOwned(); err != nil {
		return err
	}
	limitMemory(e)
	// A bleve index too damaged to open is rebuilt from the store as it
	// opens; Rebuild then redoes both from scratch.
	ix, err := loc.open(&index.Options{RebuildCorrupt: true}, false)
	if err != nil {
		return err
	}
	defer ix.Close()
	start := time.Now()
	if err := ix.Rebuild(ctx); err != nil {
		return indexErr(err, loc.Dir)
	}
	if err := ix.Close(); err != nil {
		return indexErr(err, loc.Dir)
	}
	fmt.Fprintf(e.stderr, "twindex: rebuilt %s in %s\n", loc.Dir, time.Since(start).Round(time.Millisecond))
	return nil
}
