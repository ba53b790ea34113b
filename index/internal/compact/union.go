package compact

import bleveindex "github.com/blevesearch/bleve_index_api"

// Holders sets in holders, a bit per internal document number (grown as
// needed), the live documents of r that hold term in field, and returns
// it; ok is false, and holders as given, when r is not a reader of this
// package. Cost: a dictionary lookup per segment and a pass over the
// term's postings; no frequency is read.
func Holders(r bleveindex.IndexReader, holders []uint64, field, term string) (_ []uint64, ok bool) {
	cr, ok := r.(*reader)
	if !ok {
		return holders, false
	}
	st := cr.st
	for i, s := range st.segs {
		f := s.field(field)
		if f == nil {
			continue
		}
		start, end := f.lookup([]byte(term))
		if start == end {
			continue
		}
		if n := int((st.end() + 63) / 64); len(holders) < n {
			holders = append(holders, make([]uint64, n-len(holders))...)
		}
		for _, d := range f.docs[start:end] {
			if st.ndead[i] > 0 && st.dead[i].has(int(d)) {
				continue
			}
			n := st.base[i] + uint64(d)
			holders[n/64] |= 1 << (n % 64)
		}
	}
	return holders, true
}
