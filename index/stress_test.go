package index_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/twindex/twindex/index"
)

// yield lets other goroutines run: js/wasm runs them on one thread without
// preemption, and searches, which never wait for writes, would otherwise
// keep the timer that ends the test from firing.
func yield() { runtime.Gosched() }

// TestStress runs 16 searchers (every mode, random filters and pages)
// against one writer that upserts new documents and removes old ones.
// Each search must succeed and be self-consistent: a page holds
// min(limit, total-offset) hits, and no hit is a document whose removal
// had returned before the search began. TWINDEX_STRESS sets the duration
// (default 3s; `CGO_ENABLED=1 go test -race -run TestStress ./index`
// adds the race detector).
func TestStress(t *testing.T) {
	if testing.Short() {
		t.Skip("stress")
	}
	d := 3 * time.Second
	if v := os.Getenv("TWINDEX_STRESS"); v != "" {
		var err error
		if d, err = time.ParseDuration(v); err != nil {
			t.Fatal(err)
		}
	}
	words := []string{"alpha", "beta", "gamma", "delta", "parser", "reader", "writer", "cache"}
	doc := func(n int) index.Doc {
		return index.Doc{
			ID: fmt.Sprintf("d%06d", n), Kind: []string{"code", "doc", "test"}[n%3], Project: []string{"a", "b"}[n%2],
			Title: words[n%len(words)], Body: fmt.Sprintf("%s %s number %d", words[(n*3)%len(words)], words[(n*5)%len(words)], n),
			Parent: fmt.Sprintf("p%d", n%4), Time: day(1 + n%28),
		}
	}
	backends(t, func(t *testing.T, ix *index.Index) {
		var removedAt sync.Map // id -> time.Time when Remove returned
		var next atomic.Int64
		for i := range 200 {
			mustUpsert(t, ix, doc(i))
		}
		next.Store(200)
		stop := make(chan struct{})
		var wg sync.WaitGroup
		var searches, writes atomic.Int64
		var maxApply atomic.Value
		maxApply.Store(time.Duration(0))
		wg.Go(func() { // the writer
			rng := rand.New(rand.NewPCG(1, 1))
			for {
				select {
				case <-stop:
					return
				default:
				}
				n := int(next.Load())
				var b index.Batch
				for k := range 5 {
					b.Upsert(doc(n + k))
				}
				victims := []string{}
				for range 3 {
					victims = append(victims, fmt.Sprintf("d%06d", rng.IntN(n)))
				}
				b.Remove(victims...)
				t0 := time.Now()
				_, err := ix.Apply(ctx, &b)
				if dt := time.Since(t0); dt > maxApply.Load().(time.Duration) {
					maxApply.Store(dt)
				}
				if err != nil {
					t.Error(err)
					return
				}
				now := time.Now()
				for _, v := range victims {
					removedAt.LoadOrStore(v, now)
				}
				next.Store(int64(n + 5))
				writes.Add(1)
				yield()
			}
		})
		latencies := make([][]time.Duration, 16) // per searcher
		for g := range 16 {
			wg.Go(func() {
				rng := rand.New(rand.NewPCG(uint64(g), 2))
				modes := []index.Mode{index.ModeAuto, index.ModeSubstring, index.ModeText}
				for {
					select {
					case <-stop:
						return
					default:
					}
					req := index.Request{Query: words[rng.IntN(len(words))], Mode: modes[rng.IntN(3)], Limit: 1 + rng.IntN(20), Offset: rng.IntN(40)}
					switch rng.IntN(4) {
					case 0:
						req.Kinds = []string{"code"}
					case 1:
						req.Under = "p1"
					case 2:
						req.Since = day(10)
					}
					began := time.Now()
					r, err := ix.Search(ctx, req)
					latencies[g] = append(latencies[g], time.Since(began))
					if err != nil {
						t.Error(err)
						return
					}
					if want := min(req.Limit, max(0, r.Total-req.Offset)); len(r.Hits) != want {
						t.Errorf("%+v: %d hits of total %d", req, len(r.Hits), r.Total)
					}
					for _, h := range r.Hits {
						if at, ok := removedAt.Load(h.ID); ok && at.(time.Time).Before(began) {
							t.Errorf("hit %s was removed before the search began", h.ID)
						}
					}
					searches.Add(1)
					yield()
				}
			})
		}
		time.Sleep(d)
		close(stop)
		wg.Wait()
		all := slices.Sorted(slices.Values(slices.Concat(latencies...)))
		t.Logf("%v: %d searches (%.0f/s, p50 %v, p99 %v), %d write batches, slowest write %v", d, searches.Load(),
			float64(searches.Load())/d.Seconds(), all[len(all)/2], all[len(all)*99/100], writes.Load(), maxApply.Load())
		if rep, err := ix.Check(ctx); err != nil || !rep.OK() {
			t.Errorf("Check after stress: %v\n%s", err, rep)
		}
	})
}
