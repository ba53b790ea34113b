package main

import (
	"context"
	"fmt"
	"time"
)

func runOptimize(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet(e, "optimize", "twindex optimize [flags]", `  twindex optimize

Merges each index down to one segment and compacts the store file: smaller
and a little faster to search after many incremental updates.`)
	idx := fs.indexFlag()
	if _, err := fs.parse(args); err != nil {
		return err
	}
	eng, loc, err := openEngine(e, *idx)
	if err != nil {
		return err
	}
	defer eng.Close()
	start := time.Now()
	if err := eng.Optimize(ctx); err != nil {
		return indexErr(err, loc.Dir)
	}
	if err := eng.Close(); err != nil {
		return indexErr(err, loc.Dir)
	}
	fmt.Fprintf(e.stderr, "twindex: optimized %s in %s\n", loc.Dir, time.Since(start).Round(time.Millisecond))
	return nil
}
