//go:build !js && !wasip1

package storage_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/twindex/twindex/storage"
)

func TestCheckFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.db")
	if err := storage.CheckFile(path); err != nil {
		t.Fatalf("missing file: %v", err)
	}
	good := writeStore(t, path, 40)
	if err := storage.CheckFile(path); err != nil {
		t.Fatalf("intact file: %v", err)
	}
	for name, b := range map[string][]byte{
		"truncated": good[:len(good)/2],
		"garbage":   []byte("this is not a bbolt file, not at all; it is long enough to have meta pages............"),
	} {
		if err := os.WriteFile(path, b, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := storage.CheckFile(path); !errors.Is(err, storage.ErrCorrupt) {
			t.Errorf("%s: CheckFile = %v, want ErrCorrupt", name, err)
		}
		if _, err := storage.Open(path, nil); !errors.Is(err, storage.ErrCorrupt) {
			t.Errorf("%s: Open = %v, want ErrCorrupt", name, err)
		}
	}
}

// writeStore makes a store at path holding values of 64 KiB under keys
// 0 .. values-1, closes it and returns its bytes.
func writeStore(t *testing.T, path string, values int) []byte {
	t.Helper()
	s, err := storage.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	big := make([]byte, 64<<10)
	for i := range values {
		if err := s.Update(func(tx storage.Tx) error { return tx.Put(bucket, []byte{byte(i)}, big) }); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// fixture is a small bbolt file with every kind of page CheckFile walks,
// and where to find them.
type fixture struct {
	b        []byte
	pageSize int
	high     uint64 // the high-water mark
	meta     int    // the meta page in use
	root     uint64 // the root bucket's page: a leaf of bucket entries
	branch   uint64 // the root of bucket "big": a branch page
	leaf     uint64 // its first child: a leaf page
	nested   uint64 // the root of "big"'s nested bucket "nested"
	overflow uint64 // the root of bucket "large": a leaf with overflow
	freelist uint64
	free     []uint64 // free page IDs
}

// newFixture writes the fixture with bbolt in pages of pageSize bytes,
// with keys keys in bucket "big" (a third of them deleted to free pages)
// and a third as many in "nested".
func newFixture(t testing.TB, pageSize, keys int) *fixture {
	t.Helper()
	path := filepath.Join(t.TempDir(), "fixture.db")
	db, err := bolt.Open(path, 0o600, &bolt.Options{PageSize: pageSize})
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		big, _ := tx.CreateBucket([]byte("big"))
		for i := range keys {
			big.Put(fmt.Appendf(nil, "key %04d", i), bytes.Repeat([]byte{byte(i)}, 40))
		}
		nested, _ := big.CreateBucket([]byte("nested"))
		for i := range keys / 3 {
			nested.Put(fmt.Appendf(nil, "n%03d", i), bytes.Repeat([]byte{'n'}, 30))
		}
		inline, _ := tx.CreateBucket([]byte("inline"))
		inline.Put([]byte("a"), []byte("small"))
		inline.Put([]byte("b"), []byte("values"))
		large, _ := tx.CreateBucket([]byte("large"))
		return large.Put([]byte("v"), bytes.Repeat([]byte{'v'}, 3*pageSize))
	})
	if err == nil {
		err = db.Update(func(tx *bolt.Tx) error { // frees pages
			big := tx.Bucket([]byte("big"))
			for i := keys / 3; i < 2*keys/3; i++ {
				big.Delete(fmt.Appendf(nil, "key %04d", i))
			}
			return nil
		})
	}
	if err != nil {
		t.Fatal(err)
	}
	fx := &fixture{pageSize: pageSize}
	err = db.View(func(tx *bolt.Tx) error {
		fx.branch = uint64(tx.Bucket([]byte("big")).Root())
		fx.nested = uint64(tx.Bucket([]byte("big")).Bucket([]byte("nested")).Root())
		fx.overflow = uint64(tx.Bucket([]byte("large")).Root())
		for id := 2; ; id++ {
			p, err := tx.Page(id)
			if p == nil || err != nil {
				return err
			}
			if p.Type == "free" {
				fx.free = append(fx.free, uint64(id))
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	if fx.b, err = os.ReadFile(path); err != nil {
		t.Fatal(err)
	}
	fx.readMeta()
	for fx.leaf = fx.branch; fx.flags(fx.leaf) == 0x01; {
		fx.leaf = fx.u64(fx.off(fx.leaf) + 16 + 8) // the first branch element's pgid
	}
	if fx.flags(fx.branch) != 0x01 || fx.flags(fx.leaf) != 0x02 || fx.flags(fx.overflow) != 0x02 ||
		fx.u32(fx.off(fx.overflow)+12) == 0 || len(fx.free) == 0 {
		t.Fatalf("the fixture lacks a page kind: branch %d (%#x), leaf %d (%#x), overflow %d (%#x), %d free",
			fx.branch, fx.flags(fx.branch), fx.leaf, fx.flags(fx.leaf), fx.overflow, fx.flags(fx.overflow), len(fx.free))
	}
	return fx
}

// readMeta sets the fields read from the meta page in use.
func (fx *fixture) readMeta() {
	if fx.u64(fx.metaAt(1)+48) > fx.u64(fx.metaAt(0)+48) {
		fx.meta = 1
	}
	m := fx.metaAt(fx.meta)
	fx.root, fx.freelist, fx.high = fx.u64(m+16), fx.u64(m+32), fx.u64(m+40)
}

func (fx *fixture) metaAt(i int) int          { return i*fx.pageSize + 16 }
func (fx *fixture) off(id uint64) int         { return int(id) * fx.pageSize }
func (fx *fixture) flags(id uint64) uint16    { return binary.LittleEndian.Uint16(fx.b[fx.off(id)+8:]) }
func (fx *fixture) u32(off int) uint32        { return binary.LittleEndian.Uint32(fx.b[off:]) }
func (fx *fixture) u64(off int) uint64        { return binary.LittleEndian.Uint64(fx.b[off:]) }
func (fx *fixture) put16(off int, v uint16)   { binary.LittleEndian.PutUint16(fx.b[off:], v) }
func (fx *fixture) put32(off int, v uint32)   { binary.LittleEndian.PutUint32(fx.b[off:], v) }
func (fx *fixture) put64(off int, v uint64)   { binary.LittleEndian.PutUint64(fx.b[off:], v) }
func (fx *fixture) elem(id uint64, i int) int { return fx.off(id) + 16 + 16*i }

// value returns the offset of the value of the element of leaf page id
// whose key is key.
func (fx *fixture) value(t *testing.T, id uint64, key string) (elem, value int) {
	t.Helper()
	count := int(binary.LittleEndian.Uint16(fx.b[fx.off(id)+10:]))
	for i := range count {
		e := fx.elem(id, i)
		pos, ksize := int(fx.u32(e+4)), int(fx.u32(e+8))
		if string(fx.b[e+pos:e+pos+ksize]) == key {
			return e, e + pos + ksize
		}
	}
	t.Fatalf("no key %q in page %d", key, id)
	return 0, 0
}

// setMeta sets a field of the meta page in use and fixes its checksum.
func (fx *fixture) setMeta(field int, v uint64) {
	m := fx.metaAt(fx.meta)
	fx.put64(m+field, v)
	h := fnv.New64a()
	h.Write(fx.b[m : m+56])
	fx.put64(m+56, h.Sum64())
}

// TestCheckFileDamage damages each kind of page of a bbolt file by hand
// and checks that CheckFile names the damaged page, or passes where bbolt
// reads nothing damaged.
func TestCheckFileDamage(t *testing.T) {
	const anyPage = -1
	intact := newFixture(t, 4096, 300)
	for _, tc := range []struct {
		name string
		// damage changes fx.b and returns the page CheckFile must name
		// (anyPage: any), or -2 when the file must pass.
		damage func(t *testing.T, fx *fixture) int64
	}{
		{"intact", func(*testing.T, *fixture) int64 { return -2 }},
		{"a free page zeroed", func(t *testing.T, fx *fixture) int64 {
			clear(fx.b[fx.off(fx.free[0]) : fx.off(fx.free[0])+fx.pageSize])
			return -2
		}},
		{"a value's bytes", func(t *testing.T, fx *fixture) int64 {
			clear(fx.b[fx.off(fx.overflow)+fx.pageSize : fx.off(fx.overflow)+2*fx.pageSize])
			return -2
		}},
		{"the older meta page", func(t *testing.T, fx *fixture) int64 {
			fx.b[fx.metaAt(1-fx.meta)+56] ^= 0xff
			return -2
		}},
		{"the newer meta page: bbolt uses the older", func(t *testing.T, fx *fixture) int64 {
			fx.b[fx.metaAt(fx.meta)+56] ^= 0xff
			return -2
		}},
		{"both meta pages", func(t *testing.T, fx *fixture) int64 {
			fx.b[fx.metaAt(0)] ^= 0xff
			fx.b[fx.metaAt(1)] ^= 0xff
			return 0
		}},
		{"truncated", func(t *testing.T, fx *fixture) int64 {
			fx.b = fx.b[:fx.off(fx.high-1)]
			return int64(fx.meta)
		}},
		{"meta: root past the high-water mark", func(t *testing.T, fx *fixture) int64 {
			fx.setMeta(16, fx.high)
			return int64(fx.meta)
		}},
		{"meta: freelist is a meta page", func(t *testing.T, fx *fixture) int64 {
			fx.setMeta(32, 1)
			return int64(fx.meta)
		}},
		{"branch: child past the high-water mark", func(t *testing.T, fx *fixture) int64 {
			fx.put64(fx.elem(fx.branch, 0)+8, fx.high+3)
			return int64(fx.branch)
		}},
		{"branch: child is a meta page", func(t *testing.T, fx *fixture) int64 {
			fx.put64(fx.elem(fx.branch, 0)+8, 1)
			return int64(fx.branch)
		}},
		{"branch: child reached twice", func(t *testing.T, fx *fixture) int64 {
			fx.put64(fx.elem(fx.branch, 1)+8, fx.leaf)
			return int64(fx.branch)
		}},
		{"branch: child is the freelist", func(t *testing.T, fx *fixture) int64 {
			fx.put64(fx.elem(fx.branch, 0)+8, fx.freelist)
			return anyPage
		}},
		{"branch: child is a free page", func(t *testing.T, fx *fixture) int64 {
			fx.put64(fx.elem(fx.branch, 0)+8, fx.free[0])
			return anyPage
		}},
		{"branch: a cycle", func(t *testing.T, fx *fixture) int64 {
			fx.put64(fx.elem(fx.branch, 0)+8, fx.branch)
			return int64(fx.branch)
		}},
		{"branch: key past the page", func(t *testing.T, fx *fixture) int64 {
			fx.put32(fx.elem(fx.branch, 0)+4, 1<<30)
			return int64(fx.branch)
		}},
		{"branch: no elements", func(t *testing.T, fx *fixture) int64 {
			fx.put16(fx.off(fx.branch)+10, 0)
			return int64(fx.branch)
		}},
		{"leaf: header names another page", func(t *testing.T, fx *fixture) int64 {
			fx.put64(fx.off(fx.leaf), fx.leaf+1)
			return int64(fx.leaf)
		}},
		{"leaf: typed as a meta page", func(t *testing.T, fx *fixture) int64 {
			fx.put16(fx.off(fx.leaf)+8, 0x04)
			return int64(fx.leaf)
		}},
		{"leaf: two type flags", func(t *testing.T, fx *fixture) int64 {
			fx.put16(fx.off(fx.leaf)+8, 0x03)
			return int64(fx.leaf)
		}},
		{"leaf: too many elements", func(t *testing.T, fx *fixture) int64 {
			fx.put16(fx.off(fx.leaf)+10, 0xffff)
			return int64(fx.leaf)
		}},
		{"leaf: key past the page", func(t *testing.T, fx *fixture) int64 {
			fx.put32(fx.elem(fx.leaf, 0)+4, 0x7fffffff)
			return int64(fx.leaf)
		}},
		{"leaf: value past the page", func(t *testing.T, fx *fixture) int64 {
			fx.put32(fx.elem(fx.leaf, 2)+12, uint32(fx.pageSize))
			return int64(fx.leaf)
		}},
		{"leaf: an empty key", func(t *testing.T, fx *fixture) int64 {
			fx.put32(fx.elem(fx.leaf, 1)+8, 0)
			return int64(fx.leaf)
		}},
		{"leaf: keys out of order", func(t *testing.T, fx *fixture) int64 {
			e := fx.elem(fx.leaf, 1)
			key := e + int(fx.u32(e+4))
			copy(fx.b[key:key+int(fx.u32(e+8))], "key 0000")
			return int64(fx.leaf)
		}},
		{"branch: a child's keys below the key that leads there", func(t *testing.T, fx *fixture) int64 {
			e := fx.elem(fx.branch, 1)
			fx.b[e+int(fx.u32(e))+int(fx.u32(e+4))-1] = 0xff
			return int64(fx.u64(e + 8))
		}},
		{"leaf: a key inside its element's header", func(t *testing.T, fx *fixture) int64 {
			fx.put32(fx.elem(fx.overflow, 0)+4, 0) // bbolt reads garbage, safely
			return -2
		}},
		{"leaf: overflow past the high-water mark", func(t *testing.T, fx *fixture) int64 {
			fx.put32(fx.off(fx.overflow)+12, uint32(fx.high))
			return int64(fx.overflow)
		}},
		{"leaf: overflow over the next page", func(t *testing.T, fx *fixture) int64 {
			fx.put32(fx.off(fx.leaf)+12, 1)
			return anyPage
		}},
		{"bucket: root past the high-water mark", func(t *testing.T, fx *fixture) int64 {
			_, v := fx.value(t, fx.root, "big")
			fx.put64(v, fx.high)
			return int64(fx.root)
		}},
		{"bucket: value shorter than its header", func(t *testing.T, fx *fixture) int64 {
			e, _ := fx.value(t, fx.root, "big")
			fx.put32(e+12, 8)
			return int64(fx.root)
		}},
		{"bucket: nested bucket's root is its parent's", func(t *testing.T, fx *fixture) int64 {
			// "nested" sorts after every "key ..." in big's last leaf.
			var last uint64
			n := int(binary.LittleEndian.Uint16(fx.b[fx.off(fx.branch)+10:]))
			last = fx.u64(fx.elem(fx.branch, n-1) + 8)
			_, v := fx.value(t, last, "nested")
			fx.put64(v, fx.branch)
			return anyPage
		}},
		{"bucket: nested bucket's root typed freelist", func(t *testing.T, fx *fixture) int64 {
			fx.put16(fx.off(fx.nested)+8, 0x10)
			return int64(fx.nested)
		}},
		{"inline bucket: a branch page", func(t *testing.T, fx *fixture) int64 {
			_, v := fx.value(t, fx.root, "inline")
			fx.put16(v+16+8, 0x01)
			return int64(fx.root)
		}},
		{"inline bucket: value past the bucket", func(t *testing.T, fx *fixture) int64 {
			_, v := fx.value(t, fx.root, "inline")
			fx.put32(v+16+16+12, 1000)
			return int64(fx.root)
		}},
		{"inline bucket: a nested bucket", func(t *testing.T, fx *fixture) int64 {
			_, v := fx.value(t, fx.root, "inline")
			fx.put32(v+16+16, 1)
			return int64(fx.root)
		}},
		{"freelist: typed as a leaf", func(t *testing.T, fx *fixture) int64 {
			fx.put16(fx.off(fx.freelist)+8, 0x02)
			return int64(fx.freelist)
		}},
		{"freelist: too many IDs", func(t *testing.T, fx *fixture) int64 {
			fx.put16(fx.off(fx.freelist)+10, 0xffff)
			fx.put64(fx.off(fx.freelist)+16, 1<<40)
			return int64(fx.freelist)
		}},
		{"freelist: a page in use", func(t *testing.T, fx *fixture) int64 {
			fx.put64(fx.off(fx.freelist)+16, fx.branch)
			return int64(fx.freelist)
		}},
		{"freelist: a page past the high-water mark", func(t *testing.T, fx *fixture) int64 {
			fx.put64(fx.off(fx.freelist)+16, fx.high)
			return int64(fx.freelist)
		}},
		{"freelist: a page twice", func(t *testing.T, fx *fixture) int64 {
			fx.put64(fx.off(fx.freelist)+16+8, fx.u64(fx.off(fx.freelist)+16))
			return int64(fx.freelist)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fx := *intact
			fx.b = bytes.Clone(intact.b)
			want := tc.damage(t, &fx)
			path := filepath.Join(t.TempDir(), "damaged.db")
			if err := os.WriteFile(path, fx.b, 0o600); err != nil {
				t.Fatal(err)
			}
			err := storage.CheckFile(path)
			if want == -2 {
				if err != nil {
					t.Fatalf("CheckFile: %v, want nil", err)
				}
				readAll(t, path)
				return
			}
			var ce *storage.CorruptError
			if !errors.As(err, &ce) || !errors.Is(err, storage.ErrCorrupt) || ce.Path != path {
				t.Fatalf("CheckFile: %v, want a *storage.CorruptError naming %s", err, path)
			}
			t.Log(err)
			if want != anyPage && ce.Page != uint64(want) {
				t.Errorf("CheckFile: %v, want page %d named", err, want)
			}
			if s, err := storage.Open(path, nil); !errors.Is(err, storage.ErrCorrupt) {
				t.Errorf("Open: %v, want ErrCorrupt", err)
				if err == nil {
					s.Close()
				}
			}
		})
	}
}

// readAll opens path with bbolt and reads every key and value of every
// bucket, nested ones included, and writes one key: what bbolt does with a
// file CheckFile passed must not fault. It fails the test on a panic.
func readAll(t testing.TB, path string) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("bbolt panicked on a file CheckFile passed: %v\n%s", r, debug.Stack())
		}
	}()
	db, err := bolt.Open(path, 0o600, &bolt.Options{NoSync: true})
	if err != nil {
		return // bbolt refuses it cleanly
	}
	defer db.Close()
	var visit func(b *bolt.Bucket)
	visit = func(b *bolt.Bucket) {
		if b == nil { // a plain key where a bucket was
			return
		}
		b.ForEach(func(k, v []byte) error {
			if v == nil {
				visit(b.Bucket(k))
			}
			return nil
		})
	}
	db.View(func(tx *bolt.Tx) error {
		return tx.ForEach(func(_ []byte, b *bolt.Bucket) error { visit(b); return nil })
	})
	db.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists([]byte("written after the check"))
		if err != nil {
			return err
		}
		return b.Put([]byte("k"), bytes.Repeat([]byte("v"), 5000))
	})
}

