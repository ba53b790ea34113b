//go:build !js && !wasip1

package index_test

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/twindex/twindex/index"
	"github.com/twindex/twindex/internal/goroot"
)

// benchDocs reads up to n .go files of the Go tree on this machine, bodies
// capped at 20,000 bytes as in the shared yardstick.
var benchDocs = sync.OnceValue(func() []index.Doc {
	dir, err := goroot.Dir()
	if err != nil {
		panic(err)
	}
	root := filepath.Join(dir, "src")
	var docs []index.Doc
	filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || len(docs) >= 2000 {
			return fs.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return nil
		}
		body := string(b[:min(len(b), 20000)])
		for !strings.HasSuffix(body, "\n") && len(body) > 0 && len(body) == 20000 {
			body = body[:len(body)-1]
		}
		rel, _ := filepath.Rel(root, path)
		docs = append(docs, index.Doc{ID: rel, Kind: "code", Title: filepath.Base(path), Body: strings.ToValidUTF8(body, ""), Parent: filepath.Dir(rel)})
		return nil
	})
	return docs
})

func benchIndex(b *testing.B) *index.Index {
	b.Helper()
	ix, err := index.Open(b.TempDir(), nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { ix.Close() })
	docs := benchDocs()
	for i := 0; i < len(docs); i += 500 {
		if err := ix.Upsert(ctx, docs[i:min(i+500, len(docs))]...); err != nil {
			b.Fatal(err)
		}
	}
	// Merge now, so that background merging does not compete with searches.
	if err := ix.Optimize(ctx); err != nil {
		b.Fatal(err)
	}
	return ix
}

// BenchmarkBuild indexes 2,000 files of the Go tree on disk, in batches of 500.
func BenchmarkBuild(b *testing.B) {
	docs := benchDocs()
	var bytes int64
	for _, d := range docs {
		bytes += int64(len(d.Title) + len(d.Body))
	}
	b.SetBytes(bytes)
	for b.Loop() {
		ix, err := index.Open(b.TempDir(), nil)
		if err != nil {
			b.Fatal(err)
		}
		for i := 0; i < len(docs); i += 500 {
			if err := ix.Upsert(ctx, docs[i:min(i+500, len(docs))]...); err != nil {
				b.Fatal(err)
			}
		}
		ix.Close()
	}
}

