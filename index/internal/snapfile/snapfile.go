// Package snapfile writes and reads the snapshot file of a memory index:
// the buckets of its store and its text index, as the index's backend
// encodes it, so that a page can load a prebuilt index instead of
// indexing a corpus itself. The trigram index is not in it: the engine
// rebuilds it from the store's text, which costs less time than its
// postings would cost bytes. Loading costs a pass over the bytes; nothing
// is sorted again.
//
// Layout, all integers uvarints unless said otherwise:
//
//	magic "TWXSNAP\x02"
//	store: number of buckets, then per bucket: name length, name, entries
//	text:  length, then the text index's bytes
//	CRC-32C of everything before it, 4 bytes big-endian
//
// entries is a count, then per entry in strictly increasing key order:
// the length of the prefix shared with the previous key, the length of
// the rest, the rest, the value's length, the value.
//
// The package knows the layout, not what the buckets or the text index
// mean: the engine chooses the buckets and checks the contents. Version 1
// (the rows of two upsidedown indexes) is no longer read. Its functions
// are safe for concurrent use.
package snapfile

import (
	"bufio"
	"encoding/binary"
	"hash/crc32"
	"io"
)

const magic = "TWXSNAP\x02"

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// A Bucket is a bucket of the store: its name and its entries, keys in
// strictly increasing order.
type Bucket struct {
	Name       []byte
	Keys, Vals [][]byte
}

// Write writes a snapshot of the store's buckets and the text index's
// bytes to w, returning the first error of w. Cost: O(size of the
// snapshot), through a 64 KiB buffer.
func Write(w io.Writer, buckets []Bucket, text []byte) error {
	crc := crc32.New(castagnoli)
	bw := bufio.NewWriterSize(io.MultiWriter(w, crc), 1<<16)
	e := encoder{w: bw}
	e.raw([]byte(magic))
	e.uvarint(uint64(len(buckets)))
	for _, b := range buckets {
		e.bytes(b.Name)
		e.entries(b.Keys, b.Vals)
	}
	e.bytes(text)
	if e.err == nil {
		e.err = bw.Flush()
	}
	if e.err == nil {
		_, e.err = w.Write(binary.BigEndian.AppendUint32(nil, crc.Sum32()))
	}
	return e.err
}

// encoder writes the snapshot's parts, keeping the first error.
type encoder struct {
	w   *bufio.Writer
	buf []byte
	err error
}

func (e *encoder) raw(p []byte) {
	if e.err == nil {
		_, e.err = e.w.Write(p)
	}
}

func (e *encoder) uvarint(v uint64) {
	e.buf = binary.AppendUvarint(e.buf[:0], v)
	e.raw(e.buf)
}

func (e *encoder) bytes(p []byte) {
	e.uvarint(uint64(len(p)))
	e.raw(p)
}

// entries writes the entries, keys in increasing order, each key as the
// length it shares with the previous one and the rest.
func (e *encoder) entries(keys, vals [][]byte) {
	e.uvarint(uint64(len(keys)))
	var prev []byte
	for i, k := range keys {
		shared := 0
		for shared < len(prev) && shared < len(k) && prev[shared] == k[shared] {
			shared++
		}
		e.uvarint(uint64(shared))
		e.bytes(k[shared:])
		e.bytes(vals[i])
		prev = k
	}
}
