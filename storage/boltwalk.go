package storage

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
)

// bbolt's on-disk layout (go.etcd.io/bbolt/internal/common, format
// version 2), little-endian on the platforms we build for. A page starts
// with a 16-byte header (id u64, flags u16, count u16, overflow u32) and
// spans 1+overflow pages. Branch elements (pos u32, ksize u32, pgid u64)
// and leaf elements (flags u32, pos u32, ksize u32, vsize u32) follow the
// header; pos counts from the element's own first byte. A leaf element
// flagged as a bucket has a value that starts with the bucket header
// (root pgid u64, sequence u64); a root of 0 means the bucket is inline:
// a leaf page follows the header inside the value.
const (
	boltMagic       = 0xED0CDAED
	boltVersion     = 2
	pageHeaderSize  = 16
	elementSize     = 16
	bucketHeader    = 16
	metaSize        = 64 // magic .. checksum
	metaSumOffset   = 56 // the checksum covers the meta fields before it
	flagBranch      = 0x01
	flagLeaf        = 0x02
	flagFreelist    = 0x10
	flagBucket      = 0x01 // in a leaf element's flags
	noFreelist      = ^uint64(0)
	minPageSize     = 512
	maxPageSize     = 1 << 20
	firstMetaRead   = 0x1000 // bbolt reads this much of page 0 for its page size
	maxWalkDepth    = 256    // pages and buckets nested; bbolt's trees are a few deep
	maxFreelistHead = 0xFFFF // a count this high moves to the first element
)

var le = binary.LittleEndian

// meta is a meta page's fields.
type meta struct {
	pageSize        uint32
	root, freelist  uint64 // page IDs
	highWater, txid uint64
	valid           bool // magic, version and checksum hold
}

// parseMeta reads the meta fields (magic u32, version u32, page size u32,
// flags u32, root bucket header, freelist u64, high-water mark u64, txid
// u64, checksum u64) from b, which holds at least metaSize bytes.
func parseMeta(b []byte) meta {
	return meta{
		pageSize:  le.Uint32(b[8:]),
		root:      le.Uint64(b[16:]),
		freelist:  le.Uint64(b[32:]),
		highWater: le.Uint64(b[40:]),
		txid:      le.Uint64(b[48:]),
		valid: le.Uint32(b[0:]) == boltMagic && le.Uint32(b[4:]) == boltVersion &&
			le.Uint64(b[metaSumOffset:]) == fnv64a(b[:metaSumOffset]),
	}
}

// fnv64a is FNV-1a, 64 bits, as bbolt sums its meta pages.
func fnv64a(b []byte) uint64 {
	h := uint64(14695981039346656037)
	for _, c := range b {
		h ^= uint64(c)
		h *= 1099511628211
	}
	return h
}

// walker reads one bbolt file. Pages are read into one buffer per depth,
// so a branch page stays readable while its children are walked.
type walker struct {
	f        io.ReaderAt
	path     string
	size     int64
	pageSize int64
	high     uint64                 // the chosen meta page's high-water mark
	reached  bitset                 // pages below high, reached once
	bufs     [maxWalkDepth][]byte   // a page's bytes per depth
	keys     [maxWalkDepth][][]byte // a page's keys per depth
}

func (w *walker) corrupt(page uint64, format string, args ...any) error {
	return &CorruptError{Path: w.path, Page: page, Msg: fmt.Sprintf(format, args...)}
}

// walk checks the file (see CheckFile) and returns the transaction ID of
// the meta page it walked from.
func (w *walker) walk() (uint64, error) {
	m, metaPage, err := w.chooseMeta()
	if err != nil {
		return 0, err
	}
	w.high = m.highWater
	w.reached = newBitset(w.high)
	w.reached.set(0)
	w.reached.set(1)
	// The freelist's pages are marked first, so that a tree reaching
	// them fails; its IDs are checked against the tree's pages after.
	var freeSpan []byte
	if m.freelist != noFreelist {
		p, err := w.page(0, metaPage, m.freelist, flagFreelist)
		if err != nil {
			return 0, err
		}
		if freeSpan, err = p.bytes(p.span); err != nil {
			return 0, err
		}
		freeSpan = bytes.Clone(freeSpan[:p.span])
	}
	if err := w.bucket(0, metaPage, m.root); err != nil {
		return 0, err
	}
	if freeSpan != nil {
		if err := w.freelist(m.freelist, freeSpan); err != nil {
			return 0, err
		}
	}
	return m.txid, nil
}

