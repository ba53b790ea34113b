// Package snapfile writes and reads the snapshot file of a memory index:
// the buckets of its store and the rows of its two upsidedown indexes
// (text and trigram), so that a page can load a prebuilt index instead of
// indexing a corpus itself. Loading costs a pass over the bytes; nothing
// is sorted again.
//
// Layout, all integers uvarints unless said otherwise:
//
//	magic "TWXSNAP\x01"
//	store:   number of buckets, then per bucket: name length, name, entries
//	text:    entries (the text index's key/value rows)
//	trigram: entries (the trigram index's rows)
//	CRC-32C of everything before it, 4 bytes big-endian
//
// entries is a count, then per entry in strictly increasing key order:
// the length of the prefix shared with the previous key, the length of
// the rest, the rest, the value's length, the value.
//
// The package knows the layout, not what the buckets or rows mean: the
// engine chooses the buckets and checks the contents. Its functions are
// safe for concurrent use.
package snapfile

import (
	"bufio"
	"encoding/binary"
	"hash/crc32"
	"io"

	"github.com/twindex/twindex/index/internal/memkv"
)

const magic = "TWXSNAP\x01"

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// A Bucket is a bucket of the store: its name and its entries, keys in
// strictly increasing order.
type Bucket struct {
	Name       []byte
	Keys, Vals [][]byte
}

// Write writes a snapshot of the store's buckets and the two indexes'
// rows to w, returning the first error of w. Cost: O(size of the
// snapshot), through a 64 KiB buffer.
func Write(w io.Writer, buckets []Bucket, text, trigram memkv.Snapshot) error {
	crc := crc32.New(castagnoli)
	bw := bufio.NewWriterSize(io.MultiWriter(w, crc), 1<<16)
	e := encoder{w: bw}
	e.raw([]byte(magic))
	e.uvarint(uint64(len(buckets)))
	for _, b := range buckets {
		e.bytes(b.Name)
		e.entries(len(b.Keys), func(yield func(k, v []byte)) {
			for i := range b.Keys {
				yield(b.Keys[i], b.Vals[i])
			}
		})
	}
	for _, t := range []memkv.Snapshot{text, trigram} {
		e.entries(t.Len(), t.Walk)
	}
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

// entries writes n entries, which each yields in increasing key order,
// each key as the length it shares with the previous one and the rest.
func (e *encoder) entries(n int, each func(yield func(k, v []byte))) {
	e.uvarint(uint64(n))
	var prev []byte
	each(func(k, v []byte) {
		shared := 0
		for shared < len(prev) && shared < len(k) && prev[shared] == k[shared] {
			shared++
		}
		e.uvarint(uint64(shared))
		e.bytes(k[shared:])
		e.bytes(v)
		prev = k
	})
}
