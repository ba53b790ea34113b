package index

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/golang/snappy"

	"github.com/twindex/twindex/storage"
)

// Documents are stored in a compact binary record, small fields first so
// that filters can read them without copying the text:
//
//	version byte
//	seq                                   (uvarint: the write that stored this record)
//	kind, parent, role, project, source  (uvarint length + bytes each)
//	time                                  (varint Unix nanoseconds; 0 = unset)
//	tags                                  (uvarint count, then strings)
//	meta                                  (uvarint count, then key, value)
//	session                               (uvarint length + bytes; version 2)
//	links                                 (uvarint count, then to, type; version 2)
//	vector                                (uvarint dimension, then float32 bits
//	                                       little-endian; version 2)
//	titleTokens, bodyTokens               (uvarint: analyzed lengths, for BM25 counters)
//	text encoding                         (byte: textRaw or textSnappy)
//	title, body                           (uvarint length + bytes each; snappy-compressed
//	                                       together when that saves space)
//
// Version 1 records (no session, links or vector) are still read.
const recordVersion = 2

// Text encodings.
const (
	textRaw    = 0
	textSnappy = 1
)

// compressMin is the smallest text worth compressing.
const compressMin = 512

var errCorruptRecord = errors.New("corrupt document record")

// header is the part of a record that filters and ordering read.
type header struct {
	Seq                                 uint64
	Kind, Parent, Role, Project, Source string
	Time                                time.Time
	Tags                                []string
	Meta                                map[string]string
	Session                             string
	Links                               []Link
	vector                              []byte // float32 bits, decoded on demand by Vector
	TitleTokens, BodyTokens             int
}

// Vector decodes the record's vector; nil when it has none.
func (h *header) Vector() []float32 {
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

func encodeDoc(d *Doc, seq uint64, titleTokens, bodyTokens int) []byte {
	b := make([]byte, 0, 64+len(d.Title)+len(d.Body)+len(d.Kind)+len(d.Parent))
	b = append(b, recordVersion)
	b = binary.AppendUvarint(b, seq)
	for _, s := range []string{d.Kind, d.Parent, d.Role, d.Project, d.Source} {
		b = appendString(b, s)
	}
	var ns int64
	if !d.Time.IsZero() {
		ns = d.Time.UnixNano()
	}
	b = binary.AppendVarint(b, ns)
	b = binary.AppendUvarint(b, uint64(len(d.Tags)))
	for _, t := range d.Tags {
		b = appendString(b, t)
	}
	b = binary.AppendUvarint(b, uint64(len(d.Meta)))
	for _, k := range sortedKeys(d.Meta) {
		b = appendString(b, k)
		b = appendString(b, d.Meta[k])
	}
	b = appendString(b, d.Session)
	b = binary.AppendUvarint(b, uint64(len(d.Links)))
	for _, l := range d.Links {
		b = appendString(appendString(b, l.To), l.Type)
	}
	b = binary.AppendUvarint(b, uint64(len(d.Vector)))
	for _, x := range d.Vector {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
	}
	b = binary.AppendUvarint(b, uint64(titleTokens))
	b = binary.AppendUvarint(b, uint64(bodyTokens))
	text := appendString(appendString(nil, d.Title), d.Body)
	if len(text) >= compressMin {
		if z := snappy.Encode(nil, text); len(z) < len(text)*9/10 {
			return append(append(b, textSnappy), z...)
		}
	}
	return append(append(b, textRaw), text...)
}

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
		r.err = errCorruptRecord
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
		r.err = errCorruptRecord
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
		r.err = errCorruptRecord
		return nil
	}
	s := r.b[:n]
	r.b = r.b[n:]
	return s
}

func (r *reader) string() string { return string(r.bytes()) }

