package compact

import (
	"bufio"
	"encoding/binary"
	"io"
	"maps"
	"slices"
)

// The encoding of an index, all integers uvarints, of its live documents
// as one segment:
//
//	version (1)
//	internal keys: count, then key and value (length and bytes), by key
//	documents: count n, then their IDs, each as the length of the
//	           prefix shared with the previous ID, the rest's length and
//	           the rest
//	stored fields: count, then per field its name and per document the
//	           value's length plus one and the value, or 0 for none
//	indexed fields: count, then per field:
//	    name
//	    per document its analyzed length
//	    terms: count, then each as the shared prefix's length, the rest's
//	           length and the rest, in strictly increasing order
//	    per term the number of its postings (at least 1)
//	    per posting, term by term, the gap to its document: the document
//	           number for a term's first, the difference minus one after
//	    per posting its frequency minus one
//
// Like values sit together (lengths, gaps, frequencies), which is what a
// general compressor such as gzip makes the most of.
const version = 1

// Snapshot is the index at one point in time, for Encode.
type Snapshot struct {
	st *state
}

// Snapshot returns the index as it is now; later writes do not change it.
func (x *Index) Snapshot() *Snapshot { return &Snapshot{x.cur.Load()} }

// Encode writes the snapshot's live documents to w, for Decode. It merges
// the segments into one for the encoding, leaving the index as it is.
// Cost: O(size of the index).
func (sn *Snapshot) Encode(w io.Writer) error {
	st := sn.st.clone()
	st.mergeAll()
	s := &segment{}
	if len(st.segs) == 1 {
		s = st.segs[0]
	}
	e := encoder{w: bufio.NewWriterSize(w, 1<<16)}
	e.uvarint(version)
	e.uvarint(uint64(len(st.internal)))
	for _, k := range slices.Sorted(maps.Keys(st.internal)) {
		e.bytes([]byte(k))
		e.bytes(st.internal[k])
	}
	n := s.n()
	e.uvarint(uint64(n))
	e.frontCoded(&s.ids)
	e.uvarint(uint64(len(s.stored)))
	for _, sf := range s.stored {
		e.bytes([]byte(sf.name))
		for d := range n {
			if !sf.has[d] {
				e.uvarint(0)
				continue
			}
			v := sf.vals.at(d)
			e.uvarint(uint64(len(v)) + 1)
			e.raw(v)
		}
	}
	e.uvarint(uint64(len(s.fields)))
	for i := range s.fields {
		f := &s.fields[i]
		e.bytes([]byte(f.name))
		for _, l := range f.lens {
			e.uvarint(uint64(l))
		}
		e.uvarint(uint64(f.terms.len()))
		e.frontCoded(&f.terms)
		for t := range f.terms.len() {
			e.uvarint(uint64(f.start[t+1] - f.start[t]))
		}
		for t := range f.terms.len() {
			prev := uint32(0)
			for p := f.start[t]; p < f.start[t+1]; p++ {
				gap := f.docs[p]
				if p > f.start[t] {
					gap = f.docs[p] - prev - 1
				}
				e.uvarint(uint64(gap))
				prev = f.docs[p]
			}
		}
		for p := range len(f.freqs.small) {
			e.uvarint(uint64(f.freqs.at(uint32(p))) - 1)
		}
	}
	return e.flush()
}

// encoder writes through a buffer, keeping its first error.
type encoder struct {
	w   *bufio.Writer
	buf [binary.MaxVarintLen64]byte
	err error
}

func (e *encoder) raw(b []byte) {
	if e.err == nil {
		_, e.err = e.w.Write(b)
	}
}

func (e *encoder) uvarint(v uint64) {
	e.raw(e.buf[:binary.PutUvarint(e.buf[:], v)])
}

func (e *encoder) bytes(b []byte) {
	e.uvarint(uint64(len(b)))
	e.raw(b)
}

// frontCoded writes the strings of b, each after the prefix it shares
// with the one before; their number is written apart.
func (e *encoder) frontCoded(b *blob) {
	var prev []byte
	for i := range b.len() {
		s := b.at(i)
		shared := 0
		for shared < len(s) && shared < len(prev) && s[shared] == prev[shared] {
			shared++
		}
		e.uvarint(uint64(shared))
		e.bytes(s[shared:])
		prev = s
	}
}

func (e *encoder) flush() error {
	if e.err != nil {
		return e.err
	}
	return e.w.Flush()
}
