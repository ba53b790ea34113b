package folder

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/twindex/twindex/index"
)

// docState is what a test compares of a synced index: each document's
// kind, parent, body and metadata, by ID.
func docState(t *testing.T, ix *index.Index) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, id := range ids(t, ix) {
		d, err := ix.Get(id)
		if err != nil {
			t.Fatal(err)
		}
		out[id] = fmt.Sprintf("%s|%s|%q|%v", d.Kind, d.Parent, d.Body, d.Meta)
	}
	return out
}

// TestSyncRecordAgreesWithScan syncs one folder into two indexes through
// a series of changes: one keeps the record of its last sync (synced),
// the other has it removed before each sync, so it scans its store. Both
// must write, remove, count and hold the same, and the first must have a
// current record after each sync.
func TestSyncRecordAgreesWithScan(t *testing.T) {
	root := t.TempDir()
	ctx := context.Background()
	idxA, idxB := filepath.Join(t.TempDir(), "a"), filepath.Join(t.TempDir(), "b")
	open := func(dir string) *index.Index {
		ix, err := index.Open(dir, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ix.Close() })
		return ix
	}
	ixA, ixB := open(idxA), open(idxB)
	base := time.Now().Add(-time.Hour).Truncate(time.Second)
	tick := 0
	put := func(name, content string) {
		t.Helper()
		p := filepath.Join(root, filepath.FromSlash(name))
		writeFile(t, p, content)
		tick++
		if err := os.Chtimes(p, base.Add(time.Duration(tick)*time.Second), base.Add(time.Duration(tick)*time.Second)); err != nil {
			t.Fatal(err)
		}
	}
	touch := func(name string) {
		t.Helper()
		tick++
		at := base.Add(time.Duration(tick) * time.Second)
		if err := os.Chtimes(filepath.Join(root, filepath.FromSlash(name)), at, at); err != nil {
			t.Fatal(err)
		}
	}
	remove := func(name string) {
		t.Helper()
		if err := os.RemoveAll(filepath.Join(root, filepath.FromSlash(name))); err != nil {
			t.Fatal(err)
		}
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte("compressed notes"))
	zw.Close()

	steps := []struct {
		name   string
		change func()
	}{
		{"first sync", func() {
			put("a.txt", "alpha")
			put("dir/b.go", "package b")
			put("dir/sub/c.md", "# c")
			put("blob.dat", "ab\x00cd")
			put("notes.txt.gz", gz.String())
			if err := os.MkdirAll(filepath.Join(root, "e"), 0o755); err != nil {
				t.Fatal(err)
			}
		}},
		{"nothing changed", func() {}},
		{"a file's content", func() { put("a.txt", "alpha beta") }},
		{"a file touched", func() { touch("dir/b.go") }},
		{"a held file made binary in place", func() { put("dir/b.go", "pack\x00age b") }},
		{"made text again", func() { put("dir/b.go", "package b") }},
		{"a held .gz file damaged", func() { put("notes.txt.gz", "not gzip either") }},
		{"the .gz file mended", func() { put("notes.txt.gz", gz.String()) }},
		{"files and a folder added", func() {
			put("dir/sub/d.txt", "delta")
			put("f/g.txt", "gamma")
		}},
		{"nothing changed again", func() {}},
		{"a folder removed", func() { remove("dir/sub") }},
		{"a binary file made text, same size and time", func() {
			fi, err := os.Stat(filepath.Join(root, "blob.dat"))
			if err != nil {
				t.Fatal(err)
			}
			writeFile(t, filepath.Join(root, "blob.dat"), "ab cd")
			if err := os.Chtimes(filepath.Join(root, "blob.dat"), fi.ModTime(), fi.ModTime()); err != nil {
				t.Fatal(err)
			}
		}},
		{"a bad .gz file", func() { put("bad.gz", "not gzip at all") }},
		{"nothing changed, the bad file tried again", func() {}},
		{"the binary file's note removed", func() {
			for _, dir := range []string{idxA, idxB} {
				if err := os.Remove(filepath.Join(dir, binaryFile)); err != nil {
					t.Fatal(err)
				}
			}
		}},
		{"a document written by another writer", func() {
			for _, ix := range []*index.Index{ixA, ixB} {
				if err := ix.Upsert(ctx, index.Doc{ID: "note-1", Body: "written by an agent"}); err != nil {
					t.Fatal(err)
				}
			}
		}},
		{"nothing changed after it", func() {}},
		{"a file replaced by a folder", func() {
			remove("a.txt")
			put("a.txt/inner.txt", "inner")
		}},
		{"the bad file fixed", func() { put("bad.gz", gz.String()) }},
		{"everything removed", func() {
			for _, name := range []string{"a.txt", "dir", "blob.dat", "notes.txt.gz", "e", "f", "bad.gz"} {
				remove(name)
			}
		}},
		{"nothing there", func() {}},
	}
	oA := &Options{Root: root, IndexDir: idxA}
	oB := &Options{Root: root, IndexDir: idxB}
	for _, st := range steps {
		st.change()
		repA, err := Sync(ctx, ixA, oA)
		if err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		if err := os.Remove(filepath.Join(idxB, syncedFile)); err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		repB, err := Sync(ctx, ixB, oB)
		if err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		counts := func(r *Report) string {
			return fmt.Sprintf("written %d removed %d unchanged %d binary %d invalid %v oversize %v",
				r.Written, r.Removed, r.Unchanged, r.Binary, r.Invalid, r.Oversize)
		}
		if a, b := counts(repA), counts(repB); a != b {
			t.Errorf("%s: with the record %s, scanning %s", st.name, a, b)
		}
		if a, b := docState(t, ixA), docState(t, ixB); !maps.Equal(a, b) {
			t.Errorf("%s: with the record the index holds %v, scanning %v", st.name, a, b)
		}
		last := loadSynced(idxA)
		seq, at, err := ixA.LastWrite()
		if err != nil {
			t.Fatal(err)
		}
		if last == nil || !last.current(seq, at) {
			t.Errorf("%s: no current record after the sync", st.name)
		}
	}
}

