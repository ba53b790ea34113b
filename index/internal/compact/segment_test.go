package compact

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"testing"
)

// searchFrom finds what a scan from i finds, for every i of random sorted
// blobs: the answer at i, past i, at the end, and i at the end.
func TestSearchFrom(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	for range 2000 {
		var b blob
		var strs []string
		for range r.IntN(40) {
			strs = append(strs, string(rune('a'+r.IntN(6)))+string(rune('a'+r.IntN(6))))
		}
		slices.Sort(strs)
		strs = slices.Compact(strs)
		for _, x := range strs {
			b.add([]byte(x))
		}
		s := []byte(string(rune('a'+r.IntN(7))) + string(rune('a'+r.IntN(7))))
		for i := 0; i <= b.len(); i++ {
			want := i
			for want < b.len() && bytes.Compare(b.at(want), s) < 0 {
				want++
			}
			if got := b.searchFrom(i, s); got != want {
				t.Fatalf("%q: searchFrom(%d, %q) = %d, want %d", strs, i, s, got, want)
			}
		}
	}
}
