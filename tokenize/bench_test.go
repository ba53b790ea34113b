package tokenize_test

import (
	"os"
	"path/filepath"
	"testing"

	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/twindex/twindex/internal/goroot"
	"github.com/twindex/twindex/tokenize"
)

// benchSize is the size of the benchmark text: a typical source file.
const benchSize = 20 << 10

// benchInput returns about 20 KB of Go source from the standard library.
func benchInput(b *testing.B) []byte {
	b.Helper()
	dir, err := goroot.Dir()
	if err != nil {
		b.Skipf("no Go toolchain to take source from: %v", err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "src", "net", "http", "server.go"))
	if err != nil {
		b.Skipf("no Go source to benchmark on: %v", err)
	}
	return data[:min(len(data), benchSize)]
}

func BenchmarkText(b *testing.B) {
	in := benchInput(b)
	text := tokenize.NewText()
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		text.Analyze(in)
	}
}

// BenchmarkTextFrequencies is what indexing a document's words costs the
// analyzer.
func BenchmarkTextFrequencies(b *testing.B) {
	in := benchInput(b)
	text := tokenize.NewText()
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		text.Frequencies(in)
	}
}

// BenchmarkTextCount is BenchmarkTextFrequencies with the words as
// written that the index keeps for fuzzy matching.
func BenchmarkTextCount(b *testing.B) {
	in := benchInput(b)
	text := tokenize.NewText()
	b.Run("words", func(b *testing.B) {
		b.SetBytes(int64(len(in)))
		b.ReportAllocs()
		for b.Loop() {
			text.Count(in, bleveindex.TokenFrequencies{}, nil)
		}
	})
	// pairs adds what a write keeps for phrases: the adjacent pairs.
	b.Run("pairs", func(b *testing.B) {
		b.SetBytes(int64(len(in)))
		b.ReportAllocs()
		for b.Loop() {
			var adj tokenize.Adjacent
			text.Count(in, bleveindex.TokenFrequencies{}, &adj)
			adj.Pairs()
		}
	})
}

// BenchmarkTextPositions is what judging a phrase of common words costs a
// document that holds them: the positions of three terms.
func BenchmarkTextPositions(b *testing.B) {
	in := benchInput(b)
	text := tokenize.NewText()
	terms := []string{"for", "rang", "v"}
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		text.Positions(in, terms)
	}
}

// BenchmarkTextCountLangs is BenchmarkTextCount in every language, on the
// same text: what a language's stop words and stemmer cost.
func BenchmarkTextCountLangs(b *testing.B) {
	in := benchInput(b)
	for _, code := range tokenize.Langs() {
		text, _ := tokenize.NewTextLang(code)
		b.Run(code, func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			b.ReportAllocs()
			for b.Loop() {
				text.Count(in, bleveindex.TokenFrequencies{}, nil)
			}
		})
	}
}

func BenchmarkTrigram(b *testing.B) {
	in := benchInput(b)
	tri := tokenize.NewTrigram()
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		tri.Analyze(in)
	}
}

// BenchmarkTrigramFrequencies is what indexing a document's trigrams
// costs the analyzer.
// The latin input has a few accented words, which is enough to leave the
// all-ASCII path.
func BenchmarkTrigramFrequencies(b *testing.B) {
	in := benchInput(b)
	tri := tokenize.NewTrigram()
	for _, tc := range []struct {
		name string
		in   []byte
	}{
		{"ascii", in},
		{"latin", []byte(string(in[:len(in)/2]) + "Ångström café naïve Straße Über ÉCOLE " + string(in[len(in)/2:]))},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.SetBytes(int64(len(tc.in)))
			b.ReportAllocs()
			for b.Loop() {
				tri.Frequencies(tc.in)
			}
		})
		b.Run(tc.name+"/visit", func(b *testing.B) {
			b.SetBytes(int64(len(tc.in)))
			b.ReportAllocs()
			for b.Loop() {
				tri.VisitFrequencies(tc.in, func([]byte, int) {})
			}
		})
	}
}

func BenchmarkFold(b *testing.B) {
	in := benchInput(b)
	tests := []struct {
		name string
		s    string
	}{
		{"ascii", string(in)},
		{"latin", string(in[:len(in)/2]) + "Ångström café naïve Straße Über ÉCOLE " + string(in[len(in)/2:])},
	}
	for _, tt := range tests {
		b.Run(tt.name, func(b *testing.B) {
			b.SetBytes(int64(len(tt.s)))
			b.ReportAllocs()
			for b.Loop() {
				tokenize.Fold(tt.s)
			}
		})
	}
}
