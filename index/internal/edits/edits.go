// Package edits counts the edits between two words, for fuzzy matching:
// the optimal string alignment distance in runes, where an insertion, a
// deletion, a substitution or a transposition of neighbours is one edit
// and no part of a word is edited twice ("ca" to "abc" is three edits,
// not two). The functions are pure and safe for concurrent use.
package edits

import "unicode/utf8"

// Auto is the edit distance a fuzzy word of n characters allows when its
// distance is chosen by its length (index.FuzzyAuto): none up to 2
// characters, 1 up to 5, 2 beyond.
func Auto(n int) int {
	switch {
	case n <= 2:
		return 0
	case n <= 5:
		return 1
	}
	return 2
}

// Distance is the optimal string alignment distance between a and b in
// runes, or limit+1 when it exceeds limit. Cost: O(len(a)*len(b)) time
// and three rows of O(len(b)) space, on the stack for a b of fewer than
// onStack runes (no allocation: a fuzzy walk calls it for every term it
// reaches); O(1) when the lengths differ by more than limit, and it stops
// at the first row whose every entry exceeds limit.
func Distance(a []rune, bs string, limit int) int {
	n := utf8.RuneCountInString(bs)
	if n-len(a) > limit || len(a)-n > limit {
		return limit + 1
	}
	// b's runes, and three rows of the dynamic programme: two back for
	// transpositions.
	var runes [onStack]rune
	var rows [3][onStack]int
	b, prev2, prev, cur := runes[:0], rows[0][:], rows[1][:], rows[2][:]
	if n >= onStack {
		b, prev2, prev, cur = make([]rune, 0, n), make([]int, n+1), make([]int, n+1), make([]int, n+1)
	}
	for _, r := range bs {
		b = append(b, r)
	}
	prev2, prev, cur = prev2[:n+1], prev[:n+1], cur[:n+1]
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			v := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				v = min(v, prev2[j-2]+1)
			}
			cur[j] = v
			rowMin = min(rowMin, v)
		}
		if rowMin > limit {
			return limit + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return min(prev[len(b)], limit+1)
}

// onStack bounds the terms whose distance needs no allocation.
const onStack = 32
