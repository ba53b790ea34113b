package index

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"

	"github.com/blevesearch/bleve/v2/index/upsidedown"
	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/twindex/twindex/index/internal/memkv"
	"github.com/twindex/twindex/storage"
)

// A snapshot is a memory index written out whole: its store and the rows
// of both upsidedown indexes, so that a page can load a prebuilt index
// instead of indexing a corpus itself. Loading costs a pass over the
// bytes; nothing is analyzed or sorted again.
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
const snapshotMagic = "TWXSNAP\x01"

// snapshotBuckets are the store's buckets a snapshot holds: all of those
// in index.go but the write log, which has nothing to replay for indexes
// in step with their store. A bucket added there must be added here.
var snapshotBuckets = [][]byte{bucketMeta, bucketDocs, bucketChildren, bucketLinks}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// WriteSnapshot writes the whole index to w, for OpenSnapshot. The index
// must be a memory index on the UpsideDown backend. Writes wait while it
// takes its point-in-time view (a copy of the store's entries, O(store
// entries)), not while it writes; searches never wait. Cost: O(size of
// the index).
func (ix *Index) WriteSnapshot(w io.Writer) error {
	view, err := ix.snapshotView()
	if err != nil {
		return fmt.Errorf("write snapshot: %w", err)
	}
	crc := crc32.New(castagnoli)
	bw := bufio.NewWriterSize(io.MultiWriter(w, crc), 1<<16)
	e := snapshotEncoder{w: bw}
	e.raw([]byte(snapshotMagic))
	e.uvarint(uint64(len(view.buckets)))
	for _, b := range view.buckets {
		e.bytes(b.name)
		e.entries(len(b.keys), func(yield func(k, v []byte)) {
			for i := range b.keys {
				yield(b.keys[i], b.vals[i])
			}
		})
	}
	for _, t := range view.trees {
		e.entries(t.Len(), t.Walk)
	}
	if e.err == nil {
		e.err = bw.Flush()
	}
	if e.err == nil {
		_, e.err = w.Write(binary.BigEndian.AppendUint32(nil, crc.Sum32()))
	}
	if e.err != nil {
		return fmt.Errorf("write snapshot: %w", e.err)
	}
	return nil
}

// snapshotView is what a snapshot holds, taken at one point in time.
type snapshotView struct {
	buckets []snapshotBucket
	trees   [2]memkv.Snapshot // text, trigram
}

// snapshotView takes the store's entries and the roots of both trees
// while no write runs, so that they show the same writes.
func (ix *Index) snapshotView() (*snapshotView, error) {
	ix.writeMu.Lock()
	defer ix.writeMu.Unlock()
	ix.mu.RLock()
	err := ix.ready(readsInStep)
	ix.mu.RUnlock()
	if err != nil {
		return nil, fmt.Errorf("snapshot: %w", err)
	}
	var v snapshotView
	for i, idx := range []bleveindex.Index{ix.text, ix.tri} {
		kv, err := memKVOf(idx)
		if err != nil {
			return nil, err
		}
		v.trees[i] = kv.Snapshot()
	}
	err = ix.store.View(func(tx storage.Tx) error {
		for _, name := range snapshotBuckets {
			b := snapshotBucket{name: name}
			err := tx.Scan(name, nil, func(k, val []byte) error {
				// Copies: a store's bytes are valid only in its transaction.
				b.keys, b.vals = append(b.keys, bytes.Clone(k)), append(b.vals, bytes.Clone(val))
				return nil
			})
			if err != nil {
				return err
			}
			v.buckets = append(v.buckets, b)
		}
		return nil
	})
	return &v, err
}

// memKVOf returns the store under a memory upsidedown index.
func memKVOf(idx bleveindex.Index) (*memkv.Store, error) {
	if ud, ok := idx.(*upsidedown.UpsideDownCouch); ok {
		if kv, err := ud.Advanced(); err == nil {
			if m, ok := kv.(*memkv.Store); ok {
				return m, nil
			}
		}
	}
	return nil, fmt.Errorf("%w: snapshots need a memory index on the %s backend", ErrBackend, UpsideDown)
}

// snapshotEncoder writes the snapshot's parts, keeping the first error.
type snapshotEncoder struct {
	w   *bufio.Writer
	buf []byte
	err error
}

func (e *snapshotEncoder) raw(p []byte) {
	if e.err == nil {
		_, e.err = e.w.Write(p)
	}
}

func (e *snapshotEncoder) uvarint(v uint64) {
	e.buf = binary.AppendUvarint(e.buf[:0], v)
	e.raw(e.buf)
}

func (e *snapshotEncoder) bytes(p []byte) {
	e.uvarint(uint64(len(p)))
	e.raw(p)
}

