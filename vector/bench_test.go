package vector_test

import (
	"fmt"
	"math/rand"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/twindex/twindex/internal/vectortest"
	"github.com/twindex/twindex/vector"
)

// vectorBench is one built set, kept across the b.N rounds of a
// sub-benchmark because building 100k vectors into a graph takes minutes.
type vectorBench struct {
	set     *vector.Set
	build   time.Duration
	heapMiB float64
}

var (
	vectorBenchMu   sync.Mutex
	vectorBenchSets = map[string]*vectorBench{}
)

// BenchmarkSearch compares exact scan and HNSW top-10 search and
// reports per-query p50/p95, build time, heap growth, and HNSW recall@10.
//
// TWINDEX_VECTOR_BENCH sets the size as NxDIM (default 5000x64, so CI
// stays quick). TWINDEX_VECTOR_DATA picks the data: embedding-like
// clusters in a 24-dimensional latent space (default), "clustered"
// (isotropic noise around centers, the worst case) or "random".
// The figure:
//
//	TWINDEX_VECTOR_BENCH=100000x384 go test ./vector -run '^$' \
//	    -bench BenchmarkSearch -benchtime 2000x -timeout 60m
func BenchmarkSearch(b *testing.B) {
	n, dim := 5000, 64
	if s := os.Getenv("TWINDEX_VECTOR_BENCH"); s != "" {
		if _, err := fmt.Sscanf(s, "%dx%d", &n, &dim); err != nil {
			b.Fatalf("TWINDEX_VECTOR_BENCH=%q, want NxDIM: %v", s, err)
		}
	}
	clusters, latent := max(n/1000, 10), 24
	switch os.Getenv("TWINDEX_VECTOR_DATA") {
	case "clustered":
		latent = 0
	case "random":
		clusters, latent = 0, 0
	}
	r := rand.New(rand.NewSource(1))
	all := vectortest.Generate(r, n+200, dim, vectortest.Shape{Clusters: clusters, Latent: latent})
	vecs, queries := all[:n], all[n:]
	key := fmt.Sprintf("%dx%d/%d/%d", n, dim, clusters, latent)

	get := func(b *testing.B, name string, exactMax int) *vectorBench {
		vectorBenchMu.Lock()
		defer vectorBenchMu.Unlock()
		if vb, ok := vectorBenchSets[key+name]; ok {
			return vb
		}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		start := time.Now()
		set := mustNew(b, dim, &vector.Options{ExactMax: exactMax, Seed: 1})
		for i, v := range vecs {
			if err := set.Put(fmt.Sprint("doc", i), v); err != nil {
				b.Fatal(err)
			}
		}
		vb := &vectorBench{set: set, build: time.Since(start)}
		runtime.GC()
		runtime.ReadMemStats(&after)
		vb.heapMiB = float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / (1 << 20)
		vectorBenchSets[key+name] = vb
		return vb
	}

	for _, tc := range []struct {
		name     string
		exactMax int
		ef       int
	}{
		{"exact", -1, 0},
		{"hnsw/ef=64", 1, 64},
		{"hnsw/ef=128", 1, 128},
		{"hnsw/ef=256", 1, 256},
		{"hnsw/ef=512", 1, 512},
	} {
		b.Run(fmt.Sprintf("%s/n=%d/dim=%d", tc.name, n, dim), func(b *testing.B) {
			kind := strings.Split(tc.name, "/")[0]
			vb := get(b, kind, tc.exactMax)
			if tc.ef > 0 {
				vb.set.SetEfSearch(tc.ef)
			}
			lat := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				start := time.Now()
				if _, err := vb.set.Search(queries[i%len(queries)], 10, nil); err != nil {
					b.Fatal(err)
				}
				lat = append(lat, time.Since(start))
			}
			b.StopTimer()
			slices.Sort(lat)
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
			b.ReportMetric(float64(lat[len(lat)*95/100].Microseconds()), "p95-µs")
			b.ReportMetric(vb.build.Seconds(), "build-s")
			b.ReportMetric(vb.heapMiB, "heap-MiB")
			if kind == "hnsw" {
				b.ReportMetric(recallAt10(b, get(b, "exact", -1).set, vb.set, queries), "recall@10")
			}
		})
	}
}
