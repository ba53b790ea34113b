package compact

import (
	"bytes"
	"math"
	"slices"
	"sort"
	"unsafe"
)

// blob holds byte strings back to back: string i is
// data[ends[i-1]:ends[i]], with ends[-1] taken as 0. It holds no
// pointers but its two slices, so the garbage collector has two objects
// to look at whatever the number of strings.
type blob struct {
	data []byte
	ends []uint32
}

func (b *blob) len() int { return len(b.ends) }

func (b *blob) at(i int) []byte {
	start := uint32(0)
	if i > 0 {
		start = b.ends[i-1]
	}
	return b.data[start:b.ends[i]]
}

// str is at(i) as a string that shares its bytes: a blob's bytes are
// never changed once added (add only appends), so the string stays
// valid, and ExternalID, which a search calls for every match it scores,
// allocates nothing.
func (b *blob) str(i int) string {
	s := b.at(i)
	if len(s) == 0 {
		return ""
	}
	return unsafe.String(&s[0], len(s))
}

func (b *blob) add(s []byte) {
	b.data = append(b.data, s...)
	b.ends = append(b.ends, uint32(len(b.data)))
}

// search returns the index of the first string >= s: O(log n).
func (b *blob) search(s []byte) int {
	return sort.Search(b.len(), func(i int) bool { return bytes.Compare(b.at(i), s) >= 0 })
}

// searchFrom returns the index of the first string >= s at or after i,
// by steps that double from i and a binary search of the last one:
// O(log d) for the d strings passed over.
func (b *blob) searchFrom(i int, s []byte) int {
	below := func(j int) bool { return bytes.Compare(b.at(j), s) < 0 }
	lo, step := i, 1 // every string from i to lo is < s
	for lo < b.len() && below(lo) {
		lo++
		hi := min(lo+step, b.len())
		if hi == b.len() || !below(hi-1) {
			return lo + sort.Search(hi-lo, func(k int) bool { return !below(lo + k) })
		}
		lo, step = hi, 2*step
	}
	return lo
}

// field is one indexed field of a segment: its dictionary, sorted, and
// the postings of term i at [start[i], start[i+1]) of docs and freqs, in
// increasing document order.
type field struct {
	name  string
	terms blob
	start []uint32 // len(terms)+1
	docs  []uint32
	freqs freqList // by posting, as docs
	lens  []uint32 // by document: the field's analyzed length, 0 without it
}

// lookup returns the postings range of term, empty when absent.
func (f *field) lookup(term []byte) (start, end uint32) {
	i := f.terms.search(term)
	if i < f.terms.len() && bytes.Equal(f.terms.at(i), term) {
		return f.start[i], f.start[i+1]
	}
	return 0, 0
}

// norm is bleve's field-length norm, as scorch and upsidedown store it:
// 1/sqrt(length) rounded to a float32.
func norm(length uint32) float64 {
	if length == 0 {
		return 0
	}
	return float64(float32(1 / math.Sqrt(float64(length))))
}

// stored is one stored field of a segment: the value of each document,
// has[i] false where document i has none.
type stored struct {
	name string
	vals blob
	has  []bool
}

// segment is an immutable set of documents numbered 0..n-1.
type segment struct {
	ids    blob // external IDs by document number
	byID   map[string]uint32
	fields []field  // indexed fields, sorted by name
	stored []stored // stored fields, sorted by name
}

func (s *segment) n() int { return s.ids.len() }

func (s *segment) field(name string) *field {
	i, ok := slices.BinarySearchFunc(s.fields, name, func(f field, name string) int { return cmpString(f.name, name) })
	if !ok {
		return nil
	}
	return &s.fields[i]
}

