package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/twindex/twindex/index"
	"github.com/twindex/twindex/internal/plain"
)

const linksHelp = `  twindex links main.go
  twindex backlinks util.go --type imports --format json

links prints the links a document was written with (JSONL "links":
[{"to": "id", "type": "imports"}]); backlinks prints the documents that
link to an ID, read from the index of links by target. A link may point to
a document not written yet. Exit status 1 when there are none.`

func runLinks(_ context.Context, e *env, args []string) error { return linksCmd(e, "links", args) }

func runBacklinks(_ context.Context, e *env, args []string) error {
	return linksCmd(e, "backlinks", args)
}

// linksCmd is both commands: they differ in direction only.
func linksCmd(e *env, name string, args []string) error {
	fs := newFlagSet(e, name, "twindex "+name+" ID [flags]", linksHelp)
	idx := fs.indexFlag()
	format := fs.String("format", "text", "text or json")
	fs.oneOf("format", "text", "json")
	var types stringList
	if name == "backlinks" {
		fs.Var(&types, "type", "only links of this `type`; repeatable")
	}
	pos, err := fs.parse(args)
	if err != nil {
		return err
	}
	hint := fmt.Sprintf("run 'twindex %s --help'", name)
	if len(pos) != 1 {
		return usageErr(hint, "want exactly one ID, got %d", len(pos))
	}
	if *format != "text" && *format != "json" {
		return usageErr(hint, "unknown --format %q (want text or json)", *format)
	}
	eng, loc, err := openEngine(e, *idx, pos[0])
	if err != nil {
		return err
	}
	defer eng.Close()
	id := docID(eng, pos[0])
	type row struct {
		ID   string `json:"id"`
		Type string `json:"type,omitempty"`
	}
	var rows []row
	if name == "links" {
		links, err := eng.Links(id)
		if errors.Is(err, index.ErrNotFound) {
			fmt.Fprintf(e.stderr, "twindex links: no document %q\n", id)
			return errNoResults
		}
		if err != nil {
			return indexErr(err, loc.Dir)
		}
		for _, l := range links {
			rows = append(rows, row{l.To, l.Type})
		}
	} else {
		bl, err := eng.Backlinks(id, types...)
		if err != nil {
			return indexErr(err, loc.Dir)
		}
		for _, b := range bl {
			rows = append(rows, row{b.From, b.Type})
		}
	}
	if *format == "json" {
		if rows == nil {
			rows = []row{}
		}
		b, _ := json.MarshalIndent(map[string]any{"id": id, name: rows}, "", "  ")
		fmt.Fprintf(e.stdout, "%s\n", b)
	} else {
		var b strings.Builder
		for _, r := range rows {
			fmt.Fprintf(&b, "%s\t%s\n", plain.Clean(r.ID), plain.OrDash(r.Type))
		}
		fmt.Fprint(e.stdout, b.String())
	}
	if len(rows) == 0 {
		return errNoResults
	}
	return nil
}
