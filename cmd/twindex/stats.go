package main

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"text/tabwriter"
	"time"

	"github.com/twindex/twindex/index"
	"github.com/twindex/twindex/internal/plain"
)

// statsJSON is the --json form of stats.
type statsJSON struct {
	Index string `json:"index"`
	Root  string `json:"root,omitempty"`
	*index.Stats
}

func runStats(_ context.Context, e *env, args []string) error {
	fs := newFlagSet(e, "stats", "twindex stats [flags]", `  twindex stats
  twindex stats --json | jq .kinds`)
	idx := fs.indexFlag()
	asJSON := fs.Bool("json", false, "print as JSON")
	if _, err := fs.parse(args); err != nil {
		return err
	}
	eng, loc, err := openEngine(e, *idx)
	if err != nil {
		return err
	}
	defer eng.Close()
	st, err := eng.Stats()
	if err != nil {
		return indexErr(err, loc.Dir)
	}
	if *asJSON {
		b, _ := json.MarshalIndent(statsJSON{Index: loc.Dir, Root: loc.Root, Stats: st}, "", "  ")
		fmt.Fprintf(e.stdout, "%s\n", b)
		return nil
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "index\t%s\n", loc.Dir)
	if loc.Root != "" {
		fmt.Fprintf(tw, "root\t%s\n", loc.Root)
	}
	fmt.Fprintf(tw, "language\t%s\n", st.Language)
	fmt.Fprintf(tw, "documents\t%d\n", st.Docs)
	kinds := make([]string, 0, len(st.Kinds))
	for k := range st.Kinds {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	for _, k := range kinds {
		fmt.Fprintf(tw, "  %s\t%d\n", plain.OrDash(k), st.Kinds[k])
	}
	fmt.Fprintf(tw, "store\t%s\n", plain.Bytes(st.StoreBytes))
	fmt.Fprintf(tw, "text index\t%s%s\n", plain.Bytes(st.TextBytes), segmentNote(st.TextSegments))
	fmt.Fprintf(tw, "trigram index\t%s%s\n", plain.Bytes(st.TrigramBytes), segmentNote(st.TrigramSegments))
	updated := "never"
	if !st.Updated.IsZero() {
		updated = st.Updated.Local().Format(time.RFC3339)
	}
	fmt.Fprintf(tw, "last update\t%s\n", updated)
	fmt.Fprintf(tw, "writes\t%d\n", st.Seq)
	return tw.Flush()
}

// segmentNote tells how many segments an index has, when it has any.
func segmentNote(n int) string {
	switch n {
	case 0:
		return ""
	case 1:
		return " (1 segment)"
	}
	return fmt.Sprintf(" (%d segments; 'twindex optimize' merges them)", n)
}
