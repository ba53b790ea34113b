package rank_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/twindex/twindex/fusion"
	"github.com/twindex/twindex/index/internal/rank"
	"github.com/twindex/twindex/index/internal/slots"
)

// externalIDs is an index reader that only resolves internal IDs.
type externalIDs struct {
	bleveindex.IndexReader
	m map[string]string
}

func (r externalIDs) ExternalID(iid bleveindex.IndexInternalID) (string, error) {
	return r.m[string(iid)], nil
}

// newList returns a list of hits scored scores, whose internal IDs are
// "i0", "i1", ... and external IDs ext.
func newList(scores []float64, ext []string) rank.List {
	table := slots.New(len(scores))
	r := externalIDs{m: map[string]string{}}
	hits := make([]rank.Hit, len(scores))
	for i, s := range scores {
		iid := fmt.Sprintf("i%d", i)
		hits[i] = rank.Hit{Score: s, Slot: table.Add([]byte(iid))}
		r.m[iid] = ext[i]
	}
	table.Freeze()
	return rank.NewList(r, table, hits)
}

func ids(l *rank.List) []string {
	var out []string
	for i := range l.Hits {
		id, _ := l.Resolve(i)
		out = append(out, id)
	}
	return out
}

func TestList(t *testing.T) {
	scores := []float64{1, 3, 3, 2, 3}
	ext := []string{"e", "d", "b", "a", "c"}
	tests := []struct {
		name  string
		top   int // 0: Sort
		want  []string
		count int
	}{
		{"sort", 0, []string{"b", "c", "d", "a", "e"}, 5},
		{"top ties", 2, []string{"b", "c"}, 5},
		{"top past ties", 4, []string{"b", "c", "d", "a"}, 5},
		{"top all", 9, []string{"b", "c", "d", "a", "e"}, 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := newList(scores, ext)
			var err error
			if tt.top == 0 {
				err = l.Sort()
			} else {
				err = l.Top(tt.top)
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := ids(&l); !slices.Equal(got, tt.want) {
				t.Errorf("hits %v, want %v", got, tt.want)
			}
			if l.Count() != tt.count {
				t.Errorf("Count %d, want %d", l.Count(), tt.count)
			}
		})
	}
}

func TestListBestRanksIndex(t *testing.T) {
	l := newList([]float64{1, 3, 3, 2, 3}, []string{"e", "d", "b", "a", "c"})
	if got, want := l.Best(2), []int{1, 2, 4}; !slices.Equal(got, want) {
		t.Errorf("Best(2) %v, want %v", got, want)
	}
	if got := l.Best(0); got != nil {
		t.Errorf("Best(0) %v, want nil", got)
	}
	for _, c := range []struct {
		n    int
		skip []bool
		want []int
	}{
		{2, []bool{false, false, true, false, false}, []int{1, 4}},
		{2, []bool{false, true, true, false, false}, []int{3, 4}},
		{1, []bool{false, false, false, false, false}, []int{1, 2, 4}},
		{9, []bool{true, false, true, false, true}, []int{1, 3}},
		{0, []bool{false, false, false, false, false}, nil},
	} {
		if got := l.BestExcept(c.n, c.skip); !slices.Equal(got, c.want) {
			t.Errorf("BestExcept(%d, %v) %v, want %v", c.n, c.skip, got, c.want)
		}
	}
	ranks := map[float64]int{4: 1, 3: 1, 2: 4, 1.5: 5, 1: 5, 0: 6}
	for _, lookups := range []int{1, 100} {
		rank := l.Ranker(lookups)
		for score, want := range ranks {
			if got := rank(score); got != want {
				t.Errorf("Ranker(%d)(%v) = %d, want %d", lookups, score, got, want)
			}
		}
	}
	var scores []float64
	var want []int
	for score, r := range ranks {
		scores, want = append(scores, score, score), append(want, r, r)
	}
	if got := l.RanksOf(scores); !slices.Equal(got, want) {
		t.Errorf("RanksOf(%v) = %v, want %v", scores, got, want)
	}
	if err := l.Sort(); err != nil {
		t.Fatal(err)
	}
	for iid, want := range map[string]int{"i2": 0, "i0": 4} {
		if p, ok := l.Index([]byte(iid)); !ok || p != want {
			t.Errorf("Index(%s) = %d, %v, want %d", iid, p, ok, want)
		}
	}
	if _, ok := l.Index([]byte("none")); ok {
		t.Error("Index of an unknown ID")
	}
	var empty rank.List
	if _, ok := empty.Index([]byte("i0")); ok || empty.Count() != 0 {
		t.Error("the zero List is not empty")
	}
}

