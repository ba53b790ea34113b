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

// TestIndexPairAgrees holds both scans of a needle's two bytes, the
// vector one (indexPair, on amd64 with AVX2) and the words one
// (indexPairWords), to strings.Index on texts long enough for either:
// needles of common letters, placed at and across the edges of the
// vector scan's 32 places and in its tail.
func TestIndexPairAgrees(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	alphabet := "aeinrst .\n"
	for range 20000 {
		b := make([]byte, 64+rng.IntN(700))
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		nl := 2 + rng.IntN(11)
		needle := make([]byte, nl)
		for i := range needle {
			needle[i] = alphabet[rng.IntN(len(alphabet))]
		}
		if rng.IntN(2) == 0 { // placed: near an edge of 32, or at the end
			at := (1+rng.IntN(len(b)/32))*32 - rng.IntN(nl+2)
			if rng.IntN(4) == 0 {
				at = len(b) - nl - rng.IntN(3)
			}
			at = max(0, min(at, len(b)-nl))
			copy(b[at:], needle)
		}
		h, n := string(b), string(needle)
		f := New(n)
		if f.hi == 0 {
			continue
		}
		want := strings.Index(h, n)
		if got := f.indexPair(h); got != want {
			t.Fatalf("indexPair of %q in %q = %d, want %d", n, h, got, want)
		}
		if got := f.indexPairWords(h); got != want {
			t.Fatalf("indexPairWords of %q in %q = %d, want %d", n, h, got, want)
		}
	}
}

// BenchmarkIndexPair scans 1.5 MB of repeated words, in the cache, for
// needles of common letters that it does not hold, with the vector scan
// (indexPair) and the words one (indexPairWords); bytes/s are of the
// text.
func BenchmarkIndexPair(b *testing.B) {
	text := strings.Repeat("the reader writer closes file buffer newreader readall http.handler deadline parse token ", 1<<14)
	for _, needle := range []string{"encoder", "a int", "the rider"} {
		f := New(needle)
		for name, index := range map[string]func(string) int{"vector": f.indexPair, "words": f.indexPairWords} {
			b.Run(name+"/"+needle, func(b *testing.B) {
				b.SetBytes(int64(len(text)))
				for b.Loop() {
					index(text)
				}
			})
		}
	}
}
