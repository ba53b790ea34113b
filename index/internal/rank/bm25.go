// Package rank scores and orders the text leg's matches: BM25 as FTS5
// computes it with column weights (BM25, IDF), the per-document tally one
// pass of the text leg keeps while it reads posting lists (Tally), and
// the ranking the pass yields (List), which orders only as many hits as
// a page needs.
//
// Invariants: a Tally's documents are the slots of one slots.Table, in
// the order Add gave them; a List built from the tally's matches shares
// that table, frozen. A List breaks ties of score by external ID, so that
// its order does not depend on internal IDs, which differ from one index
// (or shard) to another.
//
// Concurrency: a Tally and a List are used by one goroutine, the
// search's. BM25 and IDF are pure.
package rank

import "math"

// BM25 parameters of both legs.
const (
	k1 = 1.2
	b  = 0.75
)

// IDF returns the inverse document frequency of a term that df of n
// documents hold.
func IDF(n, df float64) float64 {
	return math.Log(1 + (n-df+0.5)/(df+0.5))
}

// BM25 returns the saturated frequency tf of a term in a document of
// length dl, where documents are avgdl long on average (taken as 1 when
// unknown); 0 when tf is.
func BM25(tf, dl, avgdl float64) float64 {
	if tf == 0 {
		return 0
	}
	if avgdl <= 0 {
		avgdl = 1
	}
	return tf * (k1 + 1) / (tf + k1*(1-b+b*dl/avgdl))
}
