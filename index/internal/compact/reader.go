package compact

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"slices"
	"sort"
	"weak"

	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/twindex/twindex/index/internal/keys"
)

// reader reads one state. It is safe for concurrent use; the iterators it
// returns are each for one goroutine.
type reader struct {
	st *state
}

var _ bleveindex.IndexReader = (*reader)(nil)

// Version identifies the state of an index that a reader reads, without
// keeping it alive: the readers of one state have the same Version, and
// a write makes a state of its own. A cache of what one state holds
// (backend.Whole) keys on it.
type Version = weak.Pointer[state]

// VersionOf returns the Version r reads, ok false when r is not a reader
// of this package.
func VersionOf(r bleveindex.IndexReader) (v Version, ok bool) {
	cr, ok := r.(*reader)
	if !ok {
		return Version{}, false
	}
	return weak.Make(cr.st), true
}

// iid returns internal document number n as an internal ID, in buf.
func iid(buf []byte, n uint64) bleveindex.IndexInternalID {
	return binary.BigEndian.AppendUint64(buf[:0], n)
}

// locate returns the segment and document of internal number n, false
// when no segment has it.
func (st *state) locate(n uint64) (int, int, bool) {
	i := sort.Search(len(st.segs), func(i int) bool { return st.base[i] > n }) - 1
	if i < 0 || n-st.base[i] >= uint64(st.segs[i].n()) {
		return 0, 0, false
	}
	return i, int(n - st.base[i]), true
}

// span is the postings of one term in one segment.
type span struct {
	seg        int
	f          *field
	start, end uint32
}

// TermFieldReader returns the documents holding term in field, with
// their frequencies and norms; term vectors are never returned. Cost:
// O(segments · log(terms)) to open; Count is O(1) for a segment without
// deletions and O(postings) for one with.
func (r *reader) TermFieldReader(_ context.Context, term []byte, field string, includeFreq, includeNorm, _ bool) (bleveindex.TermFieldReader, error) {
	t := &termReader{st: r.st, freq: includeFreq, norm: includeNorm, term: string(term)}
	t.spans = t.few[:0]
	for i, s := range r.st.segs {
		f := s.field(field)
		if f == nil {
			continue
		}
		start, end := f.lookup(term)
		if start == end {
			continue
		}
		t.spans = append(t.spans, span{i, f, start, end})
		n := uint64(end - start)
		if r.st.ndead[i] > 0 {
			for _, d := range f.docs[start:end] {
				if r.st.dead[i].has(int(d)) {
					n--
				}
			}
		}
		t.count += n
	}
	if len(t.spans) > 0 {
		t.pos = t.spans[0].start
	}
	return t, nil
}

// termReader iterates the spans of one term, skipping deleted documents.
type termReader struct {
	st         *state
	spans      []span
	few        [3]span // spans' array for up to three segments (a loaded page's trigram index has three)
	cur        int     // the span being read
	pos        uint32  // the next posting of spans[cur]
	count      uint64
	freq, norm bool
	term       string
}

func (t *termReader) Next(pre *bleveindex.TermFieldDoc) (*bleveindex.TermFieldDoc, error) {
	for t.cur < len(t.spans) {
		sp := &t.spans[t.cur]
		for t.pos < sp.end {
			p := t.pos
			t.pos++
			d := sp.f.docs[p]
			if t.st.ndead[sp.seg] > 0 && t.st.dead[sp.seg].has(int(d)) {
				continue
			}
			if pre == nil {
				pre = &bleveindex.TermFieldDoc{}
			}
			pre.Term = t.term
			pre.ID = iid(pre.ID, t.st.base[sp.seg]+uint64(d))
			if t.freq {
				pre.Freq = uint64(sp.f.freqs.at(p))
			}
			if t.norm {
				pre.Norm = norm(sp.f.lens[d])
			}
			return pre, nil
		}
		t.cur++
		if t.cur < len(t.spans) {
			t.pos = t.spans[t.cur].start
		}
	}
	return nil, nil
}

// Advance moves to the first document at or after id, forwards or
// backwards: O(log(postings)).
func (t *termReader) Advance(id bleveindex.IndexInternalID, pre *bleveindex.TermFieldDoc) (*bleveindex.TermFieldDoc, error) {
	n, err := docNumber(id)
	if err != nil {
		return nil, err
	}
	t.cur = sort.Search(len(t.spans), func(i int) bool {
		sp := t.spans[i]
		return t.st.base[sp.seg]+uint64(sp.f.docs[sp.end-1]) >= n
	})
	if t.cur == len(t.spans) {
		return nil, nil
	}
	sp := t.spans[t.cur]
	base := t.st.base[sp.seg]
	t.pos = sp.start
	if n > base {
		local := n - base
		t.pos = sp.start + uint32(sort.Search(int(sp.end-sp.start), func(i int) bool {
			return uint64(sp.f.docs[sp.start+uint32(i)]) >= local
		}))
	}
	return t.Next(pre)
}

