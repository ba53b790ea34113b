//go:build !js && !wasip1

package backend

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/twindex/twindex/index/internal/document"
)

// Holding gives exactly the live documents that hold, in one of the
// conjunctions, a term of each unit: on scorch and on compact, over
// several batches' segments with updates and deletions, against a model
// of the documents written.
func TestHolding(t *testing.T) {
	vocab := []string{"a", "b", "c", "d", "e", "f"}
	conjs := [][]Conjunction{
		{{{{"x", "a"}}, {{"x", "b"}}}},                               // a and b in x
		{{{{"x", "a"}, {"x", "c"}}, {{"x", "d"}}}},                   // (a or c) and d in x
		{{{{"x", "a"}}, {{"x", "e"}}}, {{{"y", "a"}}, {{"y", "e"}}}}, // a and e in x, or in y
		{{{{"x", "a"}}, {{"y", "b"}}, {{"x", "f"}}}},                 // across fields
		{{{{"x", "nowhere"}}, {{"x", "a"}}}},                         // a term no document holds
		{{{{"z", "a"}}, {{"x", "a"}}}},                               // a field no document has
	}
	for _, kind := range []string{Scorch, Compact} {
		t.Run(kind, func(t *testing.T) {
			q := bleveindex.NewAnalysisQueue(1)
			t.Cleanup(q.Close)
			idx, err := Open(kind, "", q, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer idx.Close()
			rng := rand.New(rand.NewPCG(7, 7))
			live := map[string]map[string][]string{} // ID -> field -> terms
			field := func(name string, terms []string) bleveindex.Field {
				tfs := bleveindex.TokenFrequencies{}
				for _, term := range terms {
					tf := &bleveindex.TokenFreq{Term: []byte(term)}
					tf.SetFrequency(1)
					tfs[term] = tf
				}
				return document.Preanalyzed(name, nil, tfs, len(terms))
			}
			for batch := range 4 {
				b := bleveindex.NewBatch()
				for range 30 {
					id := fmt.Sprintf("d%02d", rng.IntN(60)) // some updated
					doc := map[string][]string{}
					var fields []bleveindex.Field
					for _, f := range []string{"x", "y"} {
						var terms []string
						for _, v := range vocab {
							if rng.IntN(3) == 0 {
								terms = append(terms, v)
							}
						}
						doc[f] = terms
						fields = append(fields, field(f, terms))
					}
					live[id] = doc
					b.Update(document.New(id, fields...))
				}
				for range 5 * batch {
					id := fmt.Sprintf("d%02d", rng.IntN(60))
					if _, ok := live[id]; ok {
						delete(live, id)
						b.Delete(id)
					}
				}
				if err := idx.Batch(b); err != nil {
					t.Fatal(err)
				}
			}
			r := reader(t, idx)
			for i, cs := range conjs {
				var want []string
				for id, doc := range live {
					if slices.ContainsFunc(cs, func(c Conjunction) bool {
						for _, unit := range c {
							if !slices.ContainsFunc(unit, func(ft FieldTerm) bool { return slices.Contains(doc[ft.Field], ft.Term) }) {
								return false
							}
						}
						return true
					}) {
						want = append(want, id)
					}
				}
				nums, ok, err := Holding(r, cs)
				if !ok || err != nil {
					t.Fatalf("conjunctions %d: Holding %v, %v", i, ok, err)
				}
				if !slices.IsSorted(nums) {
					t.Errorf("conjunctions %d: doc numbers out of order: %v", i, nums)
				}
				var got []string
				iid := make(bleveindex.IndexInternalID, 8)
				for _, n := range nums {
					binary.BigEndian.PutUint64(iid, n)
					id, err := r.ExternalID(iid)
					if err != nil {
						t.Fatal(err)
					}
					got = append(got, id)
				}
				slices.Sort(got)
				slices.Sort(want)
				if !slices.Equal(got, want) {
					t.Errorf("conjunctions %d: holders %v, want %v", i, got, want)
				}
				if i == 0 && len(want) < 3 {
					t.Fatalf("only %d holders of a and b: a test of little", len(want))
				}
			}
		})
	}
}
