package fusion

import (
	"cmp"
	"math"
	"slices"
)

// Normalize returns a copy of hits with every Score divided by the best
// finite positive Score, so the best hit has 1 and all scores lie in [0, 1].
// Order is kept: a list sorted by score stays sorted. Zero, negative and NaN
// scores become 0; +Inf becomes 1. When no score is positive, all become 0
// (bar +Inf). Legs, Via and Boosted are shared with hits.
//
// Raw RRF scores say only how high the legs ranked a hit, not how well it
// matched: each leg adds weight/(K+rank), at most 1/61 ≈ 0.0164 at K 60, so
// two legs stay below 0.033, and a hit's score depends on K and on how
// many legs ran. An absolute threshold such as 0.5 would drop every hit.
// Relative to the best hit, a threshold reads the same for any K, any
// number of legs and any leg scores (a single-leg search may carry raw
// BM25 scores): 0.5 keeps what scores at least half as well as the top.
// ExpandOptions.MinScore is on this scale.
//
// Normalize runs in O(N) time.
func Normalize(hits []Hit) []Hit {
	out := slices.Clone(hits)
	best := bestScore(hits)
	for i := range out {
		s := out[i].Score
		switch {
		case math.IsInf(s, 1):
			s = 1
		case s > 0 && best > 0:
			s = min(s/best, 1)
		default:
			s = 0
		}
		out[i].Score = s
	}
	return out
}

// bestScore returns the largest finite positive score of hits, or 0.
func bestScore(hits []Hit) float64 {
	best := 0.0
	for _, h := range hits {
		if h.Score > best && !math.IsInf(h.Score, 1) {
			best = h.Score
		}
	}
	return best
}

// Sort orders hits as RRF does: by Score descending, then by ID. The IDs
// of a ranking are distinct, so the order is total: an unstable sort
// gives the same, with far fewer moves of hits than a stable one's merges.
func Sort(hits []Hit) {
	slices.SortFunc(hits, func(a, b Hit) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
}
