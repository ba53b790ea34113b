package snippet

import (
	"unicode"
	"unicode/utf8"
)

// runePrefix is the byte length of the first n runes of s.
func runePrefix(s string, n int) int {
	i := 0
	for ; n > 0 && i < len(s); n-- {
		_, k := utf8.DecodeRuneInString(s[i:])
		i += k
	}
	return i
}

// wordAround returns the run of non-space characters of text around byte
// i, at most maxWord bytes each way.
func wordAround(text string, i int) (start, end int) {
	const maxWord = 256
	start, end = i, i
	for start > 0 && i-start < maxWord {
		r, n := utf8.DecodeLastRuneInString(text[:start])
		if unicode.IsSpace(r) {
			break
		}
		start -= n
	}
	for end < len(text) && end-i < maxWord {
		r, n := utf8.DecodeRuneInString(text[end:])
		if unicode.IsSpace(r) {
			break
		}
		end += n
	}
	return start, end
}

// wordBoundary moves i to a rune boundary and, within a short reach, to
// the nearest space so that the window does not cut words: backwards for
// the window's start, forwards for its end.
func wordBoundary(text string, i int, forward bool) int {
	for i > 0 && i < len(text) && !utf8.RuneStart(text[i]) {
		i--
	}
	if i <= 0 || i >= len(text) {
		return i
	}
	for k := 0; k < reach; k++ {
		j := i - k
		if forward {
			j = i + k
		}
		if j <= 0 || j >= len(text) {
			break
		}
		if text[j] == ' ' || text[j] == '\n' || text[j] == '\t' {
			if forward {
				return j
			}
			return j + 1
		}
	}
	return i
}

// partStart reports whether byte i of text can begin an analyzed term: it
// follows a non-letter, or starts a camelCase part or a letter/digit run.
func partStart(text string, i int) bool {
	if i == 0 {
		return true
	}
	prev, _ := utf8.DecodeLastRuneInString(text[:i])
	r, n := utf8.DecodeRuneInString(text[i:])
	switch {
	case !unicode.IsLetter(prev) && !unicode.IsDigit(prev):
		return true
	case unicode.IsUpper(r) && !unicode.IsUpper(prev):
		return true
	case unicode.IsUpper(r) && unicode.IsUpper(prev):
		// XMLParser: "Parser" starts where an upper is followed by a lower.
		next, _ := utf8.DecodeRuneInString(text[i+n:])
		return unicode.IsLower(next)
	}
	return unicode.IsDigit(r) != unicode.IsDigit(prev)
}