// FuzzCheckFile feeds damaged bbolt files to CheckFile and every file it
// passes to bbolt: a fault kills the fuzzing process, a panic fails.
func FuzzCheckFile(f *testing.F) {
	f.Add(newFixture(f, 1024, 40).b)
	f.Fuzz(func(t *testing.T, b []byte) {
		path := filepath.Join(t.TempDir(), "f.db")
		if err := os.WriteFile(path, b, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := storage.CheckFile(path); err == nil {
			readAll(t, path)
		}
	})
}

// TestCheckRecord checks that Options.CheckRecord skips the walk of an
// unchanged file only: damage that leaves the file's size, modification
// time and transaction ID as they were (a bit flipped on the disk) passes
// Open until the file changes, and CheckFile always sees it.
func TestCheckRecord(t *testing.T) {
	dir := t.TempDir()
	path, record := filepath.Join(dir, "s.db"), filepath.Join(dir, "s.checked")
	opts := &storage.Options{CheckRecord: record}
	for range 2 { // the first Open creates the file, the second walks it
		s, err := storage.Open(path, opts)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Update(func(tx storage.Tx) error { return tx.Put(bucket, []byte("k"), []byte("v")) }); err != nil {
			t.Fatal(err)
		}
		s.Close()
	}
	s, err := storage.Open(path, opts)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if _, err := os.Stat(record); err != nil {
		t.Fatalf("no record after a walk: %v", err)
	}

	fi, _ := os.Stat(path)
	b, _ := os.ReadFile(path)
	fx := &fixture{b: b, pageSize: int(binary.LittleEndian.Uint32(b[16+8:]))}
	fx.readMeta()
	fx.put16(fx.off(fx.freelist)+10, 1) // one free page, past the end
	fx.put64(fx.off(fx.freelist)+16, fx.high+5)
	if err := os.WriteFile(path, fx.b, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	if s, err := storage.Open(path, opts); err != nil {
		t.Errorf("Open of an unchanged-looking file: %v, want the walk skipped", err)
	} else {
		s.Close()
	}
	var ce *storage.CorruptError
	if err := storage.CheckFile(path); !errors.As(err, &ce) || ce.Page != fx.freelist {
		t.Errorf("CheckFile: %v, want the freelist page %d named", err, fx.freelist)
	}
	if _, err := storage.Open(path, nil); !errors.Is(err, storage.ErrCorrupt) {
		t.Errorf("Open without a record: %v, want ErrCorrupt", err)
	}
	later := fi.ModTime().Add(time.Second)
	if err := os.Chtimes(path, later, later); err != nil {
		t.Fatal(err)
	}
	if _, err := storage.Open(path, opts); !errors.Is(err, storage.ErrCorrupt) {
		t.Errorf("Open of a changed file: %v, want ErrCorrupt", err)
	}
}
