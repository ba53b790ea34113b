//go:build !amd64

package find

// indexPair is indexPairWords: only amd64 has a vector scan of its own
// (pair_amd64.go).
func (f Finder) indexPair(s string) int { return f.indexPairWords(s) }

// pairRank is the rank of the rarest byte that New does not scan for
// alone.
var pairRank = commonRank
