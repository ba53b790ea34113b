package index_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/twindex/twindex/index"
	"github.com/twindex/twindex/index/internal/snapfile"
	"github.com/twindex/twindex/tokenize"
)

// snapshotDocs is a small corpus with code, prose, filters and parents.
func snapshotDocs(n int) []index.Doc {
	words := []string{"reader", "writer", "closes", "the", "file", "buffer", "NewReader", "ReadAll",
		"http.Handler", "deadline", "parse", "token", "scanner", "mutex", "Unmarshal", "json"}
	r := rand.New(rand.NewPCG(7, 7))
	docs := make([]index.Doc, n)
	for i := range docs {
		var body bytes.Buffer
		for range 10 + r.IntN(40) {
			body.WriteString(words[r.IntN(len(words))])
			body.WriteByte(' ')
		}
		docs[i] = index.Doc{
			ID: fmt.Sprintf("doc%04d", i), Kind: []string{"func", "type", "package"}[i%3],
			Title: words[r.IntN(len(words))] + " " + words[r.IntN(len(words))], Body: body.String(),
			Tags: []string{fmt.Sprint("t", i%5)}, Parent: fmt.Sprintf("doc%04d", i/10),
			Time: day(1 + i%28), Meta: map[string]string{"n": fmt.Sprint(i)},
			Session: fmt.Sprint("s", i%4), Vector: []float32{float32(i), 1, r.Float32(), 0.5},
		}
		if i%7 == 0 {
			docs[i].Links = []index.Link{{To: fmt.Sprintf("doc%04d", i/7), Type: "cites"}}
		}
	}
	return docs
}

func openCompact(t *testing.T, docs []index.Doc) *index.Index {
	t.Helper()
	ix, err := index.OpenMemory(&index.Options{Backend: index.Compact})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	for i := 0; i < len(docs); i += 100 {
		mustUpsert(t, ix, docs[i:min(i+100, len(docs))]...)
	}
	return ix
}

