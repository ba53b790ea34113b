// Package record owns the stored form of a document: the binary record
// the engine keeps in its store under the document's ID, and the folded
// text of a record's title and body that searches cache between them.
//
// A record is immutable once encoded; the slices a decoder returns point
// into it and are valid as long as its bytes are (for a store's bytes,
// the transaction that read them). Every decoder returns ErrCorrupt for
// damaged bytes and never panics. The functions are safe for concurrent
// use; a FoldCache is too, and a Folded is read-only once made.
package record

import (
	"encoding/binary"
	"errors"
	"maps"
	"math"
	"slices"
	"time"
	"unsafe"
)

// Documents are stored in a compact binary record, small fields first so
// that filters can read them without copying the text:
//
//	version byte
//	seq                                   (uvarint: the write that stored this record)
//	pairs                                 (uvarint length + bytes: a Bloom filter of the
//	                                       text's adjacent term pairs, none when empty;
//	                                       version 3; first, as phrases read it alone)
//	kind, parent, role, project, source  (uvarint length + bytes each)
//	time                                  (varint Unix nanoseconds; 0 = unset)
//	tags                                  (uvarint count, then strings)
//	meta                                  (uvarint count, then key, value)
//	session                               (uvarint length + bytes; version 2)
//	links                                 (uvarint count, then to, type; version 2)
//	vector                                (uvarint dimension, then float32 bits
//	                                       little-endian; version 2)
//	titleTokens, bodyTokens               (uvarint: analyzed lengths, for BM25 counters)
//	text encoding                         (byte: textRaw, textSnappy or textLower)
//	title, body                           (uvarint length + bytes each; textSnappy:
//	                                       snappy-compressed together; textLower:
//	                                       text.go has its layout)
//
// Encode writes the text lowered where it can (textLower), else raw;
// records of stores written before it may hold it raw or compressed, and
// still read. The text is what a search reads most: every candidate of a
// substring the fold cache does not hold is checked against its folded
// text, which stored lowered or raw is read in place (bbolt's mmap) where
// compressed it was decompressed first: a third of a cold search's time
// on common substrings, for half the store's size.
//
// Version 1 records (no session, links or vector) and version 2 records
// (no pairs) are still read.
const version = 3

// ErrCorrupt is returned when a record's bytes are damaged or cut short.
var ErrCorrupt = errors.New("corrupt document record")

// Header is the part of a record that filters and ordering read: every
// stored field but the title and body.
type Header struct {
	Seq                                 uint64 // the write that stored the record
	Kind, Parent, Role, Project, Source string
	Time                                time.Time
	Tags                                []string
	Meta                                map[string]string
	Session                             string
	Links                               []Link
	vector                              []byte // float32 bits, decoded on demand by Vector
	TitleTokens, BodyTokens             int    // analyzed lengths, for the BM25 counters
	// Pairs is a Bloom filter (package bloom) of the PairHash of every
	// two terms at consecutive positions of the title or the body
	// (tokenize.Adjacent): a phrase whose words are not so paired in it
	// is not in the document. Nil for none: every pair may be.
	Pairs []byte
}

// Link is a stored link to the document with ID To.
type Link struct {
	To, Type string
}

// Vector decodes the record's vector; nil when it has none. Cost: one
// allocation of the vector, which most readers of a header never ask for.
func (h *Header) Vector() []float32 {
	if len(h.vector) == 0 {
		return nil
	}
	v := make([]float32, len(h.vector)/4)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(h.vector[4*i:]))
	}
	return v
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// Encode returns the record of a document whose stored fields are h (its
// vector left out) with the given vector, title and body; h.Pairs must
// be of that title and body. The text is stored lowered where it can
// be, else raw (textLower). Cost: O(size of the record), a fold of the
// text.
func Encode(h *Header, vector []float32, title, body string) []byte {
	text := len(title) + len(body)
	b := make([]byte, 0, 64+text+text/8+len(h.Kind)+len(h.Parent)) // text/8: the case masks
	b = append(b, version)
	b = binary.AppendUvarint(b, h.Seq)
	b = appendString(b, view(h.Pairs))
	for _, s := range []string{h.Kind, h.Parent, h.Role, h.Project, h.Source} {
		b = appendString(b, s)
	}
	var ns int64
	if !h.Time.IsZero() {
		ns = h.Time.UnixNano()
	}
	b = binary.AppendVarint(b, ns)
	b = binary.AppendUvarint(b, uint64(len(h.Tags)))
	for _, t := range h.Tags {
		b = appendString(b, t)
	}
	b = binary.AppendUvarint(b, uint64(len(h.Meta)))
	for _, k := range slices.Sorted(maps.Keys(h.Meta)) {
		b = appendString(b, k)
		b = appendString(b, h.Meta[k])
	}
	b = appendString(b, h.Session)
	b = binary.AppendUvarint(b, uint64(len(h.Links)))
	for _, l := range h.Links {
		b = appendString(appendString(b, l.To), l.Type)
	}
	b = binary.AppendUvarint(b, uint64(len(vector)))
	for _, x := range vector {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
	}
	b = binary.AppendUvarint(b, uint64(h.TitleTokens))
	b = binary.AppendUvarint(b, uint64(h.BodyTokens))
	return appendText(b, title, body)
}