// BenchmarkSearch runs a fixed mix of queries (words, identifiers,
// substrings, camelCase parts) in each mode, top 20 with snippets, and in
// auto mode with each hit's matching lines (two of context) as well.
func BenchmarkSearch(b *testing.B) {
	ix := benchIndex(b)
	queries := []string{"read the file", "buffer size limit", "NewReader", "strconv.Itoa", "ndle", "Writ", "parse url", "byte slice copy", "ErrUnexpectedEOF", "unsafe pointer"}
	for _, m := range []index.Mode{index.ModeAuto, index.ModeSubstring, index.ModeText, "auto+lines"} {
		b.Run(string(m), func(b *testing.B) {
			req := index.Request{Mode: m}
			if m == "auto+lines" {
				req = index.Request{Mode: index.ModeAuto, Lines: &index.LineOptions{Before: 2, After: 2}}
			}
			for i := 0; b.Loop(); i++ {
				req.Query = queries[i%len(queries)]
				if _, err := ix.Search(ctx, req); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkSearchShort is BenchmarkSearch's index asked the tail of
// twindex-bench tail: words of one and two characters, and such a word
// beside a longer one, which match most documents and resolve them all.
func BenchmarkSearchShort(b *testing.B) {
	ix := benchIndex(b)
	queries := []string{"fd", "io", "x", "ok", "fd close", "io reader", "x int", "err nil"}
	for _, m := range []index.Mode{index.ModeAuto, index.ModeSubstring} {
		b.Run(string(m), func(b *testing.B) {
			for i := 0; b.Loop(); i++ {
				if _, err := ix.Search(ctx, index.Request{Query: queries[i%len(queries)], Mode: m}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkSearchCold is a CLI search's path: the index opened with no
// cache of folded text, one query, closed; BenchmarkSearch's index,
// queries that check thousands of candidates against their text. An op
// is Open, Search and Close.
func BenchmarkSearchCold(b *testing.B) {
	built := benchIndex(b)
	dir := built.Dir()
	if err := built.Close(); err != nil { // a reader waits for the writer's lock
		b.Fatal(err)
	}
	for _, q := range []string{"open", "the error", "open file", `"all rights reserved"`} {
		b.Run(q, func(b *testing.B) {
			for b.Loop() {
				ix, err := index.Open(dir, &index.Options{ReadOnly: true, CacheBytes: -1})
				if err != nil {
					b.Fatal(err)
				}
				if _, err := ix.Search(ctx, index.Request{Query: q, Limit: 20}); err != nil {
					b.Fatal(err)
				}
				ix.Close()
			}
		})
	}
}

// memoryBackends are the backends of memory indexes, compared by the
// benchmarks below.
var memoryBackends = []index.Backend{index.Compact, index.UpsideDown, index.Scorch}

// BenchmarkMemoryBuild indexes 2,000 files of the Go tree in memory, in
// batches of 500, on each backend.
func BenchmarkMemoryBuild(b *testing.B) {
	docs := benchDocs()
	var bytes int64
	for _, d := range docs {
		bytes += int64(len(d.Title) + len(d.Body))
	}
	for _, be := range memoryBackends {
		b.Run(string(be), func(b *testing.B) {
			b.SetBytes(bytes)
			for b.Loop() {
				memoryIndex(b, be, docs).Close()
			}
		})
	}
}

func memoryIndex(b *testing.B, be index.Backend, docs []index.Doc) *index.Index {
	ix, err := index.OpenMemory(&index.Options{Backend: be})
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < len(docs); i += 500 {
		if err := ix.Upsert(ctx, docs[i:min(i+500, len(docs))]...); err != nil {
			b.Fatal(err)
		}
	}
	return ix
}

// BenchmarkMemorySearch runs BenchmarkSearch's queries on a memory index
// of each backend, in each mode.
func BenchmarkMemorySearch(b *testing.B) {
	queries := []string{"read the file", "buffer size limit", "NewReader", "strconv.Itoa", "ndle", "Writ", "parse url", "byte slice copy", "ErrUnexpectedEOF", "unsafe pointer"}
	for _, be := range memoryBackends {
		b.Run(string(be), func(b *testing.B) {
			ix := memoryIndex(b, be, benchDocs())
			defer ix.Close()
			for _, m := range []index.Mode{index.ModeAuto, index.ModeSubstring, index.ModeText} {
				b.Run(string(m), func(b *testing.B) {
					for i := 0; b.Loop(); i++ {
						if _, err := ix.Search(ctx, index.Request{Query: queries[i%len(queries)], Mode: m}); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		})
	}
}

// BenchmarkSearchAfterSmallWrites searches a memory index written one
// document at a time (1,000 writes), as an embedder's notes or memories
// are: on Scorch every write stays a segment, since bleve runs no merger
// in memory, which is why memory indexes default to another backend.
func BenchmarkSearchAfterSmallWrites(b *testing.B) {
	docs := benchDocs()[:1000]
	for _, be := range memoryBackends {
		b.Run(string(be), func(b *testing.B) {
			ix, err := index.OpenMemory(&index.Options{Backend: be})
			if err != nil {
				b.Fatal(err)
			}
			defer ix.Close()
			for _, d := range docs {
				if err := ix.Upsert(ctx, d); err != nil {
					b.Fatal(err)
				}
			}
			for b.Loop() {
				if _, err := ix.Search(ctx, index.Request{Query: "read the file"}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// snapshotBench builds a memory index of the 2,000 files of benchDocs
// once per test binary, in batches of 500, and writes its snapshot. The
// index stays open for BenchmarkSnapshotWrite.
var snapshotBench = sync.OnceValues(func() (snapshotFixture, error) {
	ix, err := index.OpenMemory(&index.Options{Backend: index.Compact})
	if err != nil {
		return snapshotFixture{}, err
	}
	docs := benchDocs()
	for i := 0; i < len(docs); i += 500 {
		if err := ix.Upsert(ctx, docs[i:min(i+500, len(docs))]...); err != nil {
			return snapshotFixture{}, err
		}
	}
	var buf bytes.Buffer
	if err := ix.WriteSnapshot(&buf); err != nil {
		return snapshotFixture{}, err
	}
	return snapshotFixture{ix, buf.Bytes()}, nil
})

type snapshotFixture struct {
	ix   *index.Index
	data []byte
}

// BenchmarkSnapshotLoad loads the snapshot of a memory index of 2,000
// files of the Go tree, as the browser page does; bytes/s are of the
// snapshot.
func BenchmarkSnapshotLoad(b *testing.B) {
	f, err := snapshotBench()
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(f.data)))
	for b.Loop() {
		ix, err := index.OpenSnapshot(bytes.NewReader(f.data), nil)
		if err != nil {
			b.Fatal(err)
		}
		ix.Close()
	}
}

// BenchmarkSnapshotWrite writes the snapshot that BenchmarkSnapshotLoad
// loads.
func BenchmarkSnapshotWrite(b *testing.B) {
	f, err := snapshotBench()
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(f.data)))
	var buf bytes.Buffer
	for b.Loop() {
		buf.Reset()
		if err := f.ix.WriteSnapshot(&buf); err != nil {
			b.Fatal(err)
		}
	}
}