func TestTally(t *testing.T) {
	fields := [rank.NumFields]rank.Field{
		rank.Title:   {Name: "title", Column: 0, Weight: 2},
		rank.Body:    {Name: "body", Column: 1, Weight: 1},
		rank.Boiler:  {Name: "boiler", Column: 1, Weight: 0.5},
		rank.Symbols: {Name: "symbols", Column: 1, Weight: 3},
	}
	terms := []rank.Term{
		{Weight: 1, Positive: true, Leaves: 1, Part: -1},
		{Weight: 1, Positive: true, Tolerant: true, Leaves: 2, Part: -1},
		{Weight: 1, Leaves: 4, Part: -1}, // under a NOT
	}
	table := slots.New(2)
	tl := rank.New(&rank.Config{Terms: terms, Fields: fields, Avg: [2]float64{4, 100}, Slots: table, Hint: 2, Split: true})
	a, b := tl.Add([]byte("a")), tl.Add([]byte("b"))
	// Norm is 1/sqrt(length): a's title is 4 tokens, its body 25.
	tl.Record(a, 0, rank.Title, &bleveindex.TermFieldDoc{Freq: 1, Norm: 0.5})
	tl.Record(a, 0, rank.Body, &bleveindex.TermFieldDoc{Freq: 3, Norm: 0.2})
	tl.Record(a, 0, rank.Symbols, &bleveindex.TermFieldDoc{Freq: 1})
	tl.Record(b, 1, rank.Body, &bleveindex.TermFieldDoc{Freq: 2, Norm: 0.1})
	tl.Record(b, 2, rank.Title, &bleveindex.TermFieldDoc{Freq: 1, Norm: 1})
	idfs := []float64{rank.IDF(10, 1), rank.IDF(10, 1), rank.IDF(10, 1)}
	tl.Score(idfs)

	near := func(x, y float64) bool { return math.Abs(x-y) < 1e-9 }
	docs := tl.Docs()
	// a: title and body saturate once against 29 tokens; the
	// declaration adds apart.
	wantA := idfs[0]*rank.BM25(2*1+1*3, 29, 104) + idfs[0]*3*1*2.2/(1+1.2)
	if d := docs[a]; !near(d.Score, wantA) || !near(d.Exact, wantA) || !d.Declares || d.Leaves != 1 || d.ExactLeaves != 1 {
		t.Errorf("a: %+v, want score and exact %v, declaring leaf 1", d, wantA)
	}
	// b: its title's length is its own (1), the term under a NOT does
	// not score, the tolerant term is not exact.
	wantB := idfs[1] * rank.BM25(2, 101, 104)
	if d := docs[b]; !near(d.Score, wantB) || d.Exact != 0 || d.Declares || d.Leaves != 6 || d.ExactLeaves != 4 {
		t.Errorf("b: %+v, want score %v, exact 0, leaves 6, exact leaves 4", d, wantB)
	}
	if got := []float64{tl.Matches(0), tl.Matches(1), tl.Matches(2)}; !slices.Equal(got, []float64{1, 1, 1}) {
		t.Errorf("Matches %v, want [1 1 1]", got)
	}
	if got, want := tl.Present(int(b)), []uint64{4, 2}; !slices.Equal(got, want) {
		t.Errorf("Present(b) %v, want %v", got, want)
	}
	split := tl.FieldScores([]byte("a"), 10)
	sum := 0.0
	for _, x := range split {
		sum += x
	}
	if len(split) != 3 || !near(sum, 10) || split["title"] <= 0 || split["symbols"] <= 0 {
		t.Errorf("FieldScores(a) %v, want title, body and symbols summing to 10", split)
	}
	if tl.FieldScores([]byte("none"), 10) != nil {
		t.Error("FieldScores of an unseen document")
	}
}