// chooseMeta finds the page size as bbolt does (from meta page 0, or else
// from meta page 1 probed at 1 KiB .. 16 MiB), checks both meta pages,
// and returns the one bbolt would use and its page number.
func (w *walker) chooseMeta() (meta, uint64, error) {
	head := make([]byte, firstMetaRead)
	if n, _ := w.f.ReadAt(head, 0); n == len(head) {
		if m := parseMeta(head[pageHeaderSize:]); m.valid {
			w.pageSize = int64(m.pageSize)
		}
	}
	for i := 0; w.pageSize == 0 && i <= 14; i++ {
		pos := int64(1024) << i
		if pos >= w.size-1024 {
			break
		}
		if n, _ := w.f.ReadAt(head, pos); n >= pageHeaderSize+metaSize {
			if m := parseMeta(head[pageHeaderSize:]); m.valid {
				w.pageSize = int64(m.pageSize)
			}
		}
	}
	if w.pageSize == 0 {
		return meta{}, 0, w.corrupt(0, "no intact meta page")
	}
	if w.pageSize < minPageSize || w.pageSize > maxPageSize {
		return meta{}, 0, w.corrupt(0, "page size %d", w.pageSize)
	}
	if w.size < 2*w.pageSize {
		return meta{}, 0, w.corrupt(1, "the file has %d bytes, less than two pages of %d", w.size, w.pageSize)
	}
	var metas [2]meta
	b := make([]byte, metaSize)
	for i := range metas {
		if _, err := w.f.ReadAt(b, int64(i)*w.pageSize+pageHeaderSize); err != nil {
			return meta{}, 0, err
		}
		m := parseMeta(b)
		metas[i] = m
		if !m.valid {
			continue
		}
		if int64(m.pageSize) != w.pageSize {
			return meta{}, 0, w.corrupt(uint64(i), "page size %d, but meta page 0 says %d", m.pageSize, w.pageSize)
		}
		if m.highWater > uint64(w.size/w.pageSize) {
			return meta{}, 0, w.corrupt(uint64(i), "the file has %d bytes, but the meta page refers to %d pages of %d bytes (truncated?)", w.size, m.highWater, w.pageSize)
		}
		if m.root < 2 || m.root >= m.highWater {
			return meta{}, 0, w.corrupt(uint64(i), "root page %d is outside pages 2..%d", m.root, m.highWater-1)
		}
		if m.freelist != noFreelist && (m.freelist < 2 || m.freelist >= m.highWater) {
			return meta{}, 0, w.corrupt(uint64(i), "freelist page %d is outside pages 2..%d", m.freelist, m.highWater-1)
		}
	}
	// bbolt's DB.meta: the higher transaction ID if it validates, else
	// the other.
	a, b2 := 0, 1
	if metas[1].txid > metas[0].txid {
		a, b2 = 1, 0
	}
	switch {
	case metas[a].valid:
		return metas[a], uint64(a), nil
	case metas[b2].valid:
		return metas[b2], uint64(b2), nil
	}
	return meta{}, 0, w.corrupt(0, "no intact meta page")
}

// page is the start of a page span as read so far.
type page struct {
	w        *walker
	id       uint64
	flags    uint16
	count    uint16
	span     int64 // bytes in the page and its overflow pages
	buf      *[]byte
	depth    int
	overflow uint32
}

// bytes returns the start of the page span read so far, reading more
// until it holds at least n bytes. n must not exceed p.span. A read may
// move the bytes: slices of earlier results stay valid but are not
// extended.
func (p *page) bytes(n int64) ([]byte, error) {
	b := *p.buf
	if int64(len(b)) >= n {
		return b, nil
	}
	have := len(b)
	if int64(cap(b)) < n {
		b = append(b[:cap(b)], make([]byte, n-int64(cap(b)))...)
	}
	b = b[:n]
	if _, err := p.w.f.ReadAt(b[have:], int64(p.id)*p.w.pageSize+int64(have)); err != nil {
		return nil, fmt.Errorf("read %s page %d: %w", p.w.path, p.id, err)
	}
	*p.buf = b
	return b, nil
}

