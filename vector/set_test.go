package vector_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand"
	"slices"
	"sort"
	"sync"
	"testing"

	"github.com/twindex/twindex/internal/vectortest"
	"github.com/twindex/twindex/vector"
)

func mustNew(t testing.TB, dim int, opts *vector.Options) *vector.Set {
	t.Helper()
	v, err := vector.New(dim, opts)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// bruteForce is the reference: cosine in float64, best first, ties by ID.
func bruteForce(ids []string, vecs [][]float32, q []float32, k int, keep func(string) bool) []string {
	type scored struct {
		id string
		s  float64
	}
	var all []scored
	for i, v := range vecs {
		if keep != nil && !keep(ids[i]) {
			continue
		}
		var d, nv, nq float64
		for j := range v {
			d += float64(v[j]) * float64(q[j])
			nv += float64(v[j]) * float64(v[j])
			nq += float64(q[j]) * float64(q[j])
		}
		all = append(all, scored{ids[i], d / math.Sqrt(nv*nq)})
	}
	sort.Slice(all, func(a, b int) bool {
		if all[a].s != all[b].s {
			return all[a].s > all[b].s
		}
		return all[a].id < all[b].id
	})
	var out []string
	for i := 0; i < k && i < len(all); i++ {
		out = append(out, all[i].id)
	}
	return out
}

func hitIDs(hits []vector.Hit) []string {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.ID
	}
	return out
}

func TestInvalid(t *testing.T) {
	v := mustNew(t, 3, nil)
	nan := float32(math.NaN())
	inf := float32(math.Inf(1))
	for _, tc := range []struct {
		name string
		id   string
		vec  []float32
	}{
		{"empty id", "", []float32{1, 0, 0}},
		{"short", "a", []float32{1, 0}},
		{"long", "a", []float32{1, 0, 0, 0}},
		{"zero", "a", []float32{0, 0, 0}},
		{"nan", "a", []float32{1, nan, 0}},
		{"inf", "a", []float32{inf, 0, 0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want := vector.ErrInvalidVector
			if tc.id == "" {
				want = vector.ErrEmptyID
			}
			if err := v.Put(tc.id, tc.vec); !errors.Is(err, want) {
				t.Errorf("Put = %v, want %v", err, want)
			}
			if tc.id != "" {
				if _, err := v.Search(tc.vec, 1, nil); !errors.Is(err, vector.ErrInvalidVector) {
					t.Errorf("Search = %v, want ErrInvalidVector", err)
				}
			}
		})
	}
	if v.Len() != 0 {
		t.Errorf("Len = %d after rejected sets", v.Len())
	}
	if _, err := vector.New(0, nil); !errors.Is(err, vector.ErrInvalidDim) {
		t.Errorf("New(0) = %v, want ErrInvalidDim", err)
	}
}

