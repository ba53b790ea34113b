// Package vector holds sets of embedding vectors keyed by ID and finds
// the nearest ones to a query by cosine similarity: an exact scan up to
// Options.ExactMax vectors, a Hierarchical Navigable Small World graph
// above.
//
// Invariants:
//   - Every vector of a Set has the Set's dimension, is finite and nonzero,
//     and is stored L2-normalized, so cosine similarity is a dot product.
//     Put and Search refuse anything else with ErrInvalidVector.
//   - An ID has at most one vector: Put replaces it.
//   - Search returns hits best first, ties by ID. Up to ExactMax vectors
//     it is exact; above, the graph answers approximately (recall@10 above
//     0.95 with the defaults; see TestHNSWRecall and BenchmarkSearch), and
//     it never returns fewer than k hits that exist and pass its filter: it
//     falls back to an exact scan instead.
//   - Removal leaves a tombstone: the slot stays in the graph as a waypoint
//     and is skipped in results. When tombstones outnumber live vectors,
//     the next Put or Delete compacts the storage and rebuilds the graph,
//     which costs O(live) inserts and holds the write lock for that long.
//   - A Set lives in memory only; its owner rebuilds it from its own store.
//
// Concurrency: a Set may be used from many goroutines. Searches run in
// parallel with each other; Put and Delete are serialized and exclude
// searches while they run. The keep function of a Search runs under the
// read lock and must not call Put or Delete.
package vector