// page reads the header of page id, referred to from page from, checks
// that it is a page of type want (flagBranch|flagLeaf for either) within
// the high-water mark and reached for the first time, and marks its span
// reached.
func (w *walker) page(depth int, from, id uint64, want uint16) (*page, error) {
	if depth >= maxWalkDepth {
		return nil, w.corrupt(from, "pages nested more than %d deep", maxWalkDepth)
	}
	if id < 2 || id >= w.high {
		return nil, w.corrupt(from, "refers to page %d, outside pages 2..%d", id, w.high-1)
	}
	w.bufs[depth] = w.bufs[depth][:0]
	p := &page{w: w, id: id, span: w.pageSize, buf: &w.bufs[depth], depth: depth}
	b, err := p.bytes(w.pageSize)
	if err != nil {
		return nil, err
	}
	if got := le.Uint64(b); got != id {
		return nil, w.corrupt(id, "the page's header says it is page %d (reached from page %d)", got, from)
	}
	p.flags, p.count, p.overflow = le.Uint16(b[8:]), le.Uint16(b[10:]), le.Uint32(b[12:])
	if p.flags&want == 0 || (p.flags != flagBranch && p.flags != flagLeaf && p.flags != flagFreelist) {
		return nil, w.corrupt(id, "page type %#x where page %d expects %s", p.flags, from, typeName(want))
	}
	last := id + uint64(p.overflow)
	if last >= w.high {
		return nil, w.corrupt(id, "%d overflow pages run past the high-water mark %d", p.overflow, w.high)
	}
	p.span = (int64(p.overflow) + 1) * w.pageSize
	for i := id; i <= last; i++ {
		if w.reached.has(i) {
			return nil, w.corrupt(from, "page %d is reached twice (a cycle or shared page)", i)
		}
		w.reached.set(i)
	}
	return p, nil
}

func typeName(flags uint16) string {
	if flags == flagFreelist {
		return "a freelist page"
	}
	return "a branch or leaf page"
}

// bucket walks the tree of the bucket whose root is page root.
func (w *walker) bucket(depth int, from, root uint64) error {
	p, err := w.page(depth, from, root, flagBranch|flagLeaf)
	if err != nil {
		return err
	}
	return w.tree(p, nil, nil)
}

// tree checks a branch or leaf page whose keys must lie in [lo, hi) (nil:
// unbounded) and walks what it refers to. bbolt panics on an empty key,
// and on keys out of order when it writes (a bucket's header not where
// its cursor seeks it): in scorch's goroutines, where no recover runs.
func (w *walker) tree(p *page, lo, hi []byte) error {
	end := pageHeaderSize + int64(p.count)*elementSize
	if end > p.span {
		return w.corrupt(p.id, "%d elements do not fit in %d bytes", p.count, p.span)
	}
	if p.flags == flagBranch && p.count == 0 {
		return w.corrupt(p.id, "a branch page without elements")
	}
	b, err := p.bytes(end)
	if err != nil {
		return err
	}
	// Bounds first, then the bytes through the last key: keys follow the
	// element headers in order, each key before its value.
	keyEnd := int64(0)
	for i := range int64(p.count) {
		off := pageHeaderSize + i*elementSize
		pos, ksize, vsize := w.element(p.flags, b[off:])
		if last := off + pos + ksize + vsize; last > p.span {
			return w.corrupt(p.id, "element %d's key and value end at byte %d of %d", i, last, p.span)
		}
		if ksize == 0 {
			return w.corrupt(p.id, "element %d has an empty key", i)
		}
		keyEnd = max(keyEnd, off+pos+ksize)
	}
	if b, err = p.bytes(keyEnd); err != nil {
		return err
	}
	keys := w.keys[p.depth][:0]
	for i := range int64(p.count) {
		off := pageHeaderSize + i*elementSize
		pos, ksize, _ := w.element(p.flags, b[off:])
		key := b[off+pos : off+pos+ksize]
		switch {
		case i > 0 && bytes.Compare(keys[i-1], key) >= 0:
			return w.corrupt(p.id, "element %d's key is not above element %d's", i, i-1)
		case lo != nil && bytes.Compare(key, lo) < 0:
			return w.corrupt(p.id, "element %d's key is below the key that leads here", i)
		case hi != nil && bytes.Compare(key, hi) >= 0:
			return w.corrupt(p.id, "element %d's key is not below the next key of the page that leads here", i)
		}
		keys = append(keys, key)
	}
	w.keys[p.depth] = keys
	for i, key := range keys {
		off := pageHeaderSize + int64(i)*elementSize
		e := b[off : off+elementSize]
		if p.flags == flagBranch {
			next := hi
			if i+1 < len(keys) {
				next = keys[i+1]
			}
			child, err := w.page(p.depth+1, p.id, le.Uint64(e[8:]), flagBranch|flagLeaf)
			if err != nil {
				return err
			}
			if err := w.tree(child, key, next); err != nil {
				return err
			}
			continue
		}
		if le.Uint32(e)&flagBucket == 0 {
			continue
		}
		pos, ksize, vsize := w.element(p.flags, e)
		if vsize < bucketHeader {
			return w.corrupt(p.id, "element %d is a bucket of %d bytes", i, vsize)
		}
		vstart := off + pos + ksize
		if b, err = p.bytes(vstart + vsize); err != nil { // keys stay valid
			return err
		}
		v := b[vstart : vstart+vsize]
		if root := le.Uint64(v); root != 0 {
			if err := w.bucket(p.depth+1, p.id, root); err != nil {
				return err
			}
		} else if err := w.inline(p.id, int64(i), v[bucketHeader:]); err != nil {
			return err
		}
	}
	return nil
}

