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

// compactHolding is Holding on a compact reader (ok false for another):
// each unit's holders gathered into a bitset by document number, the
// units' bitsets ANDed and the conjunctions' ORed.
// Cost: a dictionary lookup per field term and segment, and a pass over
// its postings.
func compactHolding(r bleveindex.IndexReader, conjs []Conjunction) (_ []uint64, ok bool) {
	if _, ok := compact.VersionOf(r); !ok {
		return nil, false
	}
	var held, all, one []uint64
	for _, units := range conjs {
		for u, unit := range units {
			clear(one)
			for _, ft := range unit {
				one, _ = compact.Holders(r, one, ft.Field, ft.Term)
			}
			if u == 0 {
				all = append(all[:0], one...)
				continue
			}
			for w := range all {
				if w < len(one) {
					all[w] &= one[w]
				} else {
					all[w] = 0
				}
			}
		}
		if len(units) > 0 {
			held = append(held, make([]uint64, max(0, len(all)-len(held)))...)
			for w, b := range all {
				held[w] |= b
			}
		}
	}
	var out []uint64
	for w, b := range held {
		for ; b != 0; b &= b - 1 {
			out = append(out, uint64(w*64+bits.TrailingZeros64(b)))
		}
	}
	return out, true
}
