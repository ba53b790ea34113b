package find_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/twindex/twindex/index/internal/find"
)

// benchText is about 1 MiB of lower-case words and identifiers, as the
// substring leg's folded texts are.
var benchText = func() string {
	words := strings.Fields("the reader writer closes file buffer newreader readall http.handler " +
		"deadline parse token scanner mutex unmarshal json of a to in is returns err nil")
	r := rand.New(rand.NewPCG(1, 2))
	var b strings.Builder
	for b.Len() < 1<<20 {
		b.WriteString(words[r.IntN(len(words))])
		b.WriteByte(' ')
	}
	return b.String()
}()

// BenchmarkCount counts needles of one byte, two bytes (the js/wasm
// paths) and more in benchText; bytes/s are of the text.
func BenchmarkCount(b *testing.B) {
	for _, needle := range []string{"x", "er", "read"} {
		b.Run(needle, func(b *testing.B) {
			b.SetBytes(int64(len(benchText)))
			for b.Loop() {
				find.Count(benchText, needle)
			}
		})
	}
}

// BenchmarkFinder looks for a needle that benchText does not hold, so
// that Index scans the whole text.
func BenchmarkFinder(b *testing.B) {
	f := find.New("encoder")
	b.SetBytes(int64(len(benchText)))
	for b.Loop() {
		f.Index(benchText)
	}
}