func TestTallyPart(t *testing.T) {
	fields := [rank.NumFields]rank.Field{rank.Body: {Name: "body", Column: 1, Weight: 1}}
	terms := []rank.Term{
		{Weight: 1, Positive: true, Leaves: 1, Part: -1}, // readfile
		{Weight: 1, Positive: true, Leaves: 1, Part: 0},  // read, a part of it
	}
	tl := rank.New(&rank.Config{Terms: terms, Fields: fields, Avg: [2]float64{0, 10}, PartWeight: 0.5, Slots: slots.New(2)})
	whole, part := tl.Add([]byte("whole")), tl.Add([]byte("part"))
	tl.Record(whole, 0, rank.Body, &bleveindex.TermFieldDoc{Freq: 1, Norm: 1})
	tl.Record(whole, 1, rank.Body, &bleveindex.TermFieldDoc{Freq: 1, Norm: 1})
	tl.Record(part, 1, rank.Body, &bleveindex.TermFieldDoc{Freq: 1, Norm: 1})
	tl.Score([]float64{1, 1})
	one := rank.BM25(1, 1, 10)
	if got := tl.Docs()[part].Score; math.Abs(got-0.5*one) > 1e-9 {
		t.Errorf("part alone scores %v, want %v", got, 0.5*one)
	}
	if got := tl.Docs()[whole].Score; math.Abs(got-2*one) > 1e-9 {
		t.Errorf("whole scores %v, want %v", got, 2*one)
	}
}

func ExampleBM25() {
	// A term twice in a document of average length, held by 10 of 1000
	// documents.
	fmt.Printf("%.3f\n", rank.IDF(1000, 10)*rank.BM25(2, 100, 100))
	// Output: 6.266
}

func TestSortScored(t *testing.T) {
	l := []rank.Scored{{ID: "b", Score: 1}, {ID: "c", Score: 2}, {ID: "a", Score: 1}, {ID: "d", Score: 0.5}}
	rank.SortScored(l)
	var got []string
	for _, s := range l {
		got = append(got, s.ID)
	}
	if want := []string{"c", "a", "b", "d"}; !slices.Equal(got, want) {
		t.Errorf("SortScored: %v, want %v (by score, ties by ID)", got, want)
	}
}

