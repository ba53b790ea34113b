// Package fusion merges ranked result lists from several search legs with
// Reciprocal Rank Fusion, widens them along links between documents, boosts
// them, and pages the result.
//
// Everything here is a pure function on its arguments: no state, no I/O, no
// context, safe to call from any goroutine. Inputs are never modified;
// results may share a hit's Legs, Via and Boosted with the input, which
// are never written after they are made. Callbacks (Neighbors,
// ExpandOptions.Admit, ApplyBoost's attrs) are called from the caller's
// goroutine, and their errors end the call.
//
// A search runs, in order:
//
//	hits := RRF(lists, opts)             // raw scores: sum of weight/(K+rank)
//	hits = Normalize(hits)               // best hit 1, all in [0, 1]
//	hits, err = Expand(hits, links, eo)  // linked documents, never above their seed
//	hits, err = ApplyBoost(hits, b, at)  // current project, session, recency
//	page, next := Page(hits, offset, limit)
//
// Scores: RRF's are small and say only how high the legs ranked a hit: one
// leg gives at most 1/61 ≈ 0.0164 at K 60, two legs stay below 0.033. A
// threshold meant as "half as good as the best" must therefore be read
// against the best hit, which is Normalize's scale (score divided by the
// best score) and the scale of ExpandOptions.MinScore whatever the input.
// Expand keeps its input's scale; ApplyBoost multiplies scores, so boosted
// ones may exceed 1.
//
// Invariants of RRF's output, kept by Expand and ApplyBoost:
//
//   - Each distinct ID of the input lists appears exactly once.
//   - Hits are sorted by Score descending, ties broken by ID ascending in byte
//     order, so equal inputs always give the same order.
//   - A hit's Legs follow the order of the input lists.
package fusion