// entries writes n entries, which each yields in increasing key order,
// each key as the length it shares with the previous one and the rest.
func (e *snapshotEncoder) entries(n int, each func(yield func(k, v []byte))) {
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

// OpenSnapshot returns a memory index loaded from a snapshot that
// WriteSnapshot wrote. Options are as for OpenMemory; the backend is
// UpsideDown, and another is ErrBackend. Damaged or truncated bytes give
// an error matching ErrCorrupt (a *CorruptError whose Path is "snapshot").
// Cost: O(size of the snapshot), with no analysis or sorting.
func OpenSnapshot(r io.Reader, opts *Options) (*Index, error) {
	if opts != nil && opts.Backend != "" && opts.Backend != UpsideDown {
		return nil, fmt.Errorf("open snapshot: %w: snapshots hold %s indexes, not %s", ErrBackend, UpsideDown, opts.Backend)
	}
	o := opts.withDefaults()
	o.Backend = UpsideDown
	var buf bytes.Buffer
	if l, ok := r.(interface{ Len() int }); ok {
		buf.Grow(l.Len()) // read a bytes.Reader in one copy
	}
	if _, err := buf.ReadFrom(r); err != nil {
		return nil, fmt.Errorf("open snapshot: %w", err)
	}
	snap, err := decodeSnapshot(buf.Bytes())
	if err != nil {
		return nil, &CorruptError{Path: "snapshot", Err: err}
	}
	st := storage.NewMemory(&storage.Options{Fault: o.fault})
	err = st.Update(func(tx storage.Tx) error {
		for _, b := range snap.buckets {
			for i := range b.keys {
				if err := tx.Put(b.name, b.keys[i], b.vals[i]); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		st.Close()
		return nil, fmt.Errorf("open snapshot: %w", err)
	}

	// Open an empty index, then put the snapshot's store and indexes in
	// place of its own before anyone else can see it.
	ix, err := open("", storage.NewMemory(&storage.Options{Fault: o.fault}), o)
	if err != nil {
		st.Close()
		return nil, fmt.Errorf("open snapshot: %w", err)
	}
	if err := ix.adopt(st, snap); err != nil {
		ix.Close()
		return nil, err
	}
	return ix, nil
}

// adopt replaces ix's store and bleve indexes, which are empty and which
// nothing else uses yet, with a snapshot's.
func (ix *Index) adopt(st storage.Store, snap *snapshot) (err error) {
	// bleve reads the rows as it opens them and may panic on bad ones.
	defer ix.guard(&err)
	ix.publish(nil) // the empty indexes' view
	old := ix.store
	ix.store = st
	old.Close()
	for _, leg := range []struct {
		idx *bleveindex.Index
		kv  *memkv.Store
	}{{&ix.text, snap.text}, {&ix.tri, snap.tri}} {
		idx, err := openUpsideDown(leg.kv, ix.queue)
		if err != nil {
			return &CorruptError{Path: "snapshot", Err: err}
		}
		(*leg.idx).Close()
		*leg.idx = idx
	}
	if err := ix.checkSchema(); err != nil {
		return fmt.Errorf("open snapshot: %w", err)
	}
	if err := ix.checkSnapshotSeq(); err != nil {
		return &CorruptError{Path: "snapshot", Err: err}
	}
	seq, err := ix.storedSeq()
	if err != nil {
		return err
	}
	ix.publish(&view{seq: seq})
	return nil
}

// checkSnapshotSeq makes sure both indexes have applied every write of
// the store: a snapshot has no log to catch up from.
func (ix *Index) checkSnapshotSeq() error {
	seq, err := ix.storedSeq()
	if err != nil {
		return err
	}
	for _, idx := range []bleveindex.Index{ix.text, ix.tri} {
		applied, err := appliedSeq(idx)
		if err != nil {
			return err
		}
		if applied != seq {
			return fmt.Errorf("an index is at write %d, the store at %d", applied, seq)
		}
	}
	return nil
}

// snapshot is a decoded snapshot. Its store values point into the bytes
// it was decoded from.
type snapshot struct {
	buckets   []snapshotBucket
	text, tri *memkv.Store
}

type snapshotBucket struct {
	name       []byte
	keys, vals [][]byte
}

var (
	errSnapshotChecksum = errors.New("checksum mismatch: the bytes are damaged or cut short")
	errSnapshotMagic    = errors.New("not a twindex snapshot, or one of another version")
)

func decodeSnapshot(data []byte) (*snapshot, error) {
	if len(data) < len(snapshotMagic)+4 || !bytes.HasPrefix(data, []byte(snapshotMagic)) {
		return nil, errSnapshotMagic
	}
	body := data[:len(data)-4]
	if crc32.Checksum(body, castagnoli) != binary.BigEndian.Uint32(data[len(body):]) {
		return nil, errSnapshotChecksum
	}
	d := snapshotDecoder{data: body, off: len(snapshotMagic)}
	var s snapshot
	nb := d.count(2)
	for range nb {
		b := snapshotBucket{name: d.bytes()}
		d.entries(func(k, v []byte) { b.keys, b.vals = append(b.keys, bytes.Clone(k)), append(b.vals, v) })
		s.buckets = append(s.buckets, b)
	}
	s.text = d.tree()
	s.tri = d.tree()
	if d.err == nil && d.off != len(body) {
		d.fail("%d bytes after the last part", len(body)-d.off)
	}
	if d.err != nil {
		return nil, d.err
	}
	return &s, nil
}

// snapshotDecoder reads a snapshot's parts, keeping the first error; after
// an error every read returns zero values.
type snapshotDecoder struct {
	data []byte
	off  int
	err  error
}

func (d *snapshotDecoder) fail(format string, a ...any) {
	if d.err == nil {
		d.err = fmt.Errorf("at byte %d: %s", d.off, fmt.Sprintf(format, a...))
	}
}

func (d *snapshotDecoder) uvarint() uint64 {
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
func (d *snapshotDecoder) count(minSize int) int {
	v := d.uvarint()
	if v > uint64((len(d.data)-d.off)/minSize) {
		d.fail("count %d is more than the remaining bytes hold", v)
		return 0
	}
	return int(v)
}

// bytes reads a length and that many bytes, which point into the input.
func (d *snapshotDecoder) bytes() []byte {
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
func (d *snapshotDecoder) entries(fn func(k, v []byte)) {
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
func (d *snapshotDecoder) tree() *memkv.Store {
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