func TestExact(t *testing.T) {
	v := mustNew(t, 2, nil)
	for id, vec := range map[string][]float32{
		"east":  {1, 0},
		"north": {0, 2}, // normalized on Put
		"ne":    {3, 3},
		"ne2":   {1, 1}, // ties with ne
		"west":  {-1, 0},
	} {
		if err := v.Put(id, vec); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name string
		q    []float32
		k    int
		keep func(string) bool
		want []string
	}{
		{"nearest first, ties by id", []float32{1, 1}, 3, nil, []string{"ne", "ne2", "east"}},
		{"k above len", []float32{1, 0}, 10, nil, []string{"east", "ne", "ne2", "north", "west"}},
		{"keep", []float32{1, 1}, 2, func(id string) bool { return id != "ne" }, []string{"ne2", "east"}},
		{"keep none", []float32{1, 1}, 2, func(string) bool { return false }, []string{}},
		{"k zero", []float32{1, 1}, 0, nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hits, err := v.Search(tc.q, tc.k, tc.keep)
			if err != nil {
				t.Fatal(err)
			}
			if got := hitIDs(hits); !slices.Equal(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
	hits, _ := v.Search([]float32{0, 5}, 1, nil)
	if len(hits) != 1 || math.Abs(hits[0].Score-1) > 1e-6 {
		t.Errorf("score of identical direction = %v, want 1", hits)
	}
}

func TestUpsertDelete(t *testing.T) {
	for _, tc := range []struct {
		name     string
		exactMax int
	}{
		{"exact", -1},
		{"hnsw", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := mustNew(t, 2, &vector.Options{ExactMax: tc.exactMax})
			must := func(err error) {
				t.Helper()
				if err != nil {
					t.Fatal(err)
				}
			}
			must(v.Put("a", []float32{1, 0}))
			must(v.Put("b", []float32{0, 1}))
			must(v.Put("a", []float32{0, 1})) // a moves next to b
			if v.Len() != 2 {
				t.Fatalf("Len = %d, want 2", v.Len())
			}
			hits, _ := v.Search([]float32{1, 0.01}, 2, nil)
			if got := hitIDs(hits); !slices.Equal(got, []string{"a", "b"}) || hits[0].Score > 0.1 {
				t.Errorf("after upsert got %v", hits)
			}
			if !v.Delete("a") || v.Delete("a") || v.Delete("zz") {
				t.Error("Delete reports wrong presence")
			}
			hits, _ = v.Search([]float32{1, 0}, 5, nil)
			if got := hitIDs(hits); !slices.Equal(got, []string{"b"}) {
				t.Errorf("after delete got %v", got)
			}
			// Churn through many tombstones so compaction runs repeatedly.
			for i := range 500 {
				id := fmt.Sprint("c", i%7)
				must(v.Put(id, []float32{float32(i%5) + 1, float32(i % 3)}))
				if i%3 == 0 {
					v.Delete(id)
				}
			}
			hits, _ = v.Search([]float32{1, 0}, 100, nil)
			if len(hits) != v.Len() {
				t.Errorf("search found %d of %d", len(hits), v.Len())
			}
		})
	}
}

// TestGraphMatchesExact checks the graph path against brute force
// with tombstones, upserts and a selective keep, which forces over-fetch
// and the exact fallback.
func TestGraphMatchesExact(t *testing.T) {
	const n, dim = 2000, 16
	r := rand.New(rand.NewSource(7))
	all := vectortest.Generate(r, 2*n+50, dim, vectortest.Shape{Clusters: 20})
	vecs, fresh, queries := all[:n], all[n:2*n], all[2*n:]
	ids := make([]string, n)
	v := mustNew(t, dim, &vector.Options{ExactMax: 100, Seed: 1})
	for i := range vecs {
		ids[i] = fmt.Sprintf("d%05d", i)
		if err := v.Put(ids[i], vecs[i]); err != nil {
			t.Fatal(err)
		}
	}
	// Delete a third, re-set a tenth with new vectors.
	for i := 0; i < n; i += 3 {
		v.Delete(ids[i])
	}
	var liveIDs []string
	var liveVecs [][]float32
	for i := range n {
		switch {
		case i%10 == 1:
			vecs[i] = fresh[i]
			if err := v.Put(ids[i], vecs[i]); err != nil {
				t.Fatal(err)
			}
		case i%3 == 0:
			continue
		}
		liveIDs, liveVecs = append(liveIDs, ids[i]), append(liveVecs, vecs[i])
	}
	if v.Len() != len(liveIDs) {
		t.Fatalf("Len = %d, want %d", v.Len(), len(liveIDs))
	}
	rare := func(id string) bool { return id[len(id)-2:] == "17" } // 1 in 100
	for _, tc := range []struct {
		name      string
		keep      func(string) bool
		minRecall float64
	}{
		{"all", nil, 0.95},
		{"half", func(id string) bool { return id[len(id)-1]%2 == 0 }, 0.95},
		{"rare falls back to exact", rare, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var hit, total int
			for _, q := range queries {
				want := bruteForce(liveIDs, liveVecs, q, 10, tc.keep)
				hits, err := v.Search(q, 10, tc.keep)
				if err != nil {
					t.Fatal(err)
				}
				if len(hits) != len(want) {
					t.Fatalf("got %d hits, want %d", len(hits), len(want))
				}
				for i, h := range hits {
					if tc.keep != nil && !tc.keep(h.ID) {
						t.Fatalf("hit %s fails keep", h.ID)
					}
					if i > 0 && h.Score > hits[i-1].Score {
						t.Fatalf("hits not best first: %v", hits)
					}
				}
				hit += overlap(hitIDs(hits), want)
				total += len(want)
			}
			if got := float64(hit) / float64(total); got < tc.minRecall {
				t.Errorf("recall %.3f, want >= %.2f", got, tc.minRecall)
			}
		})
	}
}

func overlap(a, b []string) int {
	n := 0
	for _, x := range a {
		if slices.Contains(b, x) {
			n++
		}
	}
	return n
}

// TestHNSWRecall holds the graph to the bar, recall@10 >= 0.95
// against exact search, with default parameters.
func TestHNSWRecall(t *testing.T) {
	const n, dim, queries = 5000, 64, 200
	for _, tc := range []struct {
		name     string
		clusters int
		latent   int
	}{
		{"random", 0, 0},
		{"clustered", 50, 0},
		{"embedding-like", 50, 16},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := rand.New(rand.NewSource(1))
			all := vectortest.Generate(r, n+queries, dim, vectortest.Shape{Clusters: tc.clusters, Latent: tc.latent})
			vecs := all[:n]
			exact := mustNew(t, dim, &vector.Options{ExactMax: -1})
			approx := mustNew(t, dim, &vector.Options{ExactMax: 1, Seed: 1})
			for i, vec := range vecs {
				id := fmt.Sprint(i)
				if err := exact.Put(id, vec); err != nil {
					t.Fatal(err)
				}
				if err := approx.Put(id, vec); err != nil {
					t.Fatal(err)
				}
			}
			if got := recallAt10(t, exact, approx, all[n:]); got < 0.95 {
				t.Errorf("recall@10 = %.3f, want >= 0.95", got)
			} else {
				t.Logf("recall@10 = %.3f", got)
			}
		})
	}
}

func recallAt10(t testing.TB, exact, approx *vector.Set, queries [][]float32) float64 {
	var hit, total int
	for _, q := range queries {
		want, err := exact.Search(q, 10, nil)
		if err != nil {
			t.Fatal(err)
		}
		got, err := approx.Search(q, 10, nil)
		if err != nil {
			t.Fatal(err)
		}
		hit += overlap(hitIDs(got), hitIDs(want))
		total += len(want)
	}
	return float64(hit) / float64(total)
}

// TestConcurrent is for the race detector: searches run while
// another goroutine sets and deletes across the graph threshold.
func TestConcurrent(t *testing.T) {
	const dim = 8
	v := mustNew(t, dim, &vector.Options{ExactMax: 50})
	r := rand.New(rand.NewSource(3))
	all := vectortest.Generate(r, 404, dim, vectortest.Shape{})
	vecs, queries := all[:400], all[400:]
	var wg sync.WaitGroup
	done := make(chan struct{})
	for _, q := range queries {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-done:
					return
				default:
				}
				if _, err := v.Search(q, 5, func(id string) bool { return id != "1" }); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	for i, vec := range vecs {
		if err := v.Put(fmt.Sprint(i%150), vec); err != nil {
			t.Error(err)
		}
		if i%4 == 0 {
			v.Delete(fmt.Sprint((i * 7) % 150))
		}
	}
	close(done)
	wg.Wait()
}