// TestSyncRecordNotTrusted checks that a record is read only while it is
// the store's: one left from before a write, or damaged, is passed over
// and the store scanned, so what it says wrongly changes nothing.
func TestSyncRecordNotTrusted(t *testing.T) {
	root := t.TempDir()
	ctx := context.Background()
	ix := openIndex(t, root)
	idx := filepath.Join(root, IndexDirName)
	o := &Options{Root: root, IndexDir: idx}
	writeFile(t, filepath.Join(root, "a.txt"), "alpha")
	writeFile(t, filepath.Join(root, "b.txt"), "beta")
	if _, err := Sync(ctx, ix, o); err != nil {
		t.Fatal(err)
	}
	good, err := os.ReadFile(filepath.Join(idx, syncedFile))
	if err != nil {
		t.Fatal(err)
	}
	// b.txt removed from the index behind the sync's back: a record of
	// before says the index holds it.
	if _, err := ix.Remove(ctx, "b.txt"); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(idx, syncedFile), good, 0o644); err != nil {
		t.Fatal(err)
	}
	rep, err := Sync(ctx, ix, o)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Written != 1 || slices.Contains(ids(t, ix), "b.txt") == false {
		t.Fatalf("an out-of-date record was trusted: %+v, index %v", rep, ids(t, ix))
	}
	// A record damaged in a size: it would say a.txt changed.
	cur, err := os.ReadFile(filepath.Join(idx, syncedFile))
	if err != nil {
		t.Fatal(err)
	}
	for i := len(syncedMagic); i < len(cur); i++ {
		bad := slices.Clone(cur)
		bad[i] ^= 0x10
		if decoded, err := decodeSynced(bad); err == nil {
			t.Fatalf("byte %d flipped: read as %+v", i, decoded)
		}
	}
	bad := slices.Clone(cur)
	bad[len(bad)/2] ^= 1
	if err := os.WriteFile(filepath.Join(idx, syncedFile), bad, 0o644); err != nil {
		t.Fatal(err)
	}
	if rep, err := Sync(ctx, ix, o); err != nil || rep.Written+rep.Removed != 0 || rep.Unchanged != 2 {
		t.Fatalf("damaged record: %+v, %v; want nothing written", rep, err)
	}
	if last := loadSynced(idx); last == nil {
		t.Error("the damaged record was not replaced")
	}
}

