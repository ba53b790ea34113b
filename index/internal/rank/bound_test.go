package rank

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/twindex/twindex/index/internal/slots"
)

// lowerBound agrees with slices.BinarySearch on sorted scores with ties,
// for scores in them, between them and outside them, at every length
// from 0.
func TestLowerBound(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	for n := range 70 {
		asc := make([]float64, n)
		for i := range asc {
			asc[i] = float64(r.IntN(20)) / 2
		}
		slices.Sort(asc)
		for x := -1.0; x <= 11; x += 0.25 {
			want, _ := slices.BinarySearch(asc, x)
			if got := lowerBound(asc, x); got != want {
				t.Fatalf("lowerBound(%v, %v) = %d, want %d", asc, x, got, want)
			}
		}
	}
}

// Bound holds for every share a term adds to a document, words and
// declarations apart, in documents with and without the whole identifier
// of a part, at any frequencies and lengths; and it is nearly reached,
// so that it prunes.
func TestBound(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 13))
	fields := [NumFields]Field{
		Title:   {Name: "title", Column: 0, Weight: 5},
		Body:    {Name: "body", Column: 1, Weight: 1},
		Boiler:  {Name: "boiler", Column: 1, Weight: 0.1},
		Symbols: {Name: "symbols", Column: 1, Weight: 6},
	}
	terms := []Term{
		{Weight: 1, Positive: true, Leaves: 1, Part: -1}, // readfile
		{Weight: 1, Positive: true, Leaves: 1, Part: 0},  // read
		{Weight: 0.7, Positive: true, Leaves: 2, Part: -1},
		{Weight: 2, Positive: true, Leaves: 4, Part: -1},
	}
	idfs := []float64{3.1, 0.4, 1.7, 0.05}
	tl := New(&Config{Terms: terms, Fields: fields, Avg: [2]float64{4, 300}, PartWeight: 0.5, Slots: slots.New(64), Split: true})
	var docs []int32
	for i := range 3000 {
		k := tl.Add([]byte{byte(i), byte(i >> 8)})
		docs = append(docs, k)
		for ti := range terms {
			for f := range NumFields {
				if r.IntN(3) > 0 {
					continue
				}
				freq := uint64(1 + r.IntN(5))
				if r.IntN(10) == 0 {
					freq = uint64(1 + r.IntN(1e6))
				}
				// Norm is 1/sqrt(length); lengths from 1 to 100,000.
				length := 1 + r.IntN(100_000)
				if r.IntN(4) == 0 {
					length = 1 + r.IntN(3)
				}
				tl.Record(k, ti, f, &bleveindex.TermFieldDoc{Freq: freq, Norm: 1 / math.Sqrt(float64(length))})
			}
		}
	}
	tl.Score(idfs)
	most := [2]float64{}
	for _, k := range docs {
		dl := tl.length(int(k))
		for ti, qt := range terms {
			var split [NumFields]float64
			share := tl.term(int(k), ti, dl, &split)
			whole := qt.Part >= 0 && tl.has(int(k), qt.Part)
			words, decls := share-split[Symbols], split[Symbols]
			wb, db := tl.Bound(ti, idfs[ti], false, whole), tl.Bound(ti, idfs[ti], true, whole)
			if words > wb || decls > db {
				t.Fatalf("doc %d term %d: words %v decls %v, bounds %v and %v", k, ti, words, decls, wb, db)
			}
			most[0] = max(most[0], words/wb)
			if db > 0 {
				most[1] = max(most[1], decls/db)
			}
		}
	}
	if most[0] < 0.95 || most[1] < 0.95 {
		t.Errorf("the shares reach %.3f and %.3f of their bounds: the bounds are loose, or the test's documents tame", most[0], most[1])
	}
}
