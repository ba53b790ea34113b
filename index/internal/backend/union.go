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
		lists := segmentLists{seg: ss}
		all := roaring.New()
		del := ss.Deleted()
		for i, set := range sets {
			bm := all
			if set.Alone {
				bm = roaring.New()
			}
			if set.Alone || set.Total {
				for _, ft := range set.Terms {
					if ok, err := lists.or(bm, ft); !ok || err != nil {
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

// Holding returns, in order, the doc numbers of r's live documents that
// hold, in one of the conjunctions, a field term of each of its units;
// ok is false, with no numbers, where the backend cannot tell (a
// reader neither scorch's nor compact's, or a segment whose lists cannot
// be ORed). A compact reader answers as compactHolding does.
//
// Cost: a dictionary lookup per field term and segment, and unions and
// intersections of their posting bitmaps; no posting is decoded.
func Holding(r bleveindex.IndexReader, conjs []Conjunction) (_ []uint64, ok bool, err error) {
	snap, ok := r.(*scorch.IndexSnapshot)
	if !ok {
		out, ok := compactHolding(r, conjs)
		return out, ok, nil
	}
	var out []uint64
	var base uint64 // the segment's first doc number in the snapshot
	for _, ss := range snap.Segments() {
		lists := segmentLists{seg: ss}
		held := roaring.New()
		for _, units := range conjs {
			var all *roaring.Bitmap
			for _, unit := range units {
				bm := roaring.New()
				for _, ft := range unit {
					if ok, err := lists.or(bm, ft); !ok || err != nil {
						return nil, ok, err
					}
				}
				if all == nil {
					all = bm
				} else {
					all.And(bm)
				}
				if all.IsEmpty() {
					break
				}
			}
			if all != nil {
				held.Or(all)
			}
		}
		if del := ss.Deleted(); del != nil {
			held.AndNot(del)
		}
		for it := held.Iterator(); it.HasNext(); {
			out = append(out, base+uint64(it.Next()))
		}
		base += uint64(ss.FullSize())
	}
	return out, true, nil
}

// segmentLists ORs a segment's posting lists into bitmaps, each field's
// dictionary looked up once.
type segmentLists struct {
	seg   *scorch.SegmentSnapshot
	dicts map[string]segment.TermDictionary
}

// or ORs the documents holding ft into bm, deleted ones included, and
// returns true, or false when the segment's lists cannot be ORed.
func (l *segmentLists) or(bm *roaring.Bitmap, ft FieldTerm) (bool, error) {
	dict, seen := l.dicts[ft.Field]
	if !seen {
		var err error
		if dict, err = l.seg.Segment().Dictionary(ft.Field); err != nil {
			return true, err
		}
		if l.dicts == nil {
			l.dicts = map[string]segment.TermDictionary{}
		}
		l.dicts[ft.Field] = dict
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
