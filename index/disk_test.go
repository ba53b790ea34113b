//go:build !js && !wasip1

package index_test

import (
	"context"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/twindex/twindex/index"
	"github.com/twindex/twindex/storage"
)

func init() {
	openDisk = func(t *testing.T, opts *index.Options) *index.Index { return mustOpen(t, t.TempDir(), opts) }
}

func mustOpen(t *testing.T, dir string, opts *index.Options) *index.Index {
	t.Helper()
	ix, err := index.Open(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	return ix
}

func TestLockedAndReopen(t *testing.T) {
	dir := t.TempDir()
	ix, err := index.Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	mustUpsert(t, ix, corpus...)
	start := time.Now()
	if _, err := index.Open(dir, nil); !errors.Is(err, index.ErrLocked) {
		t.Fatalf("second Open: %v, want ErrLocked", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("ErrLocked took %v", d)
	}
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := ix.Search(ctx, index.Request{Query: "x"}); !errors.Is(err, index.ErrClosed) {
		t.Errorf("Search after Close: %v", err)
	}
	ix = mustOpen(t, dir, nil)
	if n, _ := ix.Count(); n != len(corpus) {
		t.Errorf("Count after reopen %d", n)
	}
	if r := search(t, ix, index.Request{Query: "authenticated"}); r.Total != 2 {
		t.Errorf("after reopen: %v", ids(r))
	}
	if rep, err := ix.Check(ctx); err != nil || !rep.OK() {
		t.Errorf("Check after reopen: %v\n%s", err, rep)
	}
	d, err := ix.Get("xml")
	if err != nil || d.Role != "owner" || d.Project != "web" || !d.Time.Equal(day(3)) {
		t.Errorf("Get: %+v, %v", d, err)
	}
}

func TestRebuild(t *testing.T) {
	ix := mustOpen(t, t.TempDir(), nil)
	mustUpsert(t, ix, corpus...)
	if err := ix.Rebuild(ctx); err != nil {
		t.Fatal(err)
	}
	if rep, err := ix.Check(ctx); err != nil || !rep.OK() {
		t.Fatalf("Check after Rebuild: %v\n%s", err, rep)
	}
	if r := search(t, ix, index.Request{Query: "bufio.Scanner"}); len(r.Hits) != 1 {
		t.Errorf("after Rebuild: %v", ids(r))
	}
	if err := ix.Optimize(ctx); err != nil {
		t.Fatal(err)
	}
	st, err := ix.Stats()
	if err != nil || st.Docs != len(corpus) || st.Kinds["code"] != 3 || st.StoreBytes == 0 || st.TrigramBytes == 0 {
		t.Errorf("Stats %+v, %v", st, err)
	}
}

func TestFaultsLeaveIndexConsistent(t *testing.T) {
	for step := 1; step < 40; step++ {
		calls, armed := 0, false
		fault := func(string) error {
			if !armed {
				return nil
			}
			calls++
			if calls == step {
				return errors.New("disk on fire")
			}
			return nil
		}
		ix := mustOpen(t, t.TempDir(), index.WithFault(nil, fault))
		mustUpsert(t, ix, corpus[:3]...)
		armed = true
		err := ix.Upsert(ctx, index.Doc{ID: "auth", Body: "replaced"}, index.Doc{ID: "new", Body: "fresh"})
		armed = false
		if err == nil {
			if step < 10 {
				t.Errorf("step %d: no error", step)
			}
			break // the batch has fewer steps than this
		}
		rep, cerr := ix.Check(ctx)
		if cerr != nil || !rep.OK() {
			t.Errorf("step %d: Check %v\n%s", step, cerr, rep)
		}
		if r := search(t, ix, index.Request{Query: "fresh"}); r.Total != 0 {
			t.Errorf("step %d: half a failed batch is visible", step)
		}
		if err := ix.Upsert(ctx, index.Doc{ID: "after", Body: "recovered"}); err != nil {
			t.Errorf("step %d: write after fault: %v", step, err)
		}
		if r := search(t, ix, index.Request{Query: "recovered"}); r.Total != 1 {
			t.Errorf("step %d: write after fault not searchable", step)
		}
	}
}

// TestOldSchemaRebuilt opens an index written without declarations, as
// schema 2 wrote it: Open rebuilds both bleve indexes, after which the
// defining file ranks first; an index marked current is not rebuilt.
func TestOldSchemaRebuilt(t *testing.T) {
	for _, old := range []bool{true, false} {
		dir := t.TempDir()
		ix, err := index.Open(dir, index.WithoutDeclarations(nil))
		if err != nil {
			t.Fatal(err)
		}
		mustUpsert(t, ix, codeCorpus...)
		if old {
			if err := index.SetSchema(ix, 2); err != nil {
				t.Fatal(err)
			}
		}
		if err := ix.Close(); err != nil {
			t.Fatal(err)
		}
		ix = mustOpen(t, dir, nil)
		r := search(t, ix, index.Request{Query: "ReadFile ", Mode: index.ModeSubstring})
		if got := rankOf(r, "os/file.go") <= 2; got != old {
			t.Errorf("schema 2: %v: the definer ranks %d of %q", old, rankOf(r, "os/file.go"), ids(r))
		}
		if rep, err := ix.Check(ctx); err != nil || !rep.OK() {
			t.Errorf("check: %v\n%s", err, rep)
		}
	}
}

// An index of an older schema has its text index rebuilt from the store
// on Open, since that index lacks the words as written that fuzzy
// matching reads; an index of this schema keeps its own.
func TestOpenOlderSchemaRebuildsText(t *testing.T) {
	dir := t.TempDir()
	ix := mustOpen(t, dir, nil)
	mustUpsert(t, ix, index.Doc{ID: "a", Body: "the configuration file"})
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}
	marker := filepath.Join(dir, "text", "marker")
	for _, schema := range []uint64{index.SchemaVersion, 2} {
		if err := os.WriteFile(marker, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		st, err := storage.Open(filepath.Join(dir, "store.db"), nil)
		if err != nil {
			t.Fatal(err)
		}
		err = st.Update(func(tx storage.Tx) error {
			return tx.Put([]byte("meta"), []byte("schema"), binary.AppendUvarint(nil, schema))
		})
		if err := errors.Join(err, st.Close()); err != nil {
			t.Fatal(err)
		}
		ix := mustOpen(t, dir, nil)
		_, err = os.Stat(marker)
		if kept := err == nil; kept != (schema == index.SchemaVersion) {
			t.Errorf("schema %d: text index kept %v", schema, kept)
		}
		r := search(t, ix, index.Request{Query: "configuraton", Fuzzy: index.FuzzyAuto})
		if got := ids(r); len(got) != 1 || got[0] != "a" {
			t.Errorf("schema %d: configuraton: %v", schema, got)
		}
		if rep, err := ix.Check(ctx); err != nil || !rep.OK() {
			t.Errorf("schema %d: Check: %v\n%s", schema, err, rep)
		}
		if err := ix.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// Did-you-mean takes the most frequent of the nearest words, counted from
// their posting lists: after a merge, scorch's dictionaries report 1 for
// every term read after one that a single document holds once (zapx#445),
// which would make "jan" (one document) win over "json" (three).
func TestDidYouMeanCountsAfterMerge(t *testing.T) {
	ix := mustOpen(t, t.TempDir(), nil)
	// Two writes, two segments, for Optimize to merge.
	mustUpsert(t, ix, index.Doc{ID: "1", Body: "jan"}, index.Doc{ID: "2", Body: "json"})
	mustUpsert(t, ix, index.Doc{ID: "3", Body: "json"}, index.Doc{ID: "4", Body: "json"})
	if err := ix.Optimize(ctx); err != nil {
		t.Fatal(err)
	}
	r := search(t, ix, index.Request{Query: "jsn", Fallback: -1})
	if r.Total != 0 || r.DidYouMean != "json" {
		t.Fatalf("jsn: %d hits, did you mean %q, want json", r.Total, r.DidYouMean)
	}
}

// A Rebuild that fails (here cancelled) leaves nothing to read: every
// call but another Rebuild and Close says so, none panics, and a Rebuild
// that succeeds brings it all back, as does, on disk, a Close and an Open
// (the half-built indexes are not taken for the store's state).
func TestFailedRebuild(t *testing.T) {
	for _, dir := range []string{"", t.TempDir()} {
		var ix *index.Index
		if dir == "" {
			var err error
			if ix, err = index.OpenMemory(nil); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { ix.Close() })
		} else {
			ix = mustOpen(t, dir, nil)
		}
		mustUpsert(t, ix, corpus...)
		// Cancelled before it starts, it leaves the index as it was.
		cancelled, cancel := context.WithCancel(ctx)
		cancel()
		if err := ix.Rebuild(cancelled); err == nil {
			t.Fatal("a cancelled Rebuild succeeded")
		}
		if r := search(t, ix, index.Request{Query: "bufio.Scanner"}); len(r.Hits) != 1 {
			t.Errorf("%q after a Rebuild cancelled before it started: %v", dir, ids(r))
		}
		// Cancelled once the records are checked, while the indexes are
		// rebuilt: it leaves nothing to read.
		if err := ix.Rebuild(cancelAfter(ctx, int64(len(corpus))+1)); err == nil {
			t.Fatal("a cancelled Rebuild succeeded")
		}
		calls := map[string]func() error{
			"search":   func() error { _, err := ix.Search(ctx, index.Request{Query: "scanner"}); return err },
			"upsert":   func() error { return ix.Upsert(ctx, index.Doc{ID: "new", Body: "fresh"}) },
			"remove":   func() error { _, err := ix.Remove(ctx, "auth"); return err },
			"optimize": func() error { return ix.Optimize(ctx) },
			"check":    func() error { _, err := ix.Check(ctx); return err },
		}
		for name, call := range calls {
			if err := call(); err == nil || !strings.Contains(err.Error(), "rebuild") {
				t.Errorf("%q %s after a failed Rebuild: %v", dir, name, err)
			}
		}
		if dir != "" {
			if err := ix.Close(); err != nil {
				t.Fatal(err)
			}
			ix = mustOpen(t, dir, nil)
			if rep, err := ix.Check(ctx); err != nil || !rep.OK() {
				t.Fatalf("Open after a failed Rebuild: %v\n%s", err, rep)
			}
		}
		if err := ix.Rebuild(ctx); err != nil {
			t.Fatal(err)
		}
		mustUpsert(t, ix, index.Doc{ID: "new", Body: "fresh"})
		if r := search(t, ix, index.Request{Query: "bufio.Scanner"}); len(r.Hits) != 1 {
			t.Errorf("%q after a Rebuild: %v", dir, ids(r))
		}
		if rep, err := ix.Check(ctx); err != nil || !rep.OK() {
			t.Fatalf("%q Check after a Rebuild: %v\n%s", dir, err, rep)
		}
	}
}
