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

// liveIndex opens an index of kind in memory and writes four batches of
// random documents to it, updating and deleting some, each holding a
// random few of the terms a to f in fields x and y; it returns a reader
// of it and the live documents' terms (ID -> field -> terms).
func liveIndex(t *testing.T, kind string) (bleveindex.IndexReader, map[string]map[string][]string) {
	t.Helper()
	idx := openMemory(t, kind)
	vocab := []string{"a", "b", "c", "d", "e", "f"}
	rng := rand.New(rand.NewPCG(7, 7))
	live := map[string]map[string][]string{}
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
	return reader(t, idx), live
}

// holds reports whether a document (field -> terms) holds a field term.
func holds(doc map[string][]string, ft FieldTerm) bool {
	return slices.Contains(doc[ft.Field], ft.Term)
}

// UnionCounts counts the live documents holding some term of each set
// that is Alone, and of the sets that count in the Total, on scorch and
// on compact, against a model of the documents written.
func TestUnionCounts(t *testing.T) {
	sets := []Union{
		{Terms: []FieldTerm{{"x", "a"}}, Alone: true, Total: true},
		{Terms: []FieldTerm{{"x", "b"}, {"y", "c"}}, Alone: true, Total: true},
		{Terms: []FieldTerm{{"y", "d"}}, Total: true},                                // in the total only
		{Terms: []FieldTerm{{"x", "e"}, {"y", "e"}}, Alone: true},                    // apart only
		{Terms: []FieldTerm{{"x", "f"}}},                                             // neither
		{Terms: []FieldTerm{{"x", "nowhere"}, {"z", "a"}}, Alone: true, Total: true}, // held by none
	}
	for _, kind := range []string{Scorch, Compact} {
		t.Run(kind, func(t *testing.T) {
			r, live := liveIndex(t, kind)
			wantEach := make([]uint64, len(sets))
			var wantUnion uint64
			for _, doc := range live {
				inTotal := false
				for i, set := range sets {
					if slices.ContainsFunc(set.Terms, func(ft FieldTerm) bool { return holds(doc, ft) }) {
						if set.Alone {
							wantEach[i]++
						}
						inTotal = inTotal || set.Total
					}
				}
				if inTotal {
					wantUnion++
				}
			}
			each, union, ok, err := UnionCounts(r, sets)
			if !ok || err != nil {
				t.Fatalf("UnionCounts: %v, %v", ok, err)
			}
			if !slices.Equal(each, wantEach) || union != wantUnion {
				t.Errorf("UnionCounts: each %v, union %d; want %v, %d", each, union, wantEach, wantUnion)
			}
			if wantUnion == uint64(len(live)) || wantEach[0] < 3 {
				t.Fatalf("the sets hold %d of %d documents, a alone %d: a test of little", wantUnion, len(live), wantEach[0])
			}
		})
	}
}

// Holding gives exactly the live documents that hold, in one of the
// conjunctions, a term of each unit, in order: on scorch and on compact,
// against a model of the documents written.
func TestHolding(t *testing.T) {
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
			r, live := liveIndex(t, kind)
			for i, cs := range conjs {
				var want []string
				for id, doc := range live {
					if slices.ContainsFunc(cs, func(c Conjunction) bool {
						for _, unit := range c {
							if !slices.ContainsFunc(unit, func(ft FieldTerm) bool { return holds(doc, ft) }) {
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
