package index_test

import (
	"bytes"
	"fmt"
	"reflect"
	"runtime"
	"slices"
	"testing"

	"github.com/twindex/twindex/index"
)

// laterQueries are searches of every shape a page makes: each mode,
// one- and two-character words, a fragment, a phrase, a prefix as typed,
// a filter, a word no document holds (the tolerant pass), raw syntax
// with NOT (a scan of the store even with a trigram index).
var laterQueries = func() []index.Request {
	var out []index.Request
	for _, m := range []index.Mode{index.ModeAuto, index.ModeSubstring, index.ModeText} {
		for _, q := range []string{"NewReader", "eadAll", "a", "io", "http.Handler", `"close the file"`,
			"Dura", "json decoder", "qqzxjw", "mutex -lock", "Scanner"} {
			out = append(out, index.Request{Query: q, Mode: m}, index.Request{Query: q, Mode: m, Prefix: true})
		}
		out = append(out, index.Request{Query: "reader", Mode: m, Kinds: []string{"func"}},
			index.Request{Query: "reader NOT writer", Mode: m, Syntax: index.SyntaxRaw},
			index.Request{Query: "ParseDuration scanner", Mode: m, Explain: true})
	}
	return out
}()

// sameMatches checks that b finds what a finds, whatever the order: the
// same total and, listed whole, the same documents.
func sameMatches(t *testing.T, a, b *index.Index, req index.Request) {
	t.Helper()
	req.Bare, req.Limit = true, index.MaxBareLimit
	ra, rb := search(t, a, req), search(t, b, req)
	ia, ib := ids(ra), ids(rb)
	slices.Sort(ia)
	slices.Sort(ib)
	if ra.Total != rb.Total || !slices.Equal(ia, ib) {
		t.Fatalf("%+v: %d matches against %d, or other documents", req, rb.Total, ra.Total)
	}
}

// declaringDocs are Go files that declare some of the words the
// searches look for, for the snippets' and Explain's declarations.
func declaringDocs(n int) []index.Doc {
	names := []string{"NewReader", "ReadAll", "Handler", "ParseDuration", "Scanner", "Mutex"}
	docs := make([]index.Doc, n)
	for i := range docs {
		decl, use := names[i%len(names)], names[(i+1)%len(names)]
		docs[i] = index.Doc{ID: fmt.Sprintf("pkg%d/file%d.go", i%7, i), Kind: "code", Title: fmt.Sprintf("file%d.go", i),
			Body: fmt.Sprintf("package pkg\n\n// %s calls %s on the reader.\nfunc helper%d() { %s() }\n\n// %s is declared here.\nfunc %s() error { return nil }\n",
				decl, use, i, use, decl, decl)}
	}
	return docs
}

// An index loaded with TrigramsLater searches at once: before its
// trigram index is built, and while it is, every search finds exactly
// the documents and totals of an index loaded whole, text mode's results
// unchanged (declarations in snippets and Explain included); once built
// it answers as that index does, to the bit.
func TestSnapshotTrigramsLater(t *testing.T) {
	data := writeSnapshot(t, openCompact(t, append(apiCorpus(2440), declaringDocs(60)...)))
	whole := loadSnapshot(t, data)
	later, err := index.OpenSnapshot(bytes.NewReader(data), &index.Options{TrigramsLater: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { later.Close() })

	for _, req := range laterQueries {
		sameMatches(t, whole, later, req)
		if req.Mode == index.ModeText {
			if ra, rb := search(t, whole, req), search(t, later, req); !reflect.DeepEqual(ra, rb) {
				t.Fatalf("%+v: text mode differs before the trigram index:\n%+v\n%+v", req, ra, rb)
			}
		}
	}
	if n, _ := later.Count(); n != 2500 {
		t.Fatalf("%d documents before the trigram index", n)
	}

	// Searches between the build's batches, and inside them, read every
	// document still, not the part of the trigram index built so far.
	pauses := 0
	err = later.BuildTrigrams(ctx, func() {
		pauses++
		for _, req := range laterQueries[:8] {
			sameMatches(t, whole, later, req)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if pauses < 2 {
		t.Fatalf("%d pauses in a build of 3 batches", pauses)
	}
	// A build pauses every 64 documents it reads from the store and
	// every 64 it makes into trigram documents, and a batch's build every
	// 64 it analyzes and lays out, where it runs on the writer's
	// goroutine: always with one processor (js/wasm).
	if runtime.GOMAXPROCS(0) == 1 && pauses < 4*2500/64 {
		t.Fatalf("%d pauses in a build of 2,500 documents on one processor", pauses)
	}
	for _, req := range laterQueries {
		if ra, rb := search(t, whole, req), search(t, later, req); !reflect.DeepEqual(ra, rb) {
			t.Fatalf("%+v: once built, results differ:\n%+v\n%+v", req, ra, rb)
		}
	}
	sameIndex(t, whole, later)
	if err := later.BuildTrigrams(ctx, func() { t.Fatal("a second build paused") }); err != nil {
		t.Fatal(err)
	}
	if again := writeSnapshot(t, later); !bytes.Equal(again, data) {
		t.Fatal("the built index writes another snapshot")
	}
}

// A write, Optimize or Check on an index whose trigram index is not
// built yet builds it first.
func TestSnapshotTrigramsLaterWrites(t *testing.T) {
	data := writeSnapshot(t, openCompact(t, apiCorpus(1200)))
	open := func() *index.Index {
		ix, err := index.OpenSnapshot(bytes.NewReader(data), &index.Options{TrigramsLater: true})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ix.Close() })
		return ix
	}
	whole := loadSnapshot(t, data)
	doc := index.Doc{ID: "added", Title: "NewReaderAt", Body: "quokka reads the file"}
	mustUpsert(t, whole, doc)
	written := open()
	mustUpsert(t, written, doc)
	if err := written.BuildTrigrams(ctx, func() { t.Fatal("the write left the build to do") }); err != nil {
		t.Fatal(err)
	}
	for _, req := range laterQueries {
		if ra, rb := search(t, whole, req), search(t, written, req); !reflect.DeepEqual(ra, rb) {
			t.Fatalf("%+v: after a write, results differ:\n%+v\n%+v", req, ra, rb)
		}
	}
	for name, op := range map[string]func(*index.Index) error{
		"optimize": func(ix *index.Index) error { return ix.Optimize(ctx) },
		"check": func(ix *index.Index) error {
			rep, err := ix.Check(ctx)
			if err == nil && !rep.OK() {
				t.Fatalf("check: %v", rep)
			}
			return err
		},
	} {
		ix := open()
		if err := op(ix); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := ix.BuildTrigrams(ctx, func() { t.Fatalf("%s left the build to do", name) }); err != nil {
			t.Fatal(err)
		}
		if got := ids(search(t, ix, index.Request{Query: "eadAll", Mode: index.ModeSubstring})); len(got) == 0 {
			t.Fatalf("%s: no substring match", name)
		}
	}
}
