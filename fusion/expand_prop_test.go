package fusion_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/twindex/twindex/fusion"
)

func TestExpandProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 2000 {
		checkExpand(t, rng)
	}
}

func FuzzExpand(f *testing.F) {
	f.Add(uint64(1), uint64(2))
	f.Add(uint64(7), uint64(0))
	f.Fuzz(func(t *testing.T, a, b uint64) {
		checkExpand(t, rand.New(rand.NewPCG(a, b)))
	})
}

// checkExpand runs Expand on a random graph and compares it with a brute
// force enumeration of every walk of at most Depth hops from every seed.
func checkExpand(t *testing.T, rng *rand.Rand) {
	t.Helper()
	types := []string{"", "contains", "imports", "mentions"}
	id := func() string { return strconv.Itoa(rng.IntN(12)) }
	var g graph
	for range rng.IntN(30) {
		g = append(g, fusion.Edge{From: id(), To: id(), Type: types[rng.IntN(len(types))]})
	}
	var in []fusion.Hit
	seen := map[string]bool{}
	for range rng.IntN(6) {
		if h := id(); !seen[h] {
			seen[h] = true
			in = append(in, fusion.Hit{ID: h, Score: float64(rng.IntN(5)) / 4})
		}
	}
	opts := fusion.ExpandOptions{
		Depth:      rng.IntN(4) - 1,
		Decay:      []float64{0, 0.5, 1, -1}[rng.IntN(4)],
		EdgeDecay:  map[string]float64{"contains": 0.9, "imports": []float64{0, 0.7}[rng.IntN(2)]},
		TopK:       rng.IntN(4),
		MinScore:   float64(rng.IntN(4)) / 4,
		MaxResults: rng.IntN(4) - 1,
	}
	if rng.IntN(2) == 0 {
		opts.SkipIncoming = []string{"mentions"}
	}
	got, err := fusion.Expand(in, g.neighbors(nil, rng.IntN(2) == 0), opts)
	if err != nil {
		t.Fatal(err)
	}
	want := bruteExpand(in, g, opts)

	own := map[string]float64{}
	for _, h := range in {
		own[h.ID] = h.Score
	}
	added := 0
	for i, h := range got {
		if i > 0 && (got[i-1].Score < h.Score || got[i-1].Score == h.Score && got[i-1].ID >= h.ID) {
			t.Fatalf("%v: out of order at %d: %s", opts, i, render(got))
		}
		w, reached := want[h.ID]
		o, isInput := own[h.ID]
		if !isInput {
			added++
		}
		switch {
		case h.Via == nil:
			if !isInput || h.Score != o || reached && w.score > o+1e-12 {
				t.Fatalf("%v: %s has no Via: got %s, best path %v", opts, h.ID, render(got), w)
			}
		default:
			if !reached || math.Abs(h.Score-w.score) > 1e-12 || h.Via.Hops != w.hops || isInput && h.Score <= o {
				t.Fatalf("%v: %s: got %s, best path %v", opts, h.ID, render(got), w)
			}
			if s := own[h.Via.Seed]; h.Score > s {
				t.Fatalf("%v: %s scores more than its seed %s: %s", opts, h.ID, h.Via.Seed, render(got))
			}
		}
	}
	if len(got)-added != len(in) {
		t.Fatalf("%v: input hits lost or repeated: %s", opts, render(got))
	}
	candidates := 0
	for id := range want {
		if _, ok := own[id]; !ok {
			candidates++
		}
	}
	wantAdded := candidates
	switch {
	case opts.MaxResults == 0:
		wantAdded = min(candidates, fusion.DefaultMaxResults)
	case opts.MaxResults > 0:
		wantAdded = min(candidates, opts.MaxResults)
	}
	if added != wantAdded {
		t.Fatalf("%v: added %d of %d candidates: %s", opts, added, candidates, render(got))
	}
	// The documents left out score no more than the least one added.
	least := math.Inf(1)
	kept := map[string]bool{}
	for _, h := range got {
		if _, ok := own[h.ID]; !ok {
			least = min(least, h.Score)
			kept[h.ID] = true
		}
	}
	for id, w := range want {
		if _, ok := own[id]; !ok && !kept[id] && w.score > least {
			t.Fatalf("%v: left out %s (%v) but kept one scoring %v: %s", opts, id, w.score, least, render(got))
		}
	}
}

type path struct {
	score float64
	hops  int
}

// bruteExpand returns the best (score, then fewest hops) path of 1 to Depth
// hops from any of the seeds to each document, among those at or above the
// MinScore floor.
func bruteExpand(in []fusion.Hit, g graph, opts fusion.ExpandOptions) map[string]path {
	depth := opts.Depth
	if depth == 0 {
		depth = fusion.DefaultDepth
	}
	topK := opts.TopK
	if topK <= 0 {
		topK = fusion.DefaultTopK
	}
	best := 0.0
	for _, h := range in {
		best = max(best, h.Score)
	}
	floor := opts.MinScore * best
	decay := func(typ string, incoming bool) float64 {
		if incoming && slices.Contains(opts.SkipIncoming, typ) {
			return 0
		}
		d, ok := opts.EdgeDecay[typ]
		if !ok {
			d = opts.Decay
			if d == 0 {
				d = fusion.DefaultDecay
			}
		}
		return max(min(d, 1), 0)
	}
	out := map[string]path{}
	var walk func(id string, score float64, hops int)
	walk = func(id string, score float64, hops int) {
		if hops >= depth {
			return
		}
		step := func(to, typ string, incoming bool) {
			s := score * decay(typ, incoming)
			if s <= 0 || s < floor {
				return
			}
			p := path{s, hops + 1}
			if q, ok := out[to]; !ok || p.score > q.score || p.score == q.score && p.hops < q.hops {
				out[to] = p
			}
			walk(to, s, hops+1)
		}
		for _, e := range g {
			if e.From == id {
				step(e.To, e.Type, false)
			}
			if e.To == id {
				step(e.From, e.Type, true)
			}
		}
	}
	for _, h := range in[:min(topK, len(in))] {
		if h.Score > 0 {
			walk(h.ID, h.Score, 0)
		}
	}
	return out
}

func BenchmarkExpand(b *testing.B) {
	const docs = 10_000
	rng := rand.New(rand.NewPCG(5, 6))
	out := make(map[string][]fusion.Edge, docs)
	in := make(map[string][]fusion.Edge, docs)
	for range 5 * docs {
		e := fusion.Edge{From: strconv.Itoa(rng.IntN(docs)), To: strconv.Itoa(rng.IntN(docs)), Type: "contains"}
		out[e.From] = append(out[e.From], e)
		in[e.To] = append(in[e.To], e)
	}
	nb := func(id string) ([]fusion.Edge, []fusion.Edge, error) { return out[id], in[id], nil }
	fused := make([]fusion.Hit, 100)
	for i := range fused {
		fused[i] = fusion.Hit{ID: strconv.Itoa(i), Score: 1 / float64(61+i)}
	}
	opts := fusion.ExpandOptions{Depth: 2, MinScore: 0.3}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := fusion.Expand(fused, nb, opts); err != nil {
			b.Fatal(err)
		}
	}
}