// TestSyncedRoundTrip encodes walks, with IDs sharing prefixes, and
// checks that the record aligns with the same walk and with one whose
// sizes or mtimes changed (those files then not held), with no other
// change, and gives back the index's files and folders.
func TestSyncedRoundTrip(t *testing.T) {
	res := &walkResult{
		files: []fileEntry{{id: "a.txt", size: 5, mtime: 1}, {id: "dir/b.go", size: 9, mtime: -2},
			{id: "dir/sub/c.md", size: 3, mtime: 1 << 60}, {id: "dir/sub/d", size: 0, mtime: 0}, {id: "dz", size: 1, mtime: 7}},
		dirs: []string{"dir", "dir/sub", "e"},
	}
	kinds := []byte{fileKept, fileNot, fileKept, fileKept, fileNot}
	at := time.Unix(0, 1234567890123)
	data := encodeSynced(42, at, res, kinds)
	s, err := decodeSynced(data)
	if err != nil {
		t.Fatal(err)
	}
	if !s.current(42, at) || s.current(43, at) || s.current(42, at.Add(1)) {
		t.Error("current: wrong write")
	}
	got, ok := s.align(res)
	if !ok || !bytes.Equal(got.kinds, kinds) || got.changed != 0 || got.held != nil {
		t.Fatalf("same walk: %+v, %v", got, ok)
	}
	want := map[string]known{"a.txt": {size: 5, mtime: 1, sha: "?"}, "dir/sub/c.md": {size: 3, mtime: 1 << 60, sha: "?"},
		"dir/sub/d": {sha: "?"}, "dir": {dir: true}, "dir/sub": {dir: true}, "e": {dir: true}}
	if h := s.have(); !maps.Equal(h, want) {
		t.Errorf("have: %v, want %v", h, want)
	}
	// A file's size or mtime changed: aligned, the file not taken as held.
	for name, change := range map[string]func(r *walkResult){
		"a held file's size":       func(r *walkResult) { r.files[2].size++ },
		"a held file's mtime":      func(r *walkResult) { r.files[0].mtime++ },
		"another file's mtime":     func(r *walkResult) { r.files[1].mtime++ },
		"two files' sizes, mtimes": func(r *walkResult) { r.files[3].size++; r.files[4].mtime-- },
	} {
		r := &walkResult{files: slices.Clone(res.files), dirs: slices.Clone(res.dirs)}
		change(r)
		a, ok := s.align(r)
		if !ok {
			t.Errorf("%s: not aligned", name)
			continue
		}
		var held []int
		changed := 0
		for i := range r.files {
			want := kinds[i]
			if r.files[i] != res.files[i] {
				if changed++; want == fileKept {
					held = append(held, i)
				}
				want = fileNot
			}
			if a.kinds[i] != want {
				t.Errorf("%s: file %d's kind %q, want %q", name, i, a.kinds[i], want)
			}
		}
		if a.changed != changed || !slices.Equal(a.held, held) {
			t.Errorf("%s: %d changed, held %v; want %d, %v", name, a.changed, a.held, changed, held)
		}
	}
	for name, change := range map[string]func(r *walkResult){
		"an ID's end":     func(r *walkResult) { r.files[3].id = "dir/sub/e" },
		"an ID's start":   func(r *walkResult) { r.files[4].id = "ez" },
		"an ID longer":    func(r *walkResult) { r.files[1].id += "x" },
		"a file added":    func(r *walkResult) { r.files = append(r.files, fileEntry{id: "zz"}) },
		"a file gone":     func(r *walkResult) { r.files = r.files[:4] },
		"a folder gone":   func(r *walkResult) { r.dirs = r.dirs[:2] },
		"a folder's name": func(r *walkResult) { r.dirs[1] = "dir/sup" },
		"a named file":    func(r *walkResult) { r.files[0].named = true },
	} {
		r := &walkResult{files: slices.Clone(res.files), dirs: slices.Clone(res.dirs)}
		change(r)
		if _, ok := s.align(r); ok {
			t.Errorf("%s: aligned", name)
		}
	}
}

// FuzzDecodeSynced feeds decodeSynced records whose CRC is right, so that
// their layout is what is fuzzed: it must refuse what it cannot read,
// and what it reads must be safe to compare and expand.
func FuzzDecodeSynced(f *testing.F) {
	res := &walkResult{files: []fileEntry{{id: "a/b", size: 1, mtime: 2}, {id: "a/c", size: 3, mtime: 4}}, dirs: []string{"a"}}
	rec := encodeSynced(7, time.Unix(0, 99), res, []byte{fileKept, fileNot})
	f.Add(rec[len(syncedMagic) : len(rec)-4])
	f.Add([]byte{})
	f.Add([]byte{1, 2, 1, 5, 0})
	f.Fuzz(func(t *testing.T, body []byte) {
		data := append(slices.Clone(syncedMagic), body...)
		data = binary.LittleEndian.AppendUint32(data, crc32.Checksum(data, castagnoli))
		s, err := decodeSynced(data)
		if err != nil {
			return
		}
		have := s.have()
		if len(have) > s.nf+s.nd {
			t.Fatalf("have: %d entries from %d files and %d folders", len(have), s.nf, s.nd)
		}
		s.align(res)
	})
}

