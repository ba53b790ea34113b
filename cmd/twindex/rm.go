package main

import (
	"context"
	"fmt"

	"github.com/twindex/twindex/server"
)

func runRm(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet(e, "rm", "twindex rm ID... [flags]", `  twindex rm notes/old.md drafts/todo.txt

Removes documents by ID. A file removed this way comes back at the next
search or index run if it still exists on disk; add it to .twindexignore
to keep it out. Exit status 1 if none of the IDs existed.`)
	idx := fs.indexFlag()
	pos, err := fs.parse(args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return usageErr("run 'twindex rm --help'", "want at least one ID")
	}
	eng, loc, err := openEngine(e, *idx)
	if err != nil {
		return err
	}
	defer eng.Close()
	a, err := eng.Write(ctx, &server.Writes{Remove: pos})
	n := a.Removed
	if err != nil {
		return indexErr(err, loc.Dir)
	}
	fmt.Fprintf(e.stdout, "removed %d of %d\n", n, len(pos))
	if n == 0 {
		return errNoResults
	}
	return eng.Close()
}
