package rank

import (
	"cmp"
	"slices"
	"strings"

	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/twindex/twindex/index/internal/slots"
)

// List is a pass's ranking. Matches are kept by bleve internal ID;
// external IDs are resolved only where needed (the page shown, a tie, a
// filter), since a broad query matches thousands of documents and the
// lookup is the costliest step per match. The zero List is empty.
type List struct {
	// Hits are as NewList got them until Sort or Top order them by score
	// descending, ties by external ID.
	Hits  []Hit
	r     Resolver
	total int // matches, when Top dropped hits or they were not all scored; else 0
	// slot maps internal IDs to slots, shared by the lists of one pass;
	// byAcc maps slots to indexes in Hits, built on first use by Index.
	slot  *slots.Table
	byAcc []int32
}

// Resolver turns the internal IDs of a pass's reader into external IDs.
type Resolver interface {
	ExternalID(bleveindex.IndexInternalID) (string, error)
}

// Hit is one match of a List.
type Hit struct {
	ID     string // external ID, "" until resolved
	Score  float64
	Slot   int32 // the document's slot in the pass's table
	Approx bool  // the tolerant pass matched some word of it only approximately
}

// NewList returns the list of hits, whose slots are those of the frozen
// table slot and whose external IDs r resolves.
func NewList(r Resolver, slot *slots.Table, hits []Hit) List {
	return List{Hits: hits, r: r, slot: slot}
}

// NewCounted is NewList of the hits of total matches, where the hits
// hold every match that can be among the first n of any Top or Best the
// caller asks for, and the others were not scored.
func NewCounted(r Resolver, slot *slots.Table, hits []Hit, total int) List {
	return List{Hits: hits, r: r, slot: slot, total: total}
}

// Resolve returns the external ID of hit i. Cost: a lookup in the index
// the first time.
func (l *List) Resolve(i int) (string, error) {
	h := &l.Hits[i]
	if h.ID == "" {
		id, err := l.r.ExternalID(bleveindex.IndexInternalID(l.slot.ID(h.Slot)))
		if err != nil {
			return "", err
		}
		h.ID = id
	}
	return h.ID, nil
}

// byScore orders hits by score, best first, then by slot; ties are
// settled by external ID afterwards (settleTies).
func byScore(a, b Hit) int {
	switch {
	case a.Score > b.Score:
		return -1
	case a.Score < b.Score:
		return 1
	}
	return cmp.Compare(a.Slot, b.Slot)
}

// Sort orders all hits by score and breaks ties by external ID, resolving
// only the IDs of tied hits. Cost: O(len · log len).
func (l *List) Sort() error {
	slices.SortFunc(l.Hits, byScore)
	return l.settleTies(len(l.Hits))
}

// Top orders only the first n hits (by score, ties by external ID) and
// drops the rest from l.Hits, keeping their number for Count:
// O(len · log n).
func (l *List) Top(n int) error {
	if n >= len(l.Hits) {
		return l.Sort()
	}
	// Hits tied with the n-th may belong before it once ties are broken
	// by external ID: keep every hit scoring at least as well.
	best := l.Best(n)
	kept := make([]Hit, len(best))
	for i, p := range best {
		kept[i] = l.Hits[p]
	}
	l.total = l.Count()
	l.Hits = kept
	if err := l.settleTies(len(kept)); err != nil {
		return err
	}
	l.Hits = l.Hits[:n]
	return nil
}

// NthBest returns the n-th best score (n >= 1), or the lowest when there
// are fewer hits: O(len · log n).
func (l *List) NthBest(n int) float64 {
	h := make(bestHeap, 0, n)
	for _, x := range l.Hits {
		if h.wants(x.Score, n) {
			h.add(x.Score, n)
		}
	}
	return h.cutoff()
}

