// Package index is twindex's engine: a document store and two bleve
// indexes derived from it, searched together and fused with Reciprocal Rank
// Fusion.
//
// The text index holds stemmed words of each document's title and body
// (tokenize.Text), and the spellings that stemming changed, which fuzzy
// matching compares typos with; the trigram index holds the character trigrams of both
// (tokenize.Trigram) and answers exact substring queries by candidate
// intersection and verification against the stored text.
//
// Invariants:
//   - The store is the truth. A write commits to the store first, with a
//     log entry, then to both bleve indexes; each index records the last log
//     entry it applied, atomically with the documents, so Open can bring a
//     lagging index back in step after a crash. Both indexes can be rebuilt
//     from the store at any time (Rebuild).
//   - A search sees one state of the store and both indexes: all of a write
//     or none of it.
//   - Totals are exact: every leg visits every match, and filters are applied
//     to every match before any ranking is cut.
//
// Concurrency: an Index may be used from many goroutines. Searches run in
// parallel; writes (Apply and its shorthands, Rebuild, Optimize) are
// serialized and briefly exclude new searches while they apply a batch.
package index
