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
// and mtimes, as a scan of every stored record does (Index.WalkMeta), and
// a walk that finds the same files, sizes, mtimes and folders finds
// nothing to write or remove but in the files the index does not hold,
// which are looked at as they would be without the record (binary files
// by their note, binaryFile).
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

// alignment is how a walk stands to the record of the last sync when it
// holds the record's files and folders, in its order (synced.align).
type alignment struct {
	kinds   []byte // whether the index holds each file; fileNot for one changed since
	changed int    // how many files changed size or mtime since
	held    []int  // the positions of the files changed since that the index holds
}

// align reports whether res holds the files and folders of the record,
// in its order, and how they stand to it: which of them the index holds
// and which changed size or mtime since. Cost: a pass over the record, no
// allocation but the alignment's.
func (s *synced) align(res *walkResult) (alignment, bool) {
	if len(res.files) != s.nf || len(res.dirs) != s.nd {
		return alignment{}, false
	}
	a := alignment{kinds: make([]byte, 0, s.nf)}
	r := syncedReader{b: s.files}
	prev := ""
	for i, f := range res.files {
		e := r.entry(true)
		if r.err != nil || f.named || !e.is(prev, f.id) {
			return alignment{}, false
		}
		kind := e.kind
		if e.size != f.size || e.mtime != f.mtime {
			if a.changed++; kind == fileKept {
				a.held = append(a.held, i)
			}
			kind = fileNot
		}
		a.kinds = append(a.kinds, kind)
		prev = f.id
	}
	r = syncedReader{b: s.dirs}
	prev = ""
	for _, d := range res.dirs {
		if e := r.entry(false); r.err != nil || !e.is(prev, d) {
			return alignment{}, false
		}
		prev = d
	}
	return a, true
}

// have returns what the index holds of the record's files and folders,
// as Sync reads it from the store.
func (s *synced) have() map[string]known {
	have := make(map[string]known, s.nf+s.nd)
	var id []byte
	r := syncedReader{b: s.files}
	for range s.nf {
		e := r.entry(true)
		id = append(id[:e.shared], e.suffix...)
		if e.kind == fileKept {
			// The hash is not recorded: Sync compares it only for a
			// scope that is a file, which never reads a record.
			have[string(id)] = known{size: e.size, mtime: e.mtime, sha: "?"}
		}
	}
	r = syncedReader{b: s.dirs}
	for range s.nd {
		e := r.entry(false)
		id = append(id[:e.shared], e.suffix...)
		have[string(id)] = known{dir: true}
	}
	return have
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

// is reports whether the entry, which follows the ID prev, is id.
func (e *syncedEntry) is(prev, id string) bool {
	return e.shared <= len(prev) && len(id) == e.shared+len(e.suffix) &&
		id[:e.shared] == prev[:e.shared] && id[e.shared:] == string(e.suffix)
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
