//go:build !js && !wasip1

package storage_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/twindex/twindex/storage"
)

// benchStore returns a store file to walk: $TWINDEX_BENCH_BOLT (say, the
// store.db of an index of the Go tree), or else one of 12,000 values of
// 0.2 to 200 KiB, 5 KiB on average, like source files (about 70 MB).
func benchStore(b *testing.B) string {
	if p := os.Getenv("TWINDEX_BENCH_BOLT"); p != "" {
		return p
	}
	path := filepath.Join(b.TempDir(), "s.db")
	s, err := storage.Open(path, &storage.Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	rng := rand.New(rand.NewPCG(1, 2))
	value := make([]byte, 200<<10)
	for i := 0; i < 12000; i += 500 {
		err := s.Update(func(tx storage.Tx) error {
			for j := i; j < i+500; j++ {
				n := min(len(value), 200+int(rng.ExpFloat64()*5000))
				if err := tx.Put(bucket, fmt.Appendf(nil, "src/pkg%d/file%d.go", j%300, j), value[:n]); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	return path
}

// BenchmarkCheckFile measures the walk Open does before handing the
// store to bbolt, from the page cache.
func BenchmarkCheckFile(b *testing.B) {
	path := benchStore(b)
	fi, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(fi.Size())
	for b.Loop() {
		if err := storage.CheckFile(path); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkOpen measures Open and Close of a large store: "walk" walks it
// every time, "record" finds it unchanged since the walk its
// Options.CheckRecord noted.
func BenchmarkOpen(b *testing.B) {
	path := benchStore(b)
	record := filepath.Join(b.TempDir(), "checked")
	for name, opts := range map[string]*storage.Options{"walk": nil, "record": {CheckRecord: record}} {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				s, err := storage.Open(path, opts)
				if err != nil {
					b.Fatal(err)
				}
				s.Close()
			}
		})
	}
}

// BenchmarkRecordingPuts writes 3,000 new keys to a memory store in one
// transaction that records them in an Undo, as the engine writes a
// corpus's documents.
func BenchmarkRecordingPuts(b *testing.B) {
	keys := make([][]byte, 3000)
	for i := range keys {
		keys[i] = fmt.Appendf(nil, "doc%05d", i)
	}
	for b.Loop() {
		s := storage.NewMemory(nil)
		var u storage.Undo
		err := s.Update(func(tx storage.Tx) error {
			rec := u.Recording(tx)
			for _, k := range keys {
				if err := rec.Put([]byte("docs"), k, k); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
}
