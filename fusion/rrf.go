package fusion

import (
	"cmp"
	"math"
	"slices"
)

// DefaultK is the rank constant used when Options.K is not positive. 60 is
// the value from the original RRF paper (Cormack et al., 2009).
const DefaultK = 60

// Options tune RRF. The zero value means defaults.
type Options struct {
	// K damps the advantage of top ranks: a hit at rank r in a leg earns
	// weight/(K+r). Zero or negative means DefaultK.
	K int
	// Weights scales each leg's contribution, by List.Leg. A leg missing from
	// the map has weight 1. NaN or infinite weights count as 0 so that
	// scores stay comparable.
	Weights map[string]float64
	// TiesShareRank gives entries of a list with equal Scores the rank of
	// the first of them (competition ranking, "1224"), so that the order
	// of ties within a leg does not change fused scores.
	TiesShareRank bool
}

// Rank returns the 1-based rank of entry i of a list whose scores are
// scores, given the rank of entry i-1 (ignored for i == 0): i+1, or with
// tiesShare, prev when entry i ties with entry i-1.
func Rank(scores []float64, i, prev int, tiesShare bool) int {
	if tiesShare && i > 0 && i < len(scores) && scores[i] == scores[i-1] {
		return prev
	}
	return i + 1
}

// Ranks returns the ranks of a list whose scores are scores, best first,
// ties sharing the rank of the first of them (Rank with tiesShare).
func Ranks(scores []float64) []int {
	r := make([]int, len(scores))
	prev := 0
	for i := range scores {
		prev = Rank(scores, i, prev, true)
		r[i] = prev
	}
	return r
}

// List is one leg's ranked result.
type List struct {
	Leg    string    // name of the leg, e.g. "text" or "substring"
	IDs    []string  // document IDs, best first
	Scores []float64 // the leg's raw scores, parallel to IDs; may be nil or short
}

// Hit is one fused result.
type Hit struct {
	ID string
	// Score is, from RRF, the sum over Legs of weight/(K+Rank): below
	// 0.033 for two legs at K 60. Normalize rescales it so the best hit
	// has 1, Expand may raise it, ApplyBoost multiplies it.
	Score float64
	Legs  []LegRank // the legs that found ID, in input-list order; nil for a hit only Expand found

	// Via is set when Expand gave Score: the hit was reached from a seed
	// by links, and that path scored better than the hit's own legs.
	Via *Via
	// Boosted is set by ApplyBoost: the score before boosting and the
	// factors applied.
	Boosted *Boosted
}

// LegRank records where one leg ranked a hit, for explaining the fused score.
type LegRank struct {
	Leg   string  `json:"leg"`
	Rank  int     `json:"rank"`  // 1-based
	Score float64 `json:"score"` // the leg's raw score; 0 when List.Scores has none for it
}

// RRF fuses lists with Reciprocal Rank Fusion: each ID scores the sum, over
// the lists that hold it, of weight/(K+rank). An ID repeated within one list
// counts once, at its first (best) rank. Two lists with the same Leg name
// count separately.
//
// RRF runs in O(N log N) time and O(N) space for N IDs in all lists.
func RRF(lists []List, opts Options) []Hit {
	k := float64(opts.K)
	if opts.K <= 0 {
		k = DefaultK
	}
	total := 0
	for _, l := range lists {
		total += len(l.IDs)
	}

	// Pass 1: number the distinct IDs, sum their scores and count their
	// legs. slot remembers, for every input entry, which ID it scored, or
	// -1 for a repeat within its list, so pass 2 need not hash again.
	index := make(map[string]int, total)
	ids := make([]string, 0, total)
	scores := make([]float64, 0, total)
	nlegs := make([]int, 0, total)
	last := make([]int, 0, total) // per ID: last list that scored it
	slot := make([]int, 0, total)
	legs := 0
	for li, l := range lists {
		w := weight(opts.Weights, l.Leg)
		rank := 0
		for i, id := range l.IDs {
			rank = Rank(l.Scores, i, rank, opts.TiesShareRank)
			h, ok := index[id]
			if !ok {
				h = len(ids)
				index[id] = h
				ids = append(ids, id)
				scores = append(scores, 0)
				nlegs = append(nlegs, 0)
				last = append(last, -1)
			}
			if last[h] == li {
				slot = append(slot, -1) // repeat: only the best rank counts
				continue
			}
			last[h] = li
			slot = append(slot, h)
			scores[h] += w / (k + float64(rank))
			nlegs[h]++
			legs++
		}
	}

	// Sort indexes rather than Hits: cheaper swaps, and no write barriers.
	order := make([]int, len(ids))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int {
		if c := cmp.Compare(scores[b], scores[a]); c != 0 {
			return c
		}
		return cmp.Compare(ids[a], ids[b])
	})

	// Pass 2: lay every hit's legs out in one backing array, in output
	// order, each hit's slice capped so an append cannot spill into the next.
	hits := make([]Hit, len(ids))
	backing := make([]LegRank, legs)
	pos := last // reuse: per ID, its position in hits
	off := 0
	for j, h := range order {
		n := nlegs[h]
		hits[j] = Hit{ID: ids[h], Score: scores[h], Legs: backing[off : off : off+n]}
		pos[h] = j
		off += n
	}
	e := 0
	for _, l := range lists {
		rank := 0
		for i := range l.IDs {
			rank = Rank(l.Scores, i, rank, opts.TiesShareRank)
			h := slot[e]
			e++
			if h < 0 {
				continue
			}
			lr := LegRank{Leg: l.Leg, Rank: rank}
			if i < len(l.Scores) {
				lr.Score = l.Scores[i]
			}
			hit := &hits[pos[h]]
			hit.Legs = append(hit.Legs, lr)
		}
	}
	return hits
}

func weight(weights map[string]float64, leg string) float64 {
	w, ok := weights[leg]
	switch {
	case !ok:
		return 1
	case math.IsNaN(w) || math.IsInf(w, 0):
		return 0
	}
	return w
}
