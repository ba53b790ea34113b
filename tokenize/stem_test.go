package tokenize

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/kljensen/snowball/english"

	"github.com/twindex/twindex/internal/goroot"
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

// Positions passes over a word unless one of its terms begins with the
// word's first letter and is no longer than the word: the English
// stemmer must keep the first letter and never lengthen a word. The
// words are Porter2's exceptions, words that meet its rules (y as a
// consonant, "ies", added "e", "biliti", "ization") and every word of
// some of the Go tree's packages.
func TestStemKeepsFirstLetter(t *testing.T) {
	words := strings.Fields(`skis skies dying lying tying idly gently ugly early only singly
		yelling yes ayes cries ties hoping hopping generously communism arsenal
		ability possibility sensitivity organization relational operator valency
		yyyy ies sses eeds eedly ingly`)
	if runtime.GOARCH == "wasm" {
		t.Skip("js/wasm and wasip1 cannot run go env; the native run of this test reads the Go tree")
	}
	dir, err := goroot.Dir()
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(dir, "src")
	for _, dir := range []string{"net/http", "go/types", "strings", "os"} {
		files, _ := filepath.Glob(filepath.Join(root, dir, "*.go"))
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			words = append(words, strings.FieldsFunc(strings.ToLower(string(b)), func(r rune) bool { return r < 'a' || r > 'z' })...)
		}
	}
	if len(words) < 10000 {
		t.Fatalf("%d words: is GOROOT (%s) there?", len(words), root)
	}
	for _, w := range words {
		if !stemmable([]byte(w)) {
			continue
		}
		if s := english.Stem(w, false); s == "" || s[0] != w[0] || len(s) > len(w) {
			t.Errorf("stem(%q) = %q", w, s)
		}
	}
}
