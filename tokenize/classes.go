// The scanner's classes of runes: word, CJK or separator, and case.

package tokenize

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// decodeAt decodes the rune at in[i:]; an invalid byte decodes as
// utf8.RuneError of size 1, which is a separator.
func decodeAt(in string, i int) (rune, int) {
	if c := in[i]; c < utf8.RuneSelf {
		return rune(c), 1
	}
	return utf8.DecodeRuneInString(in[i:])
}

func isConnector(c byte) bool { return c == '_' || c == '-' || c == '.' }

// hyphenated reports whether a run joins its words with a hyphen.
func hyphenated(run string) bool { return strings.IndexByte(run, '-') >= 0 }

type wordKind uint8

const (
	wcSep wordKind = iota
	wcWord
	wcCJK
)

const (
	acLetter = 1 << iota
	acDigit
	acUpper
)

var asciiClass = func() (t [utf8.RuneSelf]uint8) {
	for c := 'a'; c <= 'z'; c++ {
		t[c] = acLetter
		t[c-'a'+'A'] = acLetter | acUpper
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = acDigit
	}
	return t
}()

func wordClass(r rune) wordKind {
	if r < utf8.RuneSelf {
		if asciiClass[r]&(acLetter|acDigit) != 0 {
			return wcWord
		}
		return wcSep
	}
	if r == utf8.RuneError {
		return wcSep
	}
	if unicode.IsLetter(r) {
		if isCJK(r) {
			return wcCJK
		}
		return wcWord
	}
	if unicode.IsDigit(r) {
		return wcWord
	}
	return wcSep
}

// isCJK reports the scripts written without spaces between words that get
// unigrams and bigrams: Han, Hiragana, Katakana, and Hangul.
func isCJK(r rune) bool {
	if r < 0x1100 {
		return false
	}
	if isCJKIdeographRange(r) {
		return true
	}
	return r == 0x30FC || // katakana-hiragana prolonged sound mark (script Common)
		unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul)
}

func isMark(r rune) bool {
	return r >= 0x300 && unicode.IsMark(r)
}

type caseKind uint8

const (
	caseNone  caseKind = iota
	caseLower          // lower case, and letters of scripts without case
	caseUpper          // upper and title case
	caseDigit
	caseMark
	caseMixed // wordEnd: a connector or a rune outside ASCII
)

var asciiCase = func() (t [utf8.RuneSelf]caseKind) {
	for c := range t {
		switch {
		case asciiClass[c]&acDigit != 0:
			t[c] = caseDigit
		case asciiClass[c]&acUpper != 0:
			t[c] = caseUpper
		default:
			t[c] = caseLower
		}
	}
	return t
}()

func caseClass(r rune) caseKind {
	if r < utf8.RuneSelf {
		return asciiCase[r]
	}
	switch {
	case unicode.IsUpper(r) || unicode.IsTitle(r):
		return caseUpper
	case unicode.IsDigit(r):
		return caseDigit
	case isMark(r):
		return caseMark
	}
	return caseLower
}
