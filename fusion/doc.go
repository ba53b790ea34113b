// Package fusion merges ranked result lists from several search legs with
// Reciprocal Rank Fusion, and pages the merged list.
//
// Everything here is a pure function on its arguments: no state, no I/O, no
// context, safe to call from any goroutine. Inputs are never modified.
//
// Invariants of RRF's output:
//
//   - Each distinct ID of the input lists appears exactly once.
//   - Hits are sorted by Score descending, ties broken by ID ascending in byte
//     order, so equal inputs always give the same order.
//   - A hit's Legs follow the order of the input lists.
package fusion
