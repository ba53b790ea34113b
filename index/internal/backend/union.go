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

// UnionCounts counts the live documents of r that hold some field term
// of the sets: in each set that is Alone (each, by set; 0 for the
// others), and in the sets that count in the Total (union); and returns
// true. A compact reader counts as compactUnionCounts does. For another
// reader, or a segment whose posting lists cannot be ORed, it counts
// nothing and returns false.
//
// Cost: a dictionary lookup per field term and segment, and unions of
// their posting bitmaps; no posting is decoded.
func UnionCounts(r bleveindex.IndexReader, sets []Union) (each []uint64, union uint64, ok bool, err error) {
	snap, ok := r.(*scorch.IndexSnapshot)
	if !ok {
		each, union, ok = compactUnionCounts(r, sets)
		return each, union, ok, nil
	}
	each = make([]uint64, len(sets))
	for _, ss := range snap.Segments() {
		dicts := map[string]segment.TermDictionary{}
		add := func(bm *roaring.Bitmap, ft FieldTerm) (bool, error) {
			dict, seen := dicts[ft.Field]
			if !seen {
				var err error
				if dict, err = ss.Segment().Dictionary(ft.Field); err != nil {
					return true, err
				}
				dicts[ft.Field] = dict
			}
			pl, err := dict.PostingsList([]byte(ft.Term), nil, nil)
			if err != nil || pl.Count() == 0 {
				return true, err
			}
			o, can := pl.(orInto)
			if can {
				o.OrInto(bm)
			}
			return can, nil
		}
		all := roaring.New()
		del := ss.Deleted()
		for i, set := range sets {
			bm := all
			if set.Alone {
				bm = roaring.New()
			}
			if set.Alone || set.Total {
				for _, ft := range set.Terms {
					if ok, err := add(bm, ft); !ok || err != nil {
						return nil, 0, ok, err
					}
				}
			}
			if set.Alone {
				if del != nil {
					bm.AndNot(del)
				}
				each[i] += bm.GetCardinality()
				if set.Total {
					all.Or(bm)
				}
			}
		}
		if del != nil {
			all.AndNot(del)
		}
		union += all.GetCardinality()
	}
	return each, union, true, nil
}
