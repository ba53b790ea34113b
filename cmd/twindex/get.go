package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/twindex/twindex/index"
	"github.com/twindex/twindex/internal/plain"
)

func runGet(_ context.Context, e *env, args []string) error {
	fs := newFlagSet(e, "get", "twindex get ID [flags]", `  twindex get index/search.go
  twindex get ./db.go                  a path: relative to the current folder, or absolute
  twindex get 4983 --json --index /tmp/scifact

Prints the stored document: its fields, then a blank line and the body.
Exit status 1 if no document has the ID.`)
	idx := fs.indexFlag()
	asJSON := fs.Bool("json", false, "print the document as JSON")
	pos, err := fs.parse(args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageErr("run 'twindex get --help'", "want exactly one ID, got %d", len(pos))
	}
	eng, loc, err := openEngine(e, *idx, pos[0])
	if err != nil {
		return err
	}
	defer eng.Close()
	id := docID(eng, pos[0])
	d, err := eng.Get(id)
	if errors.Is(err, index.ErrNotFound) {
		fmt.Fprintf(e.stderr, "twindex get: no document %q\n", id)
		return errNoResults
	}
	if err != nil {
		return indexErr(err, loc.Dir)
	}
	if *asJSON {
		b, err := json.MarshalIndent(d, "", "  ")
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "%s\n", b)
		return nil
	}
	var b strings.Builder
	field := func(name, v string) {
		if v != "" {
			fmt.Fprintf(&b, "%-8s %s\n", name+":", plain.Clean(v))
		}
	}
	field("id", d.ID)
	field("kind", d.Kind)
	field("title", d.Title)
	field("parent", d.Parent)
	field("tags", strings.Join(d.Tags, ", "))
	field("role", d.Role)
	field("project", d.Project)
	field("source", d.Source)
	if !d.Time.IsZero() {
		field("ts", d.Time.Format(time.RFC3339Nano))
	}
	for _, k := range slices.Sorted(maps.Keys(d.Meta)) {
		field("meta."+k, d.Meta[k])
	}
	if d.Body != "" {
		b.WriteString("\n")
		b.WriteString(d.Body)
		if !strings.HasSuffix(d.Body, "\n") {
			b.WriteString("\n")
		}
	}
	fmt.Fprint(e.stdout, b.String())
	return nil
}