// Best returns the indexes of the n best hits and of every hit tied with
// the n-th, ordered by score (ties by slot), leaving l.Hits as it is.
// Cost: O(len · log n).
func (l *List) Best(n int) []int {
	if n <= 0 || len(l.Hits) == 0 {
		return nil
	}
	cut := l.NthBest(n)
	var out []int
	for i, x := range l.Hits {
		if x.Score >= cut {
			out = append(out, i)
		}
	}
	slices.SortFunc(out, func(a, b int) int { return byScore(l.Hits[a], l.Hits[b]) })
	return out
}

// BestExcept returns the indexes of the n best hits that skip (by index)
// does not mark, and of every other one tied with the n-th of them, in
// increasing order: O(len · log n).
func (l *List) BestExcept(n int, skip []bool) []int {
	if n <= 0 {
		return nil
	}
	h := make(bestHeap, 0, n)
	for i, x := range l.Hits {
		if !skip[i] && h.wants(x.Score, n) {
			h.add(x.Score, n)
		}
	}
	cut := h.cutoff()
	var out []int
	for i, x := range l.Hits {
		if !skip[i] && x.Score >= cut {
			out = append(out, i)
		}
	}
	return out
}

// RanksOf returns the rank each of scores has among the hits', as
// Ranker's function gives it, for many at once: O((len + len(scores)) ·
// log len(scores)).
func (l *List) RanksOf(scores []float64) []int {
	return ranksAmong(len(l.Hits), func(i int) float64 { return l.Hits[i].Score }, scores)
}

// Ranker returns the 1-based rank that a score of the list has (ties
// share the rank of the first of them), for about lookups calls: by
// counting higher scores when they are few (O(len) a call), else by
// binary search in the sorted scores (O(len · log len) once, O(log len)
// a call).
func (l *List) Ranker(lookups int) func(score float64) int {
	if lookups <= 16 {
		return func(score float64) int {
			r := 1
			for _, x := range l.Hits {
				if x.Score > score {
					r++
				}
			}
			return r
		}
	}
	// Ascending, by slices.Sort, and searched without a comparison
	// function (BenchmarkRanker).
	asc := l.Scores()
	slices.Sort(asc)
	return func(score float64) int {
		// The first position holding a score above it.
		i, j := 0, len(asc)
		for i < j {
			h := int(uint(i+j) >> 1)
			if cmp.Less(score, asc[h]) {
				j = h
			} else {
				i = h + 1
			}
		}
		return len(asc) - i + 1
	}
}

// settleTies sorts each run of equal scores among the first n hits by
// external ID.
func (l *List) settleTies(n int) error {
	for i := 0; i < n; {
		j := i + 1
		for j < len(l.Hits) && l.Hits[j].Score == l.Hits[i].Score {
			j++
		}
		if j-i > 1 {
			for k := i; k < j; k++ {
				if _, err := l.Resolve(k); err != nil {
					return err
				}
			}
			slices.SortFunc(l.Hits[i:j], func(a, b Hit) int { return strings.Compare(a.ID, b.ID) })
		}
		i = j
	}
	return nil
}

// Index returns the index in l.Hits of the document with internal ID
// iid, or false. It reuses the pass's table of slots instead of building
// a map per search. Cost: O(1), after O(len) on first use.
func (l *List) Index(iid []byte) (int, bool) {
	if l.slot == nil {
		return 0, false // no term to match
	}
	k, ok := l.slot.Get(iid)
	if !ok {
		return 0, false
	}
	if l.byAcc == nil {
		l.byAcc = make([]int32, l.slot.Len())
		for i := range l.byAcc {
			l.byAcc[i] = -1
		}
		for p, h := range l.Hits {
			l.byAcc[h.Slot] = int32(p)
		}
	}
	p := l.byAcc[k]
	return int(p), p >= 0
}

// Scores returns the hits' scores, in order.
func (l *List) Scores() []float64 {
	out := make([]float64, len(l.Hits))
	for i, h := range l.Hits {
		out[i] = h.Score
	}
	return out
}

// Count is the number of matching documents.
func (l *List) Count() int {
	if l.total > 0 {
		return l.total
	}
	return len(l.Hits)
}
