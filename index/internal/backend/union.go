//go:build !js && !wasip1

package backend

import (
	"github.com/RoaringBitmap/roaring/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"
	bleveindex "github.com/blevesearch/bleve_index_api"
	segment "github.com/blevesearch/scorch_segment_api/v2"
)

// orInto is what zap's posting lists offer beside segment.PostingsList:
// their documents ORed into a bitmap, deleted ones included.
type orInto interface{ OrInto(*roaring.Bitmap) }

// UnionCounts counts the live documents of r that hold some of the field
// terms of each set (each), and those that hold some field term of any
// set that counted marks (union), and returns true; for a reader other
// than scorch's, or a segment whose posting lists cannot be ORed, it
// counts nothing and returns false.
//
// Cost: a dictionary lookup per field term and segment, and unions of
// their posting bitmaps; no posting is decoded.
func UnionCounts(r bleveindex.IndexReader, sets [][]FieldTerm, counted []bool) (each []uint64, union uint64, ok bool, err error) {
	snap, ok := r.(*scorch.IndexSnapshot)
	if !ok {
		return nil, 0, false, nil
	}
	each = make([]uint64, len(sets))
	for _, ss := range snap.Segments() {
		dicts := map[string]segment.TermDictionary{}
		all := roaring.New()
		for i, set := range sets {
			bm := roaring.New()
			for _, ft := range set {
				dict, seen := dicts[ft.Field]
				if !seen {
					if dict, err = ss.Segment().Dictionary(ft.Field); err != nil {
						return nil, 0, true, err
					}
					dicts[ft.Field] = dict
				}
				pl, err := dict.PostingsList([]byte(ft.Term), nil, nil)
				if err != nil {
					return nil, 0, true, err
				}
				if pl.Count() == 0 {
					continue
				}
				o, can := pl.(orInto)
				if !can {
					return nil, 0, false, nil
				}
				o.OrInto(bm)
			}
			if del := ss.Deleted(); del != nil {
				bm.AndNot(del)
			}
			each[i] += bm.GetCardinality()
			if counted[i] {
				all.Or(bm)
			}
		}
		union += all.GetCardinality()
	}
	return each, union, true, nil
}
