package snapfile

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"

	"github.com/twindex/twindex/index/internal/memkv"
)

var (
	errChecksum = errors.New("checksum mismatch: the bytes are damaged or cut short")
	errMagic    = errors.New("not a twindex snapshot, or one of another version")
)

// A File is a decoded snapshot. Its buckets' values point into the bytes
// it was decoded from; the trees hold copies.
type File struct {
	Buckets       []Bucket
	Text, Trigram *memkv.Store
}

// Decode decodes a snapshot that Write wrote. Damaged or cut-short bytes,
// keys out of order and bytes after the last part are errors, which say
// at which byte for a body whose checksum matches; Decode never panics.
// Cost: O(len(data)), with no sorting.
func Decode(data []byte) (*File, error) {
	if len(data) < len(magic)+4 || !bytes.HasPrefix(data, []byte(magic)) {
		return nil, errMagic
	}
	body := data[:len(data)-4]
	if crc32.Checksum(body, castagnoli) != binary.BigEndian.Uint32(data[len(body):]) {
		return nil, errChecksum
	}
	d := decoder{data: body, off: len(magic)}
	var f File
	nb := d.count(2)
	for range nb {
		b := Bucket{Name: d.bytes()}
		d.entries(func(k, v []byte) { b.Keys, b.Vals = append(b.Keys, bytes.Clone(k)), append(b.Vals, v) })
		f.Buckets = append(f.Buckets, b)
	}
	f.Text = d.tree()
	f.Trigram = d.tree()
	if d.err == nil && d.off != len(body) {
		d.fail("%d bytes after the last part", len(body)-d.off)
	}
	if d.err != nil {
		return nil, d.err
	}
	return &f, nil
}

// decoder reads a snapshot's parts, keeping the first error; after an
// error every read returns zero values. It reads by offset, unlike the
// engine's record reader, so that its errors say at which byte.
type decoder struct {
	data []byte
	off  int
	err  error
}

func (d *decoder) fail(format string, a ...any) {
	if d.err == nil {
		d.err = fmt.Errorf("at byte %d: %s", d.off, fmt.Sprintf(format, a...))
	}
}

func (d *decoder) uvarint() uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.data[d.off:])
	if n <= 0 {
		d.fail("bad or cut-short number")
		return 0
	}
	d.off += n
	return v
}

// count reads a number of items of at least minSize bytes each, refusing
// one that the remaining bytes cannot hold before anything is allocated.
func (d *decoder) count(minSize int) int {
	v := d.uvarint()
	if v > uint64((len(d.data)-d.off)/minSize) {
		d.fail("count %d is more than the remaining bytes hold", v)
		return 0
	}
	return int(v)
}

// bytes reads a length and that many bytes, which point into the input.
func (d *decoder) bytes() []byte {
	n := d.uvarint()
	if d.err != nil {
		return nil
	}
	if n > uint64(len(d.data)-d.off) {
		d.fail("length %d runs past the end", n)
		return nil
	}
	p := d.data[d.off : d.off+int(n) : d.off+int(n)]
	d.off += int(n)
	return p
}

// entries reads a list of entries and calls fn with each; the key is
// valid only during the call, the value points into the input.
func (d *decoder) entries(fn func(k, v []byte)) {
	n := d.count(3)
	var key []byte
	for i := range n {
		shared := d.uvarint()
		rest := d.bytes()
		val := d.bytes()
		if d.err != nil {
			return
		}
		if shared > uint64(len(key)) {
			d.fail("entry %d shares %d bytes with a key of %d", i, shared, len(key))
			return
		}
		// The shared prefix is the longest there is, so a key greater
		// than the one before differs at the first byte of the rest.
		if i > 0 && (len(rest) == 0 || shared < uint64(len(key)) && rest[0] <= key[shared]) {
			d.fail("entry %d: keys out of order", i)
			return
		}
		key = append(key[:shared], rest...)
		fn(key, val)
	}
}

// tree reads a list of entries into a store, as memkv.Builder builds it:
// O(n), no sorting. It is entries with the decoding inlined: this loop is
// most of the time a page takes to load a snapshot.
func (d *decoder) tree() *memkv.Store {
	n := d.count(3)
	var b memkv.Builder
	data, off := d.data, d.off
	var key []byte
	for i := range n {
		var shared, klen, vlen uint64
		var ok bool
		if shared, off, ok = uvarintAt(data, off); ok {
			if klen, off, ok = uvarintAt(data, off); ok && klen <= uint64(len(data)-off) {
				rest := data[off : off+int(klen)]
				off += int(klen)
				if vlen, off, ok = uvarintAt(data, off); ok && vlen <= uint64(len(data)-off) {
					if shared > uint64(len(key)) ||
						i > 0 && (len(rest) == 0 || shared < uint64(len(key)) && rest[0] <= key[shared]) {
						d.off = off
						d.fail("entry %d: key out of order or sharing more than the key before has", i)
						return nil
					}
					key = append(key[:shared], rest...)
					b.Add(key, data[off:off+int(vlen)])
					off += int(vlen)
					continue
				}
			}
		}
		d.off = off
		d.fail("entry %d: bad or cut-short number or length", i)
		return nil
	}
	d.off = off
	return b.Store()
}

// uvarintAt reads a uvarint at data[off:], returning it and the offset
// after it; ok is false when it is cut short or too long.
func uvarintAt(data []byte, off int) (v uint64, next int, ok bool) {
	if off < len(data) && data[off] < 0x80 {
		return uint64(data[off]), off + 1, true
	}
	if off > len(data) {
		return 0, off, false
	}
	v, n := binary.Uvarint(data[off:])
	return v, off + n, n > 0
}