func writeSnapshot(t testing.TB, ix *index.Index) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := ix.WriteSnapshot(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func loadSnapshot(t *testing.T, data []byte) *index.Index {
	t.Helper()
	ix, err := index.OpenSnapshot(bytes.NewReader(data), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	return ix
}

var snapshotQueries = []index.Request{
	{Query: "NewReader"}, {Query: "eadAll", Mode: index.ModeSubstring}, {Query: "closing files", Mode: index.ModeText},
	{Query: "http.Handler", Explain: true}, {Query: "buffer", Kinds: []string{"type"}}, {Query: "json", Under: "doc0001"},
	{Query: "parse", Order: index.OrderDateDesc, Limit: 5, Offset: 3}, {Query: "qqzxj"},
}

// sameIndex checks that two indexes hold the same documents and answer
// the same searches the same way, and that b is in step with itself.
func sameIndex(t *testing.T, a, b *index.Index) {
	t.Helper()
	for _, req := range snapshotQueries {
		ra, errA := a.Search(ctx, req)
		rb, errB := b.Search(ctx, req)
		if !errors.Is(errB, errA) && (errA == nil || errB == nil || errA.Error() != errB.Error()) {
			t.Fatalf("%+v: errors %v and %v", req, errA, errB)
		}
		if !reflect.DeepEqual(ra, rb) {
			t.Fatalf("%+v: results differ:\n%+v\n%+v", req, ra, rb)
		}
	}
	var da, db []*index.Doc
	a.Walk(ctx, func(d *index.Doc) error { da = append(da, d); return nil })
	b.Walk(ctx, func(d *index.Doc) error { db = append(db, d); return nil })
	if !reflect.DeepEqual(da, db) {
		t.Fatalf("documents differ: %d and %d", len(da), len(db))
	}
	for _, id := range []string{"doc0000", "doc0003", "doc0010"} {
		la, errA := a.Backlinks(id)
		lb, errB := b.Backlinks(id)
		if errA != nil || errB != nil || !reflect.DeepEqual(la, lb) {
			t.Fatalf("backlinks of %s: %v, %v and %v, %v", id, la, errA, lb, errB)
		}
	}
	sa, _ := a.Stats()
	sb, _ := b.Stats()
	if sa.Docs != sb.Docs || !reflect.DeepEqual(sa.Kinds, sb.Kinds) {
		t.Fatalf("stats differ: %+v and %+v", sa, sb)
	}
	rep, err := b.Check(ctx)
	if err != nil || !rep.OK() {
		t.Fatalf("check: %v\n%v", err, rep)
	}
}

func TestSnapshotRoundTrip(t *testing.T) {
	docs := snapshotDocs(600)
	orig := openCompact(t, docs)
	mustUpsert(t, orig, index.Doc{ID: "doc0003", Title: "replaced", Body: "a replaced body"})
	if _, err := orig.Remove(ctx, "doc0004", "doc0005"); err != nil {
		t.Fatal(err)
	}
	data := writeSnapshot(t, orig)
	loaded := loadSnapshot(t, data)
	sameIndex(t, orig, loaded)

	if again := writeSnapshot(t, loaded); !bytes.Equal(again, data) {
		t.Fatalf("a loaded snapshot writes %d bytes, not the %d it was loaded from", len(again), len(data))
	}

	// The loaded index takes writes like any other.
	more := []index.Doc{{ID: "new1", Title: "quokkazebra", Body: "fresh text"}, {ID: "doc0001", Title: "changed", Body: "NewReader again"}}
	for _, ix := range []*index.Index{orig, loaded} {
		mustUpsert(t, ix, more...)
		if _, err := ix.Remove(ctx, "doc0100"); err != nil {
			t.Fatal(err)
		}
	}
	sameIndex(t, orig, loaded)
	if got := ids(search(t, loaded, index.Request{Query: "quokkazebra"})); !reflect.DeepEqual(got, []string{"new1"}) {
		t.Fatalf("after a write: %v", got)
	}
}

func TestSnapshotEmpty(t *testing.T) {
	orig := openCompact(t, nil)
	loaded := loadSnapshot(t, writeSnapshot(t, orig))
	if n, _ := loaded.Count(); n != 0 {
		t.Fatalf("%d documents", n)
	}
	mustUpsert(t, loaded, snapshotDocs(3)...)
	if n, _ := loaded.Count(); n != 3 {
		t.Fatalf("%d documents after a write", n)
	}
}

// Snapshots taken while a writer writes each hold a whole number of
// batches, with both indexes in step with the store.
func TestSnapshotDuringWrites(t *testing.T) {
	docs := snapshotDocs(400)
	ix := openCompact(t, docs[:100])
	var wg sync.WaitGroup
	wg.Go(func() {
		for i := 100; i < len(docs); i += 20 {
			if err := ix.Upsert(ctx, docs[i:i+20]...); err != nil {
				t.Error(err)
			}
		}
	})
	var snaps [][]byte
	for range 8 {
		snaps = append(snaps, writeSnapshot(t, ix))
	}
	wg.Wait()
	for _, data := range snaps {
		loaded := loadSnapshot(t, data)
		rep, err := loaded.Check(ctx)
		if err != nil || !rep.OK() {
			t.Fatalf("check: %v\n%v", err, rep)
		}
		if n, _ := loaded.Count(); n%20 != 0 {
			t.Fatalf("%d documents: not a whole number of batches", n)
		}
	}
}

func TestSnapshotErrors(t *testing.T) {
	good := writeSnapshot(t, openCompact(t, snapshotDocs(50)))
	flipped := bytes.Clone(good)
	flipped[len(flipped)/2] ^= 0x40
	parts, err := snapfile.Decode(good)
	if err != nil {
		t.Fatal(err)
	}
	var twice bytes.Buffer
	if err := snapfile.Write(&twice, append(parts.Buckets, parts.Buckets[0]), parts.Text); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		data []byte
	}{
		{"empty", nil},
		{"not a snapshot", []byte("{\"id\": \"a JSON document\"}")},
		{"cut short", good[:len(good)-100]},
		{"no checksum", good[:len(good)-4]},
		{"one bit flipped", flipped},
		{"trailing bytes", append(bytes.Clone(good), 0)},
		{"an earlier version", withCRC([]byte("TWXSNAP\x01\x00\x00\x00"))},
		{"valid checksum, bad body", withCRC([]byte("TWXSNAP\x02\x05\x01"))},
		{"valid checksum, keys out of order", withCRC(append([]byte("TWXSNAP\x02\x01\x01m"),
			0x02, 0, 1, 'b', 0, 0, 1, 'a', 0, 0))},
		{"valid checksum, bad text index", withCRC([]byte("TWXSNAP\x02\x00\x01\x05"))},
		{"valid checksum, a bucket twice", twice.Bytes()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ix, err := index.OpenSnapshot(bytes.NewReader(tt.data), nil)
			if err == nil {
				ix.Close()
				t.Fatal("loaded")
			}
			var ce *index.CorruptError
			if !errors.Is(err, index.ErrCorrupt) || !errors.As(err, &ce) || ce.Path != "snapshot" {
				t.Fatalf("error %v, want a *CorruptError for the snapshot", err)
			}
		})
	}
}

