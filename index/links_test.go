package index_test

import (
	"errors"
	"math"
	"reflect"
	"testing"

	"github.com/twindex/twindex/index"
)

func TestBacklinksFollowWrites(t *testing.T) {
	backends(t, func(t *testing.T, ix *index.Index) {
		mustUpsert(t, ix,
			index.Doc{ID: "main.go", Links: []index.Link{{To: "util.go", Type: "imports"}, {To: "later.go", Type: "imports"}}},
			index.Doc{ID: "doc.md", Links: []index.Link{{To: "util.go", Type: "mentions"}}},
			index.Doc{ID: "util.go"},
		)
		check := func(id string, types []string, want []index.Backlink) {
			t.Helper()
			got, err := ix.Backlinks(id, types...)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("backlinks of %s %v: got %v, want %v", id, types, got, want)
			}
		}
		check("util.go", nil, []index.Backlink{{From: "doc.md", Type: "mentions"}, {From: "main.go", Type: "imports"}})
		check("util.go", []string{"imports"}, []index.Backlink{{From: "main.go", Type: "imports"}})
		// A link to a document not written yet is kept, and found.
		check("later.go", nil, []index.Backlink{{From: "main.go", Type: "imports"}})

		// An update replaces the document's links; a remove drops them.
		mustUpsert(t, ix, index.Doc{ID: "main.go", Links: []index.Link{{To: "later.go", Type: "depends_on"}}})
		check("util.go", nil, []index.Backlink{{From: "doc.md", Type: "mentions"}})
		check("later.go", nil, []index.Backlink{{From: "main.go", Type: "depends_on"}})
		if _, err := ix.Remove(ctx, "doc.md"); err != nil {
			t.Fatal(err)
		}
		check("util.go", nil, nil)
		links, err := ix.Links("main.go")
		if err != nil || !reflect.DeepEqual(links, []index.Link{{To: "later.go", Type: "depends_on"}}) {
			t.Errorf("links: %v %v", links, err)
		}
		if _, err := ix.Links("nope"); !errors.Is(err, index.ErrNotFound) {
			t.Errorf("links of a missing doc: %v", err)
		}
	})
}

func TestLinkAndVectorValidation(t *testing.T) {
	ix, err := index.OpenMemory(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	for name, d := range map[string]index.Doc{
		"empty target":  {ID: "a", Links: []index.Link{{To: ""}}},
		"NUL in target": {ID: "a", Links: []index.Link{{To: "x\x00y"}}},
		"NUL in type":   {ID: "a", Links: []index.Link{{To: "x", Type: "t\x00"}}},
		"NaN in vector": {ID: "a", Vector: []float32{1, float32(math.NaN())}},
	} {
		if err := ix.Upsert(ctx, d); !errors.Is(err, index.ErrInvalidDoc) {
			t.Errorf("%s: %v", name, err)
		}
	}
	mustUpsert(t, ix, index.Doc{ID: "v1", Vector: []float32{1, 0, 0}})
	err = ix.Upsert(ctx, index.Doc{ID: "v2", Vector: []float32{1, 0}})
	if !errors.Is(err, index.ErrInvalidDoc) {
		t.Fatalf("a vector of another dimension: %v", err)
	}
	if _, err := ix.Get("v2"); !errors.Is(err, index.ErrNotFound) {
		t.Fatalf("the refused batch was stored: %v", err)
	}
	mustUpsert(t, ix, index.Doc{ID: "v3", Vector: []float32{0, 1, 0}})
	d, err := ix.Get("v3")
	if err != nil || !reflect.DeepEqual(d.Vector, []float32{0, 1, 0}) {
		t.Fatalf("vector round trip: %v %v", d, err)
	}
}