// docNumber reads an internal ID; a shorter one is padded on the left,
// as a number, a longer one is an error.
func docNumber(id bleveindex.IndexInternalID) (uint64, error) {
	if len(id) > 8 {
		return 0, fmt.Errorf("compact: internal ID of %d bytes", len(id))
	}
	var b [8]byte
	copy(b[8-len(id):], id)
	return binary.BigEndian.Uint64(b[:]), nil
}

func (t *termReader) Count() uint64 { return t.count }
func (t *termReader) Close() error  { return nil }
func (t *termReader) Size() int     { return 64 + 32*len(t.spans) }

// DocIDReaderAll returns every live document in internal ID order.
func (r *reader) DocIDReaderAll() (bleveindex.DocIDReader, error) {
	return &docIDReader{st: r.st, end: r.st.end()}, nil
}

// DocIDReaderOnly returns the live documents of the given IDs, in
// internal ID order.
func (r *reader) DocIDReaderOnly(ids []string) (bleveindex.DocIDReader, error) {
	d := &docIDReader{st: r.st, end: r.st.end(), only: []uint64{}}
	for _, id := range ids {
		if n, ok := r.st.find(id); ok {
			d.only = append(d.only, n)
		}
	}
	slices.Sort(d.only)
	d.only = slices.Compact(d.only)
	return d, nil
}

// find returns the internal number of the live document with an ID.
func (st *state) find(id string) (uint64, bool) {
	for i, s := range st.segs {
		if d, ok := s.byID[id]; ok && !st.dead[i].has(int(d)) {
			return st.base[i] + uint64(d), true
		}
	}
	return 0, false
}

type docIDReader struct {
	st   *state
	next uint64
	end  uint64
	only []uint64 // nil: every document
}

func (d *docIDReader) Next() (bleveindex.IndexInternalID, error) {
	if d.only != nil {
		if len(d.only) == 0 {
			return nil, nil
		}
		d.next, d.only = d.only[0], d.only[1:]
		return iid(nil, d.next), nil
	}
	for ; d.next < d.end; d.next++ {
		i, doc, _ := d.st.locate(d.next)
		if !d.st.dead[i].has(doc) {
			d.next++
			return iid(nil, d.next-1), nil
		}
	}
	return nil, nil
}

func (d *docIDReader) Advance(id bleveindex.IndexInternalID) (bleveindex.IndexInternalID, error) {
	n, err := docNumber(id)
	if err != nil {
		return nil, err
	}
	if d.only != nil {
		i, _ := slices.BinarySearch(d.only, n)
		d.only = d.only[i:]
	} else {
		d.next = n
	}
	return d.Next()
}

func (d *docIDReader) Size() int    { return 64 + 8*len(d.only) }
func (d *docIDReader) Close() error { return nil }

// FieldDict returns every term of field in byte order, with the number
// of live documents holding it. Cost: O(terms · segments).
func (r *reader) FieldDict(field string) (bleveindex.FieldDict, error) {
	return r.dict(field, nil, nil, nil), nil
}

// FieldDictRange returns the terms from start to end, both included; nil
// bounds are open.
func (r *reader) FieldDictRange(field string, start, end []byte) (bleveindex.FieldDict, error) {
	return r.dict(field, start, end, nil), nil
}

// FieldDictPrefix returns the terms that start with prefix: O(log(terms))
// to find them.
func (r *reader) FieldDictPrefix(field string, prefix []byte) (bleveindex.FieldDict, error) {
	return r.dict(field, prefix, nil, prefix), nil
}

func (r *reader) dict(field string, start, end, prefix []byte) *dict {
	d := &dict{st: r.st, end: end, prefix: prefix, match: func([]byte) (bool, int, []byte) { return true, 0, nil }}
	for i, s := range r.st.segs {
		f := s.field(field)
		if f == nil {
			continue
		}
		d.srcs = append(d.srcs, dictSource{seg: i, f: f, pos: f.terms.search(start)})
	}
	return d
}

// dict merges the dictionaries of one field over the segments.
type dict struct {
	st          *state
	srcs        []dictSource
	end, prefix []byte
	// match decides the terms to return of those in range; a term it
	// refuses with to rules out every term before to, and with skip > 0
	// every term that starts with its first skip bytes, which Next then
	// passes over.
	match func(term []byte) (ok bool, skip int, to []byte)
	next  []byte // seekPast's, reused
	entry bleveindex.DictEntry
}

type dictSource struct {
	seg int
	f   *field
	pos int
}

