package index_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/twindex/twindex/index"
)

// TestIDsAfterRenumbering checks the resolution of internal IDs across
// snapshots: the scorch backends remember the external IDs of the
// snapshot searches last read, and a write or a merge numbers the
// documents anew. Each round of writes (removals, new documents, an
// Optimize that merges the segments) is followed by searches that
// resolve every match of both legs, whose IDs must be the documents the
// index holds, on every backend.
func TestIDsAfterRenumbering(t *testing.T) {
	backends(t, func(t *testing.T, ix *index.Index) {
		want := map[string]bool{}
		add := func(prefix string, n int) {
			var docs []index.Doc
			for i := range n {
				id := fmt.Sprintf("%s%03d", prefix, i)
				docs = append(docs, index.Doc{ID: id, Body: fmt.Sprintf("common word %s", id)})
				want[id] = true
			}
			for len(docs) > 0 { // several segments
				k := min(len(docs), 40)
				mustUpsert(t, ix, docs[:k]...)
				docs = docs[k:]
			}
		}
		check := func(when string) {
			t.Helper()
			for _, mode := range []index.Mode{index.ModeAuto, index.ModeSubstring, index.ModeText} {
				for range 2 { // the second search reads what the first remembered
					res := search(t, ix, index.Request{Query: "common", Mode: mode, Limit: 50})
					var got []string
					for off := 0; ; {
						for _, h := range res.Hits {
							got = append(got, h.ID)
						}
						if res.NextOffset == nil {
							break
						}
						off = *res.NextOffset
						res = search(t, ix, index.Request{Query: "common", Mode: mode, Limit: 50, Offset: off})
					}
					slices.Sort(got)
					var exp []string
					for id := range want {
						exp = append(exp, id)
					}
					slices.Sort(exp)
					if !slices.Equal(got, exp) {
						t.Fatalf("%s, %s: %d hits, want %d; first: %q", when, mode, len(got), len(exp), got[:min(len(got), 5)])
					}
				}
			}
		}
		add("a", 120)
		check("first load")
		var gone []string
		for i := 0; i < 120; i += 2 {
			id := fmt.Sprintf("a%03d", i)
			gone = append(gone, id)
			delete(want, id)
		}
		if _, err := ix.Remove(ctx, gone...); err != nil {
			t.Fatal(err)
		}
		check("after removals")
		add("b", 90)
		check("after new documents")
		if err := ix.Optimize(ctx); err != nil {
			t.Fatal(err)
		}
		check("after Optimize")
	})
}
