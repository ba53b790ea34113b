package backend

import (
	"math/bits"

	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/twindex/twindex/index/internal/compact"
)

// compactUnionCounts is UnionCounts on a compact reader (ok false for
// another): the sets' holders gathered into bitsets by document number.
// Cost: a dictionary lookup per field term and segment, and a pass over
// its postings.
func compactUnionCounts(r bleveindex.IndexReader, sets []Union) (each []uint64, union uint64, ok bool) {
	if _, ok := compact.VersionOf(r); !ok {
		return nil, 0, false
	}
	count := func(b []uint64) (n uint64) {
		for _, w := range b {
			n += uint64(bits.OnesCount64(w))
		}
		return n
	}
	each = make([]uint64, len(sets))
	var all, one []uint64
	for i, set := range sets {
		if !set.Alone && !set.Total {
			continue
		}
		clear(one)
		for _, ft := range set.Terms {
			one, _ = compact.Holders(r, one, ft.Field, ft.Term)
		}
		if set.Alone {
			each[i] = count(one)
		}
		if set.Total {
			all = append(all, make([]uint64, max(0, len(one)-len(all)))...)
			for w, b := range one {
				all[w] |= b
			}
		}
	}
	return each, count(all), true
}
