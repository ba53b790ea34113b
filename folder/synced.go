package folder

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"os"
	"path/filepath"
	"time"
)

// syncedFile is the file, in the index folder, that records the last
// sync of the whole folder (synced).
const syncedFile = "synced.bin"

// synced is what the last sync of the whole folder walked, in the walk's
// order (depth first in name order), and whether the index holds each
// file as found (not a binary file, nor one unreadable, refused or over
// the size limit once extracted), with the store's last write once it
// was done (index.LastWrite). While the store is at that write, the
// record says which files and folders the index holds and their sizes
// and mtimes, as a scan of every stored record does (Index.WalkMeta):
// merged with a walk (align), it says what changed, and a walk that finds
// the same files, sizes, mtimes and folders finds nothing to write or
// remove but in the files the index does not hold, which are looked at
// as they would be without the record (binary files by their note,
// binaryFile).
//
// Saved with a CRC: a damaged or foreign file is not read (loadSynced
// returns nil) and the sync scans the store as it would without one.
type synced struct {
	seq   uint64
	at    int64 // unix nanoseconds of the last write; 0 for none
	files []byte
	dirs  []byte
	nf    int // entries in files
	nd    int // entries in dirs
}

// Whether the index holds a file as a sync found it.
const (
	fileKept byte = 'k' // its document is in the index, with its size and mtime
	fileNot  byte = 'n' // it is not
)

// syncedMagic starts the file; its last byte is the format's version.
var syncedMagic = []byte("twindex-synced\x001")

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// loadSynced reads indexDir's record, or returns nil when there is none
// or it cannot be read as one.
func loadSynced(indexDir string) *synced {
	if indexDir == "" {
		return nil
	}
	data, err := os.ReadFile(filepath.Join(indexDir, syncedFile))
	if err != nil {
		return nil
	}
	s, err := decodeSynced(data)
	if err != nil {
		return nil
	}
	return s
}

var errSynced = errors.New("not a sync record")

// decodeSynced checks data's magic, CRC and layout and returns the
// record, which views data.
func decodeSynced(data []byte) (*synced, error) {
	if len(data) < len(syncedMagic)+4 || !bytes.HasPrefix(data, syncedMagic) {
		return nil, errSynced
	}
	body, sum := data[:len(data)-4], binary.LittleEndian.Uint32(data[len(data)-4:])
	if crc32.Checksum(body, castagnoli) != sum {
		return nil, errSynced
	}
	r := syncedReader{b: body[len(syncedMagic):]}
	s := &synced{seq: r.uvarint(), at: r.varint()}
	s.files, s.nf = r.list(true)
	s.dirs, s.nd = r.list(false)
	if r.err != nil || len(r.b) != 0 {
		return nil, errSynced
	}
	return s, nil
}

// current reports whether the store is still at the record's write.
func (s *synced) current(seq uint64, at time.Time) bool {
	return s.seq == seq && s.at == unixNano(at)
}

func unixNano(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

// alignment is how a walk stands to the record of the last sync
// (synced.align): what a sync would find comparing the walk with the
// index, while the store is at the record's write.
type alignment struct {
	kinds   []byte   // whether the index holds each file as walked; fileNot for one new or changed
	held    []int    // the positions of the files the index holds that changed size or mtime
	gone    []string // the files the index holds that the walk did not find
	dirs    []string // the folders the walk found that the record has not
	goneDir []string // the record's folders the walk did not find
	changes int      // files new, changed or gone, and folders new or gone
}

// align merges the walk res with the record, both in the walk's order
// (walkOrder), and returns how they stand. It returns false when either
// is not in that order (a record made by another version of the walk)
// or the walk names a file by itself. Cost: a pass over the record and
// the walk, no lookup by ID.
func (s *synced) align(res *walkResult) (alignment, bool) {
	a := alignment{kinds: make([]byte, len(res.files))}
	r := recordIDs{r: syncedReader{b: s.files}, left: s.nf, file: true}
	r.next()
	for i, f := range res.files {
		if f.named || i > 0 && walkOrder(res.files[i-1].id, f.id) >= 0 {
			return alignment{}, false
		}
		for r.ok && walkOrder(r.id, f.id) < 0 {
			if r.e.kind == fileKept {
				a.gone = append(a.gone, string(r.id))
				a.changes++
			}
			r.next()
		}
		if !r.ok || string(r.id) != f.id {
			a.kinds[i] = fileNot
			a.changes++
			continue
		}
		a.kinds[i] = r.e.kind
		if r.e.size != f.size || r.e.mtime != f.mtime {
			if a.changes++; r.e.kind == fileKept {
				a.held = append(a.held, i)
			}
			a.kinds[i] = fileNot
		}
		r.next()
	}
	for ; r.ok; r.next() {
		if r.e.kind == fileKept {
			a.gone = append(a.gone, string(r.id))
			a.changes++
		}
	}
	if r.bad {
		return alignment{}, false
	}
	r = recordIDs{r: syncedReader{b: s.dirs}, left: s.nd}
	r.next()
	for i, d := range res.dirs {
		if i > 0 && walkOrder(res.dirs[i-1], d) >= 0 {
			return alignment{}, false
		}
		for ; r.ok && walkOrder(r.id, d) < 0; r.next() {
			a.goneDir = append(a.goneDir, string(r.id))
		}
		if r.ok && string(r.id) == d {
			r.next()
		} else {
			a.dirs = append(a.dirs, d)
		}
	}
	for ; r.ok; r.next() {
		a.goneDir = append(a.goneDir, string(r.id))
	}
	if r.bad {
		return alignment{}, false
	}
	a.changes += len(a.dirs) + len(a.goneDir)
	return a, true
}

// recordIDs reads a record's list of files or folders an entry at a
// time, each ID whole, and checks that they come in the walk's order.
type recordIDs struct {
	r        syncedReader
	left     int // entries not yet read
	file     bool
	e        syncedEntry
	id, prev []byte
	ok       bool // e and id hold the next entry
	bad      bool // the list is not in the walk's order
}

func (l *recordIDs) next() {
	l.ok = false
	if l.left == 0 || l.bad {
		return
	}
	l.left--
	l.prev, l.id = l.id, l.prev
	l.e = l.r.entry(l.file)
	if l.r.err != nil || l.e.shared > len(l.prev) {
		l.bad = true
		return
	}
	l.id = append(append(l.id[:0], l.prev[:l.e.shared]...), l.e.suffix...)
	if len(l.prev) > 0 && walkOrder(l.prev, l.id) >= 0 {
		l.bad = true
		return
	}
	l.ok = true
}

// walkOrder compares two IDs in the order the walk finds them: depth
// first, each folder's entries in name order, so a folder's ID just
// before those under it. That is the order of their bytes with the
// separator below every other byte: a name that another begins ends
// first, at its separator or at its end.
func walkOrder[A, B ~string | ~[]byte](a A, b B) int {
	for i := range min(len(a), len(b)) {
		x, y := a[i], b[i]
		if x == y {
			continue
		}
		if x == '/' {
			return -1
		}
		if y == '/' {
			return 1
		}
		return int(x) - int(y)
	}
	return len(a) - len(b)
}

// encodeSynced lays out the record of a walk and whether the index holds
// each of its files (kinds, in res.files' order). Each ID is kept as the
// length of the prefix it shares with the one before and the rest.
func encodeSynced(seq uint64, at time.Time, res *walkResult, kinds []byte) []byte {
	b := append([]byte(nil), syncedMagic...)
	b = binary.AppendUvarint(b, seq)
	b = binary.AppendVarint(b, unixNano(at))
	b = binary.AppendUvarint(b, uint64(len(res.files)))
	prev := ""
	for i, f := range res.files {
		b = appendID(b, prev, f.id)
		b = binary.AppendVarint(b, f.size)
		b = binary.AppendVarint(b, f.mtime)
		b = append(b, kinds[i])
		prev = f.id
	}
	b = binary.AppendUvarint(b, uint64(len(res.dirs)))
	prev = ""
	for _, d := range res.dirs {
		b = appendID(b, prev, d)
		prev = d
	}
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoli))
}

