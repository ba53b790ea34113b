package tokenize_test

import (
	"reflect"
	"slices"
	"testing"

	"github.com/twindex/twindex/tokenize"
)

func TestTrigram(t *testing.T) {
	tests := []struct {
		name  string
		input string
		want  []string // term@position[start:end]
	}{
		{"empty", "", nil},
		{"too short", "ab", nil},
		{"too short after folding", "a\u0301b\u0301", nil},
		{"exactly three", "Abc", []string{"abc@1[0:3]"}},
		{"crosses spaces", "OAuth flow", []string{
			"oau@1[0:3]", "aut@2[1:4]", "uth@3[2:5]", "th @4[3:6]", "h f@5[4:7]",
			" fl@6[5:8]", "flo@7[6:9]", "low@8[7:10]"}},
		{"precomposed diacritics", "Über", []string{"ube@1[0:4]", "ber@2[2:5]"}},
		{"decomposed diacritic joins its base", "e\u0301te", []string{"ete@1[0:5]"}},
		{"trailing mark included", "abc\u0301", []string{"abc@1[0:5]"}},
		{"sharp s", "ßa", nil},
		{"invalid byte is one rune", "a\xffb", []string{"a\ufffdb@1[0:3]"}},
		{"cjk", "東京都", []string{"東京都@1[0:9]"}},
	}
	tri := tokenize.NewTrigram()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := tri.Analyze([]byte(tt.input))
			got := tokenStrings(ts)
			if len(got) == 0 {
				got = nil
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Analyze(%q)\n got  %q\n want %q", tt.input, got, tt.want)
			}
			checkTrigramStream(t, []byte(tt.input), ts)
			checkFrequencies(t, tri, []byte(tt.input))
		})
	}
}

func TestTrigramFrequencies(t *testing.T) {
	tri := tokenize.NewTrigram()
	got, n := tri.Frequencies([]byte("ABab abAB"))
	if n != 7 {
		t.Errorf("tokens = %d, want 7", n)
	}
	want := map[string]int{"aba": 2, "bab": 2, "ab ": 1, "b a": 1, " ab": 1}
	if len(got) != len(want) {
		t.Fatalf("%d distinct trigrams, want %d: %v", len(got), len(want), got)
	}
	for term, c := range want {
		if got[term] == nil || got[term].Frequency() != c {
			t.Errorf("frequency of %q = %v, want %d", term, got[term], c)
		}
	}
	checkFrequencies(t, tri, []byte("long ASCII text, Mixed Case, repeated: abcabcabcabc"))
	checkFrequencies(t, tri, []byte("mostly ASCII but one Café"))
}

// TestTrigramOffsets checks on longer texts that every gram's input span
// folds to its term.
func TestTrigramOffsets(t *testing.T) {
	tests := []struct {
		name  string
		input string
	}{
		{"ascii", "func (srv *Server) ListenAndServe() error {"},
		{"latin", "Straße Über ÉCOLE café Ångström naïve"},
		{"mixed scripts", "Привет Ελληνικά مرحبا 東京 한국어 👩‍💻"},
		{"combining marks", "a\u0301\u0302\u0303b c\u0327"},
		{"invalid utf8", "ab\xff\xfecd\xc3"},
	}
	tri := tokenize.NewTrigram()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := []byte(tt.input)
			checkTrigramStream(t, in, tri.Analyze(in))
		})
	}
}

func TestTrigramContains(t *testing.T) {
	tri := tokenize.NewTrigram()
	var terms []string
	for _, tok := range tri.Analyze([]byte("OAuth flow")) {
		terms = append(terms, string(tok.Term))
	}
	for _, want := range []string{"h f", " fl"} {
		if !slices.Contains(terms, want) {
			t.Errorf("grams of %q lack %q: %q", "OAuth flow", want, terms)
		}
	}
}

func TestGrams(t *testing.T) {
	tests := []struct {
		name  string
		input string
		want  []string
	}{
		{"empty", "", nil},
		{"short", "ab", nil},
		{"folded", "ÉCOle", []string{"eco", "col", "ole"}},
		{"distinct in first-occurrence order", "aaaa aaaa", []string{"aaa", "aa ", "a a", " aa"}},
		{"substring", "h fl", []string{"h f", " fl"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tokenize.Grams(tt.input); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Grams(%q) = %q, want %q", tt.input, got, tt.want)
			}
		})
	}
}