// element returns the key's position (from the element's first byte),
// the key's size and the value's size (0 on a branch page) of the
// element at the start of e.
func (w *walker) element(flags uint16, e []byte) (pos, ksize, vsize int64) {
	if flags == flagBranch {
		return int64(le.Uint32(e)), int64(le.Uint32(e[4:])), 0
	}
	return int64(le.Uint32(e[4:])), int64(le.Uint32(e[8:])), int64(le.Uint32(e[12:]))
}

// inline checks the page of an inline bucket, held in element i of page
// id: a leaf page whose elements lie inside b, with keys in order. bbolt
// inlines only buckets without nested buckets.
func (w *walker) inline(id uint64, i int64, b []byte) error {
	bad := func(format string, args ...any) error {
		return w.corrupt(id, "inline bucket in element %d: %s", i, fmt.Sprintf(format, args...))
	}
	if len(b) < pageHeaderSize {
		return bad("%d bytes, less than a page header", len(b))
	}
	if flags := le.Uint16(b[8:]); flags != flagLeaf {
		return bad("page type %#x, not a leaf page", flags)
	}
	count := int64(le.Uint16(b[10:]))
	size := int64(len(b))
	if pageHeaderSize+count*elementSize > size {
		return bad("%d elements do not fit in %d bytes", count, size)
	}
	var prev []byte
	for j := range count {
		off := pageHeaderSize + j*elementSize
		if le.Uint32(b[off:])&flagBucket != 0 {
			return bad("element %d is a nested bucket", j)
		}
		pos, ksize, vsize := w.element(flagLeaf, b[off:])
		if end := off + pos + ksize + vsize; end > size {
			return bad("element %d ends at byte %d of %d", j, end, size)
		}
		key := b[off+pos : off+pos+ksize]
		if ksize == 0 || j > 0 && bytes.Compare(prev, key) >= 0 {
			return bad("element %d's key is empty or not above the one before", j)
		}
		prev = key
	}
	return nil
}

// freelist checks the freelist page id, whose span is b: every free page
// lies within 2..high, is free once, and is not reachable.
func (w *walker) freelist(id uint64, b []byte) error {
	count, first := uint64(le.Uint16(b[10:])), int64(pageHeaderSize)
	if count == maxFreelistHead {
		if int64(len(b)) < pageHeaderSize+8 {
			return w.corrupt(id, "no room for the freelist's count")
		}
		count, first = le.Uint64(b[pageHeaderSize:]), pageHeaderSize+8
	}
	if count > uint64(int64(len(b))-first)/8 {
		return w.corrupt(id, "%d free page IDs do not fit in %d bytes", count, len(b))
	}
	free := newBitset(w.high)
	for i := range int64(count) {
		pg := le.Uint64(b[first+8*i:])
		switch {
		case pg < 2 || pg >= w.high:
			return w.corrupt(id, "free page %d is outside pages 2..%d", pg, w.high-1)
		case free.has(pg):
			return w.corrupt(id, "page %d is free twice", pg)
		case w.reached.has(pg):
			return w.corrupt(id, "page %d is both free and in use", pg)
		}
		free.set(pg)
	}
	return nil
}

// bitset is a set of page IDs below a bound.
type bitset []uint64

func newBitset(n uint64) bitset    { return make(bitset, (n+63)/64) }
func (s bitset) has(i uint64) bool { return s[i/64]&(1<<(i%64)) != 0 }
func (s bitset) set(i uint64)      { s[i/64] |= 1 << (i % 64) }
