package tokenize

import (
	"strings"
	"testing"

	"github.com/kljensen/snowball/english"
)

// BenchmarkStem measures what the stem cache saves on a realistic mix of
// repeated words.
func BenchmarkStem(b *testing.B) {
	words := strings.Fields("authentication connections running indexes parser handler request response " +
		"server listener timeout context function variable returned errors writer reader buffered")
	bs := make([][]byte, len(words))
	for i, w := range words {
		bs[i] = []byte(w)
	}
	b.Run("uncached", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			english.Stem(string(bs[i%len(bs)]), false)
		}
	})
	b.Run("cached", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			stemCache.stem(bs[i%len(bs)])
		}
	})
}

func TestStemCacheAgrees(t *testing.T) {
	for _, w := range []string{"authentication", "running", "connections", "being", "parses"} {
		if got, want := stemCache.stem([]byte(w)), english.Stem(w, false); got != want {
			t.Errorf("stem(%q) = %q, want %q", w, got, want)
		}
	}
}
