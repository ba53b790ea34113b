package index_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
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

// TestLengthsAfterRenumbering checks the fieldLength list held whole per
// index state (backend.Whole), across the same rounds of writes as
// TestIDsAfterRenumbering: broad substring searches, which read it for a
// length of every match, score and rank every hit as on a
// twin index that reads each match's posting instead.
func TestLengthsAfterRenumbering(t *testing.T) {
	twinsAfterRenumbering(t, index.ReadLengths, index.ModeSubstring, "reading each posting")
}

// TestJoinAfterRenumbering checks the table of doc numbers that places
// the substring leg's matches in the text leg, built per pair of states
// once the searches have joined enough documents (backend.Join): fused
// searches, repeated until they use it, rank every hit as on a twin index
// that joins by external IDs.
func TestJoinAfterRenumbering(t *testing.T) {
	twinsAfterRenumbering(t, index.JoinByIDs, index.ModeAuto, "joining by IDs")
}

// twinsAfterRenumbering writes the same rounds to two indexes of each
// backend, the second slowed by slow, and checks after each round that
// searches in mode give the same hits, scores and totals on both; how
// names the slow twin's way in failures.
func twinsAfterRenumbering(t *testing.T, slow func(*index.Index), mode index.Mode, how string) {
	opens := map[string]func(t *testing.T) *index.Index{
		"compact": func(t *testing.T) *index.Index {
			ix, err := index.OpenMemory(&index.Options{Backend: index.Compact})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { ix.Close() })
			return ix
		},
		"scorch": func(t *testing.T) *index.Index {
			ix, err := index.OpenMemory(&index.Options{Backend: index.Scorch})
			if errors.Is(err, index.ErrBackend) {
				t.Skip("the js/wasm build has compact only")
			}
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { ix.Close() })
			return ix
		},
	}
	if openDisk != nil {
		opens["disk"] = func(t *testing.T) *index.Index { return openDisk(t, nil) }
	}
	for name, open := range opens {
		t.Run(name, func(t *testing.T) {
			held, read := open(t), open(t)
			slow(read)
			add := func(prefix string, n int) {
				var docs []index.Doc
				for i := range n {
					id := fmt.Sprintf("%s%03d", prefix, i)
					docs = append(docs, index.Doc{ID: id, Title: id, Body: "common word " + strings.Repeat("filler ", i%17) + id})
				}
				for len(docs) > 0 { // several segments
					k := min(len(docs), 40)
					mustUpsert(t, held, docs[:k]...)
					mustUpsert(t, read, docs[:k]...)
					docs = docs[k:]
				}
			}
			check := func(when string) {
				t.Helper()
				for _, q := range []string{"common", "co", "word a0", "fill"} {
					for _, limit := range []int{index.MaxLimit, 5} {
						for range 3 { // the later searches read what the first kept
							req := index.Request{Query: q, Mode: mode, Limit: limit}
							a, b := search(t, held, req), search(t, read, req)
							if a.Total != b.Total || len(a.Hits) != len(b.Hits) {
								t.Fatalf("%s, %q: %d hits, %d %s", when, q, a.Total, b.Total, how)
							}
							for i := range a.Hits {
								if a.Hits[i].ID != b.Hits[i].ID || a.Hits[i].Score != b.Hits[i].Score {
									t.Fatalf("%s, %q: hit %d is %s %v, %s %s %v", when, q, i, a.Hits[i].ID, a.Hits[i].Score, how, b.Hits[i].ID, b.Hits[i].Score)
								}
							}
						}
					}
				}
			}
			add("a", 120)
			check("first load")
			var gone []string
			for i := 0; i < 120; i += 2 {
				gone = append(gone, fmt.Sprintf("a%03d", i))
			}
			for _, ix := range []*index.Index{held, read} {
				if _, err := ix.Remove(ctx, gone...); err != nil {
					t.Fatal(err)
				}
			}
			check("after removals")
			add("b", 90)
			check("after new documents")
			for _, ix := range []*index.Index{held, read} {
				if err := ix.Optimize(ctx); err != nil {
					t.Fatal(err)
				}
			}
			check("after Optimize")
		})
	}
}