// TestSyncRecordSkippedForOthersWrites removes a document the sync keeps
// while the sync runs (from its progress callback, as another writer of
// the index would): the store then holds less than the walk found, so no
// record may say otherwise, and the next sync puts the document back.
func TestSyncRecordSkippedForOthersWrites(t *testing.T) {
	root := t.TempDir()
	ctx := context.Background()
	ix := openIndex(t, root)
	idx := filepath.Join(root, IndexDirName)
	writeFile(t, filepath.Join(root, "a.txt"), "alpha")
	if _, err := Sync(ctx, ix, &Options{Root: root, IndexDir: idx}); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(root, "b.txt"), "beta")
	removed := false
	o := &Options{Root: root, IndexDir: idx, Progress: func(done, total int) {
		if !removed {
			removed = true
			if _, err := ix.Remove(ctx, "a.txt"); err != nil {
				t.Error(err)
			}
		}
	}}
	if _, err := Sync(ctx, ix, o); err != nil {
		t.Fatal(err)
	}
	if !removed {
		t.Fatal("the sync reported no progress")
	}
	if last := loadSynced(idx); last != nil {
		t.Fatalf("a record was left after another writer's write: %+v", last)
	}
	if rep, err := Sync(ctx, ix, &Options{Root: root, IndexDir: idx}); err != nil || rep.Written != 1 {
		t.Fatalf("next sync: %+v, %v; want a.txt written again", rep, err)
	}
	if got := ids(t, ix); !slices.Contains(got, "a.txt") {
		t.Fatalf("index %v: a.txt not put back", got)
	}
}

// TestSyncTakesReadOnlyWalk syncs a changed folder on its index opened
// read-only, which fails with a *ReadOnlyError, then on the index opened
// for writing with that error's walk: the second sync writes what the
// first walk found and does not walk again (a file made in between waits
// for the next sync), and a walk of another scope or size limit is not
// taken.
func TestSyncTakesReadOnlyWalk(t *testing.T) {
	root := t.TempDir()
	ctx := context.Background()
	idx := filepath.Join(root, IndexDirName)
	open := func(ro bool) *index.Index {
		ix, err := index.Open(idx, &index.Options{ReadOnly: ro})
		if err != nil {
			t.Fatal(err)
		}
		return ix
	}
	writeFile(t, filepath.Join(root, "a.txt"), "alpha")
	ix := open(false)
	if _, err := Sync(ctx, ix, &Options{Root: root, IndexDir: idx}); err != nil {
		t.Fatal(err)
	}
	ix.Close()

	writeFile(t, filepath.Join(root, "sub", "b.txt"), "beta")
	ix = open(true)
	_, err := Sync(ctx, ix, &Options{Root: root, IndexDir: idx})
	ix.Close()
	var ro *ReadOnlyError
	if !errors.As(err, &ro) || !errors.Is(err, index.ErrReadOnly) || ro.Walk == nil {
		t.Fatalf("read-only sync: %v, want a *ReadOnlyError with its walk", err)
	}
	writeFile(t, filepath.Join(root, "c.txt"), "gamma") // after the walk
	ix = open(false)
	defer ix.Close()
	for _, o := range []*Options{{Root: root, IndexDir: idx, MaxSize: 10, Walk: ro.Walk}, {Root: filepath.Join(root, "sub"), IndexDir: idx, Walk: ro.Walk}} {
		if _, ok := o.Walk.of(o.Root, []string{o.Root}, max(o.MaxSize, 0)); ok {
			t.Errorf("a walk of %s taken for root %s, size limit %d", root, o.Root, o.MaxSize)
		}
	}
	rep, err := Sync(ctx, ix, &Options{Root: root, IndexDir: idx, Walk: ro.Walk})
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(t, ix); rep.Written != 2 || !slices.Equal(got, []string{"a.txt", "sub", "sub/b.txt"}) {
		t.Fatalf("with the walk: %+v, index %v; want sub and sub/b.txt written, c.txt not seen", rep, got)
	}
	if rep, err := Sync(ctx, ix, &Options{Root: root, IndexDir: idx}); err != nil || rep.Written != 1 {
		t.Fatalf("next sync: %+v, %v; want c.txt written", rep, err)
	}
}