// reader reads a record's fields in order, keeping the first error;
// after an error every read returns zero values.
type reader struct {
	b   []byte
	err error
}

func (r *reader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.err = ErrCorrupt
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *reader) varint() int64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Varint(r.b)
	if n <= 0 {
		r.err = ErrCorrupt
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *reader) bytes() []byte {
	n := r.uvarint()
	if r.err != nil {
		return nil
	}
	if n > uint64(len(r.b)) {
		r.err = ErrCorrupt
		return nil
	}
	s := r.b[:n]
	r.b = r.b[n:]
	return s
}

// count reads the number of items of a list, each of at least size
// bytes: more than the rest holds is corrupt.
func (r *reader) count(size int) uint64 {
	n := r.uvarint()
	if n > uint64(len(r.b)/size) {
		r.err = ErrCorrupt
		return 0
	}
	return n
}

// DecodeHeader decodes the small fields of a record and returns the rest
// (title and body, for DecodeText) undecoded. Cost: O(size of the
// header); the text is not read.
func DecodeHeader(b []byte) (Header, []byte, error) {
	var h Header
	end, err := scanHeader(b, &h, nil)
	return h, end.rest, err
}

// Pairs returns the record's Header.Pairs, a view of b. Cost: O(1), it
// reads the version and seq before it.
func Pairs(b []byte) ([]byte, error) {
	if len(b) == 0 || b[0] < 1 || b[0] > version {
		return nil, ErrCorrupt
	}
	if b[0] < 3 {
		return nil, nil
	}
	r := reader{b: b[1:]}
	r.uvarint()
	pairs := r.bytes()
	if len(pairs) == 0 {
		pairs = nil
	}
	return pairs, r.err
}

// MetaValues sets vals[i] to the value the record's Meta holds for
// keys[i], nil where it holds none; the values point into b. Cost: a pass
// over the header's fields, with no allocation.
func MetaValues(b []byte, keys []string, vals [][]byte) error {
	clear(vals)
	_, err := scanHeader(b, nil, func(k, v []byte) {
		for i, key := range keys {
			if string(k) == key {
				vals[i] = v
			}
		}
	})
	return err
}

// headerEnd is what of a record's layout its readers need besides the
// header's fields: its pairs filter, whose field is b[pairsAt:pairsEnd]
// (empty before version 3), and the rest after the header.
type headerEnd struct {
	pairsAt, pairsEnd int
	pairs, rest       []byte
}

// scanHeader reads a record's header, the one reader of its layout past
// the seq and pairs that Seq and Pairs read alone, and returns where it
// ends: into h unless h is nil, and each of Meta's
// pairs to meta unless meta is nil (views of b). With neither it
// allocates nothing.
func scanHeader(b []byte, h *Header, meta func(k, v []byte)) (headerEnd, error) {
	if len(b) == 0 || b[0] < 1 || b[0] > version {
		return headerEnd{}, ErrCorrupt
	}
	r := reader{b: b[1:]}
	seq := r.uvarint()
	end := headerEnd{pairsAt: len(b) - len(r.b)}
	if b[0] >= 3 {
		if end.pairs = r.bytes(); len(end.pairs) == 0 {
			end.pairs = nil
		}
	}
	end.pairsEnd = len(b) - len(r.b)
	var small [5][]byte // kind, parent, role, project, source
	for i := range small {
		small[i] = r.bytes()
	}
	ns := r.varint()
	if h != nil {
		h.Seq = seq
		h.Kind, h.Parent, h.Role, h.Project, h.Source = string(small[0]), string(small[1]), string(small[2]), string(small[3]), string(small[4])
		if ns != 0 {
			h.Time = time.Unix(0, ns).UTC()
		}
	}
	n := r.count(1)
	if h != nil && n > 0 {
		h.Tags = make([]string, n)
	}
	for i := range n {
		if t := r.bytes(); h != nil {
			h.Tags[i] = string(t)
		}
	}
	n = r.count(1)
	if h != nil && n > 0 {
		h.Meta = make(map[string]string, n)
	}
	for range n {
		k, v := r.bytes(), r.bytes()
		if h != nil {
			h.Meta[string(k)] = string(v)
		}
		if meta != nil && r.err == nil {
			meta(k, v)
		}
	}
	if b[0] >= 2 {
		if session := r.bytes(); h != nil {
			h.Session = string(session)
		}
		n = r.count(1)
		if h != nil && n > 0 {
			h.Links = make([]Link, n)
		}
		for i := range n {
			if to, typ := r.bytes(), r.bytes(); h != nil {
				h.Links[i] = Link{To: string(to), Type: string(typ)}
			}
		}
		if n := r.count(4); n > 0 {
			if h != nil {
				h.vector = r.b[:4*n]
			}
			r.b = r.b[4*n:]
		}
	}
	titleTokens, bodyTokens := r.uvarint(), r.uvarint()
	if h != nil {
		h.TitleTokens, h.BodyTokens = int(titleTokens), int(bodyTokens)
		h.Pairs = end.pairs
	}
	end.rest = r.b
	return end, r.err
}