func (d *dict) Next() (*bleveindex.DictEntry, error) {
	for {
		var min []byte
		var term string // min, sharing its segment's bytes (blob.str)
		for _, s := range d.srcs {
			if s.pos < s.f.terms.len() {
				if t := s.f.terms.at(s.pos); min == nil || bytes.Compare(t, min) < 0 {
					min, term = t, s.f.terms.str(s.pos)
				}
			}
		}
		if min == nil || d.end != nil && bytes.Compare(min, d.end) > 0 || d.prefix != nil && !bytes.HasPrefix(min, d.prefix) {
			return nil, nil
		}
		if ok, skip, to := d.match(min); !ok {
			if to != nil {
				d.seekTo(to)
				continue
			}
			if skip > 0 {
				d.seekPast(min[:skip])
				continue
			}
			for k := range d.srcs {
				if s := &d.srcs[k]; s.pos < s.f.terms.len() && bytes.Equal(s.f.terms.at(s.pos), min) {
					s.pos++
				}
			}
			continue
		}
		var count uint64
		for k := range d.srcs {
			s := &d.srcs[k]
			if s.pos >= s.f.terms.len() || !bytes.Equal(s.f.terms.at(s.pos), min) {
				continue
			}
			start, end := s.f.start[s.pos], s.f.start[s.pos+1]
			count += uint64(end - start)
			if d.st.ndead[s.seg] > 0 {
				for _, doc := range s.f.docs[start:end] {
					if d.st.dead[s.seg].has(int(doc)) {
						count--
					}
				}
			}
			s.pos++
		}
		if count == 0 {
			continue // every document with it is deleted
		}
		d.entry = bleveindex.DictEntry{Term: term, Count: count}
		return &d.entry, nil
	}
}

// seekPast moves each segment's dictionary past the terms that start
// with p. Cost: O(log d) for the d terms each passes over.
func (d *dict) seekPast(p []byte) {
	d.next = keys.AppendPrefixEnd(d.next, p)
	for k := range d.srcs {
		s := &d.srcs[k]
		if d.next == nil { // p is all 0xff: no term after
			s.pos = s.f.terms.len()
		} else {
			s.pos = s.f.terms.searchFrom(s.pos, d.next)
		}
	}
}

// seekTo moves each segment's dictionary to its first term at or after
// to. Cost: O(log d) for the d terms each passes over.
func (d *dict) seekTo(to []byte) {
	for k := range d.srcs {
		s := &d.srcs[k]
		s.pos = s.f.terms.searchFrom(s.pos, to)
	}
}

func (d *dict) Close() error      { return nil }
func (d *dict) Cardinality() int  { return 0 }
func (d *dict) BytesRead() uint64 { return 0 }

// Document returns the stored fields of the live document with an ID,
// nil when there is none.
func (r *reader) Document(id string) (bleveindex.Document, error) {
	for i, s := range r.st.segs {
		d, ok := s.byID[id]
		if !ok || r.st.dead[i].has(int(d)) {
			continue
		}
		doc := &Document{id: id}
		for _, st := range s.stored {
			if st.has[d] {
				doc.fields = append(doc.fields, &StoredField{name: st.name, value: slices.Clone(st.vals.at(int(d)))})
			}
		}
		return doc, nil
	}
	return nil, nil
}

// DocValueReader returns ErrUnsupported: the index keeps no doc values.
func (r *reader) DocValueReader([]string) (bleveindex.DocValueReader, error) {
	return nil, fmt.Errorf("compact: doc values: %w", ErrUnsupported)
}

// Fields returns the names of the indexed fields.
func (r *reader) Fields() ([]string, error) {
	var all []string
	for _, s := range r.st.segs {
		all = append(all, fieldNames(s.fields)...)
	}
	slices.Sort(all)
	return slices.Compact(all), nil
}

func (r *reader) GetInternal(key []byte) ([]byte, error) {
	return slices.Clone(r.st.internal[string(key)]), nil
}

func (r *reader) DocCount() (uint64, error) { return r.st.live, nil }

// ExternalID returns the ID of an internal ID: O(log segments).
func (r *reader) ExternalID(id bleveindex.IndexInternalID) (string, error) {
	n, err := docNumber(id)
	if err != nil {
		return "", err
	}
	i, d, ok := r.st.locate(n)
	if !ok {
		return "", fmt.Errorf("compact: no document %d", n)
	}
	return r.st.segs[i].ids.str(d), nil
}

// InternalID returns the internal ID of a live document, nil when there
// is none: O(segments).
func (r *reader) InternalID(id string) (bleveindex.IndexInternalID, error) {
	n, ok := r.st.find(id)
	if !ok {
		return nil, nil
	}
	return iid(nil, n), nil
}

func (r *reader) Close() error { return nil }
