package tokenize

import (
	"slices"
	"unicode"
	"unicode/utf8"

	"github.com/kljensen/snowball/french"
	"github.com/kljensen/snowball/hungarian"
	"github.com/kljensen/snowball/norwegian"
	"github.com/kljensen/snowball/russian"
	"github.com/kljensen/snowball/spanish"
	"github.com/kljensen/snowball/swedish"
)

// English is the language of the Text of NewText and NewTextLang("").
const English = "en"

// language is what Text does differently per language: its stop words
// and its stemmer.
type language struct {
	code string
	// stop reports whether a lowercased word is a stop word; nil for
	// English, whose own short list (stopWords) applies to folded words.
	stop func(string) bool
	// memo stems a lowercased word and folds the stem; nil for English,
	// whose stemmer reads folded words (stemCache) in textScanner.emit.
	memo *stemMemo
}

// languages are the Snowball stemmers of github.com/kljensen/snowball
// v0.10.0, by ISO 639-1 code, English first.
var languages = []*language{
	{code: English},
	foreign("es", spanish.Stem, spanish.IsStopWord),
	foreign("fr", french.Stem, french.IsStopWord),
	foreign("hu", hungarian.Stem, hungarian.IsStopWord),
	foreign("no", norwegian.Stem, norwegian.IsStopWord),
	foreign("ru", russian.Stem, russian.IsStopWord),
	foreign("sv", swedish.Stem, swedish.IsStopWord),
}

// foreign returns a language of Snowball's stem and stop functions. Its
// memo holds the folded stem, or "" where folding leaves nothing or too
// long a term (term then keeps the folded word).
func foreign(code string, stem func(string, bool) string, stop func(string) bool) *language {
	return &language{code: code, stop: stop, memo: newStemCache(func(w string) string {
		folded, ok := appendFold(nil, stem(w, false), MaxTermLen)
		if !ok {
			return ""
		}
		return string(folded)
	})}
}

// Langs returns the codes of the languages whose words Text stems,
// English first: those github.com/kljensen/snowball v0.10.0 has.
func Langs() []string {
	out := make([]string, len(languages))
	for i, l := range languages {
		out[i] = l.code
	}
	return out
}

// NewTextLang returns the text analyzer of a language of Langs ("" is
// English), and false for any other code.
func NewTextLang(code string) (*Text, bool) {
	if code == "" {
		code = English
	}
	i := slices.IndexFunc(languages, func(l *language) bool { return l.code == code })
	if i < 0 {
		return nil, false
	}
	return &Text{lang: languages[i]}, true
}

// Lang returns the code of the language t stems.
func (t *Text) Lang() string { return t.language().code }

func (t *Text) language() *language {
	if t == nil || t.lang == nil {
		return languages[0]
	}
	return t.lang
}

// term returns the term of a word of a language other than English,
// given folded and lowercased, or "" for a stop word, and whether the
// stemmer made it. The stemmer reads the lowercased word, whose accents
// and letters its rules need (Russian's "й", French's "é"), and the stem
// is folded, so that a query matches whatever accents it is typed with
// wherever the stemmer does not depend on them. Words of digits or
// separators, of fewer than three letters, and CJK are their folded
// spelling.
func (l *language) term(folded []byte, lower string, kind tokenKind) (string, bool) {
	if kind == kindWord && l.stop(lower) {
		return "", false
	}
	if kind == kindCJK || utf8.RuneCount(folded) < 3 || !lettersOnly(folded) {
		return bytesString(folded), false
	}
	if t := l.memo.stemString(lower); t != "" {
		return t, true
	}
	return bytesString(folded), false
}

func lettersOnly(b []byte) bool {
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if !unicode.IsLetter(r) {
			return false
		}
		i += size
	}
	return true
}