// TestTopScoredRanks checks that TopScored leaves the first n as a full
// sort does and Ranks gives fusion.Ranks' ranks of the sorted list to
// documents in any order, on named cases and on random lists with many
// ties.
func TestTopScoredRanks(t *testing.T) {
	type tc struct {
		name   string
		scores []float64
		n      int
	}
	cases := []tc{
		{"empty", nil, 3},
		{"none wanted", []float64{1, 2}, 0},
		{"more wanted than matches", []float64{1, 3, 2}, 5},
		{"as many as matches", []float64{1, 3, 2}, 3},
		{"ties across the cut", []float64{1, 2, 2, 2, 3}, 2},
		{"ties ending at the cut", []float64{2, 2, 1, 3}, 3},
		{"all tied", []float64{1, 1, 1, 1}, 2},
		{"zeros", []float64{0, 0, 1, 0}, 2},
	}
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 300 {
		l := r.IntN(60)
		scores := make([]float64, l)
		for j := range scores {
			scores[j] = float64(r.IntN(1+i%12)) / 3 // few distinct scores: many ties
		}
		cases = append(cases, tc{fmt.Sprint("random ", i), scores, r.IntN(l + 3)})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// IDs in no relation to the order given, to break ties by.
			perm := rand.New(rand.NewPCG(uint64(len(c.scores)), 3)).Perm(len(c.scores))
			l := make([]rank.Scored, len(c.scores))
			for i, sc := range c.scores {
				l[i] = rank.Scored{ID: fmt.Sprintf("d%02d", perm[i]), Score: sc}
			}
			want := slices.Clone(l)
			rank.SortScored(want)
			wantScores := make([]float64, len(want))
			for i, x := range want {
				wantScores[i] = x.Score
			}
			wantRank := map[string]int{}
			for i, r := range fusion.Ranks(wantScores) {
				wantRank[want[i].ID] = r
			}

			// Ranks of all documents, and of some, in no order.
			some := l[:len(l)/3]
			for _, of := range [][]rank.Scored{l, some} {
				scores := make([]float64, len(of))
				for i, x := range of {
					scores[i] = x.Score
				}
				for i, got := range rank.Ranks(l, scores) {
					if x := of[i]; got != wantRank[x.ID] {
						t.Errorf("Ranks of %d: %s (score %g) has rank %d, want %d", len(of), x.ID, x.Score, got, wantRank[x.ID])
					}
				}
			}

			got := slices.Clone(l)
			m := rank.TopScored(got, c.n)
			n := min(max(c.n, 0), len(l))
			if m < n || !slices.Equal(got[:m], want[:m]) {
				t.Errorf("TopScored(%d) = %d, first %v, want at least %d as %v", c.n, m, got[:m], n, want)
			}
			for _, x := range got[m:] {
				if m > 0 && x.Score >= got[m-1].Score {
					t.Errorf("TopScored(%d) = %d left %v after %v", c.n, m, x, got[m-1])
				}
			}
			rest := slices.Clone(got)
			rank.SortScored(rest)
			if !slices.Equal(rest, want) {
				t.Errorf("TopScored(%d) lost or changed documents: %v", c.n, got)
			}
		})
	}
}

// The two ways Ranker answers, counting and binary search, give the same
// ranks, ties included, for scores in the list and between them.
func TestRankerWays(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	for range 50 {
		n := 1 + r.IntN(300)
		scores, ext := make([]float64, n), make([]string, n)
		for i := range scores {
			scores[i] = float64(r.IntN(40)) / 4 // many ties
			ext[i] = fmt.Sprint(i)
		}
		l := newList(scores, ext)
		count, search := l.Ranker(1), l.Ranker(1000)
		for _, s := range append(scores, -1, 0.1, 5.05, 11, math.Inf(1)) {
			if a, b := count(s), search(s); a != b {
				t.Fatalf("rank of %v among %v: %d counting, %d searching", s, scores, a, b)
			}
		}
	}
}

// BenchmarkRanker ranks a list of 3,000 scores, as a keystroke's fusion
// does for a broad prefix: the sort, and a lookup per score.
func BenchmarkRanker(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	scores, ext := make([]float64, 3000), make([]string, 3000)
	for i := range scores {
		scores[i] = r.Float64() * 10
		ext[i] = fmt.Sprint(i)
	}
	l := newList(scores, ext)
	for b.Loop() {
		rank := l.Ranker(len(scores))
		for _, s := range scores {
			rank(s)
		}
	}
}

// BenchmarkRanks ranks 100 scores from below the best 80 among 12,000, as
// fusing a two-character query in auto mode on the yardstick's corpus
// does for the matches of both legs outside the substring leg's best.
func BenchmarkRanks(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	l := make([]rank.Scored, 12000)
	for i := range l {
		l[i] = rank.Scored{ID: fmt.Sprint(i), Score: r.Float64() * 10}
	}
	m := rank.TopScored(l, 80)
	some := make([]float64, 100)
	for i := range some {
		some[i] = l[m+r.IntN(len(l)-m)].Score
	}
	for b.Loop() {
		rank.Ranks(l, some)
	}
}