// DecodeRecordText returns the title and body of a whole record
// (DecodeHeader, then DecodeText). Cost: DecodeText's.
func DecodeRecordText(b []byte) (title, body []byte, err error) {
	title, body, _, err = DecodeRecordTextTo(b, nil)
	return title, body, err
}

// DecodeRecordTextTo is DecodeRecordText decompressing, or restoring a
// lowered text, into buf when it is large enough, and returns the buffer
// it used, to be passed again: a search that folds many candidates'
// texts, and keeps only the folds, then makes no copy of each text (in a
// process whose fold cache is cold, those copies' fresh pages were a
// quarter of a search). title and body are valid until the buffer is
// used again.
func DecodeRecordTextTo(b, buf []byte) (title, body, used []byte, err error) {
	end, err := scanHeader(b, nil, nil)
	if err != nil {
		return nil, nil, buf, err
	}
	return decodeText(end.rest, buf)
}

// DecodeRecordStrings is DecodeRecordText as strings that share the
// bytes it returns (the record's, or a decompressed copy no one else
// holds): valid as long as the record is, and never written. A search
// that analyzes a candidate's text reads it this way without copying it.
func DecodeRecordStrings(b []byte) (title, body string, err error) {
	t, bd, err := DecodeRecordText(b)
	return view(t), view(bd), err
}

// view returns b as a string that shares its bytes, which must not be
// written after.
func view(b []byte) string {
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// DecodeText returns the title and body of a record's rest as written:
// slices of it (valid as long as the record is) for raw text, new slices
// for compressed or lowered text. Cost: O(size of the text), a
// decompression when it is compressed, a copy when it is lowered.
func DecodeText(rest []byte) (title, body []byte, err error) {
	title, body, _, err = decodeText(rest, nil)
	return title, body, err
}

// decodeText is DecodeText decompressing, or restoring a lowered text,
// into buf when it is large enough; used is the buffer it used, else buf.
func decodeText(rest, buf []byte) (title, body, used []byte, err error) {
	t, used, err := decodeStored(rest, buf)
	if err != nil {
		return nil, nil, buf, err
	}
	return t.restore(used)
}

// Raw returns a record as a snapshot ships it: its text uncompressed and
// without its pairs filter (Header.Pairs), which a shipped index pays for
// in bytes more than a few phrases' searches save. rec itself when it is
// so, a new record otherwise.
func Raw(rec []byte) ([]byte, error) {
	end, err := scanHeader(rec, nil, nil)
	if err != nil {
		return nil, err
	}
	rest := end.rest
	if len(rest) == 0 {
		return nil, ErrCorrupt
	}
	if rest[0] == textRaw && end.pairs == nil {
		return rec, nil
	}
	title, body, err := DecodeText(rest)
	if err != nil {
		return nil, err
	}
	out := rec[:end.pairsAt:end.pairsAt]
	if rec[0] >= 3 {
		out = append(out, 0) // no pairs
	}
	out = append(out, rec[end.pairsEnd:len(rec)-len(rest)]...)
	out = append(out, textRaw)
	return appendString(appendString(out, string(title)), string(body)), nil
}

// Seq returns the write sequence number of a record without decoding
// the rest of its header. Cost: O(1).
func Seq(rec []byte) (uint64, error) {
	if len(rec) == 0 || rec[0] < 1 || rec[0] > version {
		return 0, ErrCorrupt
	}
	r := reader{b: rec[1:]}
	seq := r.uvarint()
	return seq, r.err
}
