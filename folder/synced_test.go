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
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
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
// checks the record's alignment with the same walk and with walks
// changed every way, against a comparison of the two by maps.
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
	// want aligns r with res by maps.
	want := func(r *walkResult) alignment {
		var a alignment
		rec, inWalk := map[string]int{}, map[string]bool{}
		for i, f := range res.files {
			rec[f.id] = i
		}
		for i, f := range r.files {
			inWalk[f.id] = true
			j, ok := rec[f.id]
			switch {
			case !ok:
				a.kinds = append(a.kinds, fileNot)
				a.changes++
			case res.files[j].size != f.size || res.files[j].mtime != f.mtime:
				if a.changes++; kinds[j] == fileKept {
					a.held = append(a.held, i)
				}
				a.kinds = append(a.kinds, fileNot)
			default:
				a.kinds = append(a.kinds, kinds[j])
			}
		}
		for j, f := range res.files {
			if !inWalk[f.id] && kinds[j] == fileKept {
				a.gone = append(a.gone, f.id)
				a.changes++
			}
		}
		for _, d := range r.dirs {
			if !slices.Contains(res.dirs, d) {
				a.dirs = append(a.dirs, d)
			}
		}
		for _, d := range res.dirs {
			if !slices.Contains(r.dirs, d) {
				a.goneDir = append(a.goneDir, d)
			}
		}
		a.changes += len(a.dirs) + len(a.goneDir)
		return a
	}
	for name, change := range map[string]func(r *walkResult){
		"nothing":                  func(r *walkResult) {},
		"a held file's size":       func(r *walkResult) { r.files[2].size++ },
		"a held file's mtime":      func(r *walkResult) { r.files[0].mtime++ },
		"another file's mtime":     func(r *walkResult) { r.files[1].mtime++ },
		"two files' sizes, mtimes": func(r *walkResult) { r.files[3].size++; r.files[4].mtime-- },
		"an ID's end":              func(r *walkResult) { r.files[3].id = "dir/sub/e" },
		"an ID's start":            func(r *walkResult) { r.files[4].id = "ez" },
		"an ID longer":             func(r *walkResult) { r.files[1].id += "x" },
		"a file added first":       func(r *walkResult) { r.files = append([]fileEntry{{id: "0"}}, r.files...) },
		"a file added last":        func(r *walkResult) { r.files = append(r.files, fileEntry{id: "zz"}) },
		"a held file gone":         func(r *walkResult) { r.files = slices.Delete(r.files, 2, 3) },
		"a file gone":              func(r *walkResult) { r.files = r.files[:4] },
		"every file gone":          func(r *walkResult) { r.files = nil },
		"a folder gone":            func(r *walkResult) { r.dirs = r.dirs[:2] },
		"a folder added":           func(r *walkResult) { r.dirs = slices.Insert(r.dirs, 1, "dir/a") },
		"a folder's name":          func(r *walkResult) { r.dirs[1] = "dir/sup" },
		"everything gone":          func(r *walkResult) { r.files, r.dirs = nil, nil },
	} {
		r := &walkResult{files: slices.Clone(res.files), dirs: slices.Clone(res.dirs)}
		change(r)
		got, ok := s.align(r)
		if w := want(r); !ok || fmt.Sprint(got) != fmt.Sprint(w) {
			t.Errorf("%s: %+v, %v; want %+v", name, got, ok, w)
		}
	}
	for name, change := range map[string]func(r *walkResult){
		"a named file":          func(r *walkResult) { r.files[0].named = true },
		"files out of order":    func(r *walkResult) { r.files[0], r.files[1] = r.files[1], r.files[0] },
		"a file twice":          func(r *walkResult) { r.files[1] = r.files[0] },
		"folders out of order":  func(r *walkResult) { r.dirs[0], r.dirs[1] = r.dirs[1], r.dirs[0] },
		"a file after a folder": func(r *walkResult) { r.files[1].id = "dir.go" }, // "dir/..." come first
	} {
		r := &walkResult{files: slices.Clone(res.files), dirs: slices.Clone(res.dirs)}
		change(r)
		if a, ok := s.align(r); ok {
			t.Errorf("%s: aligned: %+v", name, a)
		}
	}
	// A record in another order than the walk's is not aligned with.
	swapped := &walkResult{files: slices.Clone(res.files), dirs: res.dirs}
	swapped.files[3], swapped.files[4] = swapped.files[4], swapped.files[3]
	if s, err := decodeSynced(encodeSynced(42, at, swapped, kinds)); err != nil {
		t.Fatal(err)
	} else if a, ok := s.align(res); ok {
		t.Errorf("a record out of order aligned: %+v", a)
	}
}

// TestWalkOrder checks walkOrder against a comparison of IDs name by
// name, and that a walk finds files and folders in its order.
func TestWalkOrder(t *testing.T) {
	byNames := func(a, b string) int {
		return slices.Compare(strings.Split(a, "/"), strings.Split(b, "/"))
	}
	sign := func(n int) int { return min(max(n, -1), 1) }
	r := rand.New(rand.NewPCG(3, 5))
	alphabet := "ab.-/ _~"
	id := func() string {
		var b strings.Builder
		for range 1 + r.IntN(6) {
			c := alphabet[r.IntN(len(alphabet))]
			if c == '/' && (b.Len() == 0 || strings.HasSuffix(b.String(), "/")) {
				c = 'a'
			}
			b.WriteByte(c)
		}
		return strings.TrimSuffix(b.String(), "/") + "z"
	}
	for range 20000 {
		a, b := id(), id()
		if got, want := sign(walkOrder(a, b)), sign(byNames(a, b)); got != want {
			t.Fatalf("walkOrder(%q, %q) = %d, want %d", a, b, got, want)
		}
	}
	root := t.TempDir()
	for _, name := range []string{"a", "a.txt", "a-b", "ab", "a b", "a~", "a/b", "a/b.c", "a.d/x", "a-b.d/y", "B", "_"} {
		writeFile(t, filepath.Join(root, filepath.FromSlash(name+".f")), "x")
	}
	w := &walker{root: root, maxSize: DefaultMaxSize}
	if err := w.walk(root); err != nil {
		t.Fatal(err)
	}
	if len(w.res.files) != 12 || len(w.res.dirs) != 3 {
		t.Fatalf("walked %v and %v", w.res.files, w.res.dirs)
	}
	for i := 1; i < len(w.res.files); i++ {
		if a, b := w.res.files[i-1].id, w.res.files[i].id; walkOrder(a, b) >= 0 {
			t.Errorf("walked %q before %q", a, b)
		}
	}
	for i := 1; i < len(w.res.dirs); i++ {
		if a, b := w.res.dirs[i-1], w.res.dirs[i]; walkOrder(a, b) >= 0 {
			t.Errorf("walked folder %q before %q", a, b)
		}
	}
}

// FuzzDecodeSynced feeds decodeSynced records whose CRC is right, so that
// their layout is what is fuzzed: it must refuse what it cannot read,
// and what it reads must be safe to align with any walk.
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
		if a, ok := s.align(&walkResult{}); ok && len(a.gone)+len(a.goneDir) > s.nf+s.nd {
			t.Fatalf("%d gone from %d files and %d folders", len(a.gone)+len(a.goneDir), s.nf, s.nd)
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
