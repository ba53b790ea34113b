package main

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/twindex/twindex/index"
	"github.com/twindex/twindex/internal/plain"
	"github.com/twindex/twindex/server"
)

// explainEmpty says on stderr why a search printed no hits: "no results"
// (with the did-you-mean), then every filter that alone rules everything
// out, or an offset past the end. Filters are checked only after an empty
// result, so a search that finds something pays nothing for this.
//
// Cost: a Stats call for --kind, a Get for --under, and one more search
// without the filters when others are set.
func explainEmpty(ctx context.Context, e *env, eng server.Engine, req index.Request, res *index.Result, underFlag bool) {
	if res.Total > 0 {
		if len(res.Hits) == 0 {
			fmt.Fprintf(e.stderr, "twindex: --offset %d is past the end: %d result(s)\n", req.Offset, res.Total)
		}
		return
	}
	if res.DidYouMean != "" {
		fmt.Fprintf(e.stderr, "no results; did you mean: %s\n", plain.Clean(res.DidYouMean))
	} else {
		fmt.Fprintln(e.stderr, "no results")
	}
	said := false
	if len(req.Kinds) > 0 {
		if st, err := eng.Stats(); err == nil {
			var missing []string
			for _, k := range req.Kinds {
				if st.Kinds[k] == 0 {
					missing = append(missing, fmt.Sprintf("%q", k))
				}
			}
			if len(missing) == len(req.Kinds) {
				fmt.Fprintf(e.stderr, "twindex: no documents of kind %s; kinds here: %s\n", strings.Join(missing, " or "), kindList(st.Kinds))
				said = true
			}
		}
	}
	if req.Under != "" {
		if _, err := eng.Get(req.Under); errors.Is(err, index.ErrNotFound) {
			what := fmt.Sprintf("no document or folder %q in the index (--under)", req.Under)
			if !underFlag {
				what = fmt.Sprintf("nothing is indexed under %s: ignored, empty, or outside the folders searched before", req.Under)
			}
			fmt.Fprintf(e.stderr, "twindex: %s\n", what)
			said = true
		}
	}
	if said {
		return
	}
	// The other filters (and --kind or --under when each alone leaves
	// documents): does the query match anything without them?
	names := filterNames(req, underFlag)
	if len(names) == 0 {
		return
	}
	bare := index.Request{Query: req.Query, Syntax: req.Syntax, Mode: req.Mode, Fuzzy: req.Fuzzy,
		Fallback: req.Fallback, Vector: req.Vector, Limit: 1}
	if r, err := eng.Search(ctx, bare); err == nil && r.Total > 0 {
		fmt.Fprintf(e.stderr, "twindex: %d document(s) match without %s\n", r.Total, strings.Join(names, ", "))
	}
}

// filterNames names the filters set in req, as flags.
func filterNames(req index.Request, underFlag bool) []string {
	var out []string
	add := func(set bool, name string) {
		if set {
			out = append(out, name)
		}
	}
	add(len(req.Kinds) > 0, "--kind "+strings.Join(req.Kinds, ","))
	add(len(req.Projects) > 0, "--project "+strings.Join(req.Projects, ","))
	add(len(req.Tags) > 0, "--tag "+strings.Join(req.Tags, ","))
	add(req.Role != "", "--role "+req.Role)
	add(req.Under != "" && underFlag, "--under "+req.Under)
	add(req.Under != "" && !underFlag, "limiting to "+req.Under)
	add(!req.Since.IsZero(), "--since")
	add(!req.Until.IsZero(), "--until")
	return out
}

// kindList is the kinds of an index with their counts, folders left out.
func kindList(kinds map[string]int) string {
	var out []string
	for _, k := range slices.Sorted(maps.Keys(kinds)) {
		if k == "dir" || kinds[k] == 0 {
			continue
		}
		name := k
		if name == "" {
			name = `""`
		}
		out = append(out, fmt.Sprintf("%s (%d)", name, kinds[k]))
	}
	if len(out) == 0 {
		return "none"
	}
	return strings.Join(out, ", ")
}