func TestSnapshotNeedsCompact(t *testing.T) {
	for _, be := range []index.Backend{index.Scorch, index.UpsideDown} {
		t.Run(string(be), func(t *testing.T) {
			ix, err := index.OpenMemory(&index.Options{Backend: be})
			if errors.Is(err, index.ErrBackend) {
				t.Skipf("no %s in this build", be)
			}
			if err != nil {
				t.Fatal(err)
			}
			defer ix.Close()
			if err := ix.WriteSnapshot(&bytes.Buffer{}); !errors.Is(err, index.ErrBackend) {
				t.Fatalf("WriteSnapshot of a %s index: %v, want ErrBackend", be, err)
			}
			if _, err := index.OpenSnapshot(bytes.NewReader(nil), &index.Options{Backend: be}); !errors.Is(err, index.ErrBackend) {
				t.Fatalf("OpenSnapshot with %s: %v, want ErrBackend", be, err)
			}
		})
	}
}

// withCRC appends the checksum a snapshot ends with.
func withCRC(body []byte) []byte {
	return binary.BigEndian.AppendUint32(bytes.Clone(body), crc32.Checksum(body, crc32.MakeTable(crc32.Castagnoli)))
}

// OpenSnapshot never panics: damaged bytes give an error, and bytes that
// happen to decode give an index that can be searched and closed. Each
// input is tried as it is and with a valid checksum appended, so that the
// fuzzer reaches the decoder behind the checksum.
func FuzzOpenSnapshot(f *testing.F) {
	ix, err := index.OpenMemory(nil)
	if err != nil {
		f.Fatal(err)
	}
	for _, d := range snapshotDocs(3) {
		if err := ix.Upsert(ctx, d); err != nil {
			f.Fatal(err)
		}
	}
	good := writeSnapshot(f, ix)
	ix.Close()
	f.Add(good)
	f.Add(good[:len(good)-4])
	f.Add([]byte("TWXSNAP\x02\x00\x00\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, in := range [][]byte{data, withCRC(data)} {
			ix, err := index.OpenSnapshot(bytes.NewReader(in), nil)
			if err != nil {
				if !errors.Is(err, index.ErrCorrupt) && !errors.Is(err, index.ErrNewerSchema) {
					t.Fatalf("error %v matches neither ErrCorrupt nor ErrNewerSchema", err)
				}
				continue
			}
			ix.Search(ctx, index.Request{Query: "reader"})
			ix.Close()
		}
	})
}

// TestSnapshotOldSchemaRebuilt loads a snapshot written without
// declarations under schema 2: its text index is rebuilt from its store
// (and its trigram index, as on every load).
func TestSnapshotOldSchemaRebuilt(t *testing.T) {
	for _, old := range []bool{true, false} {
		ix, err := index.OpenMemory(index.WithoutDeclarations(&index.Options{Backend: index.Compact}))
		if err != nil {
			t.Fatal(err)
		}
		mustUpsert(t, ix, codeCorpus...)
		if old {
			if err := index.SetSchema(ix, 2); err != nil {
				t.Fatal(err)
			}
		}
		data := writeSnapshot(t, ix)
		ix.Close()
		loaded := loadSnapshot(t, data)
		// The text index is rebuilt from a snapshot of schema 2 only; the
		// trigram index, which no snapshot holds, is built from the store
		// on every load, declarations included.
		for _, c := range []struct {
			mode index.Mode
			want bool
		}{{index.ModeText, old}, {index.ModeSubstring, true}} {
			r := search(t, loaded, index.Request{Query: "ReadFile ", Mode: c.mode})
			if got := rankOf(r, "os/file.go") <= 2; got != c.want {
				t.Errorf("schema 2: %v, %s: the definer ranks %d of %q", old, c.mode, rankOf(r, "os/file.go"), ids(r))
			}
		}
	}
}

// TestSnapshotOfSchema2 loads a snapshot written before the trigram index
// held grams of one and two runes (internal/snapfile's golden file, of
// schema 2), whose trigram index OpenSnapshot makes anew, as it does for
// every snapshot, and checks short substring queries against brute force
// over its documents.
func TestSnapshotOfSchema2(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("internal", "snapfile", "testdata", "v2.snap"))
	if err != nil {
		t.Fatal(err)
	}
	ix := loadSnapshot(t, data)
	var docs []*index.Doc
	for _, id := range []string{"a", "b"} {
		d, err := ix.Get(id)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, d)
	}
	queries := map[string]bool{}
	for _, d := range docs {
		f := []rune(tokenize.Fold(d.Title + " " + d.Body))
		for i := range f {
			queries[string(f[i])] = true
			if i+1 < len(f) {
				queries[string(f[i:i+2])] = true
			}
		}
	}
	for q := range queries {
		if strings.TrimSpace(q) != q || q == `"` {
			continue // spaces and quotes are syntax
		}
		want := 0
		for _, d := range docs {
			if strings.Contains(tokenize.Fold(d.Title), q) || strings.Contains(tokenize.Fold(d.Body), q) {
				want++
			}
		}
		if r := search(t, ix, index.Request{Query: q, Mode: index.ModeSubstring}); r.Total != want {
			t.Errorf("%q: Total %d, want %d", q, r.Total, want)
		}
	}
}
