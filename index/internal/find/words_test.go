package find

import (
	"slices"
	"testing"
)

func TestWordsOccurrences(t *testing.T) {
	for _, tc := range []struct {
		name, text, needle string
		max                int
		want               [][2]int
	}{
		{"words", "read the file, then read it", "read", 10, [][2]int{{1, 1}, {5, 5}}},
		{"across words", "read the file", "d the f", 10, [][2]int{{1, 3}}},
		{"inside a word", "xreadx", "read", 10, [][2]int{{1, 1}}},
		{"overlapping", "aaaa", "aa", 10, [][2]int{{1, 1}, {1, 1}, {1, 1}}},
		{"at most max", "a a a a", "a", 2, [][2]int{{1, 1}, {2, 2}}},
		{"between words counts in the one before", "one, two", ", ", 10, [][2]int{{1, 1}}},
		{"absent", "read", "write", 10, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := NewWords(tc.text).Occurrences(tc.needle, tc.max)
			if !slices.Equal(got, tc.want) {
				t.Errorf("Occurrences(%q in %q) = %v, want %v", tc.needle, tc.text, got, tc.want)
			}
		})
	}
}
