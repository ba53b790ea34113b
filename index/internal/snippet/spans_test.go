package snippet

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortSpansTotal checks that sorting and merging spans gives the same
// spans whatever order they come in, spans of the same bytes with
// different keys included (probes that two terms share): a window's
// keys, hence the snippet, must not depend on it.
func TestSortSpansTotal(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	var spans []span
	for range 300 {
		start := rng.IntN(2000)
		spans = append(spans, span{start, start + 3, rng.IntN(4)}, span{start, start + 3, rng.IntN(4)})
	}
	want := sortSpans(slices.Clone(spans))
	for range 20 {
		shuffled := slices.Clone(spans)
		rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		if got := sortSpans(shuffled); !slices.Equal(got, want) {
			t.Fatalf("the merged spans depend on their order: %v against %v", got[:10], want[:10])
		}
	}
}