func appendID(b []byte, prev, id string) []byte {
	n := 0
	for n < len(prev) && n < len(id) && prev[n] == id[n] {
		n++
	}
	b = binary.AppendUvarint(b, uint64(n))
	b = binary.AppendUvarint(b, uint64(len(id)-n))
	return append(b, id[n:]...)
}

// save writes the record to indexDir, replacing the one there at once.
func saveSynced(indexDir string, data []byte) {
	tmp := filepath.Join(indexDir, syncedFile+".tmp")
	if os.WriteFile(tmp, data, 0o644) == nil {
		_ = os.Rename(tmp, filepath.Join(indexDir, syncedFile))
	}
}

// removeSynced removes indexDir's record, which a sync that could not
// make a new one leaves behind when the store moved on (it would only be
// read to be found out of date).
func removeSynced(indexDir string) {
	_ = os.Remove(filepath.Join(indexDir, syncedFile))
}

// syncedEntry is one file or folder of a record.
type syncedEntry struct {
	shared      int // bytes of the ID before's that start this one
	suffix      []byte
	size, mtime int64
	kind        byte
}

// maxIDLen bounds the length of an ID a record can hold, far above any
// path's.
const maxIDLen = 1 << 20

// syncedReader reads a record's fields, keeping the first error.
type syncedReader struct {
	b   []byte
	err error
}

func (r *syncedReader) uvarint() uint64 {
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.fail()
		return 0
	}
	r.b = r.b[n:]
	return v
}

// varint reads what binary.AppendVarint wrote: a uvarint of the value
// zig-zag encoded.
func (r *syncedReader) varint() int64 {
	u := r.uvarint()
	v := int64(u >> 1)
	if u&1 != 0 {
		v = ^v
	}
	return v
}

func (r *syncedReader) fail() {
	if r.err == nil {
		r.err = errSynced
	}
	r.b = nil
}

// entry reads one entry of a list of files (with their size, mtime and
// kind) or folders.
func (r *syncedReader) entry(file bool) syncedEntry {
	var e syncedEntry
	shared := r.uvarint()
	if shared > maxIDLen {
		r.fail()
		return e
	}
	e.shared = int(shared)
	n := r.uvarint()
	if n > uint64(len(r.b)) {
		r.fail()
		return e
	}
	e.suffix, r.b = r.b[:n], r.b[n:]
	if file {
		e.size, e.mtime = r.varint(), r.varint()
		if len(r.b) == 0 {
			r.fail()
			return e
		}
		e.kind, r.b = r.b[0], r.b[1:]
	}
	return e
}

// list checks a list of entries, each sharing no more of its ID than the
// one before has and, for files, of a known kind, and returns its bytes
// and its length.
func (r *syncedReader) list(file bool) ([]byte, int) {
	n := r.uvarint()
	if n > uint64(len(r.b)) {
		r.fail()
		return nil, 0
	}
	start := r.b
	prevLen := 0
	for range n {
		e := r.entry(file)
		if r.err != nil {
			return nil, 0
		}
		if e.shared > prevLen || (file && e.kind != fileKept && e.kind != fileNot) {
			r.fail()
			return nil, 0
		}
		prevLen = e.shared + len(e.suffix)
	}
	return start[:len(start)-len(r.b)], int(n)
}
