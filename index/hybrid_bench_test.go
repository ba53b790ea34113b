package index_test

import (
	"fmt"
	"math/rand"
	"os"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/twindex/twindex/index"
	"github.com/twindex/twindex/internal/vectortest"
	"github.com/twindex/twindex/vector"
)

// BenchmarkHybridSearch times hybrid search (both keyword legs and the
// vector leg, fused) end to end on a memory index, with the vector leg
// exact and approximate, and reports p50/p95 per query, the build time and
// the heap. TWINDEX_HYBRID_BENCH sets NxDIM (default 2000x64, for CI):
//
//	TWINDEX_HYBRID_BENCH=100000x384 go test ./index -run '^$' \
//	    -bench BenchmarkHybridSearch -benchtime 200x -timeout 60m
func BenchmarkHybridSearch(b *testing.B) {
	n, dim := 2000, 64
	if s := os.Getenv("TWINDEX_HYBRID_BENCH"); s != "" {
		if _, err := fmt.Sscanf(s, "%dx%d", &n, &dim); err != nil {
			b.Fatalf("TWINDEX_HYBRID_BENCH=%q, want NxDIM: %v", s, err)
		}
	}
	r := rand.New(rand.NewSource(1))
	all := vectortest.Generate(r, n+200, dim, vectortest.Shape{Clusters: max(n/1000, 10), Latent: 24})
	vecs, queries := all[:n], all[n:]
	words := make([]string, 5000)
	for i := range words {
		words[i] = fmt.Sprintf("w%c%c%c", 'a'+i%26, 'a'+i/26%26, 'a'+i/676%26)
	}
	text := func(r *rand.Rand, k int) string {
		var s []byte
		for range k {
			s = append(append(s, words[int(r.ExpFloat64()*300)%len(words)]...), ' ')
		}
		return string(s)
	}
	for _, v := range []struct {
		name     string
		exactMax int
	}{{"exact", -1}, {"hnsw", 1}} {
		b.Run(v.name, func(b *testing.B) {
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			start := time.Now()
			ix, err := index.OpenMemory(&index.Options{Vectors: &vector.Options{ExactMax: v.exactMax, Seed: 1}})
			if err != nil {
				b.Fatal(err)
			}
			defer ix.Close()
			dr := rand.New(rand.NewSource(2))
			var batch index.Batch
			for i, vec := range vecs {
				batch.Upsert(index.Doc{ID: fmt.Sprint("doc", i), Title: text(dr, 4), Body: text(dr, 60), Vector: vec})
				if batch.Len() == 1000 || i == len(vecs)-1 {
					if _, err := ix.Apply(ctx, &batch); err != nil {
						b.Fatal(err)
					}
					batch.Reset()
				}
			}
			qr := rand.New(rand.NewSource(3))
			req := func(i int) index.Request {
				return index.Request{Query: text(qr, 2) + " ", Vector: queries[i%len(queries)], Mode: index.ModeHybrid, Limit: 10, Fallback: -1}
			}
			search(b, ix, req(0)) // builds the vector index
			build := time.Since(start)
			runtime.GC()
			runtime.ReadMemStats(&after)
			lat := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for i := range b.N {
				t0 := time.Now()
				search(b, ix, req(i))
				lat = append(lat, time.Since(t0))
			}
			b.StopTimer()
			slices.Sort(lat)
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(lat[len(lat)*95/100].Microseconds())/1000, "p95-ms")
			b.ReportMetric(build.Seconds(), "build-s")
			b.ReportMetric(float64(int64(after.HeapAlloc)-int64(before.HeapAlloc))/(1<<20), "heap-MiB")
		})
	}
}
