package find

import (
	"math/rand/v2"
	"strings"
	"testing"
)

func TestFinderAgreesWithIndex(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	alphabet := "abcz .\n日"
	for range 20000 {
		var hay, needle strings.Builder
		for range rng.IntN(400) {
			hay.WriteByte(alphabet[rng.IntN(len(alphabet))])
		}
		for range 1 + rng.IntN(6) {
			needle.WriteByte(alphabet[rng.IntN(len(alphabet))])
		}
		h, n := hay.String(), needle.String()
		if rng.IntN(3) == 0 && len(h) > 10 {
			n = h[3:min(len(h), 3+1+rng.IntN(7))] // a needle that occurs
		}
		if got, want := New(n).Index(h), strings.Index(h, n); got != want {
			t.Fatalf("New(%q).Index(%q) = %v, want %v", n, h, got, want)
		}
	}
}

func FuzzFinder(f *testing.F) {
	f.Add("return value of the function", "urn")
	f.Add("zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz", "zza")
	f.Add(strings.Repeat("ab", 100)+"abz", "abz")
	// Needles of common letters only, in texts long enough for the
	// two bytes' words.
	f.Add(strings.Repeat("a int ", 20)+"not int or", "not int or")
	f.Add(strings.Repeat("print(point) ", 9)+"a int", "a int")
	f.Fuzz(func(t *testing.T, hay, needle string) {
		if got, want := New(needle).Index(hay), strings.Index(hay, needle); got != want {
			t.Fatalf("New(%q).Index(%q) = %v, want %v", needle, hay, got, want)
		}
	})
}
