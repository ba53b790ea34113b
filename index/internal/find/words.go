package find

import (
	"slices"
	"strings"
	"unicode"
)

// Words is a text with where its words start (a word is a run of
// letters and digits), for a NEAR group's distances in words.
type Words struct {
	text   string
	starts []int
}

// NewWords is text's words. Cost: a pass over text.
func NewWords(text string) *Words { return &Words{text, wordStarts(text)} }

// Occurrences returns the first max occurrences of needle in the text,
// overlapping ones included, each as the numbers of the words it starts
// and ends in (1 for the first word; an occurrence outside a word counts
// in the word before it). Cost: a search per occurrence.
func (w *Words) Occurrences(needle string, max int) [][2]int {
	var out [][2]int
	for i, k := 0, 0; k < max; k++ {
		j := strings.Index(w.text[i:], needle)
		if j < 0 {
			break
		}
		at := i + j
		out = append(out, [2]int{wordIndex(w.starts, at), wordIndex(w.starts, at+len(needle)-1)})
		i = at + 1
	}
	return out
}

// wordStarts returns the byte offsets where words (runs of letters and
// digits) start in text.
func wordStarts(text string) []int {
	var out []int
	inWord := false
	for i, r := range text {
		w := unicode.IsLetter(r) || unicode.IsDigit(r)
		if w && !inWord {
			out = append(out, i)
		}
		inWord = w
	}
	return out
}

// wordIndex is the number of the word at byte offset at: 1 for the first.
func wordIndex(starts []int, at int) int {
	i, found := slices.BinarySearch(starts, at)
	if found {
		return i + 1
	}
	return max(i, 1)
}