func cmpString(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// indexMap numbers the documents of a segment by external ID.
func (s *segment) indexIDs() {
	s.byID = make(map[string]uint32, s.n())
	for i := range s.n() {
		s.byID[string(s.ids.at(i))] = uint32(i)
	}
}

// merge returns one segment of the live documents of segs, in order;
// dead[i] marks the deleted documents of segs[i] (nil: none). Postings
// are copied, not decoded or analyzed again. Cost: O(postings and
// dictionary entries of segs).
func merge(segs []*segment, dead []bitset) *segment {
	// A segment's document d is offset[i]+d in the merged one, or, for a
	// segment with deletions, remap[i][d] (-1: deleted).
	offset := make([]int32, len(segs))
	remap := make([][]int32, len(segs))
	out := &segment{}
	for i, s := range segs {
		offset[i] = int32(out.ids.len())
		if dead[i] == nil {
			for d := range s.n() {
				out.ids.add(s.ids.at(d))
			}
			continue
		}
		remap[i] = make([]int32, s.n())
		for d := range s.n() {
			if dead[i].has(d) {
				remap[i][d] = -1
				continue
			}
			remap[i][d] = int32(out.ids.len())
			out.ids.add(s.ids.at(d))
		}
	}
	newDoc := func(i int, d uint32) int32 {
		if remap[i] == nil {
			return offset[i] + int32(d)
		}
		return remap[i][d]
	}
	n := out.n()
	for _, name := range unionNames(segs, func(s *segment) []string { return fieldNames(s.fields) }) {
		out.fields = append(out.fields, mergeField(name, segs, offset, remap, newDoc, n))
	}
	for _, name := range unionNames(segs, func(s *segment) []string { return storedNames(s.stored) }) {
		st := stored{name: name, has: make([]bool, n)}
		for i, s := range segs {
			j := slices.IndexFunc(s.stored, func(x stored) bool { return x.name == name })
			for d := range s.n() {
				nd := newDoc(i, uint32(d))
				if nd < 0 {
					continue
				}
				if j >= 0 && s.stored[j].has[d] {
					st.has[nd] = true
					st.vals.add(s.stored[j].vals.at(d))
				} else {
					st.vals.add(nil)
				}
			}
		}
		out.stored = append(out.stored, st)
	}
	out.indexIDs()
	return out
}

func fieldNames(fs []field) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = f.name
	}
	return out
}

func storedNames(ss []stored) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = s.name
	}
	return out
}

func unionNames(segs []*segment, names func(*segment) []string) []string {
	var all []string
	for _, s := range segs {
		all = append(all, names(s)...)
	}
	slices.Sort(all)
	return slices.Compact(all)
}

// mergeField merges the dictionaries of one field, a k-way merge of
// sorted lists; a term's postings are those of each segment in order,
// renumbered, which keeps them in increasing order.
func mergeField(name string, segs []*segment, offset []int32, remap [][]int32, newDoc func(int, uint32) int32, n int) field {
	out := field{name: name, lens: make([]uint32, n)}
	var src []*field
	var srcSeg []int
	total := 0
	for i, s := range segs {
		f := s.field(name)
		if f == nil {
			continue
		}
		src = append(src, f)
		srcSeg = append(srcSeg, i)
		total += len(f.docs)
		for d, l := range f.lens {
			if nd := newDoc(i, uint32(d)); nd >= 0 {
				out.lens[nd] = l
			}
		}
	}
	out.docs = make([]uint32, 0, total)
	out.freqs = freqList{small: make([]uint8, 0, total)}
	pos := make([]int, len(src)) // next term of each source
	out.start = append(out.start, 0)
	for {
		var min []byte
		for k, f := range src {
			if pos[k] < f.terms.len() {
				if t := f.terms.at(pos[k]); min == nil || bytes.Compare(t, min) < 0 {
					min = t
				}
			}
		}
		if min == nil {
			break
		}
		before := len(out.docs)
		for k, f := range src {
			if pos[k] >= f.terms.len() || !bytes.Equal(f.terms.at(pos[k]), min) {
				continue
			}
			i := srcSeg[k]
			start, end := f.start[pos[k]], f.start[pos[k]+1]
			if r := remap[i]; r != nil {
				for p := start; p < end; p++ {
					if nd := r[f.docs[p]]; nd >= 0 {
						out.docs = append(out.docs, uint32(nd))
						out.freqs.add(f.freqs.at(p))
					}
				}
			} else {
				off := uint32(offset[i])
				for _, d := range f.docs[start:end] {
					out.docs = append(out.docs, off+d)
				}
				out.freqs.addRange(&f.freqs, start, end)
			}
			pos[k]++
		}
		// A term whose every document is gone leaves the dictionary.
		if len(out.docs) > before {
			out.terms.add(min)
			out.start = append(out.start, uint32(len(out.docs)))
		}
	}
	return out
}

// bitset marks documents by number; the nil bitset marks none.
type bitset []uint64

func (b bitset) has(i int) bool {
	w := i / 64
	return w < len(b) && b[w]&(1<<(i%64)) != 0
}
