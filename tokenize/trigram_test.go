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
		{"one rune", "A", []string{"a@1[0:1]"}},
		{"two runes", "aB", []string{"a@1[0:1]", "ab@2[0:2]", "b@3[1:2]"}},
		{"nothing left after folding", "\u0301\u0302", nil},
		{"two runes after folding", "a\u0301b\u0301", []string{"a@1[0:3]", "ab@2[0:6]", "b@3[3:6]"}},
		{"exactly three", "Abc", []string{"a@1[0:1]", "ab@2[0:2]", "abc@3[0:3]", "b@4[1:2]", "bc@5[1:3]", "c@6[2:3]"}},
		{"crosses spaces", "h fl", []string{
			"h@1[0:1]", "h @2[0:2]", "h f@3[0:3]", " @4[1:2]", " f@5[1:3]", " fl@6[1:4]",
			"f@7[2:3]", "fl@8[2:4]", "l@9[3:4]"}},
		{"precomposed diacritics", "Übe", []string{"u@1[0:2]", "ub@2[0:3]", "ube@3[0:4]", "b@4[2:3]", "be@5[2:4]", "e@6[3:4]"}},
		{"decomposed diacritic joins its base", "e\u0301t", []string{"e@1[0:3]", "et@2[0:4]", "t@3[3:4]"}},
		{"trailing mark included", "ab\u0301", []string{"a@1[0:1]", "ab@2[0:4]", "b@3[1:4]"}},
		{"sharp s", "ßa", []string{"ß@1[0:2]", "ßa@2[0:3]", "a@3[2:3]"}},
		{"invalid byte is one rune", "a\xffb", []string{"a@1[0:1]", "a\ufffd@2[0:2]", "a\ufffdb@3[0:3]", "\ufffd@4[1:2]", "\ufffdb@5[1:3]", "b@6[2:3]"}},
		{"cjk", "東京都", []string{"東@1[0:3]", "東京@2[0:6]", "東京都@3[0:9]", "京@4[3:6]", "京都@5[3:9]", "都@6[6:9]"}},
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
	if n != 9+8+7 {
		t.Errorf("tokens = %d, want 24", n)
	}
	want := map[string]int{
		"aba": 2, "bab": 2, "ab ": 1, "b a": 1, " ab": 1,
		"ab": 4, "ba": 2, "b ": 1, " a": 1,
		"a": 4, "b": 4, " ": 1,
	}
	if len(got) != len(want) {
		t.Fatalf("%d distinct grams, want %d: %v", len(got), len(want), got)
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
		{"one rune", "É", []string{"e"}},
		{"two runes", "aB", []string{"ab"}},
		{"marks only", "\u0301", nil},
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
