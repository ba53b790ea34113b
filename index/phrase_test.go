package index_test

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/twindex/twindex/index"
)

// TestExactRunsAgreeWithPositions checks that a quoted phrase found by
// its text as written (record.Folded.HasRun) gives the hits, order and scores that
// judging every document by its words' positions gives: case that splits
// words (readFile), words inside longer ones (overall), connectors
// (x_all, all-rights), stems (all right), accents and stop words.
func TestExactRunsAgreeWithPositions(t *testing.T) {
	bodies := []string{
		"All rights reserved.", "all rights reserved", "ALL RIGHTS", "overall rights", "x_all rights",
		"all-rights here", "all rightsizing", "overall rights, all good", "the source codes or source", "all right then", "(all rights)", "Copyright: all rights.",
		"ReadFile now", "readfile now", "readFile now", "Readfile Now", "XMLParser now", "xmlparser now",
		"the source code", "Source Code", "sourceCode", "source.code", "it can be found here",
		"Can Be Found", "naïve approach", "Naive approach", "all\nrights", "all  rights",
	}
	queries := []string{
		`"all rights"`, `"All Rights"`, `"ALL rights"`, `"rights reserved"`, `"all right"`,
		`"readfile now"`, `"ReadFile now"`, `"readFile now"`, `"xmlparser now"`, `"XMLParser now"`,
		`"source code"`, `"Source code"`, `"can be found"`, `"naive approach"`, `"all  rights"`,
		`"code" "source"`, `x "all rights"`,
	}
	for _, backend := range []index.Backend{index.Compact, index.UpsideDown, index.Scorch} {
		open := func(analyze bool) *index.Index {
			ix, err := index.OpenMemory(&index.Options{Backend: backend})
			if errors.Is(err, index.ErrBackend) {
				return nil // the js/wasm build has compact only
			}
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { ix.Close() })
			if analyze {
				index.AnalyzeRuns(ix)
			}
			for i, b := range bodies {
				mustUpsert(t, ix, index.Doc{ID: fmt.Sprint(i), Title: fmt.Sprintf("doc %d", i), Body: b})
			}
			return ix
		}
		fast, slow := open(false), open(true)
		if fast == nil {
			continue
		}
		for _, q := range queries {
			for _, mode := range []index.Mode{index.ModeText, index.ModeAuto} {
				req := index.Request{Query: q, Mode: mode, Limit: 100}
				a, b := search(t, fast, req), search(t, slow, req)
				if a.Total != b.Total || !slices.Equal(ids(a), ids(b)) {
					t.Errorf("%s %s %q: %d %v, by positions %d %v", backend, mode, q, a.Total, ids(a), b.Total, ids(b))
					continue
				}
				for i := range a.Hits {
					if a.Hits[i].Score != b.Hits[i].Score {
						t.Errorf("%s %s %q: hit %s scores %v, by positions %v", backend, mode, q, a.Hits[i].ID, a.Hits[i].Score, b.Hits[i].Score)
					}
				}
			}
		}
	}
}