// decodeHeader decodes the small fields of a record and returns the rest
// (title and body) undecoded.
func decodeHeader(b []byte) (header, []byte, error) {
	var h header
	if len(b) == 0 || b[0] < 1 || b[0] > recordVersion {
		return h, nil, errCorruptRecord
	}
	r := reader{b: b[1:]}
	h.Seq = r.uvarint()
	h.Kind, h.Parent, h.Role, h.Project, h.Source = r.string(), r.string(), r.string(), r.string(), r.string()
	if ns := r.varint(); ns != 0 {
		h.Time = time.Unix(0, ns).UTC()
	}
	if n := r.uvarint(); n > 0 && n <= uint64(len(r.b)) {
		h.Tags = make([]string, n)
		for i := range h.Tags {
			h.Tags[i] = r.string()
		}
	} else if n > uint64(len(r.b)) {
		r.err = errCorruptRecord
	}
	if n := r.uvarint(); n > 0 && n <= uint64(len(r.b)) {
		h.Meta = make(map[string]string, n)
		for range n {
			k := r.string()
			h.Meta[k] = r.string()
		}
	} else if n > uint64(len(r.b)) {
		r.err = errCorruptRecord
	}
	if b[0] >= 2 {
		h.Session = r.string()
		if n := r.uvarint(); n > 0 && n <= uint64(len(r.b)) {
			h.Links = make([]Link, n)
			for i := range h.Links {
				h.Links[i] = Link{To: r.string(), Type: r.string()}
			}
		} else if n > uint64(len(r.b)) {
			r.err = errCorruptRecord
		}
		if n := r.uvarint(); n > 0 && n <= uint64(len(r.b))/4 {
			h.vector, r.b = r.b[:4*n], r.b[4*n:]
		} else if n > uint64(len(r.b))/4 {
			r.err = errCorruptRecord
		}
	}
	h.TitleTokens, h.BodyTokens = int(r.uvarint()), int(r.uvarint())
	return h, r.b, r.err
}

// decodeText returns the title and body of a record's rest: slices of it
// (valid as long as the record is) for raw text, new slices for
// compressed text.
func decodeText(rest []byte) (title, body []byte, err error) {
	if len(rest) == 0 {
		return nil, nil, errCorruptRecord
	}
	switch rest[0] {
	case textRaw:
		rest = rest[1:]
	case textSnappy:
		if rest, err = snappy.Decode(nil, rest[1:]); err != nil {
			return nil, nil, fmt.Errorf("%w: %w", errCorruptRecord, err)
		}
	default:
		return nil, nil, errCorruptRecord
	}
	r := reader{b: rest}
	title, body = r.bytes(), r.bytes()
	return title, body, r.err
}

// rawRecord returns a record with its text uncompressed: rec itself when
// it is, a new record otherwise.
func rawRecord(rec []byte) ([]byte, error) {
	_, rest, err := decodeHeader(rec)
	if err != nil {
		return nil, err
	}
	if len(rest) == 0 || rest[0] == textRaw {
		return rec, nil
	}
	title, body, err := decodeText(rest)
	if err != nil {
		return nil, err
	}
	out := append(rec[:len(rec)-len(rest):len(rec)-len(rest)], textRaw)
	return appendString(appendString(out, string(title)), string(body)), nil
}

// doc returns the document with ID id that h describes, all but its
// title and body.
func (h *header) doc(id string) *Doc {
	return &Doc{
		ID: id, Kind: h.Kind, Parent: h.Parent, Tags: h.Tags, Role: h.Role, Project: h.Project,
		Source: h.Source, Time: h.Time, Meta: h.Meta, Session: h.Session, Links: h.Links, Vector: h.Vector(),
	}
}

// decodeDoc decodes a record in full, or with text false all but the
// title and body, which are then never decompressed.
func decodeDoc(id string, b []byte, text bool) (*Doc, header, error) {
	h, rest, err := decodeHeader(b)
	if err != nil {
		return nil, h, fmt.Errorf("document %q: %w", id, err)
	}
	d := h.doc(id)
	if text {
		title, body, err := decodeText(rest)
		if err != nil {
			return nil, h, fmt.Errorf("document %q: %w", id, err)
		}
		d.Title, d.Body = string(title), string(body)
	}
	return d, h, nil
}

// eachDoc calls fn with every stored document in ID order, decoded as
// decodeDoc does, until fn fails or ctx ends.
func eachDoc(ctx context.Context, tx storage.Tx, text bool, fn func(*Doc) error) error {
	return tx.Scan(bucketDocs, nil, func(k, v []byte) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		d, _, err := decodeDoc(string(k), v, text)
		if err != nil {
			return err
		}
		return fn(d)
	})
}
