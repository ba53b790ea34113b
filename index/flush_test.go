//go:build !js && !wasip1

package index

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	bleveindex "github.com/blevesearch/bleve_index_api"
)

// TestCloseLeavesNothingToReplay reopens the bleve indexes directly,
// without the recovery in Open, and checks they persisted every write.
func TestCloseLeavesNothingToReplay(t *testing.T) {
	dir := t.TempDir()
	ix, err := Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		var b Batch
		for j := range 50 {
			b.Upsert(Doc{ID: fmt.Sprintf("%d-%d", i, j), Body: "some words to index"})
		}
		if _, err := ix.Apply(context.Background(), &b); err != nil {
			t.Fatal(err)
		}
	}
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{textDir, trigramDir} {
		idx, err := newBackend(Scorch, dir+"/"+name, bleveindex.NewAnalysisQueue(1), nil)
		if err != nil {
			t.Fatal(err)
		}
		seq, err := appliedSeq(idx)
		idx.Close()
		if err != nil || seq != 5 {
			t.Errorf("%s index persisted up to write %d (%v), want 5", name, seq, err)
		}
	}
}

// TestLargeBatchInHalves writes batches large enough for applyHalves to
// build the trigram index's part as two segments, and checks that every
// document of both halves is found, updated and removed in both legs, and
// that the sequence number recorded after the halves survives a reopen.
func TestLargeBatchInHalves(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	ix, err := Open(dir, &Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	const docs = 16
	word := func(round, i int) string { return fmt.Sprintf("w%c%cq", 'a'+round, 'a'+i) }
	body := func(round, i int) string {
		return fmt.Sprintf("%s %s", word(round, i), strings.Repeat(fmt.Sprintf("line %d of filler text\n", i), splitBytes/docs/16))
	}
	for round := range 2 {
		var b Batch
		size := 0
		for i := range docs {
			b.Upsert(Doc{ID: fmt.Sprint(i), Body: body(round, i)})
			size += len(body(round, i))
		}
		if round == 1 {
			b.Remove("0", fmt.Sprint(docs-1))
			size -= len(body(round, 0)) + len(body(round, docs-1))
		}
		if size < splitBytes {
			t.Fatalf("round %d: %d bytes of text do not reach splitBytes", round, size)
		}
		before := ix.tri.StatsMap()["TotBatches"].(uint64)
		if _, err := ix.Apply(ctx, &b); err != nil {
			t.Fatal(err)
		}
		if n := ix.tri.StatsMap()["TotBatches"].(uint64) - before; n != 3 {
			t.Fatalf("round %d: the trigram index took %d batches, want 3 (two halves and the sequence number)", round, n)
		}
	}
	check := func(when string) {
		for i := range docs {
			for _, m := range []Mode{ModeSubstring, ModeText} {
				removed := i == 0 || i == docs-1
				res, err := ix.Search(ctx, Request{Query: word(1, i), Mode: m, Fallback: -1})
				if err != nil {
					t.Fatal(err)
				}
				if want := map[bool]int{false: 1, true: 0}[removed]; res.Total != want {
					t.Errorf("%s, %s: %q found %d times, want %d", when, m, word(1, i), res.Total, want)
				}
				if res, _ := ix.Search(ctx, Request{Query: word(0, i), Mode: m, Fallback: -1}); res.Total != 0 {
					t.Errorf("%s, %s: the replaced word %q is still found", when, m, word(0, i))
				}
			}
		}
		if rep, err := ix.Check(ctx); err != nil || !rep.OK() {
			t.Errorf("%s: Check: %v\n%s", when, err, rep)
		}
	}
	check("after the writes")
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}
	if ix, err = Open(dir, &Options{Workers: 2}); err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	check("after reopening")
}

// TestOpenMemoryBackend: memory indexes default to Compact (scorch runs
// no merger in memory; upsidedown builds and searches slower), on-disk ones
// to Scorch, and a backend asked for is the one used.
func TestOpenMemoryBackend(t *testing.T) {
	for _, c := range []struct {
		opts *Options
		want Backend
	}{{nil, Compact}, {&Options{}, Compact}, {&Options{Backend: Scorch}, Scorch}, {&Options{Backend: UpsideDown}, UpsideDown}} {
		ix, err := OpenMemory(c.opts)
		if err != nil {
			t.Fatal(err)
		}
		if ix.opts.Backend != c.want {
			t.Errorf("OpenMemory(%+v): backend %s, want %s", c.opts, ix.opts.Backend, c.want)
		}
		ix.Close()
	}
	ix, err := Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if ix.opts.Backend != Scorch {
		t.Errorf("Open: backend %s, want %s", ix.opts.Backend, Scorch)
	}
}

// TestBulkLoadHoldsMergesBack writes 25 batches of 400 small documents to
// an index opened with BulkLoad and to one without: the first merges
// nothing until Optimize, the second merges as the batches come; Optimize
// leaves one segment in both.
func TestBulkLoadHoldsMergesBack(t *testing.T) {
	ctx := context.Background()
	segments := func(ix *Index) (file, memory uint64) {
		m := ix.tri.StatsMap()
		return m["num_root_filesegments"].(uint64), m["num_root_memorysegments"].(uint64)
	}
	for _, bulk := range []bool{true, false} {
		ix, err := Open(t.TempDir(), &Options{BulkLoad: bulk, NoSync: true})
		if err != nil {
			t.Fatal(err)
		}
		for i := range 25 {
			var b Batch
			for j := range 400 {
				b.Upsert(Doc{ID: fmt.Sprintf("%d-%d", i, j), Body: fmt.Sprintf("note %d of batch %d", j, i)})
			}
			if _, err := ix.Apply(ctx, &b); err != nil {
				t.Fatal(err)
			}
		}
		// Wait for the persister, and for the merger of the index that merges.
		deadline := time.Now().Add(30 * time.Second)
		for {
			file, memory := segments(ix)
			if memory == 0 && (bulk || file <= 10) {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("bulk %v: %d file and %d memory segments after 30 s", bulk, file, memory)
			}
			time.Sleep(20 * time.Millisecond)
		}
		// The persister may write two batches as one segment; only the
		// merger's tasks tell merging apart.
		merges := ix.tri.StatsMap()["TotFileMergePlanTasksDone"].(uint64)
		if bulk != (merges == 0) {
			t.Errorf("bulk %v: %d merges before Optimize", bulk, merges)
		}
		if err := ix.Optimize(ctx); err != nil {
			t.Fatal(err)
		}
		if file, memory := segments(ix); file+memory != 1 {
			t.Errorf("bulk %v: %d segments after Optimize, want 1", bulk, file+memory)
		}
		if n, _ := ix.Count(); n != 25*400 {
			t.Errorf("bulk %v: Count %d", bulk, n)
		}
		ix.Close()
	}
}
