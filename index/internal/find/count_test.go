package find

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestCountAgreesWithStringsCount checks the word-at-a-time counts
// directly, as native builds of Count do not use them.
func TestCountAgreesWithStringsCount(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	alphabet := "abz \x00\x7f\x80\xff日"
	for range 20000 {
		var hay strings.Builder
		for range rng.IntN(40) {
			hay.WriteByte(alphabet[rng.IntN(len(alphabet))])
		}
		h := hay.String()
		a, b := alphabet[rng.IntN(len(alphabet))], alphabet[rng.IntN(len(alphabet))]
		if got, want := countByte(h, a), strings.Count(h, string([]byte{a})); got != want {
			t.Fatalf("countByte(%q, %q) = %d, want %d", h, a, got, want)
		}
		if a == b {
			continue // strings.Count does not count overlapping pairs
		}
		if got, want := countPair(h, a, b), strings.Count(h, string([]byte{a, b})); got != want {
			t.Fatalf("countPair(%q, %q, %q) = %d, want %d", h, a, b, got, want)
		}
		if got, want := Count(h, string([]byte{a, b})), strings.Count(h, string([]byte{a, b})); got != want {
			t.Fatalf("Count(%q, %q) = %d, want %d", h, []byte{a, b}, got, want)
		}
	}
}

func FuzzCount(f *testing.F) {
	f.Add("the error of errors", "er")
	f.Add("aaaaaaaaaaaaaaaaa", "aa")
	f.Add("\x80\x80\x00\x00\xff\x7f\x01\x80\x80", "\x80")
	f.Fuzz(func(t *testing.T, hay, needle string) {
		want := strings.Count(hay, needle)
		if got := Count(hay, needle); got != want {
			t.Fatalf("Count(%q, %q) = %d, want %d", hay, needle, got, want)
		}
		switch {
		case len(needle) == 1:
			if got := countByte(hay, needle[0]); got != want {
				t.Fatalf("countByte(%q, %q) = %d, want %d", hay, needle, got, want)
			}
		case len(needle) == 2 && needle[0] != needle[1]:
			if got := countPair(hay, needle[0], needle[1]); got != want {
				t.Fatalf("countPair(%q, %q) = %d, want %d", hay, needle, got, want)
			}
		}
	})
}
