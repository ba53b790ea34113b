// The phrase judges' first question: whether a document's filter of
// adjacent term pairs (record.Header.Pairs, written from
// tokenize.Adjacent) lets it hold a phrase at all.

package index

import (
	"fmt"

	"github.com/twindex/twindex/index/internal/bloom"
	"github.com/twindex/twindex/index/internal/plan"
	"github.com/twindex/twindex/index/internal/record"
	"github.com/twindex/twindex/tokenize"
)

// maxPairs is the most pairs of terms two words of a phrase are looked
// for as in a pairs filter: at 3 bits a pair, a quarter of the pairs a
// document lacks pass, so one of 8 pairs passes nine times in ten, and
// more are probes for nothing.
const maxPairs = 8

// leafPairs returns the pairs of terms (PairHash) that a document holding
// tl holds side by side: for each two of its words at consecutive
// positions, the pairs of their terms, one of which it holds. The last
// word of a prefix leaf is left out: its group holds its completions,
// which may not hold the word itself (a stop word; a dictionary cut at
// MaxExpansions), while the look as written finds it.
func leafPairs(tp *plan.Text, tl *plan.TextLeaf) [][]uint64 {
	var out [][]uint64
	last := len(tl.Groups)
	if tl.Prefix {
		last--
	}
	for i := 1; i < last; i++ {
		a, b := tl.Groups[i-1], tl.Groups[i]
		ta, tb := tp.GroupTerms(a), tp.GroupTerms(b)
		if b.Rel != a.Rel+1 || len(ta) == 0 || len(tb) == 0 || len(ta)*len(tb) > maxPairs {
			continue
		}
		hs := make([]uint64, 0, len(ta)*len(tb))
		for _, x := range ta {
			hx := tokenize.TermHash(x)
			for _, y := range tb {
				hs = append(hs, tokenize.PairHash(hx, tokenize.TermHash(y)))
			}
		}
		out = append(out, hs)
	}
	return out
}

// mayHold reports whether the document's pairs filter lets it hold tl:
// false when two of tl's words side by side are paired in neither of
// its fields. A filter written before the bleve indexes were last
// rebuilt is not asked (runJudge.pairsSince). Cost: reading the record
// (which its judge reads anyway) and its first fields, once for the
// document, and two probes of the filter for each pair of terms.
func (d *docRuns) mayHold(tl *plan.TextLeaf) (bool, error) {
	pairs := d.pairs[tl]
	if len(pairs) == 0 {
		return true, nil
	}
	if !d.filterRead {
		if err := d.read(); err != nil {
			return false, err
		}
		f, err := record.Pairs(d.rec)
		if err == nil && f != nil && d.pairsSince > 0 {
			var seq uint64
			if seq, err = record.Seq(d.rec); seq < d.pairsSince {
				f = nil // of the analysis before a rebuild
			}
		}
		if err != nil {
			return false, fmt.Errorf("document %q: %w", d.id, err)
		}
		d.filter, d.filterRead = f, true
	}
	if d.filter == nil {
		return true, nil
	}
next:
	for _, hs := range pairs {
		for _, h := range hs {
			if bloom.MayHold(d.filter, h) {
				continue next
			}
		}
		return false, nil
	}
	return true, nil
}
