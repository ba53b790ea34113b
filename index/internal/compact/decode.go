package compact

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"

	bleveindex "github.com/blevesearch/bleve_index_api"
)

// Decode returns the index that Encode wrote to data, whose writes
// analyze on q (nil: on the writer's goroutine). It checks what the
// index relies on (bounds, order, unique IDs) and returns an error
// wrapping ErrCorrupt for anything else, never a partial index; nothing
// it returns refers to data. Cost: O(len(data)).
func Decode(data []byte, q *bleveindex.AnalysisQueue) (*Index, error) {
	d := decoder{b: data}
	st, err := d.state()
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrCorrupt, err)
	}
	x := New(q)
	x.cur.Store(st)
	return x, nil
}

// decoder reads from b, keeping its first error.
type decoder struct {
	b   []byte
	err error
}

// fail keeps the first error and drops what is left to read, so that
// every later read finds nothing.
func (d *decoder) fail(format string, a ...any) {
	if d.err == nil {
		d.err = fmt.Errorf(format, a...)
	}
	d.b = nil
}

// short reads a number of one byte, as most of an index's are, and
// reports whether there was one; it is small enough to be inlined in
// the postings' loops, which uvarint is not.
func (d *decoder) short() (uint64, bool) {
	if b := d.b; len(b) > 0 && b[0] < 0x80 {
		d.b = b[1:]
		return uint64(b[0]), true
	}
	return 0, false
}

// uvarint reads a number, after an error 0.
func (d *decoder) uvarint() uint64 {
	if v, ok := d.short(); ok {
		return v
	}
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.fail("bad number at %d bytes from the end", len(d.b))
		return 0
	}
	d.b = d.b[n:]
	return v
}

// u32 reads a number that must fit in 32 bits.
func (d *decoder) u32(what string) uint32 {
	v := d.uvarint()
	if v > math.MaxUint32 {
		d.fail("%s %d out of range", what, v)
		return 0
	}
	return uint32(v)
}

// count reads the number of items that follow, each of at least one
// byte, so that no count makes Decode allocate more than the input.
func (d *decoder) count(what string) int {
	v := d.uvarint()
	if v > uint64(len(d.b)) {
		d.fail("%d %s in %d bytes", v, what, len(d.b))
		return 0
	}
	return int(v)
}

func (d *decoder) bytes() []byte {
	n := d.count("bytes")
	if d.err != nil {
		return nil
	}
	b := d.b[:n:n]
	d.b = d.b[n:]
	return b
}

// frontCoded reads n strings that Encode front-coded, into b; with
// increasing set, each must be greater than the one before.
func (d *decoder) frontCoded(b *blob, n int, increasing bool) {
	var prev []byte
	for i := range n {
		shared := d.uvarint()
		rest := d.bytes()
		if d.err != nil {
			return
		}
		if shared > uint64(len(prev)) {
			d.fail("string %d shares %d bytes with one of %d", i, shared, len(prev))
			return
		}
		start := len(b.data)
		b.data = append(append(b.data, prev[:shared]...), rest...)
		if uint64(len(b.data)) > math.MaxUint32 {
			d.fail("strings over 4 GiB")
			return
		}
		b.ends = append(b.ends, uint32(len(b.data)))
		s := b.data[start:]
		if increasing && i > 0 && bytes.Compare(s, prev) <= 0 {
			d.fail("term %d out of order", i)
			return
		}
		prev = s
	}
}

func (d *decoder) state() (*state, error) {
	if v := d.uvarint(); d.err == nil && v != version {
		return nil, fmt.Errorf("version %d, want %d", v, version)
	}
	st := &state{internal: map[string][]byte{}}
	for range d.count("internal keys") {
		k, v := d.bytes(), d.bytes()
		st.internal[string(k)] = bytes.Clone(v)
	}
	s := &segment{}
	n := d.count("documents")
	d.frontCoded(&s.ids, n, false)
	if d.err != nil {
		return nil, d.err
	}
	s.indexIDs()
	if len(s.byID) != n {
		return nil, fmt.Errorf("%d documents with %d IDs", n, len(s.byID))
	}
	for range d.count("stored fields") {
		sf := stored{name: string(d.bytes()), has: make([]bool, n)}
		for i := range n {
			l := d.uvarint()
			if l == 0 {
				sf.vals.add(nil)
				continue
			}
			if l-1 > uint64(len(d.b)) {
				d.fail("stored value of %d bytes in %d", l-1, len(d.b))
				break
			}
			sf.vals.add(d.b[:l-1])
			d.b = d.b[l-1:]
			sf.has[i] = true
		}
		if len(s.stored) > 0 && s.stored[len(s.stored)-1].name >= sf.name {
			d.fail("stored field %q out of order", sf.name)
		}
		s.stored = append(s.stored, sf)
	}
	for range d.count("fields") {
		f := d.field(n)
		if len(s.fields) > 0 && s.fields[len(s.fields)-1].name >= f.name {
			d.fail("field %q out of order", f.name)
		}
		s.fields = append(s.fields, f)
	}
	if d.err == nil && len(d.b) > 0 {
		d.fail("%d bytes after the end", len(d.b))
	}
	if d.err != nil {
		return nil, d.err
	}
	if n > 0 {
		st.add(s)
	}
	return st, nil
}

func (d *decoder) field(n int) field {
	f := field{name: string(d.bytes()), lens: make([]uint32, n)}
	for i := range f.lens {
		f.lens[i] = d.u32("field length")
	}
	nt := d.count("terms")
	d.frontCoded(&f.terms, nt, true)
	if d.err != nil {
		return f
	}
	f.start = make([]uint32, nt+1)
	total := uint64(0)
	for t := range nt {
		df := d.uvarint()
		if df == 0 || df > uint64(n) {
			d.fail("term %d in %d of %d documents", t, df, n)
			return f
		}
		total += df
		if total > uint64(len(d.b)) || total > math.MaxUint32 {
			d.fail("%d postings in %d bytes", total, len(d.b))
			return f
		}
		f.start[t+1] = uint32(total)
	}
	f.docs = make([]uint32, total)
	for t := range nt {
		next := uint64(0)
		for p := f.start[t]; p < f.start[t+1]; p++ {
			delta, ok := d.short()
			if !ok {
				delta = d.uvarint()
			}
			doc := next + delta
			if doc >= uint64(n) {
				d.fail("posting of document %d of %d", doc, n)
				return f
			}
			f.docs[p] = uint32(doc)
			next = doc + 1
		}
	}
	f.freqs = freqList{small: make([]uint8, total)}
	for p := range total {
		fr, ok := d.short()
		if !ok {
			fr = d.uvarint()
		}
		if fr >= math.MaxUint32 {
			d.fail("frequency %d out of range", fr)
			return f
		}
		f.freqs.set(uint32(p), uint32(fr)+1)
	}
	return f
}
