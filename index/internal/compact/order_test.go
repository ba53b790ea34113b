package compact

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"testing"
)

// dictionaryOrder orders terms as bytes.Compare does: terms of every
// length from 0 to 12 bytes, zero bytes and shared prefixes of seven
// bytes and more among them, where the sort keys alone cannot tell.
func TestDictionaryOrder(t *testing.T) {
	check := func(t *testing.T, terms [][]byte) {
		t.Helper()
		var b blob
		for _, term := range terms {
			b.add(term)
		}
		got := dictionaryOrder(&b)
		want := make([]uint32, len(terms))
		for i := range want {
			want[i] = uint32(i)
		}
		slices.SortFunc(want, func(x, y uint32) int { return bytes.Compare(terms[x], terms[y]) })
		if !slices.Equal(got, want) {
			t.Fatalf("order %v, want %v for %q", got, want, terms)
		}
	}
	check(t, [][]byte{{}, []byte("ab"), []byte("ab\x00"), {0}, []byte("ab\x00c"), []byte("abcdefg"), []byte("abcdefgh"),
		[]byte("abcdefg\x00"), []byte("abcdefgzz"), []byte("abcdefga"), []byte("\xff\xff"), []byte("a")})
	seen := map[string]bool{}
	var terms [][]byte
	rng := rand.New(rand.NewPCG(3, 4))
	for len(terms) < 3000 {
		term := []byte("prefix7")[:rng.IntN(8)]
		for range rng.IntN(6) {
			term = append(term, "\x00az\xff"[rng.IntN(4)])
		}
		if !seen[string(term)] {
			seen[string(term)] = true
			terms = append(terms, term)
		}
	}
	check(t, terms)
}
